// document/: fills the prose fields of a Record (documentation, triggerScenarios,
// solutions, ...) from facts found in the code, deterministically and offline.
// Knowledge about the whole repository (argparse flags, dataclass argument fields,
// environment variables) is collected per file in parallel, then merged.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/record.h"
#include "model/site.h"

namespace errdex {

// What one file teaches about the repository (settings, env vars, ...).
// Opaque to callers; produced on any thread.
struct FileKnowledge;
struct FileKnowledgeDeleter { void operator()(FileKnowledge*) const; };
using FileKnowledgePtr = std::unique_ptr<FileKnowledge, FileKnowledgeDeleter>;
FileKnowledgePtr CollectFileKnowledge(std::string_view path, std::string_view text);

// The merged knowledge of a repository. Immutable after Build; thread-safe to read.
class RepoKnowledge {
 public:
  static std::unique_ptr<RepoKnowledge> Build(std::vector<FileKnowledgePtr> files);
  virtual ~RepoKnowledge() = default;
  // JSON, so it can be kept in the catalog and `errdex document` can re-run later.
  virtual std::string Serialize() const = 0;
  static std::unique_ptr<RepoKnowledge> Deserialize(std::string_view json);
};

// Fills every prose field of `record` that applies (others stay null) from the
// site's facts, the file's text and the repository's knowledge.
// Thread-safe (pure given its inputs).
void DocumentRecord(const Site& site, std::string_view file_text, const RepoKnowledge& repo,
                    Record* record);

}  // namespace errdex
