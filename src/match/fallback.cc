// match/fallback.cc: what explain says when no template matched anything in the
// whole input (ExplainSession::FallbackHits), from the strongest to the weakest:
//  1. a bare class ("TimeoutError", "queue.Full"): the sites that raise that class
//     without a message;
//  2. near-exact (kNormalized): a template whose literal pieces all appear, in order,
//     once case, quotes, whitespace and markdown are evened out on both sides
//     ("Capture cuda graph failed" for "Capture CUDA graph failed", `__init__`
//     eaten by markdown, a message cut off at the end);
//  3. fuzzy (kFuzzy): token similarity.
// Candidates come from the FuzzySearch (FTS5 over the store) or, without one, from
// every entry. Every hit here is approximate. Tested by explain_test.cc.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <unordered_set>

#include "match/evidence.h"
#include "match/explain.h"

namespace errdex {

namespace {

// Words that say nothing about which error it is: shared only they made "The
// value is 5" an approximate hit for "The qkvLayout is not supported." (issue 15, L6).
bool IsStopWord(std::string_view w) {
  static const std::unordered_set<std::string_view> kStop = {
      "the", "a", "an", "is", "are", "was", "were", "be", "been", "not", "no", "of", "to", "in", "on", "at",
      "for", "with", "by", "and", "or", "but", "it", "its", "this", "that", "as", "if", "got", "has", "have",
      "can", "cannot", "must", "should", "will", "from", "into", "than", "then", "there", "when", "which",
      // What is left of a contraction ("isn't" -> "isn" "t"): "is not" is stop words too.
      "isn", "aren", "wasn", "weren", "doesn", "don", "didn", "hasn", "haven", "hadn", "couldn", "shouldn",
      "wouldn", "won", "mustn", "needn"};
  return kStop.count(w) > 0;
}

// Lower-cased alphanumeric runs of 2+ bytes (bytes >= 0x80 count as letters),
// stop words left out; "{expr}" placeholders of a template are left out when
// drop_placeholders.
std::unordered_set<std::string> Tokens(std::string_view s, bool drop_placeholders) {
  std::unordered_set<std::string> out;
  std::string cur;
  int brace = 0;
  auto flush = [&] {
    if (cur.size() >= 2 && !IsStopWord(cur)) out.insert(cur);
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

// Similarity of a template's words (t, its holes left out) to a query's (q); each
// side tokenized once by the caller.
double SimilarityOfTokens(const std::unordered_set<std::string>& q, const std::unordered_set<std::string>& t) {
  if (q.empty() || t.empty()) return 0;
  size_t inter = 0;
  for (const auto& x : t) {
    if (q.count(x)) {
      ++inter;
      continue;
    }
    // A user's abbreviation of the template's word ("arg" for "argument", "dir"
    // for "directory", "config" for "configuration"): a prefix of 3+ letters.
    if (x.size() > 3)
      for (const auto& w : q)
        if (w.size() >= 3 && w.size() < x.size() && x.compare(0, w.size(), w) == 0 &&
            !(w[0] >= '0' && w[0] <= '9')) {
          ++inter;
          break;
        }
  }
  // One shared word is chance ("got:hello-stdin" and "{x}, got {y}"), unless each
  // side is that one word.
  if (inter < 2 && !(inter == 1 && q.size() == 1 && t.size() == 1)) return 0;
  double jaccard = static_cast<double>(inter) / static_cast<double>(q.size() + t.size() - inter);
  double containment = static_cast<double>(inter) / static_cast<double>(t.size());
  return 0.5 * jaccard + 0.5 * containment;
}

// Characters of a template's words (holes left out) when every one of them is
// among the query's words, in any order; 0 when one is missing. What a fuzzy hit
// shows of the template, weighed like a near-exact hit's literal characters: all of
// "Parameter validation failed:\n{report}" is in "crash: Parameter validation
// failed: (works with the previous release)".
size_t AllWordsShown(const std::unordered_set<std::string>& q, const std::unordered_set<std::string>& t) {
  size_t chars = 0;
  for (const auto& w : t) {
    if (!q.count(w)) return 0;
    chars += w.size();
  }
  return chars;
}

constexpr size_t kMaxBareClassSites = 8;
constexpr size_t kMaxBareClassListed = 32;  // one "N sites match equally" hit at most lists this many
constexpr size_t kMinCutPrefix = 12;   // a cut piece's characters before the user's own words
constexpr size_t kMinCutLiteral = 30;  // literal characters a cut-off message must still show
constexpr size_t kMaxShortTemplates = 256;  // short templates of one class tested by PCRE (fallback only)
constexpr size_t kMinCutToEnd = 8;     // ... when it ends inside the template (and shows half of it)

struct Query {
  std::string text;
  std::string printed_class;
  uint64_t begin = 0, end = 0;
};

// "queue.Full", "_queue.Empty", "TimeoutError": one dotted identifier whose last
// part is capitalized.
bool IsBareClass(std::string_view t) {
  while (!t.empty() && (t.back() == ' ' || t.back() == ':' || t.back() == '\r')) t.remove_suffix(1);
  if (t.empty() || t.size() > 200) return false;
  for (char c : t)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  std::string_view last = ShortClassName(t);
  return !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
}

// A class named in a sentence without a message ("Help! threading.BrokenBarrierError
// - what am I doing wrong", "Getting `asyncio.queues.QueueFull` when calling it"):
// a word that is a bare class qualified by its module, or whose name says it is an
// exception. Empty when there is none.
std::string_view ClassInProse(std::string_view t) {
  auto is_delim = [](char c) { return c == ' ' || c == '\t' || std::strchr("`'\"()[]{}<>,;!?*", c) != nullptr; };
  auto ends_with = [](std::string_view a, std::string_view b) {
    return a.size() >= b.size() && a.substr(a.size() - b.size()) == b;
  };
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && is_delim(t[i])) ++i;
    size_t j = i;
    while (j < t.size() && !is_delim(t[j])) ++j;
    std::string_view w = t.substr(i, j - i);
    i = j;
    while (!w.empty() && (w.back() == '.' || w.back() == ':')) w.remove_suffix(1);
    // "Error" / "Exception" alone is the writer's label ("Error: _queue.Empty when ..."),
    // not the class that some library happens to call Error.
    if (w.size() < 5 || w.front() == '.' || !IsBareClass(w) || IsWritersLabel(w)) continue;
    std::string_view last = ShortClassName(w);
    bool camel = last.size() >= 4 &&
                 std::any_of(last.begin(), last.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
    bool named = ends_with(last, "Error") || ends_with(last, "Exception") || ends_with(last, "Warning");
    if (camel && (named || w.find('.') != std::string_view::npos)) return w;
  }
  return {};
}

}  // namespace

double TokenSimilarity(std::string_view query, std::string_view message_template) {
  return SimilarityOfTokens(Tokens(query, false), Tokens(message_template, true));
}

std::string NearExactText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // Smart quotes and dashes (UTF-8 E2 80 xx) as their ASCII kin.
    if (c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80) {
      unsigned char d = static_cast<unsigned char>(s[i + 2]);
      i += 2;
      if (d == 0x98 || d == 0x99) c = '\'';
      else if (d == 0x9C || d == 0x9D) c = '"';
      else if (d == 0x93 || d == 0x94) c = '-';
      else continue;
    }
    if (c == '`' || c == '*' || c == '_' || c == '~') continue;  // markdown, and what it eats
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) {
      out.push_back(' ');
      space = false;
    }
    out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c));
  }
  return out;
}

