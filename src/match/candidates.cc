// match/candidates.cc: the evidence of one printed error's candidates, ranked.
// Tested through explain_test.cc.
#include "match/candidates.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace errdex {

namespace {

constexpr size_t kMaxEqualEntries = 32;  // entries listed by one "several sites match equally" hit
// Class-only candidates (kClass) of one printed class: equal evidence, so they come as
// one "N sites match equally" hit; past this many they would say nothing.
constexpr size_t kMaxClassSites = 32;

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

// Round and square brackets of a value close in order, each opened in it.
bool BracketsBalanced(std::string_view v) {
  int round = 0, square = 0;
  for (char c : v) {
    if (c == '(') ++round;
    else if (c == ')' && --round < 0) return false;
    else if (c == '[') ++square;
    else if (c == ']' && --square < 0) return false;
  }
  return round == 0 && square == 0;
}

// "...: (1, 2) + (2, 1). on startup": a template that ends a sentence where the text
// goes on in lower case ends the message there, whatever the line started with --
// the rest is the user's sentence ("ValueError: ... on startup" in an issue title).
// So does one that ends closing a quote or a bracket (`unknown action "{a}"`, `... (choose
// from {c})`): a template whose last hole ran on over the same words explains less.
bool EndsSentenceBeforeProse(std::string_view text, size_t end) {
  if (end == 0 || end + 2 > text.size()) return false;
  char last = text[end - 1];
  if (last != '.' && last != '!' && last != '?' && last != '"' && last != '\'' && last != ')' && last != ']') return false;
  if (text[end] != ' ') return false;
  return std::islower(static_cast<unsigned char>(text[end + 1])) != 0;
}

}  // namespace

CandidateSet::CandidateSet(const Matcher& matcher, PatternDatabase::Scratch& scratch, const ExplainOptions& options,
                           const std::vector<TracebackFrame>& paste_frames)
    : m_(matcher), db_(matcher.db()), scratch_(scratch), opt_(options), paste_frames_(paste_frames) {}

void CandidateSet::Reset() {
  cands_.clear();
  cand_of_.clear();
}

CandidateSet::Candidate& CandidateSet::Of(uint32_t entry) {
  auto [it, fresh] = cand_of_.try_emplace(entry, cands_.size());
  if (fresh) {
    cands_.emplace_back();
    cands_.back().hit.entry = entry;
  }
  return cands_[it->second];
}

