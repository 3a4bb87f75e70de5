// The JavaScript / TypeScript front end (see js_extractor.h): one bounded
// tree-sitter parse per file (extract/common/ts_front_end.h, TsParse), then one
// walk of the tree (js_walker.h) that turns throw statements and a few
// well-known calls into Sites. Tested by js_extractor_test.cc.
#include "extract/javascript/js_extractor.h"

#include <string>
#include <utility>

#ifdef ERRDEX_HAVE_TREE_SITTER
#include "extract/javascript/js_grammar.h"
#include "extract/javascript/js_walker.h"
#endif

namespace errdex {

JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript) {
  return ExtractJavaScript(path, text, typescript, JsExtractOptions{});
}

#ifndef ERRDEX_HAVE_TREE_SITTER

JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript,
                                  const JsExtractOptions& options) {
  JsExtractResult result;
  result.failed = true;
  result.diagnostics.push_back(Diagnostic{
      std::string(path), 0, 0,
      std::string(typescript ? "TypeScript" : "JavaScript") +
          " grammar not built: run scripts/fetch-third-party.sh and reconfigure"});
  return result;
}

#else  // ERRDEX_HAVE_TREE_SITTER

JsExtractResult ExtractJavaScript(std::string_view path, std::string_view text, bool typescript,
                                  const JsExtractOptions& options) {
  JsExtractResult result;
  const TSLanguage* lang = js::JsLanguage(path, typescript);
  // "JavaScript" names the front end in the diagnostics, TypeScript included.
  TsTree tree = TsParse(lang, "JavaScript", path, text, options, result);
  if (!tree) return result;
  js::Walker walker(path, text, typescript, lang, options);
  walker.Run(ts_tree_root_node(tree.get()));
  if (walker.syntax_errors > 0) {
    result.diagnostics.push_back(Diagnostic{
        std::string(path), static_cast<int>(walker.first_error.row) + 1, static_cast<int>(walker.first_error.column),
        "syntax error (" + std::to_string(walker.syntax_errors) +
            " unparsed or missing region(s)); sites in them may be missing"});
  }
  result.sites = std::move(walker.sites);
  result.sites_left_out = walker.sites_left_out;
  return result;
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace errdex
