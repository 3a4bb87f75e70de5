// Fuzz target: message evaluation -- the format-string languages and renderers
// the front ends apply to evaluated arguments: Python's str.format parser, %
// conversions, dedent/cleandoc/strip and Render (extract/python/message_eval.h);
// printf (C, Go, Java, Guava), {} (fmt, Rust, SLF4J, MessageFormat) and RenderInto
// (extract/common/message.h); PatternPrefix (model/pattern.h).
// Input: pieces separated by NUL -- the format, then its arguments; inside a
// piece, \x01 toggles between literal text and a hole, \x02 starts another
// alternative. Properties: every rendered messagePattern compiles (PCRE2) and
// matches its own errorMessage; PatternPrefix returns a prefix within its bound.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <cstdio>
#include <pcre2.h>

#include "extract/common/limits.h"
#include "extract/common/message.h"
#include "extract/python/message_eval.h"
#include "fuzz/fuzz_util.h"
#include "model/pattern.h"

using namespace errdex;

namespace {

std::vector<std::string_view> SplitOn(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t b = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

msg::Segs CommonSegs(std::string_view piece) {
  msg::Segs segs;
  bool hole = false;
  for (std::string_view part : SplitOn(piece, '\x01')) {
    msg::Append(segs, hole ? msg::Hole(std::string(part)) : msg::Lit(std::string(part)));
    hole = !hole;
  }
  return segs;
}

py::Segs PySegs(std::string_view piece) {
  py::Segs segs;
  bool hole = false;
  for (std::string_view part : SplitOn(piece, '\x01')) {
    segs.push_back(hole ? py::Seg::Hole(std::string(part)) : py::Seg::Lit(std::string(part)));
    hole = !hole;
  }
  return segs;
}

pcre2_code* Compile(std::string_view pattern, int* err, PCRE2_SIZE* off) {
  std::string anchored = "(?:" + std::string(pattern) + ")";
  return pcre2_compile(reinterpret_cast<PCRE2_SPTR>(anchored.data()), anchored.size(),
                       PCRE2_DOTALL | PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_NO_UTF_CHECK, err, off, nullptr);
}

// The whole message matches the pattern (DOTALL, anchored at both ends).
void CheckPatternMatches(const std::optional<std::string>& pattern, const std::optional<std::string>& message) {
  if (!pattern || !message) return;
  int err = 0;
  PCRE2_SIZE off = 0;
  pcre2_code* re = Compile(*pattern, &err, &off);
  const size_t stored_max = ExtractLimits{}.max_excerpt_bytes;
  if (!re && err == PCRE2_ERROR_PATTERN_TOO_LARGE && pattern->size() > stored_max) {
    // Past what PCRE2 compiles (64 KB of compiled code), and past what a scan
    // stores: the front ends keep PatternPrefix(pattern, max_excerpt_bytes)
    // (extract/common/limits.h CapSite). What is stored must compile.
    re = Compile(PatternPrefix(*pattern, stored_max), &err, &off);
    fuzz::Check(re != nullptr, "a stored (capped) messagePattern compiles");
    pcre2_code_free(re);
    return;
  }
  if (!re) {  // what failed, for the finding's report
    PCRE2_UCHAR why[256];
    pcre2_get_error_message(err, why, sizeof why);
    std::fprintf(stderr, "pattern %s\nmessage %s\npcre2: %s at %zu\n", pattern->c_str(), message->c_str(),
                 reinterpret_cast<const char*>(why), static_cast<size_t>(off));
  }
  fuzz::Check(re != nullptr, "a rendered messagePattern compiles");
  pcre2_match_data* md = pcre2_match_data_create_from_pattern(re, nullptr);
  pcre2_match_context* mc = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(mc, 1000000);
  int rc = pcre2_match(re, reinterpret_cast<PCRE2_SPTR>(message->data()), message->size(), 0, 0, md, mc);
  fuzz::Check(rc >= 0 || rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT,
              "a rendered messagePattern matches its own errorMessage");
  pcre2_match_context_free(mc);
  pcre2_match_data_free(md);
  pcre2_code_free(re);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  if (text.size() > 64 * 1024) return 0;
  std::vector<std::string_view> pieces = SplitOn(text, '\0');
  std::string_view format = pieces[0];

  // Python: the parsers CPython-compatibility depends on.
  auto parsed = py::ParseFormatString(format);
  if (parsed)
    for (const py::FormatPiece& p : *parsed) (void)p;
  for (size_t pos = 0; pos < format.size() && pos < 256; ++pos)
    if (format[pos] == '%') {
      py::PercentSpec s = py::MatchPercent(format, pos);
      fuzz::Check(s.end == 0 || (s.end > pos && s.end <= format.size()), "MatchPercent inside the text");
    }
  std::string f(format);
  (void)py::TextwrapDedent(f);
  (void)py::InspectCleandoc(f);
  (void)py::PyStrip(f, selector & 1, selector & 2);

  // Python: alternatives and rendering.
  py::Segs ps;
  for (std::string_view alt_group : SplitOn(format, '\x03')) {
    std::vector<std::string_view> alts = SplitOn(alt_group, '\x02');
    if (alts.size() == 1) {
      for (py::Seg& s : PySegs(alts[0])) ps.push_back(std::move(s));
    } else {
      py::Seg alt;
      alt.type = py::Seg::kAlt;
      for (std::string_view a : alts) alt.options.push_back(PySegs(a));
      ps.push_back(std::move(alt));
    }
  }
  std::vector<py::Segs> expanded = py::Expand(ps);
  fuzz::Check(!expanded.empty(), "Expand gives at least one alternative");
  py::Rendered pr = py::Render(ps);
  CheckPatternMatches(pr.pattern, pr.message);

  // Common (C/C++, Rust, Go, Java): format languages over evaluated arguments.
  std::vector<msg::Segs> args;
  for (size_t i = 1; i < pieces.size() && i < 64; ++i) args.push_back(CommonSegs(pieces[i]));
  msg::Segs fmt = CommonSegs(format);
  msg::Alts alts;
  switch (selector % 8) {
    case 0: alts.push_back(msg::ApplyPrintf(fmt, args, msg::Printf::kC)); break;
    case 1: alts.push_back(msg::ApplyPrintf(fmt, args, msg::Printf::kGo)); break;
    case 2: alts.push_back(msg::ApplyPrintf(fmt, args, msg::Printf::kJava)); break;
    case 3: alts.push_back(msg::ApplyPrintf(fmt, args, msg::Printf::kGuava)); break;
    case 4: alts.push_back(msg::ApplyBraces(fmt, args, msg::Braces::kFmt)); break;
    case 5: {
      std::vector<msg::NamedArg> named;
      if (!args.empty()) named.push_back(msg::NamedArg{"name", args[0]});
      alts.push_back(msg::ApplyBraces(fmt, args, msg::Braces::kRust, named));
      break;
    }
    case 6: alts.push_back(msg::ApplyBraces(fmt, args, msg::Braces::kSlf4j)); break;
    default: alts.push_back(msg::ApplyBraces(fmt, args, msg::Braces::kMessageFormat)); break;
  }
  for (const msg::Segs& a : args) alts = msg::Concat(alts, msg::Alts{a});
  fuzz::Check(!alts.empty() && alts.size() <= msg::kMaxAlternatives, "Concat keeps 1..kMaxAlternatives");
  Site site;
  msg::RenderInto(site, alts);
  CheckPatternMatches(site.message_pattern, site.error_message);

  // PatternPrefix: a prefix within the bound.
  if (site.message_pattern)
    for (size_t max : {size_t{0}, size_t{7}, size_t{64}, site.message_pattern->size() / 2}) {
      std::string_view pre = PatternPrefix(*site.message_pattern, max);
      fuzz::Check(pre.size() <= max && site.message_pattern->compare(0, pre.size(), pre) == 0,
                  "PatternPrefix is a prefix within its bound");
    }
  return 0;
}
