// match/pattern_db.cc: Vectorscan database + lazily compiled PCRE2 codes.
// Tested by pattern_db_test.cc.
#include "match/pattern_db.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <dlfcn.h>
#include <hs/hs.h>
#include <pcre2.h>
#include <xxhash.h>

#include <cctype>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "match/line_bounds.h"
#include "model/pattern.h"

namespace errdex {

namespace {

constexpr char kMagic[8] = {'E', 'R', 'R', 'D', 'X', 'M', 'D', '1'};
constexpr int kMaxCompileRetries = 32;

// Compiled after the patterns, so one scan of a window also finds the lines a
// window must look at closer (in the order of PatternDatabase::Marker).
constexpr const char* kMarkerExpressions[] = {
    "Traceback \\(most recent call last\\)",  // kTracebackHeader
    "\\x1b",                                     // kEscape
    "File \"[^\"\\n]{1,1000}\", line [0-9]",          // kFrameLine
};
constexpr size_t kNumMarkers = sizeof kMarkerExpressions / sizeof kMarkerExpressions[0];

bool IsMeta(char c) {
  return std::strchr(".*+?^${}()|[]\\", c) != nullptr && c != '\0';
}

// The pattern as tokens of the chosen form (model/pattern.h): literal bytes, holes
// "(.*?)", "(?:" / "|" / ")" of conditionals. conforms=false for anything else.
struct FormScan {
  bool conforms = true;
  bool leading_hole = false;
  bool trailing_hole = false;
  size_t lead_len = 0;   // bytes of leading holes
  size_t trail_len = 0;  // bytes of trailing holes
};

FormScan ScanForm(std::string_view p) {
  FormScan f;
  struct Tok {
    bool hole;
    size_t begin, end;
  };
  std::vector<Tok> toks;
  int depth = 0;
  size_t i = 0;
  while (i < p.size()) {
    char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size() || !IsMeta(p[i + 1])) return FormScan{false};
      toks.push_back(Tok{false, i, i + 2});
      i += 2;
    } else if (p.compare(i, kHoleGroup.size(), kHoleGroup) == 0) {
      toks.push_back(Tok{true, i, i + kHoleGroup.size()});
      i += kHoleGroup.size();
    } else if (p.compare(i, 3, "(?:") == 0) {
      ++depth;
      toks.push_back(Tok{false, i, i + 3});
      i += 3;
    } else if (c == '|' || c == ')') {
      if (depth == 0) return FormScan{false};
      if (c == ')') --depth;
      toks.push_back(Tok{false, i, i + 1});
      ++i;
    } else if (IsMeta(c)) {
      return FormScan{false};
    } else {
      toks.push_back(Tok{false, i, i + 1});
      ++i;
    }
  }
  if (depth != 0) return FormScan{false};
  size_t a = 0;
  while (a < toks.size() && toks[a].hole) ++a;
  if (a > 0) {
    f.leading_hole = true;
    f.lead_len = toks[a - 1].end;
  }
  if (a == toks.size()) return f;  // only holes (or empty)
  size_t b = toks.size();
  while (b > a && toks[b - 1].hole) --b;
  if (b < toks.size()) {
    f.trailing_hole = true;
    f.trail_len = p.size() - toks[b].begin;
  }
  return f;
}

// What Vectorscan compiles: leading/trailing holes add nothing to "does it occur".
std::string VectorscanExpression(const std::string& p, const FormScan& f) {
  if (!f.conforms) return p;
  size_t b = f.leading_hole ? f.lead_len : 0;
  size_t e = f.trailing_hole ? p.size() - f.trail_len : p.size();
  if (e < b) e = b;
  return p.substr(b, e - b);
}

std::string HsError(hs_compile_error_t* err) {
  std::string m = err && err->message ? err->message : "unknown Vectorscan error";
  if (err) hs_free_compile_error(err);
  return m;
}

std::string Pcre2Message(int code) {
  PCRE2_UCHAR buf[256];
  pcre2_get_error_message(code, buf, sizeof buf);
  return reinterpret_cast<char*>(buf);
}

pcre2_code* CompilePcre(const std::string& p, uint32_t options, std::string* error, bool jit = true) {
  int code = 0;
  PCRE2_SIZE off = 0;
  pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(p.data()), p.size(),
                                 options | PCRE2_DOTALL, &code, &off, nullptr);
  if (!re) {
    if (error) *error = "invalid regex at offset " + std::to_string(off) + ": " + Pcre2Message(code);
    return nullptr;
  }
  if (jit) pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);  // falls back to the interpreter when JIT is unavailable
  return re;
}

