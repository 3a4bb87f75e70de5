// match/explain.cc: windows of lines -> sections and plain lines -> ranked hits
// (the candidates and their ranking: candidates.cc; plain lines: plain_lines.cc).
// Tested by explain_test.cc.
#include "match/explain.h"

#include "match/candidates.h"
#include "match/evidence.h"
#include "match/foreign_traces.h"
#include "match/line_bounds.h"
#include "match/plain_lines.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

namespace errdex {

bool PatternIsWhole(const MatchEntry& e) { return e.pattern >= 0 && !(e.flags & kEntryOpenMessage); }

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

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
constexpr size_t kMaxHeldGroups = 64;     // approximate groups held for the fallback to outrank
constexpr double kOutrankLiteralRatio = 1.5;  // how much more literal text a near-exact hit must explain
constexpr double kOutrankFuzzyRatio = 2.5;    // ... and a fuzzy hit, whose words may be out of order
constexpr size_t kMaxFuzzyQueryBytes = 2048;
constexpr size_t kMaxTracebackLines = 1024;  // lines followed after one traceback header
constexpr size_t kLearnLines = 12;           // lines after a traceback header looked at to learn a prefix
constexpr size_t kMaxPasteFrames = 64;       // frames of a paste weighed against plain lines

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
  if (!flush_status_.ok() || confident_hits_ > 0 || !opt_.fuzzy || fuzzy_queries_.empty()) {
    ReleaseHeld(sink);
    return flush_status_;
  }
  std::vector<ExplainHit> fallback = FallbackHits();  // fallback.cc
  // A near-exact template that explains much more of the text than any held weak
  // match goes first: "Parameter validation failed:\n{report}" (29 literal
  // characters, its line break flattened by a log) before "failed" (6). Scores of
  // different kinds are not comparable; literal characters are. A held class hit
  // (the printed class named by its package) is not weak in that sense: it stays.
  // A fuzzy hit may go first in the same way when every word of its template is in
  // the text and those words are specific (kMinAloneLiteral) and outweigh the held
  // match's literal text by more: its words may stand in another order.
  const bool fuzzy = !fallback.empty() && fallback[0].kind == ExplainHit::Kind::kFuzzy;
  const double ratio = fuzzy ? kOutrankFuzzyRatio : kOutrankLiteralRatio;
  bool fallback_first = !fallback.empty() && (fallback[0].kind == ExplainHit::Kind::kNormalized ||
                                              (fuzzy && fallback[0].literal_shown >= kMinAloneLiteral));
  for (const auto& g : held_)
    for (const ExplainHit& h : g)
      fallback_first = fallback_first && h.kind != ExplainHit::Kind::kClass &&
                       static_cast<double>(fallback[0].literal_shown) >=
                           ratio * static_cast<double>(LiteralChars(m_.entries()[h.entry].message));
  if (!fallback_first) ReleaseHeld(sink);
  if (!fallback.empty()) EmitGroup(fallback, sink);
  ReleaseHeld(sink);
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

  std::vector<HitGroup> groups;
  std::vector<std::pair<uint32_t, size_t>> rescan;
  CandidateSet cands(m_, scratch, opt_, paste_frames_);  // candidates.h


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
    cands.Reset();
    SmallSet done;
    if (pieces.size() == 1 && !sel_line[pieces[0].line]->escape) {
      // One plain message line: the window scan already saw it.
      for (auto [p, end] : sel_line[pieces[0].line]->patterns)
        if (done.insert(p)) cands.Evaluate(p, seg, seg.size(), map);
    } else if (!pieces.empty()) {
      rescan.clear();
      Status s = db.Scan(seg, scratch, rescan);
      if (!s.ok()) return s;
      for (auto [p, end] : rescan)
        if (done.insert(p)) cands.Evaluate(p, seg, end, map);
      if (seg.find('\n') != std::string::npos) {
        // A message wrapped over lines, or a value with newlines: also try it as one line.
        std::string flat = seg;
        std::replace(flat.begin(), flat.end(), '\n', ' ');
        rescan.clear();
        s = db.Scan(flat, scratch, rescan);
        if (!s.ok()) return s;
        for (auto [p, end] : rescan)
          if (done.insert(p)) cands.Evaluate(p, flat, end, map);
      }
    }
    if (Status rs = cands.TryRepr(seg, map); !rs.ok()) return rs;
    // The raising frame names the place even when the message matched nothing (a
    // bare raise or assert, a message built at run time) or matched elsewhere.
    const uint64_t class_b = sel_raw_of(sec.class_line, 0);
    const uint64_t class_e = sel_raw_of(sec.class_line, (*L[sec.class_line]).text.size());
    auto add_frame_candidate = [&](uint32_t entry) {
      if (!cands.Accept(entry)) return;
      CandidateSet::Candidate& c = cands.Of(entry);
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
    std::vector<ExplainHit> hits = cands.Rank(pe);
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
    groups.push_back(HitGroup{{false, chain_begin[sec.chain_id], sec.chain_len - 1 - sec.chain_pos}, std::move(hits)});
  }

  // 2. Plain lines (plain_lines.h).
  SelectedLines plain;
  plain.text = text;
  plain.base = base;
  plain.begin = sel_begin;
  plain.norm = L;
  plain.consumed = consumed;
  for (Line* l : sel_line) {
    plain.patterns.push_back(&l->patterns);
    plain.escape.push_back(l->escape);
  }
  PlainLineContext plain_ctx{m_, scratch, normalizer_, opt_.max_message_lines, paste_frames_};
  if (Status ps = MatchPlainLines(plain, plain_ctx, cands, &groups); !ps.ok()) return ps;
  bool any_confident = false;
  for (const HitGroup& g : groups)
    for (const ExplainHit& h : g.hits) any_confident = any_confident || !h.approximate;
  if (!any_confident && confident_hits_ == 0 && opt_.fuzzy) remember_lines(&consumed, &sel_begin);

  std::stable_sort(groups.begin(), groups.end(), [](const HitGroup& a, const HitGroup& b) { return a.key < b.key; });
  for (HitGroup& g : groups) {
    bool confident = false;
    for (const ExplainHit& h : g.hits) {
      confident = confident || !h.approximate;
      if (h.approximate && weak_entries_.size() < kMaxWeakEntries) {
        weak_entries_.push_back(h.entry);
        for (uint32_t e : h.equal_entries)
          if (weak_entries_.size() < kMaxWeakEntries) weak_entries_.push_back(e);
      }
    }
    if (!confident && confident_hits_ == 0 && opt_.fuzzy && held_.size() < kMaxHeldGroups) {
      held_.push_back(std::move(g.hits));
      continue;
    }
    ReleaseHeld(sink);
    EmitGroup(g.hits, sink);
  }
  return Status::Ok();
}

void ExplainSession::EmitGroup(std::vector<ExplainHit>& hits, const HitSink& sink) {
  uint64_t id = next_group_++;
  for (ExplainHit& h : hits) {
    h.group = id;
    ++hits_;
    if (!h.approximate) ++confident_hits_;
    sink(h);
  }
}

void ExplainSession::ReleaseHeld(const HitSink& sink) {
  for (std::vector<ExplainHit>& hits : held_) EmitGroup(hits, sink);
  held_.clear();
}

}  // namespace errdex