namespace {

// A template's literal pieces, split at its "{expr}" holes, each as NearExactText
// reads it; pieces of spaces only dropped.
struct LiteralPieces {
  std::vector<std::string> pieces;
  bool leading_hole = false, trailing_hole = false;
};

LiteralPieces SplitLiteralPieces(std::string_view message_template) {
  LiteralPieces lp;
  std::vector<std::string>& pieces = lp.pieces;
  bool& leading_hole = lp.leading_hole;
  bool& trailing_hole = lp.trailing_hole;
  {
    std::string cur;
    int brace = 0;
    for (size_t i = 0; i < message_template.size(); ++i) {
      char c = message_template[i];
      if (c == '{') {
        if (brace++ == 0) {
          if (pieces.empty() && cur.empty()) leading_hole = true;
          pieces.push_back(NearExactText(cur));
          cur.clear();
        }
        continue;
      }
      if (c == '}' && brace > 0) {
        --brace;
        if (brace == 0 && i + 1 == message_template.size()) trailing_hole = true;
        continue;
      }
      if (brace == 0) cur.push_back(c);
    }
    pieces.push_back(NearExactText(cur));
  }
  pieces.erase(std::remove_if(pieces.begin(), pieces.end(), [](const std::string& p) {
                 return p.find_first_not_of(' ') == std::string::npos;
               }),
               pieces.end());
  return lp;
}

}  // namespace