// Which Vectorscan runtime scans, and for which CPU features databases are built.
//
// Vectorscan 5.4.9 (Debian 12) misses matches in its AVX-512 runtime, depending on
// where the text sits in memory: with the two patterns of the regression test in
// pattern_db_test.cc, a two-line text is matched at 17 of 64 start addresses (so
// 'errdex explain' answered differently for different argv lengths). Its AVX2
// runtime matches at all 64. Debian's library is a fat runtime exporting each ISA's
// entry point, and its dispatcher picks AVX-512 on such a CPU; so errdex calls the
// AVX2 entry point by name when the CPU has AVX2 and the library exports it, and
// then builds databases for AVX2 (an AVX-512 database crashes the AVX2 runtime).
// Elsewhere (other builds, other CPUs) the dispatcher and native databases stay.
struct ScanRuntime {
  PatternDatabase::RawScanFunction scan = &hs_scan;
  const char* name = "native";  // part of the matcher fingerprint: a cached database
                                // built for another runtime is rebuilt, never run
  bool avx2 = false;            // pinned to the AVX2 runtime, databases built for AVX2
  hs_platform_info_t avx2_platform{};
  // What databases are compiled for (nullptr: this CPU's own features).
  const hs_platform_info_t* compile_platform() const { return avx2 ? &avx2_platform : nullptr; }
};

const ScanRuntime& ScanRuntimeInUse() {
  static const ScanRuntime r = [] {
    ScanRuntime rt;
#if defined(__x86_64__) && defined(__GNUC__)
    void* avx2_scan = __builtin_cpu_supports("avx2") ? dlsym(RTLD_DEFAULT, "avx2_hs_scan") : nullptr;
    if (avx2_scan && hs_populate_platform(&rt.avx2_platform) == HS_SUCCESS) {
      rt.avx2_platform.cpu_features &= HS_CPU_FEATURES_AVX2;
      rt.scan = reinterpret_cast<PatternDatabase::RawScanFunction>(avx2_scan);
      rt.avx2 = true;
      rt.name = "avx2";
    }
#endif
    return rt;
  }();
  return r;
}

uint64_t Fingerprint(const std::vector<std::string>& patterns, const MatcherOptions& o) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  std::string head = "errdex-match-v5|" + std::string(ScanRuntimeInUse().name) + "|" + std::string(hs_version()) +
                     "|" + std::to_string(o.max_patterns) + "|" + std::to_string(o.max_pattern_bytes) + "|" +
                     std::to_string(o.min_literal_chars) + "|";
  XXH3_64bits_update(st, head.data(), head.size());
  for (const std::string& p : patterns) XXH3_64bits_update(st, p.data(), p.size() + 1);  // with '\0'
  uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return h;
}

void PutU32(std::string& out, uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
void PutU64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }

struct Reader {
  std::string_view s;
  size_t pos = 0;
  bool ok = true;
  template <typename T>
  T Get() {
    T v{};
    if (pos + sizeof(T) > s.size()) {
      ok = false;
      return v;
    }
    std::memcpy(&v, s.data() + pos, sizeof(T));
    pos += sizeof(T);
    return v;
  }
  std::string_view Bytes(size_t n) {
    if (pos + n > s.size()) {
      ok = false;
      return {};
    }
    std::string_view r = s.substr(pos, n);
    pos += n;
    return r;
  }
};

// Per-scan state of the match callback: patterns of our form are compiled without
// HS_FLAG_SINGLEMATCH, so Vectorscan reports every end offset of every occurrence;
// the callback keeps the first per (pattern, line). `line_of[id]` is the last line
// reported for id, valid when `epoch_of[id] == epoch`.
struct HsScanContext {
  size_t patterns;  // Vectorscan ids below this are patterns, the rest markers
  std::vector<std::pair<PatternDatabase::Marker, size_t>>* markers;
  const char* text;
  size_t size;
  std::vector<std::pair<uint32_t, size_t>>* hits;
  std::pair<size_t, size_t>* line_of;  // [begin, end] of the line, inclusive of its '\n'
  uint32_t* epoch_of;
  uint32_t epoch;
};

int OnHsMatch(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void* ctx) {
  (void)from;
  (void)flags;
  auto* c = static_cast<HsScanContext*>(ctx);
  size_t last = to > 0 ? static_cast<size_t>(to) - 1 : 0;  // the match's last byte
  if (c->epoch_of[id] == c->epoch && last >= c->line_of[id].first && last <= c->line_of[id].second) return 0;
  const void* nl = std::memchr(c->text + last, '\n', c->size - last);
  size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - c->text) : c->size;
  const void* prev = last > 0 ? memrchr(c->text, '\n', last) : nullptr;
  size_t begin = prev ? static_cast<size_t>(static_cast<const char*>(prev) - c->text) + 1 : 0;
  c->epoch_of[id] = c->epoch;
  c->line_of[id] = {begin, end};
  if (id < c->patterns) c->hits->emplace_back(id, static_cast<size_t>(to));
  else if (c->markers) c->markers->emplace_back(static_cast<PatternDatabase::Marker>(id - c->patterns), to);
  return 0;
}

}  // namespace

