// check/scan_hook: what the scanner calls so that `errdex check` finds its
// facts in the catalog: each Python file's source (compressed on the worker
// threads, one slot per file) and sites, the console scripts of packaging files,
// and at the end the knowledge blob with the "check" section first (section.h).
//
// Thread-safety: AddFile may be called concurrently for distinct slots;
// AddPackagingFile and Finish from one thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/program.h"
#include "check/section.h"
#include "model/record.h"

namespace errdex {
class RepoKnowledge;
}

namespace errdex::check {

class ScanHook {
 public:
  explicit ScanHook(size_t files) : files_(files) {}
  // A scanned file with its catalog lines (record ids, facts). Non-Python files are ignored.
  void AddFile(size_t slot, std::string_view path, std::string_view text, const std::vector<CatalogLine>& lines);
  // The same with the sites alone (a stored file: store/unit.h DecodeSiteRefs).
  void AddFile(size_t slot, std::string_view path, std::string_view text, std::vector<SiteRef> sites);
  // A file whose entry an earlier section holds for the same text and sites
  // (Section::Entry): copied, neither read nor compressed again.
  void AddEntry(size_t slot, std::string_view path, std::string_view entry);
  // pyproject.toml / setup.cfg (setup.py comes through AddFile).
  void AddPackagingFile(std::string_view path, std::string_view text);
  // `knowledge` (RepoKnowledge::Serialize) with the check section as its first member.
  std::string Finish(std::string_view knowledge, const RepoKnowledge* repo);
  // The check section alone (Finish is WithCheckSection of it), so that it can
  // be built while `repo` is serialized on another thread. Once, like Finish.
  std::string Section(const RepoKnowledge* repo);

 private:
  bool Takes(size_t slot, std::string_view path) const;
  std::vector<StoredFile> files_;
  std::vector<std::vector<std::pair<std::string, std::string>>> file_scripts_{files_.size()};
  std::vector<std::pair<std::string, std::string>> scripts_;
};

}  // namespace errdex::check
