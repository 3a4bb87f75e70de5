// match/explain.cc: windows of lines -> sections and plain lines -> ranked hits.
// Tested by explain_test.cc.
#include "match/explain.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <unordered_set>

namespace errdex {

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Python's built-in exception tree (and a few stdlib classes users see often):
// child -> parent. Used to tell "a subclass" from "another class".
const std::unordered_map<std::string_view, std::string_view>& ClassParents() {
  static const std::unordered_map<std::string_view, std::string_view> m = {
      {"Exception", "BaseException"}, {"SystemExit", "BaseException"}, {"KeyboardInterrupt", "BaseException"},
      {"GeneratorExit", "BaseException"}, {"BaseExceptionGroup", "BaseException"},
      {"ExceptionGroup", "Exception"}, {"ArithmeticError", "Exception"}, {"FloatingPointError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"}, {"ZeroDivisionError", "ArithmeticError"},
      {"AssertionError", "Exception"}, {"AttributeError", "Exception"}, {"BufferError", "Exception"},
      {"EOFError", "Exception"}, {"ImportError", "Exception"}, {"ModuleNotFoundError", "ImportError"},
      {"LookupError", "Exception"}, {"IndexError", "LookupError"}, {"KeyError", "LookupError"},
      {"MemoryError", "Exception"}, {"NameError", "Exception"}, {"UnboundLocalError", "NameError"},
      {"OSError", "Exception"}, {"BlockingIOError", "OSError"}, {"ChildProcessError", "OSError"},
      {"ConnectionError", "OSError"}, {"BrokenPipeError", "ConnectionError"},
      {"ConnectionAbortedError", "ConnectionError"}, {"ConnectionRefusedError", "ConnectionError"},
      {"ConnectionResetError", "ConnectionError"}, {"FileExistsError", "OSError"}, {"FileNotFoundError", "OSError"},
      {"InterruptedError", "OSError"}, {"IsADirectoryError", "OSError"}, {"NotADirectoryError", "OSError"},
      {"PermissionError", "OSError"}, {"ProcessLookupError", "OSError"}, {"TimeoutError", "OSError"},
      {"ReferenceError", "Exception"}, {"RuntimeError", "Exception"}, {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"}, {"StopIteration", "Exception"}, {"StopAsyncIteration", "Exception"},
      {"SyntaxError", "Exception"}, {"IndentationError", "SyntaxError"}, {"TabError", "IndentationError"},
      {"SystemError", "Exception"}, {"TypeError", "Exception"}, {"ValueError", "Exception"},
      {"UnicodeError", "ValueError"}, {"UnicodeDecodeError", "UnicodeError"},
      {"UnicodeEncodeError", "UnicodeError"}, {"UnicodeTranslateError", "UnicodeError"},
      {"Warning", "Exception"}, {"UserWarning", "Warning"}, {"DeprecationWarning", "Warning"},
      {"FutureWarning", "Warning"}, {"RuntimeWarning", "Warning"}, {"SyntaxWarning", "Warning"},
      {"JSONDecodeError", "ValueError"}, {"CalledProcessError", "SubprocessError"},
      {"SubprocessError", "Exception"}, {"TimeoutExpired", "SubprocessError"},
      {"BaseException", ""},
  };
  return m;
}

std::string_view CanonicalClass(std::string_view c) {
  if (c == "IOError" || c == "EnvironmentError" || c == "socket.error" || c == "error") return c == "error" ? c : "OSError";
  return c;
}

// (score delta, agreement) for a printed class against an entry's class.
std::pair<double, int> ClassEvidence(std::string_view printed, std::string_view entry) {
  if (printed.empty() || entry.empty()) return {0, 0};
  printed = CanonicalClass(printed);
  entry = CanonicalClass(ShortClassName(entry));
  if (printed == entry) return {25, 1};
  const auto& parents = ClassParents();
  std::string_view c = printed;
  for (int k = 0; k < 12; ++k) {
    auto it = parents.find(c);
    if (it == parents.end() || it->second.empty()) break;
    c = it->second;
    if (c == entry) return {15, 1};
  }
  bool printed_known = parents.count(printed) > 0;
  bool entry_known = parents.count(entry) > 0;
  if (!printed_known || !entry_known) return {-8, 0};  // maybe a subclass we cannot see
  return {-50, -1};
}

std::vector<std::string_view> PathComponents(std::string_view p) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find_first_of("/\\", i);
    if (j == std::string_view::npos) j = p.size();
    if (j > i) out.push_back(p.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// Does a frame's file name the entry's file? Trailing path components must agree:
// at least two ("json/decoder.py"), or one when the entry path has one.
bool FileMatches(std::string_view frame_file, std::string_view entry_file) {
  if (entry_file.empty() || frame_file.empty()) return false;
  auto a = PathComponents(frame_file), b = PathComponents(entry_file);
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
  return n >= 1 && n >= std::min<size_t>(2, b.size());
}

bool FunctionMatches(std::string_view frame_fn, std::string_view entry_fn) {
  if (frame_fn.empty() || entry_fn.empty()) return false;
  return ShortClassName(frame_fn) == ShortClassName(entry_fn);
}

std::string_view BaseName(std::string_view p) {
  size_t s = p.find_last_of("/\\");
  return s == std::string_view::npos ? p : p.substr(s + 1);
}

struct FrameEvidence {
  double score = 0;
  bool file = false;
  bool function = false;
  int line_delta = -1;  // of the best frame, -1 none
};

FrameEvidence ScoreFrames(const MatchEntry& e, const std::vector<TracebackFrame>* frames) {
  FrameEvidence best;
  if (!frames) return best;
  for (const TracebackFrame& f : *frames) {
    if (!FileMatches(f.file, e.file_path)) continue;
    FrameEvidence ev;
    ev.file = true;
    ev.score = 30;
    ev.function = FunctionMatches(f.function, e.function);
    if (ev.function) ev.score += 15;
    ev.line_delta = e.line > 0 ? std::abs(f.line - e.line) : -1;
    if (ev.line_delta == 0) ev.score += 5;
    else if (ev.line_delta > 0 && ev.line_delta <= 3) ev.score += 3;
    if (ev.score > best.score) best = ev;
  }
  return best;
}

std::vector<std::string> Tokens(std::string_view s, bool drop_placeholders) {
  std::vector<std::string> out;
  std::string cur;
  int brace = 0;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (drop_placeholders) {
      if (ch == '{') {
        ++brace;
        continue;
      }
      if (ch == '}' && brace > 0) {
        --brace;
        continue;
      }
      if (brace > 0) continue;
    }
    if (std::isalnum(c) || c >= 0x80) {
      cur.push_back(static_cast<char>(std::tolower(c)));
    } else {
      if (cur.size() >= 2) out.push_back(cur);
      cur.clear();
    }
  }
  if (cur.size() >= 2) out.push_back(cur);
  return out;
}

}  // namespace

double TokenSimilarity(std::string_view query, std::string_view message_template) {
  auto qa = Tokens(query, false), ta = Tokens(message_template, true);
  std::unordered_set<std::string> q(qa.begin(), qa.end()), t(ta.begin(), ta.end());
  if (q.empty() || t.empty()) return 0;
  size_t inter = 0;
  for (const auto& x : t) inter += q.count(x);
  double jaccard = static_cast<double>(inter) / static_cast<double>(q.size() + t.size() - inter);
  double containment = static_cast<double>(inter) / static_cast<double>(t.size());
  return 0.5 * jaccard + 0.5 * containment;
}

Matcher::Matcher(std::unique_ptr<PatternDatabase> db, std::vector<MatchEntry> entries)
    : db_(std::move(db)), entries_(std::move(entries)) {
  by_pattern_.resize(db_->size());
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    const MatchEntry& e = entries_[i];
    if (e.pattern >= 0 && static_cast<size_t>(e.pattern) < by_pattern_.size()) by_pattern_[e.pattern].push_back(i);
    if (!e.file_path.empty()) by_base_[std::string(BaseName(e.file_path))].push_back(i);
  }
}

