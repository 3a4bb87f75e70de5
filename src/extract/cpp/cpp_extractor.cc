// The C/C++ front end's entry points (see cpp_extractor.h): which paths it
// takes, the repository's macro table, and ExtractCpp, which lexes a file,
// expands its wrapper macros and runs the walk (cpp_walker.h) over the result.
#include "extract/cpp/cpp_extractor.h"

#include <algorithm>
#include <string>

#include "extract/cpp/cpp_lexer.h"
#include "extract/cpp/cpp_walker.h"

namespace errdex {

using cpp::Token;
using cpp::Walker;

bool IsCppPath(std::string_view path) {
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return false;
  std::string_view ext = path.substr(dot);
  for (std::string_view e : {".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".cu", ".cuh",
                             ".inl", ".ipp", ".tcc"})
    if (ext == e) return true;
  return false;
}

std::shared_ptr<const cpp::MacroTable> BuildCppMacroTable(std::vector<std::pair<std::string, cpp::LexResult>> files) {
  auto table = std::make_shared<cpp::MacroTable>();
  for (auto& [path, scanned] : files) table->AddFile(std::move(path), std::move(scanned));
  table->Finish();
  return table;
}

CppExtractResult ExtractCpp(std::string_view path, std::string_view text, const cpp::MacroTable* repo,
                            const ExtractLimits& limits) {
  CppExtractResult result;
  if (text.size() > kCppMaxFileBytes) {
    result.failed = true;
    result.diagnostics.push_back({std::string(path), 0, 0,
                                  "file too large for the C/C++ front end (" + std::to_string(text.size()) +
                                      " bytes > " + std::to_string(kCppMaxFileBytes) + ")"});
    return result;
  }
  if (text.find('\0') != std::string_view::npos && text.find('\0') < 8192) {
    return result;  // binary
  }
  cpp::LexResult lexed = cpp::Lex(path, text);
  cpp::MacroTable local;
  local.Add(std::move(lexed.macros));
  local.Finish(repo);
  cpp::Expander expander(path, &local, repo, lexed.includes);
  std::vector<Token> tokens = expander.Expand(lexed.tokens);
  Walker walker(path, text, tokens, expander, limits);
  walker.Run();
  std::stable_sort(walker.sites.begin(), walker.sites.end(), [](const Site& a, const Site& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  // A block argument a dispatch macro pastes into each of its cases, or a
  // wrapper expanded inside another's copies, is one site written once: the
  // walker kept the first of identical sites at one place (Walker::Add).
  result.sites = std::move(walker.sites);
  result.sites_left_out = walker.sites_left_out;
  if (result.sites.size() > limits.max_sites) {  // the first ones in the file are kept
    result.sites_left_out += result.sites.size() - limits.max_sites;
    result.sites.resize(limits.max_sites);
  }
  return result;
}

}  // namespace errdex
