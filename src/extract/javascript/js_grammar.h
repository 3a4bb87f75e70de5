// What the JavaScript front end knows of the tree-sitter grammars it parses with
// (tree-sitter-javascript, and the typescript and tsx grammars of
// tree-sitter-typescript): which grammar a file takes, the field ids and node
// kinds the walker asks about (looked up once per grammar, not by name per node),
// and the small node helpers every part of the walker uses (Is, FirstNamed, Args,
// Unwrap). Thread-safe: the tables are immutable once built.
#pragma once

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace errdex::js {

// The grammar of a file: with `typescript`, TSX for a path ending in ".tsx" and
// TypeScript for any other; without it JavaScript (which accepts JSX).
const TSLanguage* JsLanguage(std::string_view path, bool typescript);

inline bool Is(TSNode n, const char* type) {
  return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0;
}

// The first named child that is not a comment; a null node for none.
TSNode FirstNamed(TSNode n);
// Positional arguments of an `arguments` node (comments skipped).
std::vector<TSNode> Args(TSNode args);
// Strips parentheses and TypeScript-only wrappers (x as T, x!, <T>x, x satisfies T).
TSNode Unwrap(TSNode n);

// Field ids of one grammar, looked up once per file (ts_node_child_by_field_name
// would look the name up on every call).
struct FieldIds {
  TSFieldId alternative = 0;
  TSFieldId arguments = 0;
  TSFieldId body = 0;
  TSFieldId condition = 0;
  TSFieldId consequence = 0;
  TSFieldId constructor = 0;
  TSFieldId function = 0;
  TSFieldId key = 0;
  TSFieldId left = 0;
  TSFieldId name = 0;
  TSFieldId object = 0;
  TSFieldId op = 0;
  TSFieldId parameter = 0;
  TSFieldId parameters = 0;
  TSFieldId pattern = 0;
  TSFieldId property = 0;
  TSFieldId right = 0;
  TSFieldId value = 0;
  explicit FieldIds(const TSLanguage* lang);
};

// What the walk needs to know of a node type, looked up by symbol (one array
// index per node instead of string compares).
enum class Kind : uint8_t {
  kOther,      // named, nothing special: descend
  kAnonymous,  // a token ("(", "if", ...): skip
  kLeaf,       // named but nothing inside can matter (strings, comments, numbers): skip
  kIf, kElse, kWhile, kSwitch, kSwitchCase, kSwitchDefault,
  kFunction, kClass, kCatch, kBlock,
  kThrow, kCall, kNew, kArguments,
  kDeclarator, kVarDeclaration, kAssignment, kAugmentedAssignment,
};

class KindTable {
 public:
  // The table of one of the three grammars (JsLanguage), built once (thread-safe
  // static init).
  static const KindTable& For(const TSLanguage* lang);
  Kind Of(TSNode n) const {
    TSSymbol sym = ts_node_symbol(n);
    if (sym < kinds_.size()) return kinds_[sym];
    return ts_node_is_named(n) ? Kind::kOther : Kind::kAnonymous;
  }

 private:
  explicit KindTable(const TSLanguage* lang);
  const TSLanguage* lang_;
  std::vector<Kind> kinds_;
};

}  // namespace errdex::js

#endif  // ERRDEX_HAVE_TREE_SITTER