Result<PatternDatabase::ScratchPtr> Matcher::AcquireScratch() const {
  {
    std::lock_guard<std::mutex> lock(pool_mu_);
    if (!pool_.empty()) {
      PatternDatabase::ScratchPtr s = std::move(pool_.back());
      pool_.pop_back();
      return s;
    }
  }
  return db_->NewScratch();
}

void Matcher::ReleaseScratch(PatternDatabase::ScratchPtr scratch) const {
  if (!scratch) return;
  std::lock_guard<std::mutex> lock(pool_mu_);
  if (pool_.size() < 64) pool_.push_back(std::move(scratch));
}

const std::vector<uint32_t>* Matcher::EntriesOfBaseName(std::string_view base) const {
  auto it = by_base_.find(std::string(base));
  return it == by_base_.end() ? nullptr : &it->second;
}

// The lines of one window: raw bytes first; normalized only when the window may
// hold something (a Vectorscan hit on the raw bytes, an ANSI escape, a traceback).
// Removing prefixes, "\r" or escapes never creates a match that the raw bytes lack
// (patterns are unanchored and a prefix is not inside a message), so a window
// without any of them is skipped at close to raw Vectorscan speed.
struct ExplainSession::Window {
  std::string raw;                    // lines, each followed by '\n'
  std::vector<size_t> raw_off;        // line i starts at raw[raw_off[i]]
  std::vector<uint64_t> raw_start;    // input offset of line i
  std::vector<NormalizedLine> lines;  // reused between windows (first n valid when normalized)
  size_t n = 0;
  size_t bytes = 0;
  bool has_escape = false;
  bool has_traceback = false;
  std::string_view Line(size_t i) const {
    size_t end = i + 1 < n ? raw_off[i + 1] : raw.size();
    return std::string_view(raw).substr(raw_off[i], end - raw_off[i] - 1);
  }
  void Clear() {
    n = 0;
    bytes = 0;
    raw.clear();
    has_escape = has_traceback = false;
  }
};

