// match/explain.cc: windows of lines -> sections and plain lines -> ranked hits.
// Tested by explain_test.cc.
#include "match/explain.h"

#include "match/evidence.h"
#include "match/foreign_traces.h"
#include "match/python_repr.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

namespace errdex {

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Characters of a match outside its captures (the union of them: a group may hold
// another): what the template's literal text explained of this text. For a template
// with alternatives or optional parts the branch that matched counts, not the
// poorest one (PatternDatabase::literal_chars).
int MatchedLiteralChars(const LocatedMatch& m) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (const PatternCapture& c : m.captures)
    if (c.end > c.begin) spans.emplace_back(std::max(c.begin, m.begin), std::min(c.end, m.end));
  std::sort(spans.begin(), spans.end());
  size_t covered = 0, upto = m.begin;
  for (auto [b, e] : spans) {
    b = std::max(b, upto);
    if (e > b) {
      covered += e - b;
      upto = e;
    }
  }
  return static_cast<int>(m.end - m.begin - std::min(covered, m.end - m.begin));
}

std::string_view BaseName(std::string_view p) {
  // A plain loop: find_last_of calls memchr on its set for every byte.
  size_t i = p.size();
  while (i > 0 && p[i - 1] != '/' && p[i - 1] != '\\') --i;
  return p.substr(i);
}

}  // namespace

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

void Matcher::EntriesWithCode(uint32_t code_hash, std::vector<uint32_t>* out) const {
  if (code_hash == 0) return;
  std::call_once(code_index_once_, [this] {
    for (uint32_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].code_hash != 0) by_code_.emplace_back(entries_[i].code_hash, i);
    std::sort(by_code_.begin(), by_code_.end());
  });
  auto lo = std::lower_bound(by_code_.begin(), by_code_.end(), std::make_pair(code_hash, uint32_t{0}));
  for (auto it = lo; it != by_code_.end() && it->first == code_hash; ++it) out->push_back(it->second);
}

void Matcher::EntriesOfClass(std::string_view short_class, std::vector<uint32_t>* out) const {
  std::call_once(class_index_once_, [this] {
    for (uint32_t i = 0; i < entries_.size(); ++i)
      if (!entries_[i].error_class.empty()) by_class_.emplace_back(ShortClassName(entries_[i].error_class), i);
    std::sort(by_class_.begin(), by_class_.end());
  });
  auto lo = std::lower_bound(by_class_.begin(), by_class_.end(), std::make_pair(short_class, uint32_t{0}));
  for (auto it = lo; it != by_class_.end() && it->first == short_class; ++it) out->push_back(it->second);
}

