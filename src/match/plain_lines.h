// match/plain_lines.h: errors printed outside any traceback -- a log line, an issue
// title, a bare message (maybe over several lines, maybe followed by the user's own
// sentence) -- matched against the templates. ExplainSession::Flush hands over the
// lines of a window no traceback consumed. Tested through explain_test.cc.
#pragma once

#include "match/candidates.h"
#include "match/normalize.h"

#include <string_view>
#include <vector>

namespace errdex {

// The lines of a window worth a look (around a pattern hit, an ANSI escape, a
// traceback), renumbered 0..size()-1 in input order.
struct SelectedLines {
  std::string_view text;  // the window
  uint64_t base = 0;      // input offset of text[0]
  std::vector<size_t> begin;                  // each line's begin in `text`
  std::vector<const NormalizedLine*> norm;    // each line normalized
  std::vector<std::vector<std::pair<uint32_t, size_t>>*> patterns;  // window scan hits: (pattern, end in the raw line)
  std::vector<bool> escape;                   // holds an ANSI escape: scanned again normalized
  std::vector<bool> consumed;                 // part of a traceback (Python or foreign)

  size_t size() const { return begin.size(); }
  // Input offset of byte `off` of line k's normalized text.
  uint64_t RawOffset(size_t k, size_t off) const { return base + begin[k] + norm[k]->RawOffset(off); }
};

struct PlainLineContext {
  const Matcher& matcher;
  PatternDatabase::Scratch& scratch;
  LineNormalizer& normalizer;
  size_t max_message_lines;
  const std::vector<TracebackFrame>& paste_frames;  // every frame of the paste so far
};

// Ranks the candidates of each line of `lines` not consumed, appending one group per
// line that has hits. A pattern reports once per window of plain lines. The window
// scan's hits on a line are its candidates; a line with an ANSI escape is scanned
// again normalized (its hits added to lines.patterns).
Status MatchPlainLines(const SelectedLines& lines, const PlainLineContext& ctx, CandidateSet& cands,
                       std::vector<HitGroup>* groups);

}  // namespace errdex