// Literal characters: each group counts its poorest branch (what is guaranteed to
// be present), a quantified atom or group counts nothing. Iterative (a stack of
// open groups): an imported pattern can nest thousands of parentheses, and this
// runs on every pattern before PCRE2 sees it.
int CountLiteralChars(std::string_view p) {
  struct Group {
    int best = -1;  // the poorest finished branch (-1: none yet)
    int n = 0;      // the branch being read
  };
  auto value = [](const Group& g) { return g.best < 0 ? g.n : std::min(g.best, g.n); };
  auto quantified_at = [&p](size_t i) { return i < p.size() && (p[i] == '*' || p[i] == '?' || p[i] == '{'); };
  std::vector<Group> open(1);
  int total = 0;
  size_t i = 0;
  while (i < p.size()) {
    char c = p[i];
    Group& g = open.back();
    if (c == '\\' && i + 1 < p.size()) {
      char d = p[i + 1];
      i += 2;
      if ((IsMeta(d) || !std::isalnum(static_cast<unsigned char>(d))) && !quantified_at(i)) ++g.n;
      continue;
    }
    if (c == '[') {  // a class: no literal
      ++i;
      if (i < p.size() && p[i] == '^') ++i;
      if (i < p.size() && p[i] == ']') ++i;
      while (i < p.size() && p[i] != ']') i += (p[i] == '\\') ? 2 : 1;
      ++i;
      continue;
    }
    if (c == '(') {
      ++i;
      if (i < p.size() && p[i] == '?') {
        ++i;
        while (i < p.size() && p[i] != ':' && p[i] != ')') ++i;  // "(?:", "(?i:", "(?=" ...
        if (i < p.size() && p[i] == ':') ++i;
      }
      open.emplace_back();
      continue;
    }
    if (c == ')') {
      ++i;
      if (open.size() == 1) {  // an unbalanced ')': what came before counts, then start afresh
        total += value(g);
        g = Group();
        continue;
      }
      int inner = value(g);
      open.pop_back();
      if (!quantified_at(i)) open.back().n += inner;
      continue;
    }
    if (c == '|') {
      g.best = g.best < 0 ? g.n : std::min(g.best, g.n);
      g.n = 0;
      ++i;
      continue;
    }
    ++i;
    if (IsMeta(c)) continue;
    // A quantified literal ("a*", "a?", "a{0,2}") may be absent.
    if (quantified_at(i)) continue;
    ++g.n;
  }
  while (open.size() > 1) {  // groups left open at the end count as closed
    int inner = value(open.back());
    open.pop_back();
    open.back().n += inner;
  }
  return total + value(open.back());
}

// The largest count of a counted repeat (`x{n}`, `x{n,}`, `x{n,m}`) outside a
// character class; 0 when there is none. errdex's own patterns escape every
// brace; an imported one with `b{31001}` made Vectorscan's compiler run for
// minutes (found by the catalog_patterns fuzz target).
static size_t LargestRepeatCount(std::string_view p) {
  size_t largest = 0;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // []...] : the first ] is literal
      continue;
    }
    if (c != '{') continue;
    size_t j = i + 1, n = 0, biggest = 0;
    bool digits = false;
    while (j < p.size() && p[j] >= '0' && p[j] <= '9') {
      n = std::min<size_t>(n * 10 + static_cast<size_t>(p[j] - '0'), size_t{1} << 40);
      digits = true;
      ++j;
    }
    biggest = n;
    if (j < p.size() && p[j] == ',') {
      ++j;
      size_t m = 0;
      while (j < p.size() && p[j] >= '0' && p[j] <= '9') {
        m = std::min<size_t>(m * 10 + static_cast<size_t>(p[j] - '0'), size_t{1} << 40);
        digits = true;
        ++j;
      }
      biggest = std::max(biggest, m);
    }
    if (digits && j < p.size() && p[j] == '}') largest = std::max(largest, biggest);
  }
  return largest;
}

