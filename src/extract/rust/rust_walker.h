// The Rust front end's walk over one file's tree (internal: rust_extractor.h is
// the interface). One class, RustWalker, implemented by concept:
//   rust_extractor.cc  the entry points, the words a file must spell to be parsed,
//                      and this file's thiserror types (CollectErrorTypes) with
//                      the lookup of a construction's variant (FindVariant);
//   rust_messages.cc   message text: token trees split into arguments, format!,
//                      concat!, string literals, .to_string()/String::from, and a
//                      thiserror template composed with a constructor's arguments;
//   rust_sites.cc      the sites: macros, Err(...), constructions, .expect/.context,
//                      tonic Status, axum status tuples, #[error] attributes, and
//                      the walk's guards, functions and test scopes (Enter).
// Macro arguments are token trees in tree-sitter-rust (as in rustc before
// expansion), so format strings and their arguments are read from tokens: a token
// tree's children are leaf tokens and nested token trees, split into arguments at
// its top-level commas. A RustWalker belongs to one thread and one file.
#pragma once

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "extract/common/message.h"
#include "extract/common/ts_front_end.h"
#include "extract/rust/rust_error_types.h"

namespace errdex::rust {

using msg::Segs;
using Tokens = std::vector<TSNode>;

inline bool Is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

inline bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

inline bool IsStringLiteral(TSNode n) { return Is(n, "string_literal") || Is(n, "raw_string_literal"); }

// The value of a Rust string literal as written: "…", r#"…"#, b"…", c"…".
std::string DecodeRustLiteral(std::string_view raw);

class RustWalker : public TsWalker {
 public:
  RustWalker(std::string_view path, std::string_view text, const TsExtractOptions& options,
             const rust::ErrorTypeTable* workspace = nullptr)
      : TsWalker(path, text, "rust", options), workspace_(workspace) {}

  // This file's thiserror types and `use` declarations.
  void CollectErrorTypes(TSNode root);
  std::vector<rust::ErrorType> TakeErrorTypes() { return std::move(types_); }

 protected:
  bool Enter(TSNode node, std::string_view field) override;

 private:
  // Evaluation.
  Segs EvalTokens(const Tokens& toks, int depth);
  Segs EvalExpr(TSNode e, int depth);
  // format!-like: the format is args[first], the rest its arguments.
  Segs EvalFormat(const std::vector<Tokens>& args, size_t first, int depth);
  std::vector<Tokens> SplitTokenTree(TSNode tt) const;
  std::string TokensText(const Tokens& toks) const;
  std::string TokensText(const std::vector<Tokens>& args, size_t from) const;

  // Sites.
  void HandleMacro(std::string_view name, TSNode tt, TSNode at, TSNode end);
  void HandleCall(TSNode call);
  void HandleErrArg(TSNode err_call, TSNode arg);
  void HandleConstruction(TSNode node, TSNode path, TSNode at);
  // What a construction's path names: an enum's variant `E::V` (kVariant: `type` E as
  // written, `variant` V, known or not), or a thiserror struct of this file or the
  // workspace -- `S`, `m::S`, `Self` in its impl (kStruct: `type` the path, `variant` S,
  // the key of a struct's one template).
  enum class Constructed { kNone, kVariant, kStruct };
  Constructed ConstructedName(TSNode path, std::string_view* type, std::string_view* variant) const;
  void HandleTuple(TSNode tuple);
  // A #[error("...")] attribute of `item` (an enum variant or a struct).
  void HandleErrorAttribute(TSNode attr_item, TSNode item);
  void SetMessage(Site& site, const Segs& segs, std::string expr);
  // The composed message of a construction E::V(args) / E::V{fields} (`type`: E's
  // path as written); nullopt when V is not a variant with a template in this file
  // or, with a workspace table, in the type the path resolves to.
  std::optional<Segs> Compose(std::string_view type, std::string_view variant, TSNode args_or_body, int depth);
  // The variant, transparent ones included (they are constructions too, without a message).
  const ErrorVariant* FindVariant(std::string_view type, std::string_view variant) const;
  bool HasAttribute(const std::vector<TSNode>& attrs, std::string_view needle) const;

  // The attribute items seen, per depth, since the last item at that depth: the
  // attributes of the next item (siblings: no O(n) prev_sibling walks).
  std::vector<std::vector<TSNode>> attrs_at_depth_;

  std::vector<rust::ErrorType> types_;                   // this file's, in order
  std::unordered_map<std::string, size_t> local_types_;  // name -> index in types_
  rust::UseMap uses_;
  std::unordered_set<std::string> declared_;             // every enum, struct and type alias of this file
  const rust::ErrorTypeTable* workspace_;
  // The type of the innermost enclosing impl (what Self names), or "".
  std::string_view SelfType() const;

  std::unordered_set<uintptr_t> consumed_;  // construction nodes already made a site by Err(...)
};

}  // namespace errdex::rust

#endif  // ERRDEX_HAVE_TREE_SITTER
