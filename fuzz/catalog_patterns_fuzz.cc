// Fuzz target: the messagePatterns of an imported (hostile) catalog, as explain
// meets them -- match/pattern_db.h: CheckPattern, Build (PCRE2 + Vectorscan, the
// rejections), Scan over a text, the PCRE2 span and captures of each hit
// (LocateWhole / LocateIn, under the match and depth limits), Serialize and
// Deserialize. Input: patterns one per line, then a NUL, then the text.
#include "fuzz/fuzz_util.h"
#include "match/pattern_db.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::Bytes(data, size);
  size_t nul = in.find('\0');
  std::string_view pats = in.substr(0, nul), text = nul == std::string_view::npos ? "" : in.substr(nul + 1);
  std::vector<std::string> patterns;
  size_t b = 0;
  while (b <= pats.size() && patterns.size() < 64) {
    size_t e = pats.find('\n', b);
    if (e == std::string_view::npos) e = pats.size();
    patterns.emplace_back(pats.substr(b, e - b));
    (void)CheckPattern(patterns.back());
    b = e + 1;
  }
  MatcherOptions o;
  o.max_pattern_bytes = 1024;
  auto db = PatternDatabase::Build(patterns, o);
  if (!db.ok()) return 0;  // Vectorscan could not build even without the rejected ones: an error, not a crash
  auto scratch = (*db)->NewScratch();
  fuzz::Check(scratch.ok(), "a scratch for a built database");
  std::vector<std::pair<uint32_t, size_t>> hits;
  fuzz::Check((*db)->Scan(text, **scratch, hits).ok(), "Scan of a built database");
  for (auto [index, end] : hits) {
    fuzz::Check(index < patterns.size() && end <= text.size(), "a hit names a pattern and an offset in the text");
    size_t line_begin = text.rfind('\n', end == 0 ? 0 : end - 1);
    line_begin = line_begin == std::string_view::npos ? 0 : line_begin + 1;
    size_t line_end = text.find('\n', end);
    std::string_view line = text.substr(line_begin, (line_end == std::string_view::npos ? text.size() : line_end) - line_begin);
    if (auto m = (*db)->LocateIn(index, line, **scratch))
      for (const PatternCapture& c : m->captures) fuzz::Check(c.begin <= c.end && c.end <= line.size(), "capture inside the line");
    (void)(*db)->LocateWhole(index, line, **scratch);
  }
  auto bytes = (*db)->Serialize();
  if (bytes.ok()) {
    auto back = PatternDatabase::Deserialize(*bytes, patterns, o);
    fuzz::Check(back.ok() && (*back)->compiled_count() == (*db)->compiled_count(), "a serialized database loads back");
  }
  return 0;
}