static Status RepeatWithinLimit(std::string_view pattern) {
  constexpr size_t kMaxRepeatCount = 255;
  size_t n = LargestRepeatCount(pattern);
  if (n <= kMaxRepeatCount) return Status::Ok();
  return Status::LimitExceeded("a counted repeat of " + std::to_string(n) + ", more than " +
                               std::to_string(kMaxRepeatCount) + " (it would take the matcher's compiler minutes)");
}

std::string MatchForm(std::string_view pattern) {
  size_t n = pattern.size();
  while (n > 0 && (pattern[n - 1] == ' ' || pattern[n - 1] == '\t' || pattern[n - 1] == '\n' || pattern[n - 1] == '\r')) {
    size_t slashes = 0;  // an escaped blank ("\\ ") stays: its backslash needs it
    while (slashes < n - 1 && pattern[n - 2 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 1) break;
    --n;
  }
  if (n == 0) return std::string(pattern);  // all blanks: left as it is (CheckPattern refuses it)
  return std::string(pattern.substr(0, n));
}

Status CheckPattern(std::string_view pattern, const MatcherOptions& options) {
  if (pattern.size() > options.max_pattern_bytes)
    return Status::LimitExceeded("pattern is " + std::to_string(pattern.size()) + " bytes, more than max_pattern_bytes=" +
                                 std::to_string(options.max_pattern_bytes));
  if (Status st = RepeatWithinLimit(pattern); !st.ok()) return st;
  std::string err;
  pcre2_code* re = CompilePcre(std::string(pattern), 0, &err, /*jit=*/false);
  if (!re) return Status::ParseError(err);
  pcre2_code_free(re);
  int literals = CountLiteralChars(pattern);
  if (literals < static_cast<int>(options.min_literal_chars))
    return Status::InvalidArgument("too generic: " + std::to_string(literals) +
                                   " literal characters, fewer than min_literal_chars=" +
                                   std::to_string(options.min_literal_chars) + " (it would match almost anything)");
  return Status::Ok();
}

struct PatternDatabase::Scratch {
  hs_scratch_t* hs = nullptr;
  std::vector<std::pair<size_t, size_t>> line_of;  // HsScanContext, one per Vectorscan id
  std::vector<uint32_t> epoch_of;
  uint32_t epoch = 0;
  pcre2_match_data* md = nullptr;
  pcre2_match_context* mctx = nullptr;
  pcre2_jit_stack* jit = nullptr;
  ~Scratch() {
    if (hs) hs_free_scratch(hs);
    if (md) pcre2_match_data_free(md);
    if (mctx) pcre2_match_context_free(mctx);
    if (jit) pcre2_jit_stack_free(jit);
  }
};

// One PCRE2 code, compiled on first use for the interpreter, and JIT-compiled (into
// a copy, published atomically, so threads matching with the interpreted code are
// never disturbed) from its second use on. A JIT compile costs tens of times the
// match it serves: a pattern hit once, the usual paste, never pays it.
struct LazyCode {
  std::once_flag once, jit_once;
  pcre2_code* interp = nullptr;
  std::atomic<pcre2_code*> jit{nullptr};
  std::atomic<uint32_t> uses{0};
  ~LazyCode() {
    if (interp) pcre2_code_free(interp);
    if (pcre2_code* j = jit.load()) pcre2_code_free(j);
  }
  // make() -> (regex, PCRE2 options); called once.
  template <typename MakeSource>
  pcre2_code* Get(MakeSource&& make) {
    if (pcre2_code* j = jit.load(std::memory_order_acquire)) return j;
    std::call_once(once, [&] {
      auto [source, options] = make();
      interp = CompilePcre(source, options, nullptr, /*jit=*/false);
    });
    if (interp && uses.fetch_add(1, std::memory_order_relaxed) >= 1) {
      std::call_once(jit_once, [&] {
        pcre2_code* c = pcre2_code_copy(interp);
        if (!c) return;
        pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
        jit.store(c, std::memory_order_release);
      });
      if (pcre2_code* j = jit.load(std::memory_order_acquire)) return j;
    }
    return interp;
  }
};

struct PatternDatabase::Lazy {
  LazyCode whole;   // anchored at both ends
  LazyCode search;  // the first match in a line
};

PatternDatabase::PatternDatabase(std::vector<std::string> patterns, const MatcherOptions& options)
    : patterns_(std::move(patterns)), options_(options) {
  options_.on_progress = nullptr;  // Build's caller's; must not outlive the call
  literal_chars_.reserve(patterns_.size());
  for (const std::string& p : patterns_) literal_chars_.push_back(CountLiteralChars(p));
  compiled_.assign(patterns_.size(), false);
  lazy_.reserve(patterns_.size());
  for (size_t i = 0; i < patterns_.size(); ++i) lazy_.push_back(std::make_unique<Lazy>());
  fingerprint_ = Fingerprint(patterns_, options_);
}

PatternDatabase::~PatternDatabase() {
  if (db_) hs_free_database(db_);
}

Result<std::unique_ptr<PatternDatabase>> PatternDatabase::Build(std::vector<std::string> patterns,
                                                               const MatcherOptions& options) {
  std::unique_ptr<PatternDatabase> d(new PatternDatabase(std::move(patterns), options));
  std::vector<std::string> exprs;
  std::vector<unsigned> flags;
  std::vector<uint32_t> index;
  // Our form: holes do not cross lines in Vectorscan (no DOTALL: a window of log
  // lines is scanned at once; a message with newlines is re-scanned flattened), and
  // every occurrence is reported (the callback keeps one per line). Anything else
  // (an imported pattern): DOTALL like PCRE2, and one report per scan, because a
  // pattern such as "a.*" would otherwise report every byte.
  const unsigned kForeignFlags = HS_FLAG_DOTALL | HS_FLAG_SINGLEMATCH;
  auto progress = [&](BuildProgress::Phase phase, size_t done, size_t total) {
    if (options.on_progress) options.on_progress(BuildProgress{phase, done, total});
  };
  for (uint32_t i = 0; i < d->patterns_.size(); ++i) {
    if (i % 2048 == 0) progress(BuildProgress::Phase::kChecking, i, d->patterns_.size());
    const std::string& p = d->patterns_[i];
    auto reject = [&](Status s) { d->rejected_.push_back(RejectedPattern{i, std::move(s)}); };
    if (p.size() > options.max_pattern_bytes) {
      reject(Status::LimitExceeded("pattern is " + std::to_string(p.size()) + " bytes, more than max_pattern_bytes=" +
                                   std::to_string(options.max_pattern_bytes)));
      continue;
    }
    if (Status st = RepeatWithinLimit(p); !st.ok()) {
      reject(std::move(st));
      continue;
    }
    std::string err;
    pcre2_code* re = CompilePcre(p, 0, &err);
    if (!re) {
      reject(Status::InvalidArgument(err));
      continue;
    }
    pcre2_code_free(re);
    if (d->literal_chars_[i] < static_cast<int>(options.min_literal_chars)) {
      reject(Status::InvalidArgument("too generic: " + std::to_string(d->literal_chars_[i]) +
                                     " literal characters, fewer than min_literal_chars=" +
                                     std::to_string(options.min_literal_chars) + " (it would match almost anything)"));
      continue;
    }
    if (index.size() >= options.max_patterns) {
      reject(Status::LimitExceeded("more than max_patterns=" + std::to_string(options.max_patterns) +
                                   " patterns in one database; this one is left out"));
      continue;
    }
    FormScan f = ScanForm(p);
    std::string expr = VectorscanExpression(p, f);
    unsigned fl = f.conforms ? 0u : kForeignFlags;
    if (!f.conforms) {
      // Outside the chosen form (an imported, possibly hostile pattern): check it alone
      // first so one bad pattern cannot fail the whole multi-compile.
      hs_database_t* one = nullptr;
      hs_compile_error_t* ce = nullptr;
      if (hs_compile(expr.c_str(), fl, HS_MODE_BLOCK, ScanRuntimeInUse().compile_platform(), &one, &ce) != HS_SUCCESS) {
        std::string first = HsError(ce);
        ce = nullptr;
        fl |= HS_FLAG_PREFILTER;
        if (hs_compile(expr.c_str(), fl, HS_MODE_BLOCK, ScanRuntimeInUse().compile_platform(), &one, &ce) != HS_SUCCESS) {
          reject(Status::InvalidArgument("Vectorscan cannot compile it: " + first + " (prefilter: " + HsError(ce) + ")"));
          continue;
        }
      }
      hs_free_database(one);
    }
    exprs.push_back(std::move(expr));
    flags.push_back(fl);
    index.push_back(i);
  }
  // The markers go last: Vectorscan ids from index.size() on (see Marker).
  for (const char* m : kMarkerExpressions) {
    exprs.emplace_back(m);
    flags.push_back(0);
  }
  for (int attempt = 0; !exprs.empty(); ++attempt) {
    std::vector<const char*> cexprs;
    std::vector<unsigned> ids;
    for (size_t k = 0; k < exprs.size(); ++k) {
      cexprs.push_back(exprs[k].c_str());
      ids.push_back(static_cast<unsigned>(k));
    }
    progress(BuildProgress::Phase::kCompiling, 0, index.size());
    hs_compile_error_t* ce = nullptr;
    hs_database_t* db = nullptr;
    if (hs_compile_multi(cexprs.data(), flags.data(), ids.data(), static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK,
                         ScanRuntimeInUse().compile_platform(), &db, &ce) == HS_SUCCESS) {
      d->db_ = db;
      break;
    }
    int bad = ce ? ce->expression : -1;
    std::string msg = HsError(ce);
    if (msg.find("matches empty buffer") != std::string::npos) msg = "too generic: it can match the empty string";
    if (bad < 0 || static_cast<size_t>(bad) >= index.size() || attempt >= kMaxCompileRetries)
      return Status::Internal("Vectorscan could not build the pattern database: " + msg);
    d->rejected_.push_back(RejectedPattern{
        index[bad], Status::InvalidArgument(msg.rfind("too generic", 0) == 0 ? msg : "Vectorscan cannot compile it: " + msg)});
    exprs.erase(exprs.begin() + bad);
    flags.erase(flags.begin() + bad);
    index.erase(index.begin() + bad);
  }
  progress(BuildProgress::Phase::kDone, index.size(), index.size());
  if (d->db_) {
    d->hs_ids_ = index;
    flags.resize(index.size());
    d->hs_flags_ = flags;
    for (uint32_t i : index) d->compiled_[i] = true;
  }
  return d;
}

Result<std::string> PatternDatabase::Serialize() const {
  std::string out(kMagic, sizeof kMagic);
  PutU64(out, fingerprint_);
  PutU32(out, static_cast<uint32_t>(hs_ids_.size()));
  for (size_t k = 0; k < hs_ids_.size(); ++k) {
    PutU32(out, hs_ids_[k]);
    PutU32(out, hs_flags_[k]);
  }
  PutU32(out, static_cast<uint32_t>(rejected_.size()));
  for (const RejectedPattern& r : rejected_) {
    PutU32(out, r.index);
    PutU32(out, static_cast<uint32_t>(r.why.code()));
    PutU32(out, static_cast<uint32_t>(r.why.message().size()));
    out += r.why.message();
  }
  if (db_) {
    char* bytes = nullptr;
    size_t len = 0;
    if (hs_serialize_database(db_, &bytes, &len) != HS_SUCCESS) return Status::Internal("hs_serialize_database failed");
    PutU64(out, len);
    out.append(bytes, len);
    free(bytes);
  } else {
    PutU64(out, 0);
  }
  return out;
}

Result<std::unique_ptr<PatternDatabase>> PatternDatabase::Deserialize(std::string_view bytes,
                                                                     std::vector<std::string> patterns,
                                                                     const MatcherOptions& options) {
  std::unique_ptr<PatternDatabase> d(new PatternDatabase(std::move(patterns), options));
  Reader r{bytes};
  std::string_view magic = r.Bytes(sizeof kMagic);
  if (!r.ok || magic != std::string_view(kMagic, sizeof kMagic))
    return Status::InvalidArgument("not an errdex pattern database");
  if (r.Get<uint64_t>() != d->fingerprint_)
    return Status::InvalidArgument("pattern database was built from other patterns, options or Vectorscan version");
  uint32_t n = r.Get<uint32_t>();
  if (!r.ok || n > d->patterns_.size()) return Status::InvalidArgument("corrupt pattern database");
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t idx = r.Get<uint32_t>();
    uint32_t fl = r.Get<uint32_t>();
    if (!r.ok || idx >= d->patterns_.size()) return Status::InvalidArgument("corrupt pattern database");
    d->hs_ids_.push_back(idx);
    d->hs_flags_.push_back(fl);
    d->compiled_[idx] = true;
  }
  uint32_t nrej = r.Get<uint32_t>();
  for (uint32_t k = 0; r.ok && k < nrej; ++k) {
    uint32_t idx = r.Get<uint32_t>();
    uint32_t code = r.Get<uint32_t>();
    uint32_t len = r.Get<uint32_t>();
    std::string msg(r.Bytes(len));
    Status s = code == static_cast<uint32_t>(Status::Code::kLimitExceeded) ? Status::LimitExceeded(msg)
               : code == static_cast<uint32_t>(Status::Code::kInternal) ? Status::Internal(msg)
                                                                          : Status::InvalidArgument(msg);
    d->rejected_.push_back(RejectedPattern{idx, s});
  }
  uint64_t len = r.Get<uint64_t>();
  std::string_view hs = r.Bytes(len);
  if (!r.ok) return Status::InvalidArgument("truncated pattern database");
  if (len > 0) {
    if (hs_deserialize_database(hs.data(), hs.size(), &d->db_) != HS_SUCCESS)
      return Status::InvalidArgument("Vectorscan cannot load this database (built for another CPU or version?)");
  } else {
    return Status::InvalidArgument("corrupt pattern database");  // the markers are always there
  }
  return d;
}

