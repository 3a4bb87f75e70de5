// match/plain_lines.cc: a plain line's message (after its class, inside a sentence,
// over several lines) evaluated against the templates the window scan found on it.
// Tested through explain_test.cc.
#include "match/plain_lines.h"

#include "match/line_bounds.h"
#include "match/traceback.h"

#include <cctype>

namespace errdex {

namespace {

// Evaluates pattern p on the lines of `text` from `start` to `last` (line begins)
// joined with '\n', the first line's class split off (into *joined_class).
void EvaluateJoinedLines(uint32_t p, std::string_view text, uint64_t base, size_t start, size_t last,
                         LineNormalizer& normalizer, CandidateSet& cands, std::string* joined_class) {
  struct Piece {
    size_t seg_off, skip, raw_begin;  // seg_off + k is the line's byte skip + k
    NormalizedLine norm;
  };
  std::vector<Piece> pieces;
  std::string seg;
  joined_class->clear();
  for (size_t lb = start; lb <= last && lb < text.size(); lb = LineEnd(text, lb) + 1) {
    Piece& pc = pieces.emplace_back();
    normalizer.Normalize(text.substr(lb, LineEnd(text, lb) - lb), pc.norm);
    size_t skip = 0;
    if (pieces.size() == 1) {
      ClassSplit cs = SplitClassPrefix(pc.norm.text, /*strict=*/true);
      if (cs.ok) {
        skip = cs.message_begin;
        *joined_class = pc.norm.text.substr(0, cs.class_end);
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
  cands.Evaluate(p, seg, seg.size(), map_joined);
}

// A template with line breaks that matched from a later line spans earlier lines,
// whose own hits ("missing {name}" inside "Computed field is missing return type
// annotation ...") are pieces of the same message: they join its group and all are
// ranked by score together, instead of going first as a group of their own.
void MergeLinesOfOneMessage(std::vector<HitGroup>* groups, size_t first) {
  for (size_t j = groups->size(); j-- > first + 1;) {
    HitGroup& later = (*groups)[j];
    if (later.hits.empty()) continue;
    // Copied: the pushes below may move later.hits.
    const uint64_t top_begin = later.hits[0].begin, top_end = later.hits[0].end;
    size_t kept = later.hits.size();
    bool merged = false;
    uint64_t start = std::get<1>(later.key);
    for (size_t i = first; i < j; ++i) {
      HitGroup& earlier = (*groups)[i];
      if (earlier.hits.empty()) continue;
      // Its match lies inside the later one's.
      if (earlier.hits[0].begin < top_begin || earlier.hits[0].end > top_end) continue;
      for (ExplainHit& h : earlier.hits) later.hits.push_back(std::move(h));
      earlier.hits.clear();
      merged = true;
      start = std::min(start, std::get<1>(earlier.key));
    }
    if (!merged) continue;
    std::stable_sort(later.hits.begin(), later.hits.end(),
                     [](const ExplainHit& a, const ExplainHit& b) { return a.score > b.score; });
    later.hits.resize(kept);
    std::get<1>(later.key) = start;  // emitted where the message starts
  }
  groups->erase(std::remove_if(groups->begin() + static_cast<std::ptrdiff_t>(first), groups->end(),
                               [](const HitGroup& g) { return g.hits.empty(); }),
                groups->end());
}

}  // namespace

Status MatchPlainLines(const SelectedLines& lines, const PlainLineContext& ctx, CandidateSet& cands,
                       std::vector<HitGroup>* groups) {
  const size_t first_group = groups->size();
  std::vector<std::pair<uint32_t, size_t>> rescan;
  std::string joined_class;
  std::string joined_printed;  // the class a joined match found, kept: joined_class is reused
  SmallSet plain_seen;
  for (size_t li = 0; li < lines.size(); ++li) {
    if (lines.consumed[li]) continue;
    std::vector<std::pair<uint32_t, size_t>>& pats = *lines.patterns[li];
    std::string_view t = lines.norm[li]->text;
    if (LooksLikeFrameLine(t)) continue;  // a frame of a traceback cut off above: a path, not a message
    if (lines.escape[li]) {
      rescan.clear();
      Status s = ctx.matcher.db().Scan(t, ctx.scratch, rescan);
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
    cands.Reset();
    SmallSet done;
    for (auto [p, end] : pats) {
      if (plain_seen.contains(p) || !done.insert(p)) continue;
      auto map = [&](size_t pos) { return lines.RawOffset(li, msg_base + pos); };
      size_t before = cands.size();
      cands.Evaluate(p, msg, msg.size(), map, end_known);
      if (cands.size() == before && msg_base > 0) {
        auto map0 = [&](size_t pos) { return lines.RawOffset(li, pos); };
        cands.Evaluate(p, t, t.size(), map0, end_known, msg_base);
      }
      if (cands.size() == before) {
        // A template with line breaks ("Parameter validation failed:\n{report}"):
        // its match spans lines around this one (its holes never cross a line).
        // Read the message from each of those lines on, its class split off.
        const std::string& pat = ctx.matcher.db().pattern(p);
        size_t breaks = 0;
        for (size_t k = 0; k < pat.size(); ++k) {
          if (pat[k] == '\n') ++breaks;
          else if (pat[k] == '\\' && k + 1 < pat.size() && pat[++k] == 'n') ++breaks;
        }
        if (breaks > 0 && breaks <= ctx.max_message_lines) {
          size_t first = lines.begin[li];
          for (size_t k = 0; k < breaks && first > 0; ++k) first = LineBegin(lines.text, first - 1);
          size_t last = lines.begin[li];
          for (size_t k = 0; k < breaks && LineEnd(lines.text, last) + 1 < lines.text.size(); ++k)
            last = LineEnd(lines.text, last) + 1;
          for (size_t start = first; start <= last && cands.size() == before; start = LineEnd(lines.text, start) + 1)
            EvaluateJoinedLines(p, lines.text, lines.base, start, last, ctx.normalizer, cands, &joined_class);
          if (cands.size() > before && printed.empty() && !joined_class.empty()) {
            joined_printed = joined_class;
            printed = joined_printed;
          }
        }
      }
    }
    // A template that starts where the message starts and stops inside the line
    // says the rest may be the user's sentence: then a template whose hole ran to
    // the line's end ("not expecting type {x}" over "... '<class 'int'>' (works with
    // the previous release)") has not matched the whole message either, and both
    // are weighed by the literal text they explain.
    if (cands.TakeProseTailPossible())
      for (CandidateSet::Candidate& c : cands.all())
        if (c.ev.message.kind == MessageEvidence::Kind::kFull) {
          c.ev.message.kind = MessageEvidence::Kind::kPartial;
          c.hit.full = false;
        }
    auto msg_map = [&](size_t pos) { return lines.RawOffset(li, msg_base + pos); };
    if (Status rs = cands.TryRepr(msg, msg_map); !rs.ok()) return rs;
    PrintedError pe;
    pe.printed_class = printed;
    pe.printed_short = ShortClassName(printed);
    PackageHints(ctx.paste_frames, printed, &pe.packages);
    for (const CandidateSet::Candidate& c : cands.all())
      plain_seen.insert(static_cast<uint32_t>(ctx.matcher.entries()[c.hit.entry].pattern));
    cands.AddClassCandidates(printed, msg, lines.RawOffset(li, msg_base), lines.RawOffset(li, msg_base + msg.size()));
    std::vector<ExplainHit> hits = cands.Rank(pe);
    if (hits.empty()) continue;
    groups->push_back(HitGroup{{true, lines.RawOffset(li, 0), 0}, std::move(hits)});
  }
  MergeLinesOfOneMessage(groups, first_group);
  return Status::Ok();
}

}  // namespace errdex
