// match/normalize.cc: ANSI/"\r"/prefix stripping with an offset map. Tested by normalize_test.cc.
#include "match/normalize.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstring>

namespace errdex {

namespace {

// Which prefix a regex strips, and what it tells.
struct PrefixRule {
  const char* regex;
  int source_group;  // capture naming the writer, 0 = none
  bool record_start;
};

// Anchored; tried in order, the whole list again after each strip (at most kMaxStrips times).
constexpr PrefixRule kRules[] = {
    {R"(([A-Za-z0-9][\w.-]*[-_]\d+)\s+\| ?)", 1, false},
    {R"(\[(rank\d+)\]: ?)", 1, false},
    {R"(\(([\w.-]+ pid=\d+)\) ?)", 1, false},
    // vLLM: "ERROR 03-10 14:17:52 [core.py:12] ", before 2025 "ERROR 03-10 14:17:52 core.py:12] "
    {R"((?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? (?:\[[^\]]*\]|[\w.-]+:\d+\]) ?)", 0, true},
    {R"(\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?: ([^\]]*))?\] ?)", 1, true},
    // ISO timestamp, then maybe a level, a logger and a separator ("ERROR router | ",
    // " - app.db - ERROR - "); a Kubernetes CRI line ("... stderr F ").
    {R"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?(?: (?:stdout|stderr) [FP] | [-|] [\w.]+ [-|] (?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL) [-|:] | \[?(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\]?:? +(?:[\w.-]+ +\| )?| )?)",
     0, true},
    {R"((?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.<>-]*:)", 0, true},
    // journald: "Dec 03 10:11:12 host unit[123]: "
    {R"([A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]+ ([\w.@/-]+)(?:\[\d+\])?: )", 1, true},
    // glog / absl: "E1203 10:11:12.123456  1234 file.cc:12] "
    {R"([IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] )", 0, true},
    // kubectl logs --prefix: "[pod/name/container] "; a bare clock: "[01:01:20] "
    {R"(\[pod/[^\]\s]+\] |\[\d\d:\d\d:\d\d(?:[.,]\d+)?\] )", 0, false},
};
constexpr int kNumRules = sizeof kRules / sizeof kRules[0];
constexpr int kMaxStrips = 6;

struct CompiledRules {
  pcre2_code* codes[kNumRules] = {};
  CompiledRules() {
    for (int i = 0; i < kNumRules; ++i) {
      int err = 0;
      PCRE2_SIZE off = 0;
      codes[i] = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(kRules[i].regex), PCRE2_ZERO_TERMINATED, PCRE2_ANCHORED,
                               &err, &off, nullptr);
      if (codes[i]) pcre2_jit_compile(codes[i], PCRE2_JIT_COMPLETE);
    }
  }
};

const CompiledRules& Rules() {
  static const CompiledRules rules;  // thread-safe static init; never freed (process lifetime)
  return rules;
}

// Could rule i match at text[0]? Cheap first-byte filter so plain lines skip PCRE2.
bool MayStart(int rule, std::string_view t) {
  if (t.empty()) return false;
  unsigned char c = static_cast<unsigned char>(t[0]);
  switch (rule) {
    case 0: {
      size_t n = std::min<size_t>(t.size(), 96);
      return std::isalnum(c) && std::memchr(t.data(), '|', n) != nullptr;
    }
    case 1:
    case 4:
    case 9:
      return c == '[';
    case 2:
      return c == '(';
    case 3:
    case 6:
      return c == 'D' || c == 'I' || c == 'W' || c == 'E' || c == 'C';
    case 5:
      return c >= '0' && c <= '9';
    case 7:
      return c >= 'A' && c <= 'Z' && t.size() > 16 && t[3] == ' ';
    case 8:
      return (c == 'I' || c == 'W' || c == 'E' || c == 'F') && t.size() > 5 && t[1] >= '0' && t[1] <= '9';
  }
  return false;
}

}  // namespace

// A learned prefix: literal bytes, and digit runs that may differ from line to line
// (timestamps, pids). kDigits stands for [0-9]+.
constexpr int kDigits = 256;
using Shape = std::vector<int>;

Shape ShapeOf(std::string_view t) {
  Shape s;
  for (size_t i = 0; i < t.size();) {
    if (t[i] >= '0' && t[i] <= '9') {
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
      s.push_back(kDigits);
    } else {
      s.push_back(static_cast<unsigned char>(t[i++]));
    }
  }
  return s;
}

// Bytes of `t` the shape covers from its start, or npos.
size_t MatchShape(const Shape& s, std::string_view t) {
  size_t i = 0;
  for (int tok : s) {
    if (tok == kDigits) {
      size_t b = i;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
      if (i == b) return std::string_view::npos;
    } else {
      if (i >= t.size() || static_cast<unsigned char>(t[i]) != tok) return std::string_view::npos;
      ++i;
    }
  }
  return i;
}

struct LineNormalizer::Impl {
  pcre2_match_data* md = pcre2_match_data_create(8, nullptr);
  Shape learned;  // empty: none
  ~Impl() { pcre2_match_data_free(md); }
};

bool LineNormalizer::has_learned_prefix() const { return !impl_->learned.empty(); }