namespace {
struct FuzzyQuery {
  std::string text;
  std::string printed_class;
  uint64_t begin = 0, end = 0;
};
constexpr size_t kMaxFuzzyQueries = 8;
constexpr size_t kMaxFuzzyQueryBytes = 2048;
}  // namespace

ExplainSession::ExplainSession(const Matcher& matcher, ExplainOptions options, FuzzySearch fuzzy)
    : m_(matcher), opt_(std::move(options)), fuzzy_(std::move(fuzzy)), w_(std::make_unique<Window>()) {
  auto s = m_.AcquireScratch();
  if (s.ok()) scratch_ = std::move(s).value();
  else scratch_status_ = s.status();
  if (opt_.max_line_bytes == 0) opt_.max_line_bytes = 1;
}

ExplainSession::~ExplainSession() { m_.ReleaseScratch(std::move(scratch_)); }

Status ExplainSession::Feed(std::string_view bytes, const HitSink& sink) {
  if (!scratch_) return scratch_status_;
  Status result;
  if (opt_.max_input_bytes > 0 && raw_offset_ + bytes.size() > opt_.max_input_bytes) {
    bytes = bytes.substr(0, opt_.max_input_bytes > raw_offset_ ? opt_.max_input_bytes - raw_offset_ : 0);
    if (!limit_reported_) {
      limit_reported_ = true;
      result = Status::LimitExceeded("input is longer than max_input_bytes=" + std::to_string(opt_.max_input_bytes) +
                                     "; the rest is ignored");
    }
  }
  size_t pos = 0;
  while (pos < bytes.size()) {
    const void* nl = std::memchr(bytes.data() + pos, '\n', bytes.size() - pos);
    size_t stop = nl ? static_cast<size_t>(static_cast<const char*>(nl) - bytes.data()) : bytes.size();
    if (partial_.empty()) partial_start_ = raw_offset_ + pos;
    std::string_view piece = bytes.substr(pos, stop - pos);
    if (partial_.empty() && nl) {  // a whole line: no copy
      while (piece.size() > opt_.max_line_bytes) {
        AddLine(piece.substr(0, opt_.max_line_bytes), sink);
        partial_start_ += opt_.max_line_bytes;
        piece.remove_prefix(opt_.max_line_bytes);
      }
      AddLine(piece, sink);
    } else {
      partial_.append(piece);
      while (partial_.size() > opt_.max_line_bytes) {  // a huge line: cut it, memory stays bounded
        AddLine(std::string_view(partial_).substr(0, opt_.max_line_bytes), sink);
        partial_.erase(0, opt_.max_line_bytes);
        partial_start_ += opt_.max_line_bytes;
      }
      if (nl) {
        AddLine(partial_, sink);
        partial_.clear();
      }
    }
    pos = nl ? stop + 1 : bytes.size();
  }
  raw_offset_ += bytes.size();
  if (!flush_status_.ok()) return flush_status_;
  return result;
}

