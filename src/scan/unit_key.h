// scan/unit_key: what names a file's unit in a catalog, and what decides that a
// stored unit can stand for the file again.
//
// A unit's key is a hash of everything a file's records are a function of,
// besides the commit: this build's pipeline (its sources' fingerprint), the
// repository, the file's path and blob id, the scan's limits, whether prose is
// written, for C/C++ files the repository's #define table (what of it the file
// can reach), and for Python files the exception-class message templates its
// raises can bind to (scan/py_classes.h: defined in other files too). Its variant is
// the hash of the repository-wide knowledge its prose consulted (the DocDeps
// of each record, with the file's own class bases): an unchanged file whose
// consulted knowledge is unchanged is reused as stored; one whose knowledge
// changed is documented again.
//
// Thread-safe (pure functions).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "document/documenter.h"
#include "extract/common/limits.h"
#include "extract/cpp/cpp_lexer.h"

namespace errdex {

struct KeyConfig {
  std::string repo;
  ExtractLimits limits;
  uint64_t max_file_size = 0;
  bool document = true;
};

// This build's fingerprint (hex).
std::string_view PipelineFingerprint();

// 16 bytes. `blob_id`: the git blob id of the file's bytes; `cpp_table`: the
// digest of what the file depends on elsewhere in the repository -- the #define
// table for C-family files, the class templates for Python files ("" for none).
std::string UnitKeyOf(const KeyConfig& config, std::string_view path, std::string_view blob_id,
                      std::string_view cpp_table);
// The key of a file that could not be read (no blob id): path and reason.
std::string UnreadableKeyOf(const KeyConfig& config, std::string_view path, std::string_view why);

// The identifier-like words of a file (comments and strings too: a superset
// only costs a needless rescan), sorted, each once -- what a file's dependency
// digests are taken over (CppDependencies::MacroDigest, PyClassDependencies).
// A number's letters are no name; `non_ascii_letters`: bytes >= 0x80 are
// letters too (Python 3 names; C/C++ keys were made without).
std::vector<std::string> SortedIdentifiers(std::string_view text, bool non_ascii_letters);

// What a C-family file's records depend on in the repository's #define table
// (the C/C++ front end expands wrapper macros defined anywhere): the
// definitions of every macro name the file's text mentions, and of every name
// their bodies mention, transitively (all definitions of a name: which one a
// file sees depends on where they are), and the file's include closure. A
// header edit that changes none of those leaves the file's unit valid.
class CppDependencies {
 public:
  // Indexes the definitions of every C-family file (path, LexDefines of it).
  explicit CppDependencies(const std::vector<std::pair<std::string, cpp::LexResult>>& files);
  // 16 bytes for a file mentioning `identifiers`: the definitions of the macros
  // among them, and of the macros those mention, transitively. Thread-safe.
  std::string MacroDigest(const std::vector<std::string_view>& identifiers) const;
  // 16 bytes for a file's include closure (MacroTable::IncludeClosure).
  static std::string IncludeDigest(const std::unordered_map<std::string_view, int>& visible);
  // The file's digest: both of the above.
  static std::string Digest(std::string_view macro_digest, std::string_view include_digest);

 private:
  struct Name {
    std::string name;
    std::string digest;              // of all its definitions (not their line numbers: no output uses them)
    std::vector<uint32_t> mentions;  // the defined names their bodies mention
  };
  uint32_t Find(std::string_view word) const;  // kNone when no macro has that name
  static constexpr uint32_t kNone = ~uint32_t{0};
  std::vector<Name> names_;  // sorted by name: ids sort as names do
  std::unordered_map<std::string_view, uint32_t> index_;
  std::vector<uint64_t> filter_;  // a bit per hash of each name: most words are no macro's
};

// The union of some records' consulted entries, as bytes (sorted, unique) and back.
std::string EncodeDeps(const std::vector<std::pair<std::string, std::string>>& used);
DocDeps DecodeDeps(std::string_view bytes);
// The variant of a unit at `path` whose prose consulted `deps`, under `knowledge`.
uint64_t DepsVariant(const RepoKnowledge& knowledge, const DocDeps& deps, std::string_view path);
// The variant of a unit without prose (scan --no-docs).
inline constexpr uint64_t kNoDocsVariant = 1;

}  // namespace errdex