void PatternDatabase::ScratchDeleter::operator()(Scratch* s) const { delete s; }

Result<PatternDatabase::ScratchPtr> PatternDatabase::NewScratch() const {
  ScratchPtr s(new Scratch());
  if (db_ && hs_alloc_scratch(db_, &s->hs) != HS_SUCCESS) return Status::Internal("hs_alloc_scratch failed");
  s->line_of.assign(hs_ids_.size() + kNumMarkers, {0, 0});
  s->epoch_of.assign(hs_ids_.size() + kNumMarkers, 0);
  s->md = pcre2_match_data_create(128, nullptr);
  s->mctx = pcre2_match_context_create(nullptr);
  s->jit = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, nullptr);
  if (!s->md || !s->mctx || !s->jit) return Status::Internal("out of memory allocating PCRE2 scratch");
  pcre2_set_match_limit(s->mctx, options_.match_limit);
  pcre2_set_depth_limit(s->mctx, options_.depth_limit);
  pcre2_jit_stack_assign(s->mctx, nullptr, s->jit);
  return s;
}

PatternDatabase::RawScanFunction PatternDatabase::raw_scan_function() { return ScanRuntimeInUse().scan; }

Status PatternDatabase::Scan(std::string_view text, Scratch& scratch, std::vector<std::pair<uint32_t, size_t>>& hits,
                             std::vector<std::pair<Marker, size_t>>* markers) const {
  if (!db_ || text.empty()) return Status::Ok();
  size_t first = hits.size();
  // Vectorscan takes an unsigned int length: scan huge texts in overlapping-free
  // slices (callers pass lines/windows far below this anyway).
  constexpr size_t kMaxSlice = size_t{1} << 30;
  for (size_t off = 0; off < text.size(); off += kMaxSlice) {
    size_t n = std::min(kMaxSlice, text.size() - off);
    size_t before = hits.size();
    if (++scratch.epoch == 0) {  // wrapped: forget every old epoch
      std::fill(scratch.epoch_of.begin(), scratch.epoch_of.end(), 0);
      scratch.epoch = 1;
    }
    size_t markers_before = markers ? markers->size() : 0;
    HsScanContext ctx{hs_ids_.size(), markers, text.data() + off, n, &hits, scratch.line_of.data(), scratch.epoch_of.data(), scratch.epoch};
    hs_error_t rc = ScanRuntimeInUse().scan(db_, text.data() + off, static_cast<unsigned>(n), 0, scratch.hs, OnHsMatch, &ctx);
    if (rc != HS_SUCCESS) return Status::Internal("hs_scan failed with code " + std::to_string(rc));
    for (size_t k = before; k < hits.size(); ++k) hits[k].second += off;
    if (markers)
      for (size_t k = markers_before; k < markers->size(); ++k) (*markers)[k].second += off;
  }
  for (size_t k = first; k < hits.size(); ++k) hits[k].first = hs_ids_[hits[k].first];
  return Status::Ok();
}

