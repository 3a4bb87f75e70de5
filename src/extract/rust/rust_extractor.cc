// The Rust front end (see rust_extractor.h; the walk's parts are listed in
// rust_walker.h): the entry points, the pre-parse filter, and this file's
// thiserror types.
#include "extract/rust/rust_extractor.h"

#include <optional>
#include <string>
#include <vector>

#ifdef ERRDEX_HAVE_TREE_SITTER
#include "extract/rust/rust_walker.h"

extern "C" const TSLanguage* tree_sitter_rust(void);
#endif

namespace errdex {

#ifndef ERRDEX_HAVE_TREE_SITTER

std::vector<rust::ErrorType> CollectRustErrorTypes(std::string_view, std::string_view, const TsExtractOptions&) {
  return {};
}

TsExtractResult ExtractRust(std::string_view path, std::string_view, const TsExtractOptions&,
                            const rust::ErrorTypeTable*) {
  TsExtractResult r;
  r.failed = true;
  r.diagnostics.push_back({std::string(path), 0, 0, "the Rust grammar was not built (scripts/fetch-third-party.sh)"});
  return r;
}

#else

namespace rust {

std::string_view RustWalker::SelfType() const {
  const std::vector<TSNode>& up = ancestors();
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    if (!Is(*it, "impl_item")) continue;
    TSNode t = ts_node_child_by_field_name(*it, "type", 4);
    if (Is(t, "generic_type")) t = ts_node_child_by_field_name(t, "type", 4);
    std::string_view name = Text(t);
    size_t colons = name.rfind("::");
    return colons == std::string_view::npos ? name : name.substr(colons + 2);
  }
  return {};
}

// ---------------------------------------------------------------------------
// thiserror types of this file.

void RustWalker::CollectErrorTypes(TSNode root) {
  // Items at the top level and in inline modules (nested to any depth, iteratively),
  // each list with the inline module path it is in.
  std::vector<std::pair<TSNode, std::string>> lists{{root, std::string()}};
  while (!lists.empty()) {
    auto [list, module] = lists.back();
    lists.pop_back();
    std::vector<TSNode> attrs;  // the attribute items before the next item
    for (TSNode item : NamedChildren(list)) {
      if (Is(item, "mod_item")) {
        TSNode body = ts_node_child_by_field_name(item, "body", 4);
        std::string name(Text(ts_node_child_by_field_name(item, "name", 4)));
        if (!ts_node_is_null(body)) lists.push_back({body, module.empty() ? name : module + "::" + name});
      }
      if (Is(item, "attribute_item")) {
        attrs.push_back(item);
        continue;
      }
      if (Is(item, "line_comment") || Is(item, "block_comment")) continue;
      // Uses of inline modules count as the file's: a name they bring in is
      // rarely another type of the same name in the same file.
      if (Is(item, "use_declaration")) rust::AddUseTree(Text(ts_node_child_by_field_name(item, "argument", 8)), &uses_);
      std::vector<TSNode> item_attrs = std::move(attrs);
      attrs.clear();
      bool is_enum = Is(item, "enum_item");
      bool is_struct = Is(item, "struct_item");
      if (is_enum || is_struct || Is(item, "type_item"))
        declared_.insert(std::string(Text(ts_node_child_by_field_name(item, "name", 4))));
      if (!is_enum && !is_struct) continue;
      rust::ErrorType type;
      type.file = std::string(path_);
      type.module = module;
      type.name = std::string(Text(ts_node_child_by_field_name(item, "name", 4)));
      auto read_attr = [&](TSNode attr_item, ErrorVariant& v) -> bool {
        TSNode attr = ts_node_named_child(attr_item, 0);
        if (!Is(attr, "attribute")) return false;
        TSNode id = ts_node_named_child(attr, 0);
        if (Text(id) != "error") return false;
        TSNode tt = ts_node_child_by_field_name(attr, "arguments", 9);
        if (!Is(tt, "token_tree")) return false;
        std::vector<Tokens> args = SplitTokenTree(tt);
        if (args.empty()) return false;
        if (args[0].size() == 1 && Text(args[0][0]) == "transparent") {
          v.transparent = true;
          return true;
        }
        if (args[0].size() != 1 || !IsStringLiteral(args[0][0])) return false;
        v.template_text = DecodeRustLiteral(Text(args[0][0]));
        for (size_t k = 1; k < args.size(); ++k) v.extra_args.push_back(TokensText(args[k]));
        return true;
      };
      if (is_struct) {
        for (TSNode p : item_attrs) {
          ErrorVariant v;
          if (read_attr(p, v)) type.variants[type.name] = std::move(v);
        }
      } else {
        TSNode body = ts_node_child_by_field_name(item, "body", 4);
        std::optional<ErrorVariant> attr;
        for (TSNode ch : NamedChildren(body)) {
          if (Is(ch, "attribute_item")) {
            ErrorVariant v;
            if (read_attr(ch, v)) attr = std::move(v);
          } else if (Is(ch, "enum_variant")) {
            if (attr) type.variants[std::string(Text(ts_node_child_by_field_name(ch, "name", 4)))] = std::move(*attr);
            attr.reset();
          }
        }
      }
      if (type.variants.empty()) continue;
      local_types_.emplace(type.name, types_.size());
      types_.push_back(std::move(type));
    }
  }
}

const ErrorVariant* RustWalker::FindVariant(std::string_view type, std::string_view variant) const {
  std::string path(type);
  if (type == "Self") path = std::string(SelfType());
  const bool qualified = path.find("::") != std::string::npos;
  size_t colons = path.rfind("::");
  std::string last = colons == std::string::npos ? path : path.substr(colons + 2);
  auto in = [&](const rust::ErrorType* t) -> const ErrorVariant* {
    if (!t) return nullptr;
    auto v = t->variants.find(std::string(variant));
    return v == t->variants.end() ? nullptr : &v->second;
  };
  auto local = [&]() -> const rust::ErrorType* {
    auto it = local_types_.find(last);
    return it == local_types_.end() ? nullptr : &types_[it->second];
  };
  // A bare name is this file's type when the file has one (it shadows any
  // import); a path is resolved first, then taken as this file's.
  if (!qualified) {
    if (const ErrorVariant* v = in(local())) return v;
    if (declared_.count(last)) return nullptr;  // a type of this file without templates
  }
  if (workspace_)
    if (const ErrorVariant* v = in(workspace_->Resolve(path_, path, uses_))) return v;
  return qualified ? in(local()) : nullptr;
}

}  // namespace rust

