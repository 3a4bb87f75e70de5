// match/explain.cc: windows of lines -> sections and plain lines -> ranked hits.
// Tested by explain_test.cc.
#include "match/explain.h"

#include "match/foreign_traces.h"
#include "match/python_repr.h"

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

// Path components from the end: Next() yields "decoder.py", then "json", ...
struct ReversePath {
  std::string_view rest;
  bool Next(std::string_view& out) {
    while (!rest.empty() && (rest.back() == '/' || rest.back() == '\\')) rest.remove_suffix(1);
    if (rest.empty()) return false;
    size_t s = rest.find_last_of("/\\");
    size_t begin = s == std::string_view::npos ? 0 : s + 1;
    out = rest.substr(begin);
    rest = rest.substr(0, begin);
    return true;
  }
};

// Does a frame's file name the entry's file? Trailing path components must agree:
// at least two ("json/decoder.py"), or one when the entry path has one.
bool FileMatches(std::string_view frame_file, std::string_view entry_file) {
  if (entry_file.empty() || frame_file.empty()) return false;
  ReversePath a{frame_file}, b{entry_file};
  std::string_view x, y;
  size_t n = 0;
  bool b_more = false;
  while (b.Next(y)) {
    if (!a.Next(x) || x != y) {
      b_more = true;
      break;
    }
    if (++n >= 2) return true;
  }
  return n >= 1 && !b_more;  // one agreeing component, and the entry path has only that one
}

bool FunctionMatches(std::string_view frame_fn, std::string_view entry_fn) {
  if (frame_fn.empty() || entry_fn.empty()) return false;
  return ShortClassName(frame_fn) == ShortClassName(entry_fn);
}

std::string_view BaseName(std::string_view p) {
  // A plain loop: find_last_of calls memchr on its set for every byte.
  size_t i = p.size();
  while (i > 0 && p[i - 1] != '/' && p[i - 1] != '\\') --i;
  return p.substr(i);
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

// Lower-cased alphanumeric runs of 2+ bytes (bytes >= 0x80 count as letters);
// "{expr}" placeholders of a template are left out when drop_placeholders.
std::unordered_set<std::string> Tokens(std::string_view s, bool drop_placeholders) {
  std::unordered_set<std::string> out;
  std::string cur;
  int brace = 0;
  auto flush = [&] {
    if (cur.size() >= 2) out.insert(cur);
    cur.clear();
  };
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
    if (c >= 'A' && c <= 'Z') cur.push_back(static_cast<char>(c + ('a' - 'A')));
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80) cur.push_back(ch);
    else flush();
  }
  flush();
  return out;
}

// Similarity of a template's tokens to a query's (computed once per query).
double SimilarityToTokens(const std::unordered_set<std::string>& q, std::string_view message_template) {
  auto t = Tokens(message_template, true);
  if (q.empty() || t.empty()) return 0;
  size_t inter = 0;
  for (const auto& x : t) inter += q.count(x);
  double jaccard = static_cast<double>(inter) / static_cast<double>(q.size() + t.size() - inter);
  double containment = static_cast<double>(inter) / static_cast<double>(t.size());
  return 0.5 * jaccard + 0.5 * containment;
}

}  // namespace

double TokenSimilarity(std::string_view query, std::string_view message_template) {
  return SimilarityToTokens(Tokens(query, false), message_template);
}

Matcher::Matcher(std::unique_ptr<PatternDatabase> db, std::vector<MatchEntry> entries,
                 std::shared_ptr<const void> storage)
    : storage_(std::move(storage)), db_(std::move(db)), entries_(std::move(entries)) {
  by_pattern_.resize(db_->size());
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    const MatchEntry& e = entries_[i];
    if (e.pattern >= 0 && static_cast<size_t>(e.pattern) < by_pattern_.size()) by_pattern_[e.pattern].push_back(i);
  }
}

void Matcher::BuildFileIndex() const {
  // path -> its base name's vector and its slot there (thousands of files are
  // __init__.py); only a path's first entry looks up its base name.
  std::unordered_map<std::string_view, std::pair<std::vector<FileEntries>*, uint32_t>> file_slot;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    const MatchEntry& e = entries_[i];
    if (e.file_path.empty()) continue;
    auto [it, fresh] = file_slot.try_emplace(e.file_path);
    if (fresh) {
      std::vector<FileEntries>* files = &by_base_[BaseName(e.file_path)];  // node-based: the address stays
      it->second = {files, static_cast<uint32_t>(files->size())};
      files->emplace_back().first = i;
    }
    (*it->second.first)[it->second.second].entries.push_back(i);
  }
}