pcre2_code* PatternDatabase::WholeCode(uint32_t index) const {
  return lazy_[index]->whole.Get(
      [&] { return std::make_pair("(?:" + patterns_[index] + ")\\z", uint32_t{PCRE2_ANCHORED}); });
}

namespace {

// A pattern that is one alternation as a whole, "(?:A (.*?)|B)" (a message with
// alternative forms), with each alternative's trailing hole running greedily to
// the end of the line, as a whole pattern's trailing hole does in SearchCode: a
// lazy one at the end of an unanchored search matches nothing (`... at position
// (.*?)` would stop before the position). "" when `p` is no such alternation or
// no alternative ends in a hole.
std::string AlternativesWithGreedyTails(std::string_view p) {
  if (p.size() < 5 || p.compare(0, 3, "(?:") != 0 || p.back() != ')') return "";
  std::vector<size_t> ends;  // where each alternative ends (its '|' or the final ')')
  int depth = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
      continue;
    }
    if (p.compare(i, kHoleGroup.size(), kHoleGroup) == 0) {
      i += kHoleGroup.size() - 1;
    } else if (p[i] == '(') {  // "(?:" (ScanForm admits no other group)
      ++depth;
    } else if (p[i] == ')') {
      if (--depth == 0 && i + 1 != p.size()) return "";  // "(?:a|b) c": not one alternation
      if (depth == 0) ends.push_back(i);
    } else if (p[i] == '|' && depth == 1) {
      ends.push_back(i);
    }
  }
  std::string out;
  size_t from = 0;
  bool changed = false;
  for (size_t e : ends) {
    // (A hole is never escaped: a message's own "(.*?)" is written \(\.\*\?\).)
    bool tail = e >= kHoleGroup.size() && p.compare(e - kHoleGroup.size(), kHoleGroup.size(), kHoleGroup) == 0;
    if (tail) {
      out.append(p.substr(from, e - kHoleGroup.size() - from));
      out += "([^\\n]*)";
      changed = true;
    } else {
      out.append(p.substr(from, e - from));
    }
    out.push_back(p[e]);
    from = e + 1;
  }
  return changed ? out : "";
}

}  // namespace