void CandidateSet::Evaluate(uint32_t pattern, std::string_view text, size_t hs_end, const MessageOffsetMap& map,
                            bool end_known, size_t anchor) {
  std::optional<LocatedMatch> loc = db_.LocateWhole(pattern, text, scratch_);
  if (!loc || !loc->whole_text) {
    auto in = db_.LocateIn(pattern, text, scratch_);
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
  me.literal = db_.literal_chars(pattern);
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
  // "{x}: Failed to establish a new connection: {e}" matches a whole text that
  // wraps it ("HTTPConnectionPool(...): Max retries exceeded ... (Caused by
  // NewConnectionError(\"...: Failed to establish a new connection: ...\"))") by
  // holes that cut across its brackets: a value opens a bracket it does not close,
  // or closes one it did not open. Such a match is only a find inside the text.
  if (me.kind == MessageEvidence::Kind::kFull && !loc->limit_hit)
    for (const PatternCapture& c : loc->captures)
      if (c.end > c.begin && c.end <= text.size() && !BracketsBalanced(text.substr(c.begin, c.end - c.begin))) {
        me.kind = MessageEvidence::Kind::kPartial;
        break;
      }
  // "{a} for {b}" matches a whole sentence of the user's by its two holes; Rank
  // decides whether it is a wrapper of another error or a find inside prose.
  if (me.kind == MessageEvidence::Kind::kFull && me.explained < 0.5) {
    const std::string& form = db_.pattern(pattern);
    constexpr std::string_view kHole = "(.*?)";
    me.open_ends = form.size() > 2 * kHole.size() && std::string_view(form).substr(0, kHole.size()) == kHole &&
                   std::string_view(form).substr(form.size() - kHole.size()) == kHole;
    // The same of the alternative that matched (re's "(?:(.*?) at position (.*?)|...)"):
    // its holes took the text's first and last characters.
    if (!me.open_ends && !loc->limit_hit && me.literal > 0) {
      bool first = false, last = false;
      for (const PatternCapture& c : loc->captures) {
        if (c.end <= c.begin) continue;
        first = first || c.begin == loc->begin;
        last = last || c.end >= std::min(loc->end, TrimmedLength(text));
      }
      me.open_ends = first && last;
    }
  }
  if (me.kind == MessageEvidence::Kind::kPartial && loc->begin <= anchor && loc->end > anchor &&
      (!end_known || EndsSentenceBeforeProse(text, loc->end)))
    prose_tail_possible_ = true;
  for (uint32_t entry : m_.EntriesOfPattern(pattern))
    if (Accept(entry)) Record(entry, me, *loc, text, map);
}

void CandidateSet::Record(uint32_t entry, const MessageEvidence& me, const LocatedMatch& loc, std::string_view text,
                          const MessageOffsetMap& map) {
  Candidate& c = Of(entry);
  const MessageEvidence& old = c.ev.message;
  if (old.kind > me.kind || (old.kind == me.kind && old.explained >= me.explained)) return;
  c.ev.message = me;
  ExplainHit& h = c.hit;
  h.kind = ExplainHit::Kind::kPattern;
  h.full = loc.whole_text;
  h.begin = map(loc.begin);
  h.end = loc.end > loc.begin ? map(loc.end - 1) + 1 : h.begin;
  h.message = std::string(text);
  h.message_offset = loc.begin;
  h.message_length = loc.end - loc.begin;
  h.captures.clear();
  for (const PatternCapture& pc : loc.captures) {
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

Status CandidateSet::TryRepr(std::string_view printed_msg, const MessageOffsetMap& map) {
  if (printed_msg.empty() || (printed_msg[0] != '\'' && printed_msg[0] != '"' && printed_msg[0] != '('))
    return Status::Ok();
  if (!ReadPythonRepr(printed_msg, repr_) || repr_.text.empty()) return Status::Ok();
  rescan_.clear();
  Status s = db_.Scan(repr_.text, scratch_, rescan_);
  if (!s.ok()) return s;
  auto repr_map = [&](size_t pos) {
    return map(pos < repr_.source.size() ? repr_.source[pos] : repr_.source.back() + 1);
  };
  SmallSet seen;
  for (auto [p, end] : rescan_)
    if (seen.insert(p)) Evaluate(p, repr_.text, end, repr_map);
  return Status::Ok();
}

// Both templates match the whole message, nothing else tells them apart (no frame,
// same class agreement, same kind of code, same package hints) and their literal
// text explains about as much: the message alone cannot choose.
bool CandidateSet::NearTie(const Candidate& a, const Candidate& b) const {
  const CandidateEvidence& x = a.ev;
  const CandidateEvidence& y = b.ev;
  if (a.hit.kind != ExplainHit::Kind::kPattern || b.hit.kind != ExplainHit::Kind::kPattern) return false;
  if (x.message.kind != MessageEvidence::Kind::kFull || y.message.kind != MessageEvidence::Kind::kFull) return false;
  if (x.frames.raising_file || x.frames.other_frame || y.frames.raising_file || y.frames.other_frame) return false;
  return x.class_agreement == y.class_agreement && x.class_score == y.class_score && x.flags == y.flags &&
         x.package_hint == y.package_hint && x.vendored_named == y.vendored_named &&
         std::abs(x.message.explained - y.message.explained) < kNearTieShare;
}

// A whole match by holes at both ends of a template ("{name} has an invalid wheel,
// {detail}") is a wrapper when another template explains what one of its holes
// holds (".dist-info directory not found"): the outer error, the one the user hit.
// Else its holes hold the user's own words around a find: no better than a find.
void CandidateSet::WeighOpenEnds() {
  for (Candidate& c : cands_) {
    MessageEvidence& m = c.ev.message;
    if (m.kind != MessageEvidence::Kind::kFull || !m.open_ends) continue;
    bool wraps = false;
    for (const Candidate& d : cands_) {
      if (&d == &c || wraps || d.hit.kind != ExplainHit::Kind::kPattern || d.ev.message.open_ends) continue;
      if (d.hit.message.size() != c.hit.message.size() || d.hit.message != c.hit.message) continue;
      // The inner error starts where the hole does (a quote or a space aside): a find
      // further inside the hole is one of the user's words ("Why do I get The 'e'
      // trait of a C instance expected ..." is no "{x} of a {y}" around "expected").
      for (const ExplainCapture& cap : c.hit.captures)
        if (d.hit.message_offset >= cap.message_begin && d.hit.message_offset <= cap.message_begin + 2 &&
            d.hit.message_offset + d.hit.message_length <= cap.message_end && d.hit.message_length > 0)
          wraps = true;
    }
    if (!wraps) m.kind = MessageEvidence::Kind::kPartial;
  }
}

std::vector<ExplainHit> CandidateSet::Rank(const PrintedError& pe) {
  WeighOpenEnds();
  std::vector<std::string> printed_package;  // the printed class's top package, if it names one
  size_t dot = pe.printed_class.find('.');
  if (dot != std::string_view::npos && dot > 0 && pe.printed_class.substr(0, dot) != "builtins")
    printed_package.emplace_back(pe.printed_class.substr(0, dot));
  for (Candidate& c : cands_) {
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
    c.ev.foreign_class = agree <= 0 && !printed_package.empty() && !e.error_class.empty() &&
                         !NamesPackage(printed_package, e.file_path, e.repo);
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
      // A few common words with nothing else for them: no class agreeing, no frame.
      bool few_words_alone = me.literal < kMinAloneLiteral && agree <= 0 && !h.frame_file;
      h.approximate = !(enough || certain) || agree < 0 || (class_unsure && !certain) || few_words_alone;
    } else if (h.kind == ExplainHit::Kind::kClass) {
      h.approximate = true;
    } else {
      h.approximate = !certain;
    }
  }
  order_.resize(cands_.size());
  for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  auto tie_rank = [&](uint32_t i) {
    const MatchEntry& e = m_.entries()[cands_[i].hit.entry];
    return std::make_tuple(e.flags & (kEntryInTests | kEntryVendored), e.flags & kEntryOlderOnly, cands_[i].hit.entry);
  };
  std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
    const ExplainHit& x = cands_[a].hit;
    const ExplainHit& y = cands_[b].hit;
    if (x.score != y.score) return x.score > y.score;
    if (x.approximate != y.approximate) return !x.approximate;
    return tie_rank(a) < tie_rank(b);
  });
  std::vector<ExplainHit> kept;
  size_t i = 0;
  while (i < order_.size() && kept.size() < opt_.top_k) {
    ExplainHit h = std::move(cands_[order_[i]].hit);
    size_t j = i + 1;
    while (j < order_.size() && (std::abs(cands_[order_[j]].hit.score - h.score) < kTieEpsilon ||
                                NearTie(cands_[order_[i]], cands_[order_[j]])) &&
           cands_[order_[j]].hit.approximate == h.approximate) {
      if (h.equal_entries.size() < kMaxEqualEntries) h.equal_entries.push_back(cands_[order_[j]].hit.entry);
      ++j;
    }
    h.printed_class = std::string(pe.printed_class);
    kept.push_back(std::move(h));
    i = j;
  }
  return kept;
}

