// Fuzz target: the line normalizer (match/normalize.h: ANSI escapes, carriage
// returns, log prefixes of docker, torch.distributed, vLLM, SGLang, logging) and
// the traceback parser over the normalized lines (match/traceback.h).
// Properties: the offset map stays inside the raw line; every parsed section's
// lines exist.
#include "fuzz/fuzz_util.h"
#include "match/normalize.h"
#include "match/traceback.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = fuzz::Bytes(data, size);
  static LineNormalizer* normalizer = new LineNormalizer();  // owns PCRE2 match data; one per process
  std::vector<NormalizedLine> lines;
  size_t pos = 0;
  while (pos < text.size() && lines.size() < 4096) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(pos, nl - pos);
    NormalizedLine& out = lines.emplace_back();
    normalizer->Normalize(raw, out);
    for (const NormalizedLine::Range& r : out.ranges)
      fuzz::Check(r.raw_begin <= r.raw_end && r.raw_end <= raw.size(), "a kept range inside the raw line");
    for (size_t i = 0; i <= out.text.size(); i += 1 + out.text.size() / 8)
      fuzz::Check(out.RawOffset(i) <= raw.size(), "RawOffset inside the raw line");
    (void)SplitClassPrefix(out.text, true);
    (void)SplitClassPrefix(out.text, false);
    (void)IsTracebackHeader(out.text);
    pos = nl + 1;
  }
  std::vector<const NormalizedLine*> ptrs;
  for (const NormalizedLine& l : lines) ptrs.push_back(&l);
  std::vector<bool> consumed(ptrs.size(), false);
  std::vector<ExceptionSection> sections = ParseTracebacks(ptrs, 20, consumed);
  for (const ExceptionSection& s : sections) {
    fuzz::Check(s.class_line < lines.size(), "class line exists");
    for (const auto& [line, offset] : s.message_lines)
      fuzz::Check(line < lines.size() && offset <= lines[line].text.size(), "message line exists");
    (void)ShortClassName(s.printed_class);
  }
  return 0;
}
