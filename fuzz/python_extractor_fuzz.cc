// Fuzz target: the Python front end (extract/python) on one file -- tokenizer,
// statement walk, expression parser, message evaluation -- then the record the
// scanner builds from each site, written as JSON and read back.
// Properties: sites within the limits (fuzz/limits_check.h); a record's JSON
// parses back to the same JSON.
#include "extract/python/python_extractor.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/limits_check.h"
#include "model/record.h"
#include "scan/scanner.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  ExtractLimits limits = fuzz::LimitsFor(selector);
  PythonExtractResult r = ExtractPython("pkg/mod.py", text, limits);
  fuzz::CheckSites(r.sites, limits, fuzz::CountLines(text));
  std::vector<std::string_view> lines = SplitSourceLines(text);
  for (const Site& s : r.sites) {
    SourceWindow w = CutSourceWindow(lines, s.line, s.column, limits.max_excerpt_bytes);
    fuzz::Check(w.code.size() <= limits.max_excerpt_bytes, "sourceCode within max_excerpt_bytes");
    CatalogLine line;
    line.record = BuildRecord(s, w, std::string("o/n"), std::string(40, 'a'), "2026-01-01T00:00:00.000Z", 0);
    line.dataset_version = "2026-01-01T00:00:00.000Z";
    line.facts = s;
    std::string json = CatalogLineToJson(line);
    auto back = ParseCatalogLine(json);
    fuzz::Check(back.ok(), "a written line parses");
    fuzz::Check(CatalogLineToJson(*back) == json, "a written line reads back to the same line");
  }
  return 0;
}