pcre2_code* PatternDatabase::SearchCode(uint32_t index) const {
  return lazy_[index]->search.Get([&] {
    const std::string& p = patterns_[index];
    FormScan f = ScanForm(p);
    if (f.conforms && !(f.leading_hole || f.trailing_hole)) {
      std::string tails = AlternativesWithGreedyTails(p);
      if (!tails.empty()) return std::make_pair(tails, uint32_t{0});
    }
    if (!f.conforms || !(f.leading_hole || f.trailing_hole)) return std::make_pair(p, uint32_t{0});
    // Holes at the ends are bounded by the line: a leading one starts at the
    // text's start (anchored, so one start position: linear), a trailing one
    // runs greedily to the end of the line.
    std::string search;
    if (f.leading_hole) search += "([^\\n]*?)";
    search += VectorscanExpression(p, f);
    if (f.trailing_hole) search += "([^\\n]*)";
    return std::make_pair(search, uint32_t{f.leading_hole ? PCRE2_ANCHORED : 0u});
  });
}

namespace {
std::optional<LocatedMatch> RunPcre(pcre2_code* re, std::string_view text, PatternDatabase::Scratch& s,
                                    pcre2_match_data* md, pcre2_match_context* mctx, uint32_t base_limit) {
  if (!re) return std::nullopt;
  // A hole's lazy "(.*?)" takes one step per byte it grows by, so a value of 700 KB
  // (a huge interpolated list) needs ~700k steps: the limit grows with the text
  // (linear, so still no catastrophic backtracking), capped.
  constexpr uint64_t kStepsPerByte = 16, kMaxLimit = 64u << 20;
  uint64_t limit = std::max<uint64_t>(base_limit, std::min<uint64_t>(kMaxLimit, kStepsPerByte * text.size()));
  pcre2_set_match_limit(mctx, static_cast<uint32_t>(limit));
  int rc = pcre2_match(re, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, md, mctx);
  if (rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL) return std::nullopt;
  LocatedMatch m;
  if (rc < 0) {  // match/depth/heap/JIT-stack limit: the hit stands, without captures
    m.limit_hit = true;
    m.end = text.size();
    return m;
  }
  PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
  uint32_t pairs = rc == 0 ? pcre2_get_ovector_count(md) : static_cast<uint32_t>(rc);
  m.begin = ov[0];
  m.end = ov[1];
  for (uint32_t g = 1; g < pairs; ++g) {
    if (ov[2 * g] == PCRE2_UNSET) continue;
    m.captures.push_back(PatternCapture{static_cast<int>(g), ov[2 * g], ov[2 * g + 1]});
  }
  return m;
}
}  // namespace

