// document/: fills the prose fields of a Record (documentation, triggerScenarios,
// solutions, ...) from facts found in the code, deterministically and offline.
//
// The pipeline (docs/document.md):
//   1. per file, in parallel (CollectFileFacts): the file is tokenized once by the
//      front end's tokenizer; what it says about settings is collected
//      (settings.h) and, for each of its sites, the SiteContext around it is
//      gathered from a file index (file_index.h) -- cost per site independent of
//      the file's size;
//   2. RepoKnowledge::Build merges the files' knowledge (flags, env vars, config
//      fields, class bases) into one index;
//   3. DocumentRecord(site, context, knowledge) turns the facts (facts.h) into
//      each field (writers.h). `errdex document` runs step 3 again from the
//      stored facts, the stored SiteContext and the stored knowledge, so it
//      writes exactly what the scan wrote.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "document/site_context.h"
#include "extract/python/tokenizer.h"
#include "model/record.h"
#include "model/site.h"

namespace errdex {

// What one file teaches about the repository (settings, env vars, classes).
// Opaque to callers; produced on any thread.
struct FileKnowledge;
struct FileKnowledgeDeleter { void operator()(FileKnowledge*) const; };
using FileKnowledgePtr = std::unique_ptr<FileKnowledge, FileKnowledgeDeleter>;

// A file's knowledge and the context of each given site (same order).
struct FileFacts {
  FileKnowledgePtr knowledge;
  std::vector<SiteContext> contexts;
};
// `sites` are sites of this file (their guards name what to look up). Python
// files are tokenized once for both; other languages give empty knowledge and
// contexts with known = false. Never fails: bad input gives empty facts.
// `tokens`, when given, are the Python front end's tokens of `text` (one tokenization
// for both stages); they are consumed.
FileFacts CollectFileFacts(std::string_view path, std::string_view text, const std::vector<const Site*>& sites,
                           py::Tokens* tokens = nullptr);
FileKnowledgePtr CollectFileKnowledge(std::string_view path, std::string_view text);
// A file's knowledge as bytes and back, every field (file_knowledge_codec.cc), so a
// catalog keeps it with the file and a later scan builds the repository's
// knowledge without reading the file again. "" for a file that teaches nothing;
// unreadable bytes give a file that teaches nothing.
std::string SerializeFileKnowledge(const FileKnowledge& k);
FileKnowledgePtr DeserializeFileKnowledge(std::string_view path, std::string_view bytes);

// Which repository-knowledge entries a record's prose consulted: (kind, name)
// pairs, kind one of "flag", "field", "env", "class", hits and misses alike.
// A record's prose is a function of (Site, SiteContext, the current values of
// these entries): key cached prose by them (HashDeps) and an unchanged site
// with unchanged entries need not be documented again.
struct DocDeps {
  std::vector<std::pair<std::string, std::string>> used;  // sorted, unique after DocumentRecord
  void Add(std::string_view kind, std::string_view name);
};

// The merged knowledge of a repository. Immutable after Build; thread-safe to read.
class RepoKnowledge {
 public:
  static std::unique_ptr<RepoKnowledge> Build(std::vector<FileKnowledgePtr> files);
  virtual ~RepoKnowledge() = default;
  // JSON, so it can be kept in the catalog and `errdex document` can re-run later:
  // {"version":2,"settings":{...},"knowledge":{...},"sites":{"<record id>":{context}}}.
  virtual std::string Serialize(const std::vector<std::pair<std::string, const SiteContext*>>& sites = {}) const = 0;
  // The same from the sites' contexts already rendered by AppendSiteContexts (in
  // parallel, per file): chunks are joined in order.
  virtual std::string SerializeChunks(const std::vector<std::string>& site_chunks) const = 0;
  // `"<id>":{context},...` for the known contexts of `sites` (appended to `out`,
  // a ',' first when `out` is not empty). Thread-safe.
  static void AppendSiteContexts(std::string* out, const std::vector<std::pair<std::string, const SiteContext*>>& sites);
  // Unreadable JSON gives empty knowledge.
  static std::unique_ptr<RepoKnowledge> Deserialize(std::string_view json);
  // The context stored for a record id by Serialize (nullptr: none).
  virtual const SiteContext* StoredContext(std::string_view record_id) const = 0;
  // The settings map alone (docs/document.md "Settings map"): flags and env vars.
  virtual std::string SettingsJson() const = 0;
  // xxh64 over the current values of `deps`' entries (a miss hashes as a miss).
  virtual uint64_t HashDeps(const DocDeps& deps) const = 0;
};

// Fills every prose field of `record` that applies (others stay null) and the
// classification (errorType, severity, backgroundTag, handlingStrategy) from
// the site's facts, its context and the repository's knowledge. `deps`, when
// given, receives the knowledge entries consulted.
// Thread-safe (pure given its inputs). Time and output bounded per site.
void DocumentRecord(const Site& site, const SiteContext& context, const RepoKnowledge& repo, Record* record,
                    DocDeps* deps = nullptr);

// The facts the prose is written from, in the user's terms, as JSON for the
// language-model pass: {"conditions": [{"kind", "code", "user", "earlierBranch"}],
// "messageAdvice": [...], "messageAllowed": [...], "notes": [...], "backgroundTag"}.
// Kinds: flag, field, env, argument, request, tensor, state, missing-attribute,
// missing-module, hardware, version, type, shape, code. Thread-safe.
std::string DocumentFactsJson(const Site& site, const SiteContext& context, const RepoKnowledge& repo);

}  // namespace errdex
