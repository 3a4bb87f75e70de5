// Fuzz target: the JavaScript/TypeScript front end (extract/javascript, the
// tree-sitter grammars and the walk over their trees) on one file. The first
// byte picks the grammar (.js, .jsx, .ts, .tsx) and the limits.
// Property: sites within the limits (fuzz/limits_check.h).
#include "extract/javascript/js_extractor.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/limits_check.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  static const char* const kPaths[] = {"src/a.js", "src/a.jsx", "src/a.ts", "src/a.tsx"};
  const int variant = (selector >> 2) & 3;
  JsExtractOptions o;
  o.limits = fuzz::LimitsFor(selector);
  JsExtractResult r = ExtractJavaScript(kPaths[variant], text, /*typescript=*/variant >= 2, o);
  if (!r.failed) fuzz::CheckSites(r.sites, o.limits, fuzz::CountLines(text));
  return 0;
}
