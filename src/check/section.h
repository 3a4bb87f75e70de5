// check/section: the "check" section of the catalog's knowledge blob
// (`knowledge:<repo>@<sha>`, docs/check.md): every file's FileProgram, the
// console scripts, and the flag table (the settings map's flags and
// environment variables, copied so check never parses the rest of the blob).
// The scanner builds it (BuildSection) and puts it first in the blob
// (WithCheckSection), so `errdex check` reads it without parsing the
// document stage's per-site contexts (ReadSection).
//
// Thread-safety: plain functions; a Section is immutable after ReadSection.
// Tested by section_test.cc and tests/check/.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/program.h"
#include "document/settings.h"
#include "model/status.h"

namespace errdex::check {

// Bump it whenever what a file's entry holds or how it is written changes
// (StoreFile, AppendStoredFile): an incremental scan copies entries from the
// previous scan's section (scan/previous_check.h) as long as the version is the
// same, and this file is not part of the units' pipeline fingerprint.
inline constexpr int kSectionVersion = 2;
inline constexpr size_t kMaxStoredFileBytes = 64u << 20;  // a larger stored source is refused on read

// What the scan gathered for check, before it is written: each file's source
// (zstd-compressed, base64) and its sites, and the console scripts. Program facts
// (program.h) are built from the source when a check first needs the file: a
// launch reaches a small part of a repository, and parsing every file at scan
// time cost more than the scan's own front end (docs/check.md, "Costs").
struct StoredFile {
  std::string path;
  std::string source;  // base64 of the zstd frame of the file's text
  std::vector<SiteRef> sites;
  std::string entry;   // when set: the file's entry as an earlier section wrote it
                       // (Section::Entry), written as is instead of the three above
};
StoredFile StoreFile(std::string_view path, std::string_view text, std::vector<SiteRef> sites);

struct CheckFacts {
  std::vector<StoredFile> files;                             // any order; written sorted by path
  std::vector<std::pair<std::string, std::string>> scripts;  // console scripts from packaging files
};

// The section's JSON object. `settings` may be null (no flag table).
std::string BuildSection(const CheckFacts& facts, const doc::SettingsData* settings);

// The knowledge blob with `"check":<section>` as its first member. An empty or
// malformed blob becomes {"check":<section>}.
std::string WithCheckSection(std::string_view knowledge_json, std::string_view section);

// The section read back. Files are decoded on first use (Get): reading a catalog
// of a large repository costs a scan of its bytes plus the files a check touches
// (the launch's import closure), not all of them.
// Thread-compatible: Get decodes lazily (one Section per thread).
class Section {
 public:
  struct File {
    std::string path;
    std::string module_body;
    std::vector<FunctionFacts> functions;
    std::vector<ClassFacts> classes;
    std::vector<ImportFacts> imports;
    std::vector<SiteRef> sites;
    std::vector<std::pair<int, std::string>> add_arguments;
    bool dynamic_import = false;
    bool subcommands = false;
  };
  std::vector<std::string> paths;  // every file, sorted
  std::vector<std::pair<std::string, std::string>> scripts;
  std::vector<doc::Flag> flags;
  std::vector<doc::EnvVar> envs;

  // The facts of file `i`, built from its stored source on first use (a malformed
  // entry gives a File with its path alone).
  const File& Get(int i) const;
  // The index of `path`, -1 when the section has no such file.
  int Find(std::string_view path) const;
  // File `i`'s entry as stored (a JSON object): a new section may copy it.
  std::string_view Entry(int i) const;
  size_t decoded() const;  // files decoded so far

 private:
  friend Result<Section> ReadSectionImpl(std::string_view blob, std::string* owned, bool files_only);
  std::string text_;                              // the files' JSON objects, back to back
  std::vector<std::pair<size_t, size_t>> ranges_;  // file i's object in text_
  mutable std::vector<std::unique_ptr<File>> cache_;
};

// kNotFound when the blob has no check section (a catalog scanned before
// `errdex check` existed, or with --no-docs); kParseError when it is malformed.
Result<Section> ReadSection(std::string_view knowledge_blob);
// The files alone (paths, Find, Entry, Get; scripts, flags and envs left
// empty), keeping `knowledge_blob` as the entries' text instead of copying
// them: what an incremental scan copies entries from (scan/previous_check.h).
Result<Section> ReadSectionFiles(std::string knowledge_blob);

}  // namespace errdex::check