size_t LiteralChars(std::string_view message_template) {
  size_t n = 0;
  for (const std::string& p : SplitLiteralPieces(message_template).pieces) n += p.size();
  return n;
}

namespace {

// The first line of a template that prints more than one (a break outside its
// holes), when that line alone holds enough literal text to be specific; empty
// otherwise. A one-line log or an issue title shows only it: "Could not find root
// within given tolerance. ({a} > {b})" of a template that goes on with "\nTry
// another starting point".
std::string_view SpecificFirstLine(std::string_view message_template) {
  int brace = 0;
  for (size_t i = 0; i < message_template.size(); ++i) {
    char c = message_template[i];
    if (c == '{') ++brace;
    else if (c == '}' && brace > 0) --brace;
    else if (c == '\n' && brace == 0) {
      std::string_view first = message_template.substr(0, i);
      return LiteralChars(first) >= kMinCutLiteral ? first : std::string_view();
    }
  }
  return {};
}

// NearExactShare of `message_template`, or of the first line of a longer one
// (first_line_of: the whole template): then the user's own words may follow it
// (a word apart), and the share is of the whole template's literal text when that
// is longer, as for a message cut off.
double NearExactShareOf(std::string_view query_text, std::string_view message_template,
                        std::string_view first_line_of, size_t* literal_matched) {
  LiteralPieces lp = SplitLiteralPieces(message_template);
  const std::vector<std::string>& pieces = lp.pieces;
  const bool leading_hole = lp.leading_hole, trailing_hole = lp.trailing_hole;
  if (pieces.empty()) return -1;
  const std::string q = NearExactText(query_text);
  if (q.empty()) return -1;
  size_t pos = 0, literal = 0, total = 0;
  bool cut_off = false;
  for (const std::string& p : pieces) total += p.size();
  for (size_t k = 0; k < pieces.size(); ++k) {
    std::string_view p = pieces[k];
    while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
    while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
    size_t at = q.find(p, pos);
    // The template's first words start the text -- or, for a template with values in
    // it and first words long enough to be specific, start a word of the user's
    // sentence around it ("Tips Model architectures [...] are not supported for now，but
    // ..."). (A template without values inside a sentence is the pattern tier's.)
    if (k == 0 && !leading_hole && at != 0 &&
        (at == std::string::npos || pieces.size() < 2 || p.size() < kMinCutPrefix ||
         std::isalnum(static_cast<unsigned char>(q[at - 1]))))
      at = q.compare(0, p.size(), p) == 0 ? 0 : std::string::npos;
    if (at == std::string::npos) {
      // A message cut off: the query ends with the start of this piece (after a
      // hole's value, when the piece follows one), or goes on with the user's own
      // words after at least kMinCutPrefix characters of it.
      bool cut = false;
      for (size_t x = std::min(pos, q.size()); x + 4 <= q.size() && !cut; ++x) {
        if (k == 0 && !leading_hole && x > 0) break;
        std::string_view rest = std::string_view(q).substr(x);
        size_t common = 0;
        while (common < rest.size() && common < p.size() && rest[common] == p[common]) ++common;
        bool to_end = common == rest.size();
        bool then_prose = common >= kMinCutPrefix && (common == p.size() || p[common] == ' ' || !std::isalnum(static_cast<unsigned char>(p[common])));
        if ((to_end || then_prose) && literal + common >= (to_end ? kMinCutToEnd : 20)) {
          literal += common;
          pos = q.size();
          cut = true;
          cut_off = true;
        }
      }
      if (cut) break;
      return -1;
    }
    literal += p.size();
    pos = at + p.size();
  }
  const bool words_follow = !first_line_of.empty() && pos < q.size() &&
                            !std::isalnum(static_cast<unsigned char>(q[pos]));
  if (!trailing_hole && pos + 1 < q.size() && !words_follow) return -1;  // text after the template's end
  if (!first_line_of.empty() && !cut_off) {
    cut_off = true;  // the lines after the first are not shown
    total = std::max(total, LiteralChars(first_line_of));
  }
  // Most of the template's text, or (cut off) enough of it to be specific.
  if (literal < 8 || (literal * 2 < total && !(cut_off && literal >= kMinCutLiteral))) return -1;
  if (literal_matched) *literal_matched = literal;
  // A message cut off shows only part of the template: less than a whole one does.
  size_t shown_of = cut_off ? std::max(q.size(), total) : q.size();
  return std::min(1.0, static_cast<double>(literal) / static_cast<double>(shown_of));
}

}  // namespace

