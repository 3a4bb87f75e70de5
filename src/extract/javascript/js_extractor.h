// The JavaScript / TypeScript front end: parses one file with tree-sitter (the
// pinned grammars built by cmake/tree_sitter.cmake) and finds every site where
// an error a user can see is produced:
//   raise          throw new X(msg) / throw X(msg) / throw "msg" / throw f(msg)
//                  (throw <catch parameter> is a rethrow, not a site)
//   log            console.error/warn(...), logger.error/warn/fatal(...)
//   http           new HttpException(msg, status), NestJS *Exception classes,
//                  createError(404, msg), ctx.throw(404, msg)
//   http_response  res.status(4xx/5xx).json({error: msg}) / .send(msg),
//                  NextResponse.json({error: msg}, {status: 4xx}), new Response(msg, {status})
// and rebuilds each message from string literals, template literals (each ${expr}
// a hole shown as {expr}), `+` concatenation, `c ? "a" : "b"` alternatives,
// util.format-style %s/%d/%j placeholders (console/logger arguments, util.format)
// and variables assigned a string earlier in scope (model/pattern.h gives the
// pattern form).
//
// Limits (JsExtractOptions): a file larger than max_file_bytes or whose parse
// uses more CPU time than its budget is not extracted (failed=true plus a diagnostic);
// syntax errors give a diagnostic and the sites of the parts that did parse.
// Invalid UTF-8 and NUL bytes are tolerated (bytes are kept as they are).
// Depth: the walk over the tree is iterative (a TSTreeCursor and a heap stack);
// message evaluation, destructuring patterns and object keys recurse only to a
// fixed depth, so no input nests deep enough to overflow the stack (tested by
// js_extractor_test.cc, JsBadInput.ThirtyThousandLevelsOfEveryShape).
//
// Without the fetched grammars (no ERRDEX_HAVE_TREE_SITTER) every call returns
// failed=true with a diagnostic saying the grammar was not built.
//
// Thread-safety: ExtractJavaScript may be called from any number of threads at
// once (each thread keeps its own tree-sitter parsers).
#pragma once

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"
#include "model/site.h"

namespace errdex {

struct JsExtractResult {
  std::vector<Site> sites;              // ordered by (line, column)
  std::vector<Diagnostic> diagnostics;  // syntax errors, limits hit; sites may still be partial
  bool failed = false;                  // nothing could be extracted (no grammar, too big, timeout)
};

struct JsExtractOptions {
  // Files above this size are skipped with a diagnostic (default 16 MiB).
  std::size_t max_file_bytes = std::size_t{16} << 20;
  // A parse using more CPU time than parse_timeout + parse_timeout_per_mib * (file
  // size in MiB) is cancelled (defaults 5 s + 5 s per MiB, CPU time of the calling
  // thread, so a busy machine does not cancel ordinary files): hostile input cannot
  // hang a scan. A normal file parses at several MB per second.
  std::chrono::milliseconds parse_timeout{5000};
  std::chrono::milliseconds parse_timeout_per_mib{5000};
  // At most this many guards per site, the innermost ones (default 64): a file of
  // thousands of nested ifs cannot make every site carry thousands of strings.
  std::size_t max_guards = 64;
  // Site.function keeps at most this many names, the innermost ones (default 32),
  // for the same reason.
  std::size_t max_name_parts = 32;
};

// `path` is the repo-relative path recorded in each Site; it also picks the
// grammar: with `typescript` a path ending in ".tsx" uses the TSX grammar, any
// other the TypeScript grammar; without it the JavaScript grammar (which
// accepts JSX) is used. `text` is the file's bytes.
// Site.language is "typescript" when `typescript`, else "javascript".
JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript);
JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript,
                                  const JsExtractOptions& options);

}  // namespace errdex