bool LineNormalizer::LearnPrefix(const std::vector<std::string>& lines) {
  std::vector<Shape> shapes;
  size_t frames = 0;
  for (const std::string& t : lines) {
    size_t p = t.find("File \"");
    if (p == std::string::npos || t.find("\", line ", p) == std::string::npos) continue;
    ++frames;
    size_t e = p;
    while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t')) --e;
    if (e == 0) return false;  // a bare frame line: this traceback has no unknown prefix
    shapes.push_back(ShapeOf(std::string_view(t).substr(0, e)));
  }
  if (shapes.size() < 2 || frames != shapes.size()) return false;
  for (const Shape& s : shapes)
    if (s != shapes[0]) return false;
  if (shapes[0].size() > 200 || shapes[0] == impl_->learned) return false;
  impl_->learned = shapes[0];
  return true;
}

LineNormalizer::LineNormalizer() : impl_(std::make_unique<Impl>()) {}
LineNormalizer::~LineNormalizer() = default;

uint32_t NormalizedLine::RawOffset(size_t pos) const {
  size_t acc = 0;
  for (const Range& r : ranges) {
    size_t len = r.raw_end - r.raw_begin;
    if (pos < acc + len) return r.raw_begin + static_cast<uint32_t>(pos - acc);
    acc += len;
  }
  return ranges.empty() ? 0 : ranges.back().raw_end;
}

void LineNormalizer::Normalize(std::string_view raw, NormalizedLine& out) {
  out.text.clear();
  out.ranges.clear();
  out.source.clear();
  out.record_start = false;
  uint32_t begin = 0, end = static_cast<uint32_t>(raw.size());
  if (end > begin && raw[end - 1] == '\r') --end;
  // A "\r" inside the line returns the carriage: what follows overwrote what was before.
  if (const void* cr = memrchr(raw.data() + begin, '\r', end - begin)) {
    uint32_t after = static_cast<uint32_t>(static_cast<const char*>(cr) - raw.data()) + 1;
    if (after < end) begin = after;
  }
  // ANSI escapes: CSI "ESC [ params intermediates final", OSC "ESC ] ... BEL|ESC \", other "ESC x".
  if (std::memchr(raw.data() + begin, 0x1b, end - begin) == nullptr) {
    out.ranges.push_back({begin, end});
  } else {
    uint32_t i = begin, run = begin;
    while (i < end) {
      if (raw[i] != 0x1b) {
        ++i;
        continue;
      }
      if (i > run) out.ranges.push_back({run, i});
      uint32_t j = i + 1;
      if (j < end && raw[j] == '[') {
        ++j;
        while (j < end && static_cast<unsigned char>(raw[j]) >= 0x20 && static_cast<unsigned char>(raw[j]) <= 0x3f) ++j;
        if (j < end && static_cast<unsigned char>(raw[j]) >= 0x40 && static_cast<unsigned char>(raw[j]) <= 0x7e) ++j;
      } else if (j < end && raw[j] == ']') {
        while (j < end && raw[j] != 0x07 && !(raw[j] == 0x1b && j + 1 < end && raw[j + 1] == '\\')) ++j;
        j += (j < end && raw[j] == 0x07) ? 1 : 2;
        if (j > end) j = end;
      } else if (j < end) {
        ++j;
      }
      i = run = j;
    }
    if (run < end) out.ranges.push_back({run, end});
  }
  for (const auto& r : out.ranges) out.text.append(raw.data() + r.raw_begin, r.raw_end - r.raw_begin);

  // Prefixes.
  const CompiledRules& rules = Rules();
  size_t cut = 0;
  for (int strips = 0; strips < kMaxStrips; ++strips) {
    std::string_view t = std::string_view(out.text).substr(cut);
    bool stripped = false;
    for (int k = 0; k < kNumRules && !stripped; ++k) {
      if (!rules.codes[k] || !MayStart(k, t)) continue;
      int rc = pcre2_match(rules.codes[k], reinterpret_cast<PCRE2_SPTR>(t.data()), t.size(), 0, 0, impl_->md, nullptr);
      if (rc < 0) continue;
      PCRE2_SIZE* ov = pcre2_get_ovector_pointer(impl_->md);
      if (ov[1] == 0) continue;
      int g = kRules[k].source_group;
      if (g > 0 && rc > g && ov[2 * g] != PCRE2_UNSET && ov[2 * g + 1] > ov[2 * g]) {
        if (!out.source.empty()) out.source += '/';
        out.source.append(t.data() + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
      }
      out.record_start = out.record_start || kRules[k].record_start;
      cut += ov[1];
      stripped = true;
    }
    if (!stripped) break;
  }
  if (!impl_->learned.empty()) {
    size_t n = MatchShape(impl_->learned, std::string_view(out.text).substr(cut));
    if (n != std::string_view::npos) {
      cut += n;
      if (cut < out.text.size() && out.text[cut] == ' ') ++cut;  // the separator
    }
  }
  if (cut > 0) {
    out.text.erase(0, cut);
    size_t drop = cut;
    size_t k = 0;
    while (k < out.ranges.size() && drop >= out.ranges[k].raw_end - out.ranges[k].raw_begin) {
      drop -= out.ranges[k].raw_end - out.ranges[k].raw_begin;
      ++k;
    }
    out.ranges.erase(out.ranges.begin(), out.ranges.begin() + k);
    if (!out.ranges.empty()) out.ranges.front().raw_begin += static_cast<uint32_t>(drop);
  }
}

}  // namespace errdex
