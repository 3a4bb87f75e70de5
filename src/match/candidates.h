// match/candidates.h: the candidates of one printed error (a traceback's exception
// section or a plain line) -- every entry some evidence points at, with the best
// evidence seen for it -- and their ranking into hits. One CandidateSet serves a
// window (ExplainSession::Flush) and is reset for each printed error.
// Tested through explain_test.cc.
#pragma once

#include "match/evidence.h"
#include "match/explain.h"
#include "match/python_repr.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace errdex {

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

// The hits of one printed error, emitted together.
struct HitGroup {
  // Emission order: tracebacks before plain lines (an exception raised beats a log
  // line about it), by the input offset of the chain (or line), then the final
  // exception of a chain before its causes.
  std::tuple<bool, uint64_t, size_t> key;
  std::vector<ExplainHit> hits;
};

// An offset in a message -> the input offset it was read from.
using MessageOffsetMap = std::function<uint64_t(size_t)>;

class CandidateSet {
 public:
  struct Candidate {
    ExplainHit hit;
    CandidateEvidence ev;
  };

  // REQUIRES: all references outlive the set. paste_frames: every frame of the
  // paste so far (a plain line's file evidence).
  CandidateSet(const Matcher& matcher, PatternDatabase::Scratch& scratch, const ExplainOptions& options,
               const std::vector<TracebackFrame>& paste_frames);

  void Reset();
  // The candidate of `entry`, created empty when new.
  Candidate& Of(uint32_t entry);
  std::vector<Candidate>& all() { return cands_; }
  size_t size() const { return cands_.size(); }
  bool Accept(uint32_t entry) const { return !opt_.accept || opt_.accept(entry); }

  // Evaluates one pattern hit on `text` (a message, with a mapping of its offsets to
  // input offsets): a full match of the message, or a match inside it at word
  // boundaries and outside any path; the literal share says how much it explains.
  // end_known: the message ends where `text` ends (a traceback's message, a line
  // that starts with its class, a quoted span). In prose ("crash: X: msg (works with
  // the previous release)") it may end anywhere: when a template matches from the
  // message's start (`anchor`) but stops before the line's end, the rest may be the
  // user's sentence, and TakeProseTailPossible() says so (see plain_lines.cc).
  void Evaluate(uint32_t pattern, std::string_view text, size_t hs_end, const MessageOffsetMap& map,
                bool end_known = true, size_t anchor = 0);
  // Was a prose tail possible for some Evaluate since the last call? Clears it.
  bool TakeProseTailPossible() {
    bool was = prose_tail_possible_;
    prose_tail_possible_ = false;
    return was;
  }

  // A message printed as a repr (KeyError) or as a tuple (several arguments): also
  // match the string it shows, decoded (python_repr.h).
  Status TryRepr(std::string_view printed_msg, const MessageOffsetMap& map);

  // A class printed with its package ("click.exceptions.BadParameter") names the
  // sites of that package raising it with a message built at run time (a message
  // the catalog cannot hold), when there are few of them.
  void AddClassCandidates(std::string_view printed, std::string_view msg, uint64_t b, uint64_t e);

  // Weighs every candidate's evidence and keeps the best top_k, one hit per entry;
  // entries whose evidence is equal to the best one's become one hit that lists
  // them (equal_entries), so that no single one of them claims to be the answer.
  // Moves the hits out of the candidates.
  std::vector<ExplainHit> Rank(const PrintedError& pe);

 private:
  bool NearTie(const Candidate& a, const Candidate& b) const;
  // `entry`'s message evidence (and its hit's span and captures), unless it has better.
  void Record(uint32_t entry, const MessageEvidence& me, const LocatedMatch& loc, std::string_view text,
              const MessageOffsetMap& map);

  const Matcher& m_;
  const PatternDatabase& db_;
  PatternDatabase::Scratch& scratch_;
  const ExplainOptions& opt_;
  const std::vector<TracebackFrame>& paste_frames_;
  std::vector<Candidate> cands_;
  std::unordered_map<uint32_t, size_t> cand_of_;
  bool prose_tail_possible_ = false;
  ReprReading repr_;
  std::vector<std::pair<uint32_t, size_t>> rescan_;
  std::vector<uint32_t> order_;
  std::vector<uint32_t> class_entries_;
  void WeighOpenEnds();
};

}  // namespace errdex
