// The Rust front end (.rs): one tree-sitter parse (tree-sitter-rust 0.24.0, built
// by cmake/tree_sitter.cmake) and one walk (extract/common/ts_front_end.h) that
// finds every place a Rust program shows an error:
//
//   panic     panic!/unreachable!/todo!/unimplemented! (class "panic"), and
//             .expect(msg) with a message that has literal text
//   assert    assert!/debug_assert!(cond, fmt...), assert_eq!/assert_ne!(a, b, fmt...)
//             with a message (class "panic": an assertion failure panics)
//   raise     anyhow!/bail!/ensure!/eyre!/format_err!, .context(msg)/.with_context(|| msg)
//             /.wrap_err(msg) (class "Error", anyhow's type); `Err(E::V(...))`,
//             `Err(E::V{...})`, `Err(E::V)` (class: the variant V), `Err(format!(...))` /
//             `Err("..".to_string())` (class "String"); and every construction
//             E::V(...)/E::V{...} of a thiserror enum defined in the same file (or, given
//             a workspace table, anywhere in the workspace: rust_error_types.h), whose
//             #[error("...")] template is composed with the constructor's arguments; each
//             #[error("...")] attribute is a site too (the variant or struct is the class)
//   log       tracing/log error!/warn! (logLevel "error"/"warning"): the message is the
//             first lone string literal after the key/value fields
//   http_response  axum/actix `(StatusCode::X, msg)` tuples with a 4xx/5xx code
//             (httpStatus, errorCode X), tonic `Status::x(msg)` / `Status::new(Code::X, msg)`
//             (class: the gRPC code, errorCode the constructor as written)
//
// Messages follow format! (`{}` `{:?}` `{0}` `{name}` `{name:>8}` `{{ }}`; captured
// identifiers and named arguments; `{:?}` of a literal prints it quoted), concat!,
// string literals (escapes, `\`-newline continuations, raw r#"…"#) and
// "…".to_string()/.into()/String::from("…"). Macros inside other macros' token trees
// (tokio::select!, vec![], json!) are found too: tree-sitter leaves those as tokens.
//
// Context: Site.function is Type.method (impl and trait names, functions), guards
// are the enclosing if/while conditions, `not (…)` for else branches, `let P = v`
// conditions, match arms as `v matches P`, and let-else as `not (let P = v)`.
// Test code (#[test], #[cfg(test)] modules, tests/ and benches/ paths) is inTests.
//
// Thread-safe; never fails on bad input (syntax errors give a diagnostic and the
// sites of what parsed). A file that spells none of the forms above is not
// parsed (no sites, no diagnostic): the parse is most of the front end's time.
// Tested by rust_extractor_test.cc and tests/diff/rust_oracle
// (the syn crate's parse of the same files).
#pragma once

#include <string_view>

#include <vector>

#include "extract/common/ts_front_end.h"
#include "extract/rust/rust_error_types.h"

namespace errdex {

// `workspace`: the thiserror types of every file of the scan (may be null: then
// only this file's types compose construction messages).
TsExtractResult ExtractRust(std::string_view path, std::string_view text, const TsExtractOptions& options = {},
                            const rust::ErrorTypeTable* workspace = nullptr);

// The thiserror types a file declares (`file` set, crate not), for the table.
std::vector<rust::ErrorType> CollectRustErrorTypes(std::string_view path, std::string_view text,
                                                   const TsExtractOptions& options = {});

}  // namespace errdex