void CandidateSet::AddClassCandidates(std::string_view printed, std::string_view msg, uint64_t b, uint64_t e) {
  size_t dot = printed.find('.');
  if (dot == std::string_view::npos || dot == 0) return;
  std::vector<std::string> module{std::string(printed.substr(0, dot))};
  class_entries_.clear();
  m_.EntriesOfClass(ShortClassName(printed), &class_entries_);
  size_t kept = 0;
  for (uint32_t entry : class_entries_) {
    const MatchEntry& en = m_.entries()[entry];
    if (PatternIsWhole(en) || !NamesPackage(module, en.file_path, en.repo) || !Accept(entry)) continue;
    if (++kept > kMaxClassSites) break;
  }
  if (kept == 0 || kept > kMaxClassSites) return;
  for (uint32_t entry : class_entries_) {
    const MatchEntry& en = m_.entries()[entry];
    if (PatternIsWhole(en) || !NamesPackage(module, en.file_path, en.repo) || !Accept(entry)) continue;
    Candidate& c = Of(entry);
    if (c.ev.message.kind != MessageEvidence::Kind::kNone) continue;
    c.ev.class_only = true;
    c.hit.kind = ExplainHit::Kind::kClass;
    c.hit.begin = b;
    c.hit.end = e;
    c.hit.message = std::string(msg);
    c.hit.message_length = msg.size();
  }
}

}  // namespace errdex