double NearExactShare(std::string_view query_text, std::string_view message_template, size_t* literal_matched) {
  double share = NearExactShareOf(query_text, message_template, {}, literal_matched);
  if (share >= 0) return share;
  std::string_view first = SpecificFirstLine(message_template);
  return first.empty() ? -1 : NearExactShareOf(query_text, first, message_template, literal_matched);
}

std::vector<ExplainHit> ExplainSession::FallbackHits() {
  std::map<uint32_t, ExplainHit> best;
  auto keep = [&](ExplainHit h) {
    // Already reported, approximate, by a template's weak match.
    if (std::find(weak_entries_.begin(), weak_entries_.end(), h.entry) != weak_entries_.end()) return;
    auto it = best.find(h.entry);
    if (it == best.end() || it->second.score < h.score) best[h.entry] = std::move(h);
  };
  for (const std::string& packed : fuzzy_queries_) {
    // packed = begin \0 end \0 class \0 text
    size_t a = packed.find('\0'), b = packed.find('\0', a + 1), c = packed.find('\0', b + 1);
    Query q;
    q.begin = std::stoull(packed.substr(0, a));
    q.end = std::stoull(packed.substr(a + 1, b - a - 1));
    q.printed_class = packed.substr(b + 1, c - b - 1);
    q.text = packed.substr(c + 1);
    auto base_hit = [&](uint32_t entry, ExplainHit::Kind kind) {
      ExplainHit h;
      h.entry = entry;
      h.kind = kind;
      h.approximate = true;
      h.begin = q.begin;
      h.end = q.end;
      h.printed_class = q.printed_class;
      h.message = q.text;
      h.message_length = q.text.size();
      return h;
    };
    // 1. A bare class: the sites raising it without a message (alone on its line, or
    // named in a sentence that shows no "Class: message").
    std::string_view bare = IsBareClass(q.text) ? std::string_view(q.text) : std::string_view();
    if (bare.empty()) {
      // "Error: _queue.Empty when ...": the writer's label, then a class in prose.
      EmbeddedClass label = FindEmbeddedClass(q.text);
      std::string_view label_class =
          label.ok ? std::string_view(q.text).substr(label.class_begin, label.class_end - label.class_begin)
                   : std::string_view();
      if (!label.ok || IsWritersLabel(label_class)) bare = ClassInProse(q.text);
    }
    if (!bare.empty()) {
      std::string_view cls = ShortClassName(bare);
      std::vector<uint32_t> entries;
      m_.EntriesOfClass(cls, &entries);
      entries.erase(std::remove_if(entries.begin(), entries.end(),
                                   [&](uint32_t e) {
                                     const MatchEntry& en = m_.entries()[e];
                                     bool message_known = (en.flags & kEntryOpenMessage) == 0 &&
                                                          (en.pattern >= 0 || !en.message.empty());
                                     return message_known || (opt_.accept && !opt_.accept(e));
                                   }),
                    entries.end());
      // Its module says which: "queue.Full" is queue.py's, not multiprocessing/queues.py's.
      size_t last_dot = bare.rfind('.');
      std::string module_file = last_dot == std::string_view::npos ? std::string() : std::string(bare.substr(0, last_dot));
      std::replace(module_file.begin(), module_file.end(), '.', '/');
      std::vector<std::string> top;
      if (!module_file.empty()) top.push_back(module_file.substr(0, module_file.find('/')));
      const bool alone = bare.size() == q.text.size();
      if (entries.size() > kMaxBareClassSites && alone) {
        // Raised bare in many places: the library's own sites (of the package its
        // module names) are one honest answer, "N sites match equally", while they
        // are few enough to list; a test suite's hundreds of asserts name none.
        entries.erase(std::remove_if(entries.begin(), entries.end(),
                                     [&](uint32_t e) {
                                       const MatchEntry& en = m_.entries()[e];
                                       return (en.flags & (kEntryInTests | kEntryVendored | kEntryOlderOnly)) ||
                                              (!top.empty() && !NamesPackage(top, en.file_path, en.repo));
                                     }),
                      entries.end());
        if (entries.empty() || entries.size() > kMaxBareClassListed) continue;
      } else if (entries.size() > kMaxBareClassSites) {
        entries.clear();  // named in a sentence: the rest of the sentence may say more
      }
      for (uint32_t entry : entries) {
        const MatchEntry& e = m_.entries()[entry];
        ExplainHit h = base_hit(entry, ExplainHit::Kind::kNormalized);
        h.printed_class = std::string(bare);
        h.class_agreement = 1;
        h.score = 60 - ((e.flags & (kEntryInTests | kEntryVendored)) ? 15 : 0) - ((e.flags & kEntryOlderOnly) ? 3 : 0);
        std::string_view path = e.file_path;
        if (!module_file.empty() && path.size() > 3 && path.substr(path.size() - 3) == ".py") {
          std::string_view stem = path.substr(0, path.size() - 3);
          if (stem.size() >= module_file.size() && stem.substr(stem.size() - module_file.size()) == module_file &&
              (stem.size() == module_file.size() || stem[stem.size() - module_file.size() - 1] == '/'))
            h.score += 10;
          else if (NamesPackage(top, path, e.repo))
            h.score += 6;
        }
        keep(std::move(h));
      }
      if (alone) continue;
    }
    const auto query_tokens = Tokens(q.text, false);
    // The message words search; the class is weighed apart (ClassEvidence). A class
    // alone ("AssertionError") says nothing fuzzy search can use, and as a search
    // word it hits most of a test suite's catalog (98k rows: 150 ms per query).
    EmbeddedClass ec = FindEmbeddedClass(q.text);
    std::string_view message = ec.ok ? std::string_view(q.text).substr(ec.message_begin, ec.message_end - ec.message_begin)
                                     : std::string_view(q.text);
    if (ec.ok && q.printed_class.empty()) q.printed_class = std::string(ShortClassName(std::string_view(q.text).substr(ec.class_begin, ec.class_end - ec.class_begin)));
    if (message.find_first_not_of(" \t:") == std::string_view::npos) continue;
    // The class printed with its package: that package's sites raising it with a
    // message built at run time (few of them).
    if (ec.ok) {
      std::string_view printed = std::string_view(q.text).substr(ec.class_begin, ec.class_end - ec.class_begin);
      size_t dot = printed.find('.');
      if (dot != std::string_view::npos && dot > 0) {
        std::vector<std::string> module{std::string(printed.substr(0, dot))};
        std::vector<uint32_t> entries;
        m_.EntriesOfClass(ShortClassName(printed), &entries);
        entries.erase(std::remove_if(entries.begin(), entries.end(),
                                     [&](uint32_t e) {
                                       const MatchEntry& en = m_.entries()[e];
                                       return PatternIsWhole(en) || !NamesPackage(module, en.file_path, en.repo) ||
                                              (opt_.accept && !opt_.accept(e));
                                     }),
                      entries.end());
        if (entries.size() <= kMaxBareClassListed)  // as one "N sites match equally" hit
          for (uint32_t entry : entries) {
            const MatchEntry& e = m_.entries()[entry];
            ExplainHit h = base_hit(entry, ExplainHit::Kind::kClass);
            h.class_agreement = 1;
            h.score = 41 - ((e.flags & (kEntryInTests | kEntryVendored)) ? 15 : 0) - ((e.flags & kEntryOlderOnly) ? 3 : 0);
            keep(std::move(h));
          }
      }
    }
    // A template too generic to be searched for alone ("{} != {}", unittest's assertEqual;
    // "{coord}: {msg}") that matches the whole message of the class its site raises.
    if (ec.ok) {
      std::vector<uint32_t> entries;
      m_.EntriesOfClass(ShortClassName(q.printed_class), &entries);
      const PatternDatabase& db = m_.db();
      size_t tested = 0;
      for (uint32_t entry : entries) {
        const MatchEntry& e = m_.entries()[entry];
        if (e.pattern < 0 || (e.flags & kEntryInTests) || (opt_.accept && !opt_.accept(entry)) ||
            !db.TooGenericOnly(static_cast<uint32_t>(e.pattern)))
          continue;
        if (++tested > kMaxShortTemplates) break;
        if (!scratch_) break;
        std::optional<LocatedMatch> loc = db.LocateWhole(static_cast<uint32_t>(e.pattern), message, *scratch_);
        if (!loc || !loc->whole_text || loc->limit_hit) continue;
        ExplainHit h = base_hit(entry, ExplainHit::Kind::kPattern);
        h.full = true;
        h.class_agreement = 1;
        h.literal_shown = static_cast<size_t>(db.literal_chars(static_cast<uint32_t>(e.pattern)));
        // The whole message by a template of the printed class -- a sure answer only when
        // its own text is most of it ("1 != 2"); "{'a': 1} != {'a': 2}" is the shape of
        // every comparison helper's message.
        h.approximate = 2 * h.literal_shown < TrimmedLength(message);
        h.score = 70 + 0.5 * static_cast<double>(h.literal_shown) - ((e.flags & kEntryVendored) ? 15 : 0) -
                  ((e.flags & kEntryOlderOnly) ? 3 : 0);
        keep(std::move(h));
      }
    }
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
      auto [cls, agree] = ClassEvidence(q.printed_class, e.error_class);
      // 2. Near-exact: every literal piece of the template, in order.
      size_t literal_shown = 0;
      double share = agree < 0 || e.message.empty() ? -1 : NearExactShare(message, e.message, &literal_shown);
      const double named = AnyFrameNames(paste_frames_, e.file_path) ? 10 : 0;  // a file the paste names
      if (share >= 0) {
        ExplainHit h = base_hit(entry, ExplainHit::Kind::kNormalized);
        h.literal_shown = literal_shown;
        h.score = 50 + 30 * share + 0.5 * cls + named - ((e.flags & (kEntryInTests | kEntryVendored)) ? 15 : 0) -
                  ((e.flags & kEntryOlderOnly) ? 3 : 0);
        h.frame_file = named > 0;
        h.class_agreement = agree;
        keep(std::move(h));
        continue;
      }
      // 3. Fuzzy: similar words.
      const auto template_tokens = Tokens(e.message, true);
      double sim = SimilarityOfTokens(query_tokens, template_tokens);
      if (agree < 0) sim *= 0.7;
      if (sim < opt_.fuzzy_min_similarity) continue;
      ExplainHit h = base_hit(entry, ExplainHit::Kind::kFuzzy);
      h.literal_shown = AllWordsShown(query_tokens, template_tokens);
      h.score = 40 * sim + (bm25 > 0 ? 2 * bm25 / (1 + bm25) : 0) + named / 2 -
                ((e.flags & (kEntryInTests | kEntryVendored)) ? 2 : 0);
      h.frame_file = named > 0;
      h.class_agreement = agree;
      keep(std::move(h));
    }
  }
  std::vector<ExplainHit> hits;
  for (auto& [k, h] : best) hits.push_back(std::move(h));
  std::sort(hits.begin(), hits.end(), [](const ExplainHit& x, const ExplainHit& y) {
    return x.score != y.score ? x.score > y.score : x.entry < y.entry;
  });
  // Equal evidence: one hit that lists the others.
  std::vector<ExplainHit> kept;
  for (size_t i = 0; i < hits.size() && kept.size() < opt_.top_k;) {
    ExplainHit h = std::move(hits[i]);
    size_t j = i + 1;
    while (j < hits.size() && std::abs(hits[j].score - h.score) < kTieEpsilon && hits[j].kind == h.kind) {
      if (h.equal_entries.size() < 32) h.equal_entries.push_back(hits[j].entry);
      ++j;
    }
    kept.push_back(std::move(h));
    i = j;
  }
  return kept;
}

}  // namespace errdex