namespace {

// Can the file hold a site at all? Every form above is spelled with one of these words
// (a `Err (` with a space included); a third of a crate registry's bytes hold none, and
// the parse is most of the front end's time. Such a file is not parsed: it has no sites
// (and so no syntax-error diagnostic either).
bool MayHoldSites(std::string_view text) {
  if (ContainsAnyOf(text, {"panic!", "unreachable!", "todo!", "unimplemented!", "assert", "expect", "anyhow!", "bail!",
                           "ensure!", "eyre!", "format_err!", "context", "wrap_err", "#[error", "error!", "warn!", "Status",
                           "Code::"}))
    return true;
  for (size_t at = text.find("Err"); at != std::string_view::npos; at = text.find("Err", at + 3)) {
    size_t k = at + 3;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k < text.size() && text[k] == '(') return true;
  }
  return false;
}

}  // namespace

TsExtractResult ExtractRust(std::string_view path, std::string_view text, const TsExtractOptions& options,
                            const rust::ErrorTypeTable* workspace) {
  TsExtractResult result;
  // Constructions of a workspace type need no word of MayHoldSites (`E::V(x)`).
  if (!MayHoldSites(text) && !(workspace && workspace->MentionedIn(text))) return result;
  TsTree tree = TsParse(tree_sitter_rust(), "Rust", path, text, options, result);
  if (!tree) return result;
  rust::RustWalker walker(path, text, options, workspace);
  TSNode root = ts_tree_root_node(tree.get());
  walker.CollectErrorTypes(root);
  walker.Run(root);
  walker.TakeInto(result);
  return result;
}

std::vector<rust::ErrorType> CollectRustErrorTypes(std::string_view path, std::string_view text,
                                                   const TsExtractOptions& options) {
  std::vector<rust::ErrorType> types;
  if (text.find("#[error") != std::string_view::npos) {
    TsExtractResult ignored;
    TsTree tree = TsParse(tree_sitter_rust(), "Rust", path, text, options, ignored);
    if (tree) {
      rust::RustWalker walker(path, text, options);
      walker.CollectErrorTypes(ts_tree_root_node(tree.get()));
      types = walker.TakeErrorTypes();
    }
  }
  // `pub use errors::Error;` (lib.rs, mod.rs) names a type too; read without a parse.
  for (rust::ErrorType& r : rust::ReexportsIn(path, text)) types.push_back(std::move(r));
  return types;
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