void ExplainSession::AddLine(std::string_view raw, const HitSink& sink) {
  Window& w = *w_;
  if (w.n == w.raw_start.size()) {
    w.raw_start.push_back(0);
    w.raw_off.push_back(0);
  }
  w.raw_start[w.n] = partial_start_;
  w.raw_off[w.n] = w.raw.size();
  w.raw.append(raw);
  w.raw.push_back('\n');
  ++w.n;
  w.bytes += raw.size() + 1;
  if (w.bytes >= opt_.window_bytes && (w.bytes >= 16 * opt_.window_bytes || !TracebackOpen())) {
    Status s = Flush(sink);
    if (!s.ok() && flush_status_.ok()) flush_status_ = s;
  }
}

// Is the window's last traceback still going on (a window must not end inside it)?
// Only called when a window is full; follows the last "Traceback" header's writer.
bool ExplainSession::TracebackOpen() {
  Window& w = *w_;
  constexpr std::string_view kWord = "Traceback";
  size_t last = std::string::npos;
  for (const char* p = w.raw.data(); (p = static_cast<const char*>(memmem(p, w.raw.data() + w.raw.size() - p,
                                                                          kWord.data(), kWord.size())));
       p += kWord.size())
    last = static_cast<size_t>(p - w.raw.data());
  if (last == std::string::npos) return false;
  size_t i = static_cast<size_t>(std::upper_bound(w.raw_off.begin(), w.raw_off.begin() + w.n, last) -
                                 w.raw_off.begin()) - 1;
  NormalizedLine header;
  normalizer_.Normalize(w.Line(i), header);
  if (!IsTracebackHeader(header.text)) return false;
  bool in_frames = true;
  size_t message_lines = 0;
  for (size_t j = i + 1; j < w.n; ++j) {
    normalizer_.Normalize(w.Line(j), probe_);
    if (probe_.source != header.source) continue;
    std::string_view t = probe_.text;
    if (in_frames) {
      if (t.empty() || t[0] == ' ' || t[0] == '\t' || t[0] == '|' || t[0] == '+') continue;
      in_frames = false;
      message_lines = 1;
      continue;
    }
    if (t.empty() || probe_.record_start || StartsWith(t, "During handling") || StartsWith(t, "The above exception") ||
        ++message_lines > opt_.max_message_lines)
      return false;
  }
  return true;
}

Status ExplainSession::Finish(const HitSink& sink) {
  if (!scratch_) return scratch_status_;
  if (!partial_.empty()) {
    AddLine(partial_, sink);
    partial_.clear();
  }
  Status s = Flush(sink);
  if (!s.ok()) return s;
  if (hits_ > 0 || !opt_.fuzzy || fuzzy_queries_.empty()) return Status::Ok();

  // Fuzzy fallback: candidates per query, then token similarity decides.
  std::map<uint32_t, ExplainHit> best;
  for (const std::string& packed : fuzzy_queries_) {
    // packed = begin \0 end \0 class \0 text
    size_t a = packed.find('\0'), b = packed.find('\0', a + 1), c = packed.find('\0', b + 1);
    FuzzyQuery q;
    q.begin = std::stoull(packed.substr(0, a));
    q.end = std::stoull(packed.substr(a + 1, b - a - 1));
    q.printed_class = packed.substr(b + 1, c - b - 1);
    q.text = packed.substr(c + 1);
    std::vector<std::pair<uint32_t, double>> cands;
    if (fuzzy_) {
      cands = fuzzy_(q.text, 30);
    } else {
      for (uint32_t i = 0; i < m_.entries().size() && i < 200000; ++i) cands.emplace_back(i, 0.0);
    }
    for (auto [entry, bm25] : cands) {
      if (entry >= m_.entries().size()) continue;
      if (opt_.accept && !opt_.accept(entry)) continue;
      const MatchEntry& e = m_.entries()[entry];
      double sim = TokenSimilarity(q.text, e.message);
      auto [cls, agree] = ClassEvidence(q.printed_class, e.error_class);
      if (agree < 0) sim *= 0.7;
      if (sim < opt_.fuzzy_min_similarity) continue;
      ExplainHit h;
      h.entry = entry;
      h.kind = ExplainHit::Kind::kFuzzy;
      h.approximate = true;
      h.score = 40 * sim + (bm25 > 0 ? 2 * bm25 / (1 + bm25) : 0);
      h.begin = q.begin;
      h.end = q.end;
      h.printed_class = q.printed_class;
      h.message = q.text;
      h.message_length = q.text.size();
      h.class_agreement = agree;
      auto it = best.find(entry);
      if (it == best.end() || it->second.score < h.score) best[entry] = std::move(h);
    }
  }
  std::vector<ExplainHit> hits;
  for (auto& [k, h] : best) hits.push_back(std::move(h));
  std::sort(hits.begin(), hits.end(), [](const ExplainHit& x, const ExplainHit& y) {
    return x.score != y.score ? x.score > y.score : x.entry < y.entry;
  });
  if (hits.size() > opt_.top_k) hits.resize(opt_.top_k);
  uint64_t group = next_group_++;
  for (ExplainHit& h : hits) {
    h.group = group;
    ++hits_;
    sink(h);
  }
  return Status::Ok();
}