bool PatternDatabase::TooGenericOnly(uint32_t index) const {
  if (index >= patterns_.size() || compiled_[index]) return false;
  int lit = literal_chars_[index];
  return lit >= 3 && lit < static_cast<int>(options_.min_literal_chars) && patterns_[index].size() <= options_.max_pattern_bytes &&
         RepeatWithinLimit(patterns_[index]).ok();
}

std::optional<LocatedMatch> PatternDatabase::LocateWhole(uint32_t index, std::string_view text,
                                                         Scratch& scratch) const {
  // Patterns are compiled without the blanks they end with (MatchForm): a text's
  // trailing blanks are no part a template leaves unexplained.
  std::string_view t = text.substr(0, TrimmedLength(text));
  auto m = RunPcre(WholeCode(index), t, scratch, scratch.md, scratch.mctx, options_.match_limit);
  if (m && !m->limit_hit) m->whole_text = (m->begin == 0 && m->end == t.size());
  return m;
}

std::optional<LocatedMatch> PatternDatabase::LocateIn(uint32_t index, std::string_view text, Scratch& scratch) const {
  auto m = RunPcre(SearchCode(index), text, scratch, scratch.md, scratch.mctx, options_.match_limit);
  if (m && !m->limit_hit) m->whole_text = (m->begin == 0 && m->end == TrimmedLength(text));
  return m;
}

}  // namespace errdex
