// scan/unit_key: what names a file's unit in a catalog, and what decides that a
// stored unit can stand for the file again.
//
// A unit's key is a hash of everything a file's records are a function of,
// besides the commit: this build's pipeline (its sources' fingerprint), the
// repository, the file's path and blob id, the scan's limits, whether prose is
// written, and, for C/C++ files, the repository's #define table. Its variant is
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
// digest of the #define table for C-family files ("" otherwise).
std::string UnitKeyOf(const KeyConfig& config, std::string_view path, std::string_view blob_id,
                      std::string_view cpp_table);
// The key of a file that could not be read (no blob id): path and reason.
std::string UnreadableKeyOf(const KeyConfig& config, std::string_view path, std::string_view why);

// A digest of the repository's #define table: the files, their #includes and
// the definitions (not their line numbers, which no output depends on).
std::string CppTableDigest(const std::vector<std::pair<std::string, cpp::LexResult>>& files);

// The union of some records' consulted entries, as bytes (sorted, unique) and back.
std::string EncodeDeps(const std::vector<std::pair<std::string, std::string>>& used);
DocDeps DecodeDeps(std::string_view bytes);
// The variant of a unit at `path` whose prose consulted `deps`, under `knowledge`.
uint64_t DepsVariant(const RepoKnowledge& knowledge, const DocDeps& deps, std::string_view path);
// The variant of a unit without prose (scan --no-docs).
inline constexpr uint64_t kNoDocsVariant = 1;

}  // namespace errdex