Status ExplainSession::Flush(const HitSink& sink) {
  Window& w = *w_;
  if (w.n == 0) return Status::Ok();
  const PatternDatabase& db = m_.db();
  PatternDatabase::Scratch& scratch = *scratch_;
  auto raw_of = [&](size_t li, size_t off) { return w.raw_start[li] + w.lines[li].RawOffset(off); };
  if (w.lines.size() < w.n) w.lines.resize(w.n);
  std::vector<std::pair<uint32_t, size_t>> hs_hits;
  auto remember_query = [&](std::string_view text, std::string_view cls, uint64_t b, uint64_t e) {
    if (hits_ > 0 || !opt_.fuzzy || text.empty()) return;
    std::string packed = std::to_string(b) + '\0' + std::to_string(e) + '\0' + std::string(cls) + '\0' +
                         std::string(text.substr(0, kMaxFuzzyQueryBytes));
    if (fuzzy_queries_.size() >= kMaxFuzzyQueries) fuzzy_queries_.erase(fuzzy_queries_.begin());
    fuzzy_queries_.push_back(std::move(packed));
  };
  // Remembers the last non-blank plain lines for the fuzzy fallback (only while nothing matched).
  auto remember_lines = [&](const std::vector<size_t>& idx, bool normalized) {
    if (hits_ > 0 || !opt_.fuzzy) return;
    std::vector<size_t> picked;
    for (size_t k = idx.size(); k-- > 0 && picked.size() < kMaxFuzzyQueries;) {
      size_t li = idx[k];
      if (!normalized) normalizer_.Normalize(w.Line(li), w.lines[li]);
      if (w.lines[li].text.find_first_not_of(" \t") != std::string::npos) picked.push_back(li);
    }
    for (size_t k = picked.size(); k-- > 0;) {  // oldest first: the newest stays in the bounded list
      size_t li = picked[k];
      std::string_view t = w.lines[li].text;
      ClassSplit cs = SplitClassPrefix(t, true);
      remember_query(t, cs.ok ? ShortClassName(t.substr(0, cs.class_end)) : std::string_view(), raw_of(li, 0),
                     raw_of(li, t.size()));
    }
  };

  w.has_escape = std::memchr(w.raw.data(), 0x1b, w.raw.size()) != nullptr;
  w.has_traceback = memmem(w.raw.data(), w.raw.size(), "Traceback", 9) != nullptr;
  // Which lines can matter: those with a Vectorscan hit in the raw bytes, those
  // with an ANSI escape (it may split a message), and tracebacks (from their header
  // on, kTracebackLines lines). The others are not even normalized.
  Status st = db.Scan(w.raw, scratch, hs_hits);
  if (!st.ok()) return st;
  std::vector<bool> needed(w.n, false);
  size_t needed_count = 0;
  auto need = [&](size_t i) {
    if (!needed[i]) ++needed_count;
    needed[i] = true;
  };
  for (auto [p, end] : hs_hits) {
    size_t pos = end > 0 ? end - 1 : 0;
    size_t i = static_cast<size_t>(std::upper_bound(w.raw_off.begin(), w.raw_off.begin() + w.n, pos) -
                                   w.raw_off.begin()) - 1;
    need(i);
  }
  std::vector<bool> normalized(w.n, false);
  auto normalize = [&](size_t i) -> const NormalizedLine& {
    if (!normalized[i]) normalizer_.Normalize(w.Line(i), w.lines[i]);
    normalized[i] = true;
    return w.lines[i];
  };
  if (w.has_escape || w.has_traceback) {
    constexpr size_t kMaxTracebackLines = 1024;
    for (size_t i = 0; i < w.n; ++i) {
      std::string_view l = w.Line(i);
      if (w.has_escape && std::memchr(l.data(), 0x1b, l.size())) need(i);
      if (!w.has_traceback || l.find("Traceback") == std::string_view::npos) continue;
      const NormalizedLine& header = normalize(i);
      if (!IsTracebackHeader(header.text)) continue;
      need(i);
      // Follow this writer's traceback: frames, the exception line, its message lines,
      // a chaining sentence (the next traceback has its own header).
      bool in_frames = true;
      size_t message_lines = 0;
      for (size_t j = i + 1; j < w.n && j < i + kMaxTracebackLines; ++j) {
        const NormalizedLine& nl = normalize(j);
        if (nl.source != header.source) continue;
        std::string_view t = nl.text;
        need(j);
        if (in_frames) {
          if (t.empty() || t[0] == ' ' || t[0] == '\t' || t[0] == '|' || t[0] == '+') continue;
          in_frames = false;
          message_lines = 1;
          continue;
        }
        if (t.empty() || nl.record_start || StartsWith(t, "During handling") || StartsWith(t, "The above exception") ||
            ++message_lines > opt_.max_message_lines)
          break;
      }
    }
  }
  if (needed_count == 0) {
    if (hits_ == 0 && opt_.fuzzy) {
      std::vector<size_t> all(w.n);
      for (size_t i = 0; i < w.n; ++i) all[i] = i;
      remember_lines(all, /*normalized=*/false);
    }
    w.Clear();
    return Status::Ok();
  }
  hs_hits.clear();
  // The selected lines, renumbered 0..m-1: L (normalized), S (input offset).
  std::vector<size_t> sel;
  sel.reserve(needed_count);
  for (size_t i = 0; i < w.n; ++i)
    if (needed[i]) {
      normalize(i);
      sel.push_back(i);
    }
  const size_t m = sel.size();
  std::vector<const NormalizedLine*> L(m);
  std::vector<uint64_t> S(m);
  for (size_t k = 0; k < m; ++k) {
    L[k] = &w.lines[sel[k]];
    S[k] = w.raw_start[sel[k]];
  }
  auto sel_raw_of = [&](size_t k, size_t off) { return S[k] + L[k]->RawOffset(off); };

  std::vector<const NormalizedLine*>& ptrs = L;
  std::vector<bool> consumed(m, false);
  std::vector<ExceptionSection> sections = ParseTracebacks(ptrs, opt_.max_message_lines, consumed);

  struct Group {
    uint64_t begin;
    std::vector<ExplainHit> hits;
  };
  std::vector<Group> groups;
  hs_hits.clear();
  Status scan_status;

  auto accept = [&](uint32_t entry) { return !opt_.accept || opt_.accept(entry); };

  // Evaluates one pattern hit on `text` (with a mapping of its offsets to input offsets).
  auto evaluate = [&](uint32_t pattern, std::string_view text, size_t hs_end, std::string_view printed_short,
                      const std::vector<TracebackFrame>* frames, const std::function<uint64_t(size_t)>& map,
                      std::vector<ExplainHit>& out) {
    std::optional<LocatedMatch> loc = db.LocateWhole(pattern, text, scratch);
    if (!loc || !loc->whole_text) {
      auto in = db.LocateIn(pattern, text, scratch);
      if (in) loc = in;
      else if (!loc) return;
    }
    if (loc->limit_hit) {  // PCRE2 gave up: keep Vectorscan's word for it, no captures
      loc->begin = 0;
      loc->end = std::min(hs_end, text.size());
      loc->whole_text = false;
    }
    double coverage = text.empty() ? 1.0 : static_cast<double>(loc->end - loc->begin) / static_cast<double>(text.size());
    int literal = db.literal_chars(pattern);
    // How much of the printed text is the template's own literal text: a full match
    // of "(.*?) in (.*?)" explains little of a long message.
    double literal_ratio = text.empty() ? 1.0 : std::min(1.0, 2.0 * literal / static_cast<double>(text.size()));
    for (uint32_t entry : m_.EntriesOfPattern(pattern)) {
      if (!accept(entry)) continue;
      const MatchEntry& e = m_.entries()[entry];
      ExplainHit h;
      h.entry = entry;
      h.kind = ExplainHit::Kind::kPattern;
      h.full = loc->whole_text;
      double s = h.full ? 70 + 30 * literal_ratio : 40 + 30 * std::min(1.0, coverage);
      s += 0.25 * std::min(literal, 160);
      auto [cls, agree] = ClassEvidence(printed_short, e.error_class);
      s += cls;
      h.class_agreement = agree;
      FrameEvidence fe = ScoreFrames(e, frames);
      s += fe.score;
      h.frame_file = fe.file;
      h.frame_function = fe.function;
      h.score = s;
      h.begin = map(loc->begin);
      h.end = loc->end > loc->begin ? map(loc->end - 1) + 1 : h.begin;
      h.message = std::string(text);
      h.message_offset = loc->begin;
      h.message_length = loc->end - loc->begin;
      for (const PatternCapture& c : loc->captures) {
        ExplainCapture ec;
        ec.group = c.group;
        ec.begin = map(c.begin);
        ec.end = c.end > c.begin ? map(c.end - 1) + 1 : ec.begin;
        ec.text = std::string(text.substr(c.begin, c.end - c.begin));
        ec.message_begin = c.begin;
        ec.message_end = c.end;
        h.captures.push_back(std::move(ec));
      }
      out.push_back(std::move(h));
    }
  };
  auto rank = [&](std::vector<ExplainHit>& hits) {
    std::sort(hits.begin(), hits.end(), [](const ExplainHit& x, const ExplainHit& y) {
      return x.score != y.score ? x.score > y.score : x.entry < y.entry;
    });
    // One hit per entry (the best).
    std::unordered_set<uint32_t> seen;
    std::vector<ExplainHit> kept;
    for (ExplainHit& h : hits)
      if (seen.insert(h.entry).second && kept.size() < opt_.top_k) kept.push_back(std::move(h));
    hits = std::move(kept);
  };

  // 1. Exception sections of tracebacks.
  for (const ExceptionSection& sec : sections) {
    std::string seg;
    struct Piece {
      size_t seg_off, line, line_off;
    };
    std::vector<Piece> pieces;
    for (auto [li, off] : sec.message_lines) {
      if (!pieces.empty()) seg += '\n';
      pieces.push_back(Piece{seg.size(), li, off});
      seg.append((*L[li]).text, std::min(off, (*L[li]).text.size()));
    }
    auto map = [&](size_t pos) -> uint64_t {
      size_t k = pieces.size() - 1;
      while (k > 0 && pieces[k].seg_off > pos) --k;
      return sel_raw_of(pieces[k].line, pieces[k].line_off + (pos - pieces[k].seg_off));
    };
    std::vector<ExplainHit> hits;
    hs_hits.clear();
    scan_status = db.Scan(seg, scratch, hs_hits);
    if (!scan_status.ok()) return scan_status;
    std::set<uint32_t> done;
    for (auto [p, end] : hs_hits) {
      done.insert(p);
      evaluate(p, seg, end, sec.short_class, &sec.frames, map, hits);
    }
    if (seg.find('\n') != std::string::npos) {
      // A message wrapped over lines, or a value with newlines: also try it as one line.
      std::string flat = seg;
      std::replace(flat.begin(), flat.end(), '\n', ' ');
      hs_hits.clear();
      scan_status = db.Scan(flat, scratch, hs_hits);
      if (!scan_status.ok()) return scan_status;
      for (auto [p, end] : hs_hits)
        if (!done.count(p)) evaluate(p, flat, end, sec.short_class, &sec.frames, map, hits);
    }
    if (hits.empty()) {
      // No message matched (AssertionError without message, a reworded message):
      // the frames may still name the place.
      std::map<uint32_t, ExplainHit> by_entry;
      for (const TracebackFrame& f : sec.frames) {
        const auto* cands = m_.EntriesOfBaseName(BaseName(f.file));
        if (!cands) continue;
        for (uint32_t entry : *cands) {
          if (!accept(entry)) continue;
          const MatchEntry& e = m_.entries()[entry];
          if (!FileMatches(f.file, e.file_path)) continue;
          auto [cls, agree] = ClassEvidence(sec.short_class, e.error_class);
          if (agree != 1 && !(sec.short_class.empty() && e.error_class.empty())) continue;
          bool fn = FunctionMatches(f.function, e.function);
          int d = e.line > 0 ? std::abs(f.line - e.line) : 1000000;
          if (!fn && d > 10) continue;
          ExplainHit h;
          h.entry = entry;
          h.kind = ExplainHit::Kind::kFrame;
          h.approximate = !seg.empty();
          h.score = 20 + 30 + (fn ? 15 : 0) + (d == 0 ? 15 : d <= 5 ? 8 : d <= 50 ? 2 : 0) + cls;
          h.class_agreement = agree;
          h.frame_file = true;
          h.frame_function = fn;
          h.begin = sel_raw_of(sec.class_line, 0);
          h.end = sel_raw_of(sec.class_line, (*L[sec.class_line]).text.size());
          h.message = seg;
          h.message_length = seg.size();
          auto it = by_entry.find(entry);
          if (it == by_entry.end() || it->second.score < h.score) by_entry[entry] = std::move(h);
        }
      }
      for (auto& [k, h] : by_entry) hits.push_back(std::move(h));
    }
    for (ExplainHit& h : hits) h.printed_class = sec.printed_class;
    rank(hits);
    if (hits.empty()) {
      std::string q = sec.printed_class.empty() ? seg : sec.printed_class + ": " + seg;
      remember_query(q, sec.short_class, sel_raw_of(sec.class_line, 0),
                     sel_raw_of(sec.class_line, (*L[sec.class_line]).text.size()));
      continue;
    }
    groups.push_back(Group{sel_raw_of(sec.class_line, 0), std::move(hits)});
  }

  // 2. Plain lines: one scan over all of them.
  std::string text;
  std::vector<size_t> starts, idx;
  for (size_t li = 0; li < m; ++li) {
    if (consumed[li]) continue;
    starts.push_back(text.size());
    idx.push_back(li);
    text += (*L[li]).text;
    text += '\n';
  }
  hs_hits.clear();
  scan_status = db.Scan(text, scratch, hs_hits);
  if (!scan_status.ok()) return scan_status;
  std::map<size_t, std::vector<std::pair<uint32_t, size_t>>> by_line;  // k -> (pattern, end in line)
  for (auto [p, end] : hs_hits) {
    size_t pos = end > 0 ? end - 1 : 0;
    size_t k = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), pos) - starts.begin()) - 1;
    by_line[k].emplace_back(p, end - starts[k]);
  }
  std::set<size_t> hit_lines;
  for (auto& [k, pats] : by_line) {
    size_t li = idx[k];
    std::string_view t = (*L[li]).text;
    ClassSplit cs = SplitClassPrefix(t, /*strict=*/true);
    std::string_view printed = cs.ok ? t.substr(0, cs.class_end) : std::string_view();
    std::string_view msg = cs.ok ? t.substr(cs.message_begin) : t;
    size_t base = cs.ok ? cs.message_begin : 0;
    std::vector<ExplainHit> hits;
    for (auto [p, end] : pats) {
      size_t before = hits.size();
      auto map = [&](size_t pos) { return sel_raw_of(li, base + pos); };
      if (end > base) evaluate(p, msg, end - base, ShortClassName(printed), nullptr, map, hits);
      if (hits.size() == before && base > 0) {
        auto map0 = [&](size_t pos) { return sel_raw_of(li, pos); };
        evaluate(p, t, end, ShortClassName(printed), nullptr, map0, hits);
      }
    }
    for (ExplainHit& h : hits) h.printed_class = std::string(printed);
    rank(hits);
    if (hits.empty()) continue;
    hit_lines.insert(li);
    groups.push_back(Group{sel_raw_of(li, 0), std::move(hits)});
  }
  if (groups.empty() && hits_ == 0 && opt_.fuzzy) {
    std::vector<bool> in_traceback(w.n, false);
    for (size_t k = 0; k < m; ++k) in_traceback[sel[k]] = consumed[k];
    std::vector<size_t> plain;
    for (size_t i = 0; i < w.n; ++i)
      if (!in_traceback[i]) plain.push_back(i);
    remember_lines(plain, /*normalized=*/false);
  }

  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.begin < b.begin; });
  for (Group& g : groups) {
    uint64_t id = next_group_++;
    for (ExplainHit& h : g.hits) {
      h.group = id;
      ++hits_;
      sink(h);
    }
  }
  w.Clear();
  return Status::Ok();
}

}  // namespace errdex
