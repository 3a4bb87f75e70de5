// The C/C++/CUDA front end (.c .cc .cpp .cxx .h .hh .hpp .hxx .cu .cuh ...): a
// purpose-built token-level extractor, not a grammar. Macro-heavy kernel code
// does not parse as C++ before preprocessing (tree-sitter-cuda leaves ERROR
// nodes in 28-38% of such files), and a full parse would cap the scan at
// ~4 MB/s; tokens are enough to find every error site and rebuild its message:
//
//  1. cpp_lexer: tokens, #define table, #if markers (#if 0 regions dropped);
//  2. cpp_macros: uses of the repository's wrapper macros expanded to the
//     sinks they reach (the file's own #defines first, then the repository's
//     table built by the scanner from every C-family file);
//  3. cpp_walker (cpp_walker.h names the file of each part): a walk over the
//     expanded tokens with a context stack (functions and classes,
//     if/else/while guards, catch clauses) and local data flow for
//     messages built in locals (std::string msg = ...; msg += ...;
//     std::ostringstream oss; oss << ...; FLASHINFER_ERROR(oss.str())), that
//     turns each sink (cpp_sinks: TORCH_CHECK family, tvm-ffi, glog, assert,
//     CPython, Abseil/TF, spdlog, fprintf(stderr)) and each `throw` into a
//     Site whose message follows the sink's rule: concatenation (c10::str,
//     StrCat), `<<` streams, printf and fmt `{}` formats, adjacent literals,
//     stringized conditions.
//
// Site.language is "c" for .c, "cuda" for .cu/.cuh, else "cpp". Never fails
// on bad input (binary, invalid UTF-8, unbalanced brackets): best-effort sites.
// Thread-safe (no shared mutable state; the repository table is read-only).
// Tested by cpp_extractor_test.cc and tests/diff/cpp_oracle.py (clang's AST).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"
#include "extract/common/limits.h"
#include "extract/cpp/cpp_macros.h"
#include "model/site.h"

namespace errdex {

struct CppExtractResult {
  std::vector<Site> sites;  // ordered by (line, column)
  std::vector<Diagnostic> diagnostics;
  bool failed = false;  // too large to extract
  size_t sites_left_out = 0;  // sites past limits.max_sites (the first ones are kept)
};

// True for the extensions this front end handles.
bool IsCppPath(std::string_view path);

// Files larger than this are not extracted (a diagnostic; generated tables).
inline constexpr size_t kCppMaxFileBytes = size_t{16} << 20;

// `repo` is the repository's macro table (may be null: only the file's own
// #defines are expanded). Each site is kept within `limits` as it is made.
CppExtractResult ExtractCpp(std::string_view path, std::string_view text, const cpp::MacroTable* repo = nullptr,
                            const ExtractLimits& limits = ExtractLimits{});

// The repository-wide table from every C-family file's (path,
// cpp::LexDefines(path, text)); the scans may run on any threads.
std::shared_ptr<const cpp::MacroTable> BuildCppMacroTable(std::vector<std::pair<std::string, cpp::LexResult>> files);

}  // namespace errdex
