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

#include <string_view>

#include "extract/common/ts_front_end.h"

namespace errdex {

// The options and result of the other tree-sitter front ends (parse budget,
// limits, max_name_parts): extract/common/ts_front_end.h.
using JsExtractOptions = TsExtractOptions;
using JsExtractResult = TsExtractResult;

// `path` is the repo-relative path recorded in each Site; it also picks the
// grammar: with `typescript` a path ending in ".tsx" uses the TSX grammar, any
// other the TypeScript grammar; without it the JavaScript grammar (which
// accepts JSX) is used. `text` is the file's bytes.
// Site.language is "typescript" when `typescript`, else "javascript".
JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript);
JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript,
                                  const JsExtractOptions& options);

}  // namespace errdex
