// The JavaScript front end's view of its grammars (see js_grammar.h).
#include "extract/javascript/js_grammar.h"

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <utility>

extern "C" {
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_typescript(void);
const TSLanguage* tree_sitter_tsx(void);
}

namespace errdex::js {

const TSLanguage* JsLanguage(std::string_view path, bool typescript) {
  bool tsx = typescript && path.size() >= 4 && path.substr(path.size() - 4) == ".tsx";
  return typescript ? (tsx ? tree_sitter_tsx() : tree_sitter_typescript()) : tree_sitter_javascript();
}

TSNode FirstNamed(TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (!Is(c, "comment")) return c;
  }
  return TSNode{};
}

std::vector<TSNode> Args(TSNode args) {
  std::vector<TSNode> out;
  if (ts_node_is_null(args) || !Is(args, "arguments")) return out;
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(args, i);
    if (!Is(c, "comment")) out.push_back(c);
  }
  return out;
}

TSNode Unwrap(TSNode n) {
  for (int guard = 0; guard < 64 && !ts_node_is_null(n); ++guard) {
    if (Is(n, "parenthesized_expression") || Is(n, "as_expression") || Is(n, "non_null_expression") ||
        Is(n, "satisfies_expression")) {
      TSNode inner = FirstNamed(n);
      if (ts_node_is_null(inner)) return n;
      n = inner;
    } else if (Is(n, "type_assertion")) {
      uint32_t count = ts_node_named_child_count(n);
      if (count == 0) return n;
      n = ts_node_named_child(n, count - 1);
    } else {
      return n;
    }
  }
  return n;
}

FieldIds::FieldIds(const TSLanguage* lang) {
  auto id = [lang](const char* n) { return ts_language_field_id_for_name(lang, n, static_cast<uint32_t>(std::strlen(n))); };
  alternative = id("alternative");
  arguments = id("arguments");
  body = id("body");
  condition = id("condition");
  consequence = id("consequence");
  constructor = id("constructor");
  function = id("function");
  key = id("key");
  left = id("left");
  name = id("name");
  object = id("object");
  op = id("operator");
  parameter = id("parameter");
  parameters = id("parameters");
  pattern = id("pattern");
  property = id("property");
  right = id("right");
  value = id("value");
}

const KindTable& KindTable::For(const TSLanguage* lang) {
  static const KindTable js(tree_sitter_javascript());
  static const KindTable ts(tree_sitter_typescript());
  static const KindTable tsx(tree_sitter_tsx());
  return lang == tsx.lang_ ? tsx : lang == ts.lang_ ? ts : js;
}

KindTable::KindTable(const TSLanguage* lang) : lang_(lang) {
  static constexpr std::pair<const char*, Kind> kNames[] = {
      {"if_statement", Kind::kIf}, {"else_clause", Kind::kElse}, {"while_statement", Kind::kWhile},
      {"switch_statement", Kind::kSwitch}, {"switch_case", Kind::kSwitchCase},
      {"switch_default", Kind::kSwitchDefault},
      {"function_declaration", Kind::kFunction}, {"function_expression", Kind::kFunction},
      {"function", Kind::kFunction}, {"generator_function_declaration", Kind::kFunction},
      {"generator_function", Kind::kFunction}, {"arrow_function", Kind::kFunction},
      {"method_definition", Kind::kFunction},
      {"class_declaration", Kind::kClass}, {"class", Kind::kClass}, {"abstract_class_declaration", Kind::kClass},
      {"catch_clause", Kind::kCatch}, {"statement_block", Kind::kBlock},
      {"throw_statement", Kind::kThrow}, {"call_expression", Kind::kCall}, {"new_expression", Kind::kNew},
      {"arguments", Kind::kArguments},
      {"variable_declarator", Kind::kDeclarator}, {"variable_declaration", Kind::kVarDeclaration},
      {"assignment_expression", Kind::kAssignment},
      {"augmented_assignment_expression", Kind::kAugmentedAssignment},
      {"string", Kind::kLeaf}, {"comment", Kind::kLeaf}, {"number", Kind::kLeaf}, {"regex", Kind::kLeaf},
      {"html_comment", Kind::kLeaf},
  };
  uint32_t count = ts_language_symbol_count(lang);
  kinds_.assign(count, Kind::kAnonymous);
  for (uint32_t i = 0; i < count; ++i) {
    TSSymbol sym = static_cast<TSSymbol>(i);
    TSSymbolType type = ts_language_symbol_type(lang, sym);
    if (type != TSSymbolTypeRegular) continue;  // anonymous tokens, auxiliary and supertype symbols
    kinds_[i] = Kind::kOther;
    const char* name = ts_language_symbol_name(lang, sym);
    for (const auto& [n, k] : kNames)
      if (name && std::strcmp(name, n) == 0) kinds_[i] = k;
  }
}

}  // namespace errdex::js

#endif  // ERRDEX_HAVE_TREE_SITTER