void Matcher::EntriesNearFrame(std::string_view file_printed, int line, std::string_view function,
                               std::vector<uint32_t>* out) const {
  std::call_once(file_index_once_, [this] { BuildFileIndex(); });
  std::string frozen;
  std::string_view file = file_printed;
  if (!file.empty() && file.front() == '<') {
    frozen = FrozenModuleFile(file);
    file = frozen;
  }
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
constexpr size_t kMaxFuzzyQueries = 8;
constexpr size_t kMaxWeakEntries = 64;    // approximate entries the fallback does not repeat
constexpr size_t kMaxFuzzyQueryBytes = 2048;
constexpr size_t kMaxTracebackLines = 1024;  // lines followed after one traceback header
constexpr size_t kMaxEqualEntries = 32;      // entries listed by one "several sites match equally" hit
constexpr size_t kLearnLines = 12;
constexpr size_t kMaxPasteFrames = 64;
constexpr size_t kMaxClassSites = 8;             // class-only candidates (kClass) of one printed class           // frames of a paste weighed against plain lines           // lines after a traceback header looked at to learn a prefix

// One error as printed, what the ranking weighs candidates against.
struct PrintedError {
  std::string_view printed_class;  // as printed ("" none)
  std::string_view printed_short;  // its last dotted component
  const std::vector<TracebackFrame>* frames = nullptr;  // null for a plain line
  uint32_t code_hash_of_raising = 0;
  std::vector<std::string> packages;  // PackageHints
};

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
// headerless: the traceback's tail was pasted without its header; header_begin is
// its first frame line.
template <typename Normalize, typename Visit>
bool FollowTraceback(std::string_view text, size_t header_begin, size_t max_message_lines, Normalize&& normalize,
                     Visit&& visit, bool headerless = false) {
  const NormalizedLine& header = normalize(header_begin);
  if (headerless ? !LooksLikeFrameLine(header.text) : !IsTracebackHeader(header.text)) return false;
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
        ++message_lines > max_message_lines) {
      // A chaining sentence may follow (after blank lines): it joins this traceback
      // to the next one, so it is needed too.
      for (size_t more = 0; more < 4 && (t.empty() || StartsWith(t, "During handling") || StartsWith(t, "The above exception")); ++more) {
        if (!t.empty()) return false;
        b = LineEnd(text, b) + 1;
        if (b >= text.size()) return false;
        const NormalizedLine& next = normalize(b);
        if (next.source != source) return false;
        t = next.text;
        if (t.empty() || StartsWith(t, "During handling") || StartsWith(t, "The above exception")) visit(b, next);
      }
      return false;
    }
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
  if (confident_hits_ > 0 || !opt_.fuzzy || fuzzy_queries_.empty()) return Status::Ok();
  return Fallback(sink);  // fallback.cc
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
  // A paste's own line prefix ("[worker-7] ", "myhost app[12]: "), learned from the
  // lines of a traceback whose frame lines do not start with "  File": before any
  // line of this window is normalized for good.
  size_t learned_upto = 0;  // lines looked at already
  for (auto [marker, end] : markers) {
    if (marker != PatternDatabase::Marker::kTracebackHeader && marker != PatternDatabase::Marker::kFrameLine) continue;
    size_t b = LineBegin(text, end > 0 ? end - 1 : 0);
    if (b < learned_upto) continue;
    std::vector<std::string> texts;
    NormalizedLine tmp;
    bool bare_frames = false;
    size_t lb = b;
    for (size_t k = 0; k < kLearnLines && lb < n; ++k, lb = LineEnd(text, lb) + 1) {
      normalizer_.Normalize(text.substr(lb, LineEnd(text, lb) - lb), tmp);
      if (StartsWith(tmp.text, "  File \"")) bare_frames = true;
      texts.push_back(tmp.text);
    }
    learned_upto = lb;
    if (!bare_frames) normalizer_.LearnPrefix(texts);
  }
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
  // The tail of a traceback pasted without its header: from the first frame line no
  // traceback above has followed.
  for (auto [marker, end] : markers) {
    if (marker != PatternDatabase::Marker::kFrameLine) continue;
    size_t b = LineBegin(text, end > 0 ? end - 1 : 0);
    if (b >= cut) continue;
    auto it = lines.find(b);
    if (it != lines.end() && it->second.needed) continue;
    bool open = FollowTraceback(
        text, b, opt_.max_message_lines, [&](size_t lb) -> const NormalizedLine& { return line_at(lb).norm; },
        [&](size_t lb, const NormalizedLine&) { lines[lb].needed = true; }, /*headerless=*/true);
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
    if (confident_hits_ > 0 || !opt_.fuzzy || q.empty()) return;
    std::string packed = std::to_string(b) + '\0' + std::to_string(e) + '\0' + std::string(cls) + '\0' +
                         std::string(q.substr(0, kMaxFuzzyQueryBytes));
    if (fuzzy_queries_.size() >= kMaxFuzzyQueries) fuzzy_queries_.erase(fuzzy_queries_.begin());
    fuzzy_queries_.push_back(std::move(packed));
  };
  // The last non-blank lines outside tracebacks, for the fuzzy fallback (only while
  // nothing matched).
  auto remember_lines = [&](const std::vector<bool>* consumed, const std::vector<size_t>* sel_begin) {
    if (confident_hits_ > 0 || !opt_.fuzzy) return;
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
  std::vector<TracebackFrame> orphans;
  std::vector<ExceptionSection> sections = ParseTracebacks(L, opt_.max_message_lines, consumed, &orphans);
  {
    // Rust, Go, Java, C++ (foreign_traces.h): each section a chain of its own, in
    // input order (a Java trace prints the exception thrown first, its causes after).
    size_t python_sections = sections.size();
    size_t next_chain = 0;
    for (const ExceptionSection& sec : sections) next_chain = std::max(next_chain, sec.chain_id + 1);
    ParseForeignTraces(L, opt_.max_message_lines, consumed, sections);
    for (size_t k = python_sections; k < sections.size(); ++k) {
      sections[k].chain_id = next_chain++;
      sections[k].chain_pos = 0;
      sections[k].chain_len = 1;
    }
  }
  auto remember_frames = [&](const std::vector<TracebackFrame>& fs) {
    for (const TracebackFrame& f : fs) {
      if (paste_frames_.size() >= kMaxPasteFrames) paste_frames_.erase(paste_frames_.begin());
      paste_frames_.push_back(f);
    }
  };
  remember_frames(orphans);
  for (const ExceptionSection& sec : sections) remember_frames(sec.frames);

  struct Group {
    // Emission order: tracebacks before plain lines (an exception raised beats a log
    // line about it), by the input offset of the chain (or line), then the final
    // exception of a chain before its causes.
    std::tuple<bool, uint64_t, size_t> key;
    std::vector<ExplainHit> hits;
  };
  std::vector<Group> groups;
  std::vector<std::pair<uint32_t, size_t>> rescan;

  auto accept = [&](uint32_t entry) { return !opt_.accept || opt_.accept(entry); };

  // The candidates of one printed error (a traceback's exception section or a plain
  // line): every entry some evidence points at, with the best evidence seen for it.
  struct Candidate {
    ExplainHit hit;
    CandidateEvidence ev;
  };
  std::vector<Candidate> cands;
  std::unordered_map<uint32_t, size_t> cand_of;
  auto candidate = [&](uint32_t entry) -> Candidate& {
    auto [it, fresh] = cand_of.try_emplace(entry, cands.size());
    if (fresh) {
      cands.emplace_back();
      cands.back().hit.entry = entry;
    }
    return cands[it->second];
  };
  auto reset_candidates = [&] {
    cands.clear();
    cand_of.clear();
  };

  // Evaluates one pattern hit on `text` (a message, with a mapping of its offsets to
  // input offsets): a full match of the message, or a match inside it at word
  // boundaries and outside any path; the literal share says how much it explains.
  // end_known: the message ends where `text` ends (a traceback's message, a line
  // that starts with its class, a quoted span). In prose ("crash: X: msg (works with
  // the previous release)") it may end anywhere: when a template matches from the
  // message's start (`anchor`) but stops before the line's end, the rest may be the
  // user's sentence, and prose_tail_possible is set (see the plain lines below).
  bool prose_tail_possible = false;
  auto evaluate = [&](uint32_t pattern, std::string_view text, size_t hs_end, const auto& map,
                      bool end_known = true, size_t anchor = 0) {
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
    if (!loc->whole_text && !InsideWords(text, loc->begin, loc->end)) return;
    MessageEvidence me;
    me.kind = loc->whole_text ? MessageEvidence::Kind::kFull : MessageEvidence::Kind::kPartial;
    me.literal = db.literal_chars(pattern);
    if (!loc->limit_hit) me.literal = std::max(me.literal, MatchedLiteralChars(*loc));
    size_t len = TrimmedLength(text);
    // A message of several lines whose first lines the template matches whole (a
    // C++ what() followed by the shell's "Aborted" line, a message with detail lines
    // after it): the lines it covers are the message it explains.
    if (!loc->whole_text && text.find('\n') != std::string_view::npos &&
        (loc->begin == 0 || text[loc->begin - 1] == '\n') &&
        (loc->end >= TrimmedLength(text) || text[loc->end] == '\n' || text[loc->end] == '\r')) {
      me.kind = MessageEvidence::Kind::kFull;
      len = loc->end - loc->begin;
    }
    me.explained = len == 0 ? 1.0 : std::min(1.0, static_cast<double>(me.literal) / static_cast<double>(len));
    if (!end_known && me.kind == MessageEvidence::Kind::kPartial && loc->begin <= anchor && loc->end > anchor)
      prose_tail_possible = true;
    for (uint32_t entry : m_.EntriesOfPattern(pattern)) {
      if (!accept(entry)) continue;
      Candidate& c = candidate(entry);
      const MessageEvidence& old = c.ev.message;
      if (old.kind > me.kind || (old.kind == me.kind && old.explained >= me.explained)) continue;
      c.ev.message = me;
      ExplainHit& h = c.hit;
      h.kind = ExplainHit::Kind::kPattern;
      h.full = loc->whole_text;
      h.begin = map(loc->begin);
      h.end = loc->end > loc->begin ? map(loc->end - 1) + 1 : h.begin;
      h.message = std::string(text);
      h.message_offset = loc->begin;
      h.message_length = loc->end - loc->begin;
      h.captures.clear();
      for (const PatternCapture& pc : loc->captures) {
        ExplainCapture ec;
        ec.group = pc.group;
        ec.begin = map(pc.begin);
        ec.end = pc.end > pc.begin ? map(pc.end - 1) + 1 : ec.begin;
        ec.text = std::string(text.substr(pc.begin, pc.end - pc.begin));
        ec.message_begin = pc.begin;
        ec.message_end = pc.end;
        h.captures.push_back(std::move(ec));
      }
    }
  };

  // A message printed as a repr (KeyError) or as a tuple (several arguments): also
  // match the string it shows, decoded (python_repr.h).
  ReprReading repr;
  auto try_repr = [&](std::string_view printed_msg, const auto& map) -> Status {
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
      if (seen.insert(p)) evaluate(p, repr.text, end, repr_map);
    return Status::Ok();
  };

  // Weighs every candidate's evidence and keeps the best top_k, one hit per entry;
  // entries whose evidence is equal to the best one's become one hit that lists
  // them (equal_entries), so that no single one of them claims to be the answer.
  std::vector<uint32_t> order;
  // Both templates match the whole message, nothing else tells them apart (no frame,
  // same class agreement, same kind of code, same package hints) and their literal
  // text explains about as much: the message alone cannot choose.
  auto NearTie = [&](const Candidate& a, const Candidate& b) {
    const CandidateEvidence& x = a.ev;
    const CandidateEvidence& y = b.ev;
    if (a.hit.kind != ExplainHit::Kind::kPattern || b.hit.kind != ExplainHit::Kind::kPattern) return false;
    if (x.message.kind != MessageEvidence::Kind::kFull || y.message.kind != MessageEvidence::Kind::kFull) return false;
    if (x.frames.raising_file || x.frames.other_frame || y.frames.raising_file || y.frames.other_frame) return false;
    return x.class_agreement == y.class_agreement && x.class_score == y.class_score && x.flags == y.flags &&
           x.package_hint == y.package_hint && x.vendored_named == y.vendored_named &&
           std::abs(x.message.explained - y.message.explained) < kNearTieShare;
  };
  auto rank = [&](const PrintedError& pe) -> std::vector<ExplainHit> {
    for (Candidate& c : cands) {
      const MatchEntry& e = m_.entries()[c.hit.entry];
      auto [cls, agree] = ClassEvidence(pe.printed_short, e.error_class);
      c.ev.class_score = cls;
      c.ev.class_agreement = agree;
      c.ev.flags = e.flags;
      c.ev.frames = pe.frames ? FramesFor(e.file_path, e.function, e.line, e.code_hash, *pe.frames) : FrameEvidence{};
      // A plain line: a frame anywhere in the paste naming the entry's file.
      if (!pe.frames && AnyFrameNames(paste_frames_, e.file_path)) c.ev.frames.other_frame = true;
      c.ev.package_hint = NamesPackage(pe.packages, e.file_path, e.repo);
      c.ev.vendored_named = (e.flags & kEntryVendored) && VendoredCopyNamed(pe.printed_class, e.file_path);
      ExplainHit& h = c.hit;
      h.score = Score(c.ev);
      h.class_agreement = agree;
      h.frame_file = c.ev.frames.raising_file || c.ev.frames.other_frame;
      h.frame_function = c.ev.frames.raising_function;
      h.frame_line = c.ev.frames.raising_file && c.ev.frames.line_delta == 0;
      h.frame_code = c.ev.frames.code;
      const MessageEvidence& me = c.ev.message;
      bool certain = FramesCertain(c.ev.frames, agree);
      if (h.kind == ExplainHit::Kind::kPattern) {
        // A template must explain enough of the message before it may call itself
        // exact: "(.*?) not found" matches a thousand messages.
        bool enough = me.kind == MessageEvidence::Kind::kFull
                          ? me.explained >= kMinExactShare || me.literal >= kMinExactLiteral
                          : me.explained >= kMinExactPartialShare;
        // A class the entry names that is neither the printed one nor (as far as
        // we can see) one of its bases: maybe a subclass, maybe another site using
        // the same template ("An error occurred ({code}) when calling ..." raised as
        // NoSuchBucket elsewhere) -- not enough to be sure.
        bool class_unsure = agree == 0 && !pe.printed_short.empty() && !e.error_class.empty();
        h.approximate = !(enough || certain) || agree < 0 || (class_unsure && !certain);
      } else if (h.kind == ExplainHit::Kind::kClass) {
        h.approximate = true;
      } else {
        h.approximate = !certain;
      }
    }
    order.resize(cands.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    auto tie_rank = [&](uint32_t i) {
      const MatchEntry& e = m_.entries()[cands[i].hit.entry];
      return std::make_tuple(e.flags & (kEntryInTests | kEntryVendored), e.flags & kEntryOlderOnly, cands[i].hit.entry);
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const ExplainHit& x = cands[a].hit;
      const ExplainHit& y = cands[b].hit;
      if (x.score != y.score) return x.score > y.score;
      if (x.approximate != y.approximate) return !x.approximate;
      return tie_rank(a) < tie_rank(b);
    });
    std::vector<ExplainHit> kept;
    size_t i = 0;
    while (i < order.size() && kept.size() < opt_.top_k) {
      ExplainHit h = std::move(cands[order[i]].hit);
      size_t j = i + 1;
      while (j < order.size() && (std::abs(cands[order[j]].hit.score - h.score) < kTieEpsilon ||
                                  NearTie(cands[order[i]], cands[order[j]])) &&
             cands[order[j]].hit.approximate == h.approximate) {
        if (h.equal_entries.size() < kMaxEqualEntries) h.equal_entries.push_back(cands[order[j]].hit.entry);
        ++j;
      }
      h.printed_class = std::string(pe.printed_class);
      kept.push_back(std::move(h));
      i = j;
    }
    return kept;
  };

  // A class printed with its package ("click.exceptions.BadParameter") names the
  // sites of that package raising it with a message built at run time (a message
  // the catalog cannot hold), when there are few of them.
  auto add_class_candidates = [&](std::string_view printed, std::string_view msg, uint64_t b, uint64_t e) {
    size_t dot = printed.find('.');
    if (dot == std::string_view::npos || dot == 0) return;
    std::vector<std::string> module{std::string(printed.substr(0, dot))};
    frame_cands_.clear();
    m_.EntriesOfClass(ShortClassName(printed), &frame_cands_);
    size_t kept = 0;
    for (uint32_t entry : frame_cands_) {
      const MatchEntry& en = m_.entries()[entry];
      if (en.pattern >= 0 || !NamesPackage(module, en.file_path, en.repo) || !accept(entry)) continue;
      if (++kept > kMaxClassSites) break;
    }
    if (kept == 0 || kept > kMaxClassSites) return;
    for (uint32_t entry : frame_cands_) {
      const MatchEntry& en = m_.entries()[entry];
      if (en.pattern >= 0 || !NamesPackage(module, en.file_path, en.repo) || !accept(entry)) continue;
      Candidate& c = candidate(entry);
      if (c.ev.message.kind != MessageEvidence::Kind::kNone) continue;
      c.ev.class_only = true;
      c.hit.kind = ExplainHit::Kind::kClass;
      c.hit.begin = b;
      c.hit.end = e;
      c.hit.message = std::string(msg);
      c.hit.message_length = msg.size();
    }
  };

  // 1. Exception sections of tracebacks.
  std::map<std::pair<size_t, size_t>, const ExceptionSection*> by_chain_pos;
  for (const ExceptionSection& sec : sections) by_chain_pos[{sec.chain_id, sec.chain_pos}] = &sec;
  std::map<size_t, uint64_t> chain_begin;
  for (const ExceptionSection& sec : sections) {
    uint64_t b = sel_raw_of(sec.class_line, 0);
    auto [it, fresh] = chain_begin.try_emplace(sec.chain_id, b);
    if (!fresh) it->second = std::min(it->second, b);
  }
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
      if (pieces.empty()) return sel_raw_of(sec.class_line, 0);  // a cut-off traceback: no message
      size_t k = pieces.size() - 1;
      while (k > 0 && pieces[k].seg_off > pos) --k;
      return sel_raw_of(pieces[k].line, pieces[k].line_off + (pos - pieces[k].seg_off));
    };
    reset_candidates();
    SmallSet done;
    if (pieces.size() == 1 && !sel_line[pieces[0].line]->escape) {
      // One plain message line: the window scan already saw it.
      for (auto [p, end] : sel_line[pieces[0].line]->patterns)
        if (done.insert(p)) evaluate(p, seg, seg.size(), map);
    } else if (!pieces.empty()) {
      rescan.clear();
      Status s = db.Scan(seg, scratch, rescan);
      if (!s.ok()) return s;
      for (auto [p, end] : rescan)
        if (done.insert(p)) evaluate(p, seg, end, map);
      if (seg.find('\n') != std::string::npos) {
        // A message wrapped over lines, or a value with newlines: also try it as one line.
        std::string flat = seg;
        std::replace(flat.begin(), flat.end(), '\n', ' ');
        rescan.clear();
        s = db.Scan(flat, scratch, rescan);
        if (!s.ok()) return s;
        for (auto [p, end] : rescan)
          if (done.insert(p)) evaluate(p, flat, end, map);
      }
    }
    if (Status rs = try_repr(seg, map); !rs.ok()) return rs;
    // The raising frame names the place even when the message matched nothing (a
    // bare raise or assert, a message built at run time) or matched elsewhere.
    const uint64_t class_b = sel_raw_of(sec.class_line, 0);
    const uint64_t class_e = sel_raw_of(sec.class_line, (*L[sec.class_line]).text.size());
    auto add_frame_candidate = [&](uint32_t entry) {
      if (!accept(entry)) return;
      Candidate& c = candidate(entry);
      if (c.hit.kind == ExplainHit::Kind::kPattern && c.ev.message.kind != MessageEvidence::Kind::kNone) return;
      c.hit.kind = ExplainHit::Kind::kFrame;
      c.hit.begin = class_b;
      c.hit.end = class_e;
      c.hit.message = seg;
      c.hit.message_length = seg.size();
    };
    if (!sec.frames.empty()) {
      const TracebackFrame& f = sec.frames.back();
      frame_cands_.clear();
      m_.EntriesNearFrame(f.file, f.line, f.function, &frame_cands_);
      for (uint32_t entry : frame_cands_) add_frame_candidate(entry);
    }
    // "AssertionError: assert x == y": the user quoted the assert statement.
    if (StartsWith(seg, "assert ")) {
      frame_cands_.clear();
      m_.EntriesWithCode(CodeLineHash(seg), &frame_cands_);
      for (uint32_t entry : frame_cands_) add_frame_candidate(entry);
    }
    PrintedError pe;
    pe.printed_class = sec.printed_class;
    pe.printed_short = sec.short_class;
    pe.frames = &sec.frames;
    pe.code_hash_of_raising = sec.frames.empty() ? 0 : CodeLineHash(sec.frames.back().code);
    PackageHints(sec.frames, sec.printed_class, &pe.packages);
    std::vector<ExplainHit> hits = rank(pe);
    // A frame-only candidate the frames do not name with some certainty is noise.
    // and so is one of another class than the printed one.
    hits.erase(std::remove_if(hits.begin(), hits.end(),
                              [&](const ExplainHit& h) {
                                return h.kind == ExplainHit::Kind::kFrame && (!h.frame_file || h.class_agreement < 0);
                              }),
               hits.end());
    if (hits.empty()) {
      std::string q = sec.printed_class.empty() ? seg : sec.printed_class + ": " + seg;
      if (!sec.cut_off) remember_query(q, sec.short_class, class_b, class_e);
      continue;
    }
    for (ExplainHit& h : hits) {
      h.chain_pos = sec.chain_pos;
      h.chain_len = sec.chain_len;
      if (sec.chain_pos + 1 < sec.chain_len) {
        auto next = by_chain_pos.find({sec.chain_id, sec.chain_pos + 1});
        h.chain_direct_cause = next != by_chain_pos.end() && next->second->cause_is_direct;
      }
    }
    groups.push_back(Group{{false, chain_begin[sec.chain_id], sec.chain_len - 1 - sec.chain_pos}, std::move(hits)});
  }

  // Evaluates pattern p on the lines of `text` from `start` to `last` (line begins)
  // joined with '\n', the first line's class split off (into joined_class).
  std::string joined_class;
  auto evaluate_lines = [&](uint32_t p, std::string_view text, size_t start, size_t last) {
    struct Piece {
      size_t seg_off, skip, raw_begin;  // seg_off + k is the line's byte skip + k
      NormalizedLine norm;
    };
    std::vector<Piece> pieces;
    std::string seg;
    joined_class.clear();
    for (size_t lb = start; lb <= last && lb < text.size(); lb = LineEnd(text, lb) + 1) {
      Piece& pc = pieces.emplace_back();
      normalizer_.Normalize(text.substr(lb, LineEnd(text, lb) - lb), pc.norm);
      size_t skip = 0;
      if (pieces.size() == 1) {
        ClassSplit cs = SplitClassPrefix(pc.norm.text, /*strict=*/true);
        if (cs.ok) {
          skip = cs.message_begin;
          joined_class = pc.norm.text.substr(0, cs.class_end);
        }
      } else {
        seg += '\n';
      }
      pc.seg_off = seg.size();
      pc.skip = skip;
      pc.raw_begin = lb;
      seg.append(pc.norm.text, std::min(skip, pc.norm.text.size()));
    }
    if (pieces.size() < 2) return;
    auto map_joined = [&](size_t pos) {
      size_t k = pieces.size() - 1;
      while (k > 0 && pieces[k].seg_off > pos) --k;
      return base + pieces[k].raw_begin + pieces[k].norm.RawOffset(pos - pieces[k].seg_off + pieces[k].skip);
    };
    evaluate(p, seg, seg.size(), map_joined);
  };

  // 2. Plain lines: the window scan's hits on them; a line with an ANSI escape is
  // scanned again normalized. A pattern reports once per window of plain lines.
  SmallSet plain_seen;
  for (size_t li = 0; li < m; ++li) {
    if (consumed[li]) continue;
    std::vector<std::pair<uint32_t, size_t>>& pats = sel_line[li]->patterns;
    std::string_view t = (*L[li]).text;
    if (LooksLikeFrameLine(t)) continue;  // a frame of a traceback cut off above: a path, not a message
    if (sel_line[li]->escape) {
      rescan.clear();
      Status s = db.Scan(t, scratch, rescan);
      if (!s.ok()) return s;
      pats.insert(pats.end(), rescan.begin(), rescan.end());
    }
    if (pats.empty()) continue;
    // The message: after a class at the start ("ValueError: ..."), or after a class
    // inside the line ("Getting `ValueError: ...` when calling it"), else the line.
    EmbeddedClass ec = FindEmbeddedClass(t);
    std::string_view printed = ec.ok ? t.substr(ec.class_begin, ec.class_end - ec.class_begin) : std::string_view();
    std::string_view msg = ec.ok ? t.substr(ec.message_begin, ec.message_end - ec.message_begin) : t;
    size_t msg_base = ec.ok ? ec.message_begin : 0;
    // Where the message ends is known when the line starts with its class or a
    // quote closes it; a class inside a sentence may be followed by more sentence.
    bool end_known = !ec.ok || ec.class_begin == 0 || ec.message_end < TrimmedLength(t);
    if (!ec.ok) {
      // "error: route request: ...", "fatal: ...": a lowercase label a program prints
      // before its error (Go's log.Fatalf("error: %v", err)) is the class the line shows.
      size_t k = 0;
      while (k < t.size() && k < 12 && std::isalpha(static_cast<unsigned char>(t[k]))) ++k;
      if (k >= 3 && k + 2 < t.size() && t[k] == ':' && t[k + 1] == ' ' && std::islower(static_cast<unsigned char>(t[0]))) {
        printed = t.substr(0, k);
        msg_base = k + 2;
        msg = t.substr(msg_base);
      }
    }
    reset_candidates();
    SmallSet done;
    for (auto [p, end] : pats) {
      if (plain_seen.contains(p) || !done.insert(p)) continue;
      auto map = [&](size_t pos) { return sel_raw_of(li, msg_base + pos); };
      size_t before = cands.size();
      evaluate(p, msg, msg.size(), map, end_known);
      if (cands.size() == before && msg_base > 0) {
        auto map0 = [&](size_t pos) { return sel_raw_of(li, pos); };
        evaluate(p, t, t.size(), map0, end_known, msg_base);
      }
      if (cands.size() == before) {
        // A template with line breaks ("Parameter validation failed:\n{report}"):
        // its match spans lines around this one (its holes never cross a line).
        // Read the message from each of those lines on, its class split off.
        const std::string& pat = db.pattern(p);
        size_t breaks = 0;
        for (size_t k = 0; k < pat.size(); ++k) {
          if (pat[k] == '\n') ++breaks;
          else if (pat[k] == '\\' && k + 1 < pat.size() && pat[++k] == 'n') ++breaks;
        }
        if (breaks > 0 && breaks <= opt_.max_message_lines) {
          size_t first = sel_begin[li];
          for (size_t k = 0; k < breaks && first > 0; ++k) first = LineBegin(text, first - 1);
          size_t last = sel_begin[li];
          for (size_t k = 0; k < breaks && LineEnd(text, last) + 1 < text.size(); ++k) last = LineEnd(text, last) + 1;
          for (size_t start = first; start <= last && cands.size() == before; start = LineEnd(text, start) + 1)
            evaluate_lines(p, text, start, last);
          if (cands.size() > before && printed.empty() && !joined_class.empty()) printed = joined_class;
        }
      }
    }
    // A template that starts where the message starts and stops inside the line
    // says the rest may be the user's sentence: then a template whose hole ran to
    // the line's end ("not expecting type {x}" over "... '<class 'int'>' (works with
    // the previous release)") has not matched the whole message either, and both
    // are weighed by the literal text they explain.
    if (prose_tail_possible)
      for (Candidate& c : cands)
        if (c.ev.message.kind == MessageEvidence::Kind::kFull) {
          c.ev.message.kind = MessageEvidence::Kind::kPartial;
          c.hit.full = false;
        }
    prose_tail_possible = false;
    auto msg_map = [&](size_t pos) { return sel_raw_of(li, msg_base + pos); };
    if (Status rs = try_repr(msg, msg_map); !rs.ok()) return rs;
    PrintedError pe;
    pe.printed_class = printed;
    pe.printed_short = ShortClassName(printed);
    PackageHints(paste_frames_, printed, &pe.packages);
    for (const Candidate& c : cands) plain_seen.insert(static_cast<uint32_t>(m_.entries()[c.hit.entry].pattern));
    add_class_candidates(printed, msg, sel_raw_of(li, msg_base), sel_raw_of(li, msg_base + msg.size()));
    std::vector<ExplainHit> hits = rank(pe);
    if (hits.empty()) continue;
    groups.push_back(Group{{true, sel_raw_of(li, 0), 0}, std::move(hits)});
  }
  bool any_confident = false;
  for (const Group& g : groups)
    for (const ExplainHit& h : g.hits) any_confident = any_confident || !h.approximate;
  if (!any_confident && confident_hits_ == 0 && opt_.fuzzy) remember_lines(&consumed, &sel_begin);

  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.key < b.key; });
  for (Group& g : groups) {
    uint64_t id = next_group_++;
    for (ExplainHit& h : g.hits) {
      h.group = id;
      ++hits_;
      if (!h.approximate) {
        ++confident_hits_;
      } else if (weak_entries_.size() < kMaxWeakEntries) {
        weak_entries_.push_back(h.entry);
        for (uint32_t e : h.equal_entries)
          if (weak_entries_.size() < kMaxWeakEntries) weak_entries_.push_back(e);
      }
      sink(h);
    }
  }
  return Status::Ok();
}

}  // namespace errdex