void Matcher::SortFile(const FileEntries& f) const {
  f.by_line = f.entries;
  std::sort(f.by_line.begin(), f.by_line.end(), [&](uint32_t a, uint32_t b) {
    return std::make_pair(entries_[a].line, a) < std::make_pair(entries_[b].line, b);
  });
  std::vector<std::pair<std::string_view, uint32_t>> fns;
  fns.reserve(f.entries.size());
  for (uint32_t e : f.entries) fns.emplace_back(ShortClassName(entries_[e].function), e);
  std::sort(fns.begin(), fns.end());
  for (auto& [fn, e] : fns) {
    f.by_function.push_back(e);
    f.functions.push_back(fn);
  }
}

void Matcher::EntriesNearFrame(std::string_view file, int line, std::string_view function,
                               std::vector<uint32_t>* out) const {
  std::call_once(file_index_once_, [this] { BuildFileIndex(); });
  auto files = by_base_.find(BaseName(file));
  if (files == by_base_.end()) return;
  std::string_view fn = function.empty() ? std::string_view() : ShortClassName(function);
  auto line_of = [&](uint32_t i) { return entries_[i].line; };
  for (const FileEntries& f : files->second) {
    if (!FileMatches(file, entries_[f.first].file_path)) continue;
    std::call_once(*f.sorted, [&] { SortFile(f); });
    auto lo = std::lower_bound(f.by_line.begin(), f.by_line.end(), line - 10,
                               [&](uint32_t i, int v) { return line_of(i) < v; });
    for (auto it = lo; it != f.by_line.end() && line_of(*it) <= line + 10; ++it) out->push_back(*it);
    if (fn.empty()) continue;
    auto [flo, fhi] = std::equal_range(f.functions.begin(), f.functions.end(), fn);
    for (auto it = flo; it != fhi; ++it) out->push_back(f.by_function[it - f.functions.begin()]);
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

// The lines of one window: raw bytes first; normalized only when the window may
// hold something (a Vectorscan hit on the raw bytes, an ANSI escape, a traceback).
// Removing prefixes, "\r" or escapes never creates a match that the raw bytes lack
// (patterns are unanchored and a prefix is not inside a message), so a window
// without any of them is skipped at close to raw Vectorscan speed.
// The window: input bytes from input offset `start` on. raw[0, complete) ends at a
// line end; after it comes an unfinished line. Lines are never indexed up front:
// a window is scanned as one buffer, and only the lines around a Vectorscan hit,
// an ANSI escape or a "Traceback" are found (memchr/memrchr) and normalized.
// Removing prefixes, "\r" or escapes never creates a match that the raw bytes lack
// (patterns are unanchored and a prefix is not inside a message), so a window
// without any of them costs about what raw Vectorscan costs.
struct ExplainSession::Window {
  std::string raw;
  uint64_t start = 0;
  size_t complete = 0;
};

namespace {
struct FuzzyQuery {
  std::string text;
  std::string printed_class;
  uint64_t begin = 0, end = 0;
};
constexpr size_t kMaxFuzzyQueries = 8;
constexpr size_t kMaxFuzzyQueryBytes = 2048;
constexpr size_t kMaxTracebackLines = 1024;  // lines followed after one traceback header

// A set of pattern ids of one line or window: a handful, so a vector beats a tree.
class SmallSet {
 public:
  bool contains(uint32_t x) const { return std::find(v_.begin(), v_.end(), x) != v_.end(); }
  bool insert(uint32_t x) {  // true when x was not there
    if (contains(x)) return false;
    v_.push_back(x);
    return true;
  }

 private:
  std::vector<uint32_t> v_;
};

// Line of `text` around byte `pos`: [begin, end) without its '\n'.
size_t LineBegin(std::string_view text, size_t pos) {
  const void* p = pos > 0 ? memrchr(text.data(), '\n', pos) : nullptr;
  return p ? static_cast<size_t>(static_cast<const char*>(p) - text.data()) + 1 : 0;
}
size_t LineEnd(std::string_view text, size_t begin) {
  const void* p = begin < text.size() ? std::memchr(text.data() + begin, '\n', text.size() - begin) : nullptr;
  return p ? static_cast<size_t>(static_cast<const char*>(p) - text.data()) : text.size();
}

// Does the traceback whose header line starts at `header_begin` continue past the
// end of `text`? Calls visit(line begin, normalized line) for each line it follows.
template <typename Normalize, typename Visit>
bool FollowTraceback(std::string_view text, size_t header_begin, size_t max_message_lines, Normalize&& normalize,
                     Visit&& visit) {
  const NormalizedLine& header = normalize(header_begin);
  if (!IsTracebackHeader(header.text)) return false;
  std::string source = header.source;
  visit(header_begin, header);
  bool in_frames = true;
  size_t message_lines = 0;
  size_t b = LineEnd(text, header_begin) + 1;
  // The writer's own name ("TP3", "rank1") is in the raw bytes of each of its lines:
  // a line without it is another writer's, and need not be normalized.
  std::string_view own = source;
  if (size_t slash = own.rfind('/'); slash != std::string_view::npos) own.remove_prefix(slash + 1);
  for (size_t k = 0; k < kMaxTracebackLines; ++k, b = LineEnd(text, b) + 1) {
    if (b >= text.size()) return true;  // the window ends inside it
    if (!own.empty()) {
      std::string_view head = text.substr(b, std::min<size_t>(LineEnd(text, b) - b, 512));
      if (head.find(own) == std::string_view::npos) continue;
    }
    const NormalizedLine& nl = normalize(b);
    if (nl.source != source) continue;
    visit(b, nl);
    std::string_view t = nl.text;
    if (in_frames) {
      if (t.empty() || t[0] == ' ' || t[0] == '\t' || t[0] == '|' || t[0] == '+') continue;
      in_frames = false;
      message_lines = 1;
      continue;
    }
    if (t.empty() || nl.record_start || StartsWith(t, "During handling") || StartsWith(t, "The above exception") ||
        ++message_lines > max_message_lines)
      return false;
  }
  return false;
}
}  // namespace

ExplainSession::ExplainSession(const Matcher& matcher, ExplainOptions options, FuzzySearch fuzzy)
    : m_(matcher), opt_(std::move(options)), fuzzy_(std::move(fuzzy)), w_(std::make_unique<Window>()) {
  auto s = m_.AcquireScratch();
  if (s.ok()) scratch_ = std::move(s).value();
  else scratch_status_ = s.status();
  if (opt_.max_line_bytes == 0) opt_.max_line_bytes = 1;
  if (opt_.window_bytes == 0) opt_.window_bytes = 1;
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
  Window& w = *w_;
  while (!bytes.empty()) {
    if (w.raw.empty() && bytes.size() >= opt_.window_bytes && opt_.max_line_bytes >= 2 * opt_.window_bytes) {
      // Nothing pending: whole windows straight from the caller's buffer, no copy.
      // (A line in it is at most 2 windows long, so none needs cutting.)
      std::string_view span = bytes.substr(0, 2 * opt_.window_bytes);
      const void* nl = memrchr(span.data(), '\n', span.size());
      size_t n = nl ? static_cast<size_t>(static_cast<const char*>(nl) - span.data()) + 1 : 0;
      if (n >= opt_.window_bytes) {
        size_t done = Explain(span.substr(0, n), raw_offset_, /*force=*/false, sink);
        if (done > 0) {
          bytes.remove_prefix(done);
          raw_offset_ += done;
          continue;
        }
      }
    }
    // Otherwise into the window, in pieces of at most a window, so memory stays
    // bounded whatever the caller passes.
    std::string_view piece = bytes.substr(0, opt_.window_bytes);
    bytes.remove_prefix(piece.size());
    if (w.raw.empty()) w.start = raw_offset_;
    raw_offset_ += piece.size();
    w.raw.append(piece);
    if (w.raw.size() - w.complete <= opt_.max_line_bytes) {
      // No line here can be longer than max_line_bytes: only the last line end matters.
      if (const void* nl = memrchr(piece.data(), '\n', piece.size()))
        w.complete = w.raw.size() - piece.size() + static_cast<size_t>(static_cast<const char*>(nl) - piece.data()) + 1;
    } else {
      // Maybe a huge line: walk the line ends; a line longer than max_line_bytes is
      // cut (no match spans a cut), and a cut always ends a window.
      for (;;) {
        size_t b = w.complete;
        size_t lim = std::min(w.raw.size(), b + opt_.max_line_bytes + 1);
        if (const void* nl = std::memchr(w.raw.data() + b, '\n', lim - b)) {
          w.complete = static_cast<size_t>(static_cast<const char*>(nl) - w.raw.data()) + 1;
        } else if (w.raw.size() - b > opt_.max_line_bytes) {
          FlushPrefix(b + opt_.max_line_bytes, sink);
        } else {
          break;
        }
      }
    }
    // Full windows go. One that ends inside a traceback keeps the traceback for the
    // next window (unless the window is huge); retry_at_ stops a retry per piece.
    while (w.complete >= std::max(opt_.window_bytes, retry_at_)) {
      size_t done = Explain(std::string_view(w.raw).substr(0, w.complete), w.start,
                            /*force=*/w.complete >= 16 * opt_.window_bytes, sink);
      if (done == 0) {
        retry_at_ = w.complete + opt_.window_bytes;
        break;
      }
      Drop(done);
    }
  }
  if (!flush_status_.ok()) return flush_status_;
  return result;
}

void ExplainSession::FlushPrefix(size_t n, const HitSink& sink) {
  Explain(std::string_view(w_->raw).substr(0, n), w_->start, /*force=*/true, sink);
  Drop(n);
}

size_t ExplainSession::Explain(std::string_view text, uint64_t base, bool force, const HitSink& sink) {
  size_t done = text.size();
  Status s = Flush(text, base, force, sink, &done);
  if (!s.ok() && flush_status_.ok()) flush_status_ = s;
  return s.ok() ? done : text.size();  // after an error, do not try the same bytes again
}

void ExplainSession::Drop(size_t n) {
  Window& w = *w_;
  w.raw.erase(0, n);
  w.start += n;
  w.complete = w.complete > n ? w.complete - n : 0;
  retry_at_ = 0;
}

Status ExplainSession::Finish(const HitSink& sink) {
  if (!scratch_) return scratch_status_;
  if (!w_->raw.empty()) FlushPrefix(w_->raw.size(), sink);
  w_->raw.shrink_to_fit();
  if (!flush_status_.ok()) return flush_status_;
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
    const auto query_tokens = Tokens(q.text, false);
    // The message words search; the class is weighed apart (ClassEvidence). A class
    // alone ("AssertionError") says nothing fuzzy search can use, and as a search
    // word it hits most of a test suite's catalog (98k rows: 150 ms per query).
    ClassSplit cs = SplitClassPrefix(q.text, true);
    std::string_view message = cs.ok ? std::string_view(q.text).substr(cs.message_begin) : std::string_view(q.text);
    if (message.find_first_not_of(" \t:") == std::string_view::npos) continue;
    std::vector<std::pair<uint32_t, double>> cands;
    if (fuzzy_) {
      cands = fuzzy_(message, 30);
    } else {
      for (uint32_t i = 0; i < m_.entries().size() && i < 200000; ++i) cands.emplace_back(i, 0.0);
    }
    for (auto [entry, bm25] : cands) {
      if (entry >= m_.entries().size()) continue;
      if (opt_.accept && !opt_.accept(entry)) continue;
      const MatchEntry& e = m_.entries()[entry];
      double sim = SimilarityToTokens(query_tokens, e.message);
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

Status ExplainSession::Flush(std::string_view text, uint64_t base, bool force, const HitSink& sink, size_t* done) {
  size_t n = text.size();
  *done = n;
  if (n == 0) return Status::Ok();
  const PatternDatabase& db = m_.db();
  PatternDatabase::Scratch& scratch = *scratch_;

  // The lines that matter, by their begin offset in `text`, normalized once.
  struct Line {
    NormalizedLine norm;
    bool normalized = false;
    bool needed = false;
    bool escape = false;
    std::vector<std::pair<uint32_t, size_t>> patterns;  // window hits on this line: (pattern, end in the raw line)
  };
  std::map<size_t, Line> lines;
  auto line_at = [&](size_t begin) -> Line& {
    Line& l = lines[begin];
    if (!l.normalized) {
      normalizer_.Normalize(text.substr(begin, LineEnd(text, begin) - begin), l.norm);
      l.normalized = true;
    }
    return l;
  };

  std::vector<std::pair<uint32_t, size_t>>& hs_hits = hs_hits_;
  std::vector<std::pair<PatternDatabase::Marker, size_t>>& markers = markers_;
  hs_hits.clear();
  markers.clear();
  Status st = db.Scan(text, scratch, hs_hits, &markers);
  if (!st.ok()) return st;
  // Tracebacks first: from each header on, the lines of its writer. One still going
  // at the end of the window ends the window before its header.
  size_t cut = n;
  for (auto [marker, end] : markers) {
    if (marker != PatternDatabase::Marker::kTracebackHeader) continue;
    size_t b = LineBegin(text, end > 0 ? end - 1 : 0);
    bool open = FollowTraceback(
        text, b, opt_.max_message_lines, [&](size_t lb) -> const NormalizedLine& { return line_at(lb).norm; },
        [&](size_t lb, const NormalizedLine&) { lines[lb].needed = true; });
    if (open && !force) cut = std::min(cut, b);
  }
  if (cut < n) {
    *done = cut;
    if (cut == 0) return Status::Ok();
    lines.erase(lines.lower_bound(cut), lines.end());
    text = text.substr(0, cut);
    n = cut;
  }
  for (auto [p, end] : hs_hits) {
    size_t b = LineBegin(text, end > 0 ? end - 1 : 0);
    if (b >= cut) continue;
    Line& l = lines[b];
    l.needed = true;
    l.patterns.emplace_back(p, end - b);
  }
  // An ANSI escape may split a message: such lines are re-scanned normalized.
  for (auto [marker, end] : markers) {
    if (marker != PatternDatabase::Marker::kEscape) continue;
    size_t b = LineBegin(text, end > 0 ? end - 1 : 0);
    if (b >= cut) continue;
    Line& l = lines[b];
    l.needed = l.escape = true;
  }

  // Rust panics, Go panics, Java stack traces, C++ terminate reports (foreign_traces.h).
  for (size_t b : ForeignTraceLines(text))
    if (b < cut) lines[b].needed = true;

  auto remember_query = [&](std::string_view q, std::string_view cls, uint64_t b, uint64_t e) {
    if (hits_ > 0 || !opt_.fuzzy || q.empty()) return;
    std::string packed = std::to_string(b) + '\0' + std::to_string(e) + '\0' + std::string(cls) + '\0' +
                         std::string(q.substr(0, kMaxFuzzyQueryBytes));
    if (fuzzy_queries_.size() >= kMaxFuzzyQueries) fuzzy_queries_.erase(fuzzy_queries_.begin());
    fuzzy_queries_.push_back(std::move(packed));
  };
  // The last non-blank lines outside tracebacks, for the fuzzy fallback (only while
  // nothing matched).
  auto remember_lines = [&](const std::vector<bool>* consumed, const std::vector<size_t>* sel_begin) {
    if (hits_ > 0 || !opt_.fuzzy) return;
    std::vector<std::pair<size_t, size_t>> picked;  // [begin, end)
    size_t e = n;
    if (e > 0 && text[e - 1] == '\n') --e;
    for (size_t guard = 0; picked.size() < kMaxFuzzyQueries && guard < 4096; ++guard) {
      size_t b = LineBegin(text, e);
      bool skip = false;
      if (consumed && sel_begin) {
        auto it = std::lower_bound(sel_begin->begin(), sel_begin->end(), b);
        skip = it != sel_begin->end() && *it == b && (*consumed)[static_cast<size_t>(it - sel_begin->begin())];
      }
      if (!skip) picked.emplace_back(b, e);
      if (b == 0) break;
      e = b - 1;
    }
    // Lines that print an exception ("ValueError: ...") are the error: when there are
    // any, the log lines around them are not queried (each query costs a full-text
    // search, and a log line's words only find look-alike noise).
    std::vector<NormalizedLine> norm(picked.size());
    std::vector<ClassSplit> split(picked.size());
    bool any_class = false;
    for (size_t k = 0; k < picked.size(); ++k) {
      normalizer_.Normalize(text.substr(picked[k].first, picked[k].second - picked[k].first), norm[k]);
      split[k] = SplitClassPrefix(norm[k].text, true);
      any_class = any_class || split[k].ok;
    }
    for (size_t k = picked.size(); k-- > 0;) {  // oldest first: the newest stays in the bounded list
      if (any_class && !split[k].ok) continue;
      std::string_view t = norm[k].text;
      if (t.find_first_not_of(" \t") == std::string_view::npos) continue;
      size_t b = picked[k].first;
      remember_query(t, split[k].ok ? ShortClassName(t.substr(0, split[k].class_end)) : std::string_view(),
                     base + b + norm[k].RawOffset(0), base + b + norm[k].RawOffset(t.size()));
    }
  };

  // The selected lines, renumbered 0..m-1: L (normalized), S (input offset of the raw line).
  std::vector<size_t> sel_begin;
  std::vector<Line*> sel_line;
  for (auto& [b, l] : lines)
    if (l.needed) {
      line_at(b);
      sel_begin.push_back(b);
      sel_line.push_back(&l);
    }
  if (sel_line.empty()) {
    remember_lines(nullptr, nullptr);
    return Status::Ok();
  }
  const size_t m = sel_line.size();
  std::vector<const NormalizedLine*> L(m);
  for (size_t k = 0; k < m; ++k) L[k] = &sel_line[k]->norm;
  auto sel_raw_of = [&](size_t k, size_t off) { return base + sel_begin[k] + L[k]->RawOffset(off); };

  std::vector<bool> consumed(m, false);
  std::vector<ExceptionSection> sections = ParseTracebacks(L, opt_.max_message_lines, consumed);
  ParseForeignTraces(L, opt_.max_message_lines, consumed, sections);

  struct Group {
    uint64_t begin;
    std::vector<ExplainHit> hits;
  };
  std::vector<Group> groups;
  std::vector<std::pair<uint32_t, size_t>> rescan;

  auto accept = [&](uint32_t entry) { return !opt_.accept || opt_.accept(entry); };

  // Evaluates one pattern hit on `text` (with a mapping of its offsets to input offsets).
  auto evaluate = [&](uint32_t pattern, std::string_view text, size_t hs_end, std::string_view printed_short,
                      const std::vector<TracebackFrame>* frames, const auto& map,
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
  // Best first, one hit per entry, top_k of them. Indices are sorted, not the hits:
  // a pattern shared by a hundred entries gives a hundred hits, and moving
  // ExplainHits around in the sort was a tenth of a log's explain time.
  std::vector<uint32_t> order;
  auto rank = [&](std::vector<ExplainHit>& hits) {
    order.resize(hits.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const ExplainHit& x = hits[a];
      const ExplainHit& y = hits[b];
      return x.score != y.score ? x.score > y.score : x.entry < y.entry;
    });
    std::vector<ExplainHit> kept;
    for (uint32_t i : order) {
      if (kept.size() >= opt_.top_k) break;
      bool seen = std::any_of(kept.begin(), kept.end(), [&](const ExplainHit& k) { return k.entry == hits[i].entry; });
      if (!seen) kept.push_back(std::move(hits[i]));
    }
    hits = std::move(kept);
  };


  // A message printed as a repr (KeyError) or as a tuple (several arguments): also
  // match the string it shows, decoded (python_repr.h).
  ReprReading repr;
  auto try_repr = [&](std::string_view printed_msg, std::string_view printed_short,
                      const std::vector<TracebackFrame>* frames, const auto& map,
                      std::vector<ExplainHit>& hits) -> Status {
    if (printed_msg.empty() || (printed_msg[0] != '\'' && printed_msg[0] != '"' && printed_msg[0] != '('))
      return Status::Ok();
    if (!ReadPythonRepr(printed_msg, repr) || repr.text.empty()) return Status::Ok();
    rescan.clear();
    Status s = db.Scan(repr.text, scratch, rescan);
    if (!s.ok()) return s;
    auto repr_map = [&](size_t pos) {
      return map(pos < repr.source.size() ? repr.source[pos] : repr.source.back() + 1);
    };
    SmallSet seen;
    for (auto [p, end] : rescan)
      if (seen.insert(p)) evaluate(p, repr.text, end, printed_short, frames, repr_map, hits);
    return Status::Ok();
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
    SmallSet done;
    if (pieces.size() == 1 && !sel_line[pieces[0].line]->escape) {
      // One plain message line: the window scan already saw it.
      for (auto [p, end] : sel_line[pieces[0].line]->patterns)
        if (done.insert(p)) evaluate(p, seg, seg.size(), sec.short_class, &sec.frames, map, hits);
    } else if (!pieces.empty()) {
      rescan.clear();
      Status s = db.Scan(seg, scratch, rescan);
      if (!s.ok()) return s;
      for (auto [p, end] : rescan)
        if (done.insert(p)) evaluate(p, seg, end, sec.short_class, &sec.frames, map, hits);
      if (seg.find('\n') != std::string::npos) {
        // A message wrapped over lines, or a value with newlines: also try it as one line.
        std::string flat = seg;
        std::replace(flat.begin(), flat.end(), '\n', ' ');
        rescan.clear();
        s = db.Scan(flat, scratch, rescan);
        if (!s.ok()) return s;
        for (auto [p, end] : rescan)
          if (done.insert(p)) evaluate(p, flat, end, sec.short_class, &sec.frames, map, hits);
      }
    }
    if (Status rs = try_repr(seg, sec.short_class, &sec.frames, map, hits); !rs.ok()) return rs;
    if (hits.empty()) {
      // No message matched (AssertionError without message, a reworded message):
      // the frames may still name the place.
      std::map<uint32_t, ExplainHit> by_entry;
      std::vector<uint32_t> cands;
      for (const TracebackFrame& f : sec.frames) {
        cands.clear();
        m_.EntriesNearFrame(f.file, f.line, f.function, &cands);
        for (uint32_t entry : cands) {
          const MatchEntry& e = m_.entries()[entry];
          int d = e.line > 0 ? std::abs(f.line - e.line) : 1000000;
          bool fn_match = FunctionMatches(f.function, e.function);
          if (!fn_match && d > 10) continue;
          if (!accept(entry)) continue;
          auto [cls, agree] = ClassEvidence(sec.short_class, e.error_class);
          if (agree != 1 && !(sec.short_class.empty() && e.error_class.empty())) continue;
          ExplainHit h;
          h.entry = entry;
          h.kind = ExplainHit::Kind::kFrame;
          h.approximate = !seg.empty();
          h.score = 20 + 30 + (fn_match ? 15 : 0) + (d == 0 ? 15 : d <= 5 ? 8 : d <= 50 ? 2 : 0) + cls;
          h.class_agreement = agree;
          h.frame_file = true;
          h.frame_function = fn_match;
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

  // 2. Plain lines: the window scan's hits on them; a line with an ANSI escape is
  // scanned again normalized. A pattern reports once per window of plain lines.
  SmallSet plain_seen;
  for (size_t li = 0; li < m; ++li) {
    if (consumed[li]) continue;
    std::vector<std::pair<uint32_t, size_t>>& pats = sel_line[li]->patterns;
    std::string_view t = (*L[li]).text;
    if (sel_line[li]->escape) {
      rescan.clear();
      Status s = db.Scan(t, scratch, rescan);
      if (!s.ok()) return s;
      pats.insert(pats.end(), rescan.begin(), rescan.end());
    }
    if (pats.empty()) continue;
    ClassSplit cs = SplitClassPrefix(t, /*strict=*/true);
    std::string_view printed = cs.ok ? t.substr(0, cs.class_end) : std::string_view();
    std::string_view msg = cs.ok ? t.substr(cs.message_begin) : t;
    size_t msg_base = cs.ok ? cs.message_begin : 0;
    std::vector<ExplainHit> hits;
    SmallSet done;
    for (auto [p, end] : pats) {
      if (plain_seen.contains(p) || !done.insert(p)) continue;
      size_t before = hits.size();
      auto map = [&](size_t pos) { return sel_raw_of(li, msg_base + pos); };
      evaluate(p, msg, msg.size(), ShortClassName(printed), nullptr, map, hits);
      if (hits.size() == before && msg_base > 0) {
        auto map0 = [&](size_t pos) { return sel_raw_of(li, pos); };
        evaluate(p, t, t.size(), ShortClassName(printed), nullptr, map0, hits);
      }
    }
    auto msg_map = [&](size_t pos) { return sel_raw_of(li, msg_base + pos); };
    if (Status rs = try_repr(msg, ShortClassName(printed), nullptr, msg_map, hits); !rs.ok()) return rs;
    for (ExplainHit& h : hits) {
      h.printed_class = std::string(printed);
      plain_seen.insert(static_cast<uint32_t>(m_.entries()[h.entry].pattern));
    }
    rank(hits);
    if (hits.empty()) continue;
    groups.push_back(Group{sel_raw_of(li, 0), std::move(hits)});
  }
  if (groups.empty() && hits_ == 0 && opt_.fuzzy) remember_lines(&consumed, &sel_begin);

  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.begin < b.begin; });
  for (Group& g : groups) {
    uint64_t id = next_group_++;
    for (ExplainHit& h : g.hits) {
      h.group = id;
      ++hits_;
      sink(h);
    }
  }
  return Status::Ok();
}

}  // namespace errdex
