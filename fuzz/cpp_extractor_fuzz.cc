// Fuzz target: the C/C++/CUDA front end (extract/cpp: lexer, #define table,
// macro expansion, sink table, walk) on one file, alone and with a repository
// macro table built from the same file (as the scanner's pre-pass does). The
// first byte picks the extension (.cc, .h, .cu, .c).
#include "extract/cpp/cpp_extractor.h"
#include "extract/cpp/cpp_lexer.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/limits_check.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  static const char* const kPaths[] = {"src/a.cc", "include/a.h", "csrc/a.cu", "src/a.c"};
  const std::string path = kPaths[selector & 3];
  CppExtractResult r = ExtractCpp(path, text);
  for (const Site& s : r.sites)
    fuzz::Check(s.line >= 1 && static_cast<size_t>(s.line) <= fuzz::CountLines(text), "site line inside the file");
  if (selector & 4) {
    std::vector<std::pair<std::string, cpp::LexResult>> files;
    files.emplace_back(path, cpp::LexDefines(path, text));
    auto table = BuildCppMacroTable(std::move(files));
    CppExtractResult r2 = ExtractCpp(path, text, table.get());
    (void)r2;
  }
  return 0;
}
