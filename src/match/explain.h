// match/explain.h: from any pasted text (a message, a traceback, a log, a pipe) to
// ranked catalog entries. The Matcher holds the entries and the PatternDatabase
// and is shared; an ExplainSession streams one input through it in windows of
// lines (bounded memory: window_bytes, max_line_bytes) and reports hits.
//
// How an input is read (see normalize.h, traceback.h):
//  1. lines are normalized (ANSI, "\r", log prefixes stripped; offsets kept);
//  2. Python tracebacks become exception sections: the message (possibly several
//     lines) is matched on its own, with the section's frames and printed class as
//     evidence;
//  3. every other line is matched as a whole ("Class: " in front is split off);
//  4. a message Python printed as a repr (KeyError: 'x') or a tuple (an exception
//     raised with several arguments) is also matched as the string it shows
//     (python_repr.h), so the catalog's first argument matches in full.
// Each pattern reports at most one hit per section and one per window of plain
// lines (a log repeating one error many times reports it once per window; a
// window holds one to two window_bytes of whole lines and never ends inside a
// traceback).
//
// Speed: one Vectorscan pass over each window finds the pattern hits per line and
// the lines to look at closer (traceback headers, ANSI escapes); only those lines
// are normalized, so a log costs little more than raw Vectorscan on it
// (bench/match_bench.cc measures the ratio).
//
// Ranking (the weights are in evidence.h/.cc, covered by evidence_test.cc and
// explain_test.cc): for each printed error, every entry that a template match or
// the raising frame points at is a candidate; the raising frame at the entry's
// line or code line counts most, then how much of the message the template's
// literal text explains (whole message > inside it, at word boundaries and never
// inside a path), then the class, then tie breakers (other frames, package names
// in the paste, library code over tests and vendored copies, the latest scan).
// Entries with equal evidence give one hit listing the others (equal_entries).
// A template hit calls itself exact only when its literal text explains enough of
// the message, a frame hit only when the raising frame is at the entry's line.
// In a chain of exceptions the final one's hits come first, then its causes.
// When nothing matched in the whole input, a fuzzy fallback (token similarity
// over candidates from a FuzzySearch, or over all entries) may report near
// matches, always marked approximate.
//
// Thread-safety: Matcher is immutable and thread-safe; ExplainSession is not (one
// per input per thread).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "match/normalize.h"
#include "match/pattern_db.h"
#include "match/traceback.h"
#include "model/status.h"

namespace errdex {

// One catalog entry as the ranker sees it. The text fields are views: whoever builds
// the Matcher keeps the bytes alive (Matcher's `storage`), so a 100k-entry catalog
// opens without 400k string allocations (the catalog's entries are views into its
// cached blob).
struct MatchEntry {
  std::string_view error_class;  // "" unknown
  std::string_view file_path;    // repo-relative
  std::string_view function;     // enclosing function, "" unknown ("Class.method" allowed)
  int line = 0;
  std::string_view message;      // errorMessage ("{expr}" for interpolations), for fuzzy similarity
  int pattern = -1;              // index into the PatternDatabase, -1 when the entry has none
  std::string_view repo;         // "owner/name", "" unknown
  uint8_t flags = 0;             // EntryFlag (evidence.h): test code, vendored copy, older scans only
  uint32_t code_hash = 0;        // CodeLineHash of the site's first source line, 0 unknown
};

// The entry's pattern holds every message it can print: its class alone need not
// point at it. False for no pattern, and for kEntryOpenMessage (evidence.h): a raising
// helper whose callers' texts were read in part.
bool PatternIsWhole(const MatchEntry& e);

class Matcher {
 public:
  // REQUIRES: every entry's pattern is -1 or < db->size(); the entries' views stay
  // valid while `storage` (or, when null, the caller) keeps their bytes.
  Matcher(std::unique_ptr<PatternDatabase> db, std::vector<MatchEntry> entries,
          std::shared_ptr<const void> storage = nullptr);
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  const PatternDatabase& db() const { return *db_; }
  const std::vector<MatchEntry>& entries() const { return entries_; }
  const std::vector<uint32_t>& EntriesOfPattern(uint32_t pattern) const { return by_pattern_[pattern]; }
  // Entries a traceback frame points at: of the frame's file (its trailing path
  // components agree with the entry's), within 10 lines of its line or in its
  // function (any line). Appended to *out, maybe twice. Thread-safe. The per-file
  // index behind it is built on the first call: only a traceback whose message
  // matched nothing needs it, and building it at open cost as much as the open.
  void EntriesNearFrame(std::string_view file, int line, std::string_view function, std::vector<uint32_t>* out) const;
  // Entries whose first source line hashes to `code_hash` (CodeLineHash): a pasted
  // "assert x == y" names its assert. Appended to *out. Thread-safe; the index is
  // built on the first call.
  void EntriesWithCode(uint32_t code_hash, std::vector<uint32_t>* out) const;
  // Entries whose class's last dotted component is `short_class`. Appended to *out.
  // Thread-safe; the index is built on the first call.
  void EntriesOfClass(std::string_view short_class, std::vector<uint32_t>* out) const;

  // Scratch from a pool (allocating a Vectorscan scratch for a big database costs
  // more than explaining a paste); give it back with ReleaseScratch. Thread-safe.
  Result<PatternDatabase::ScratchPtr> AcquireScratch() const;
  void ReleaseScratch(PatternDatabase::ScratchPtr scratch) const;

 private:
  mutable std::mutex pool_mu_;
  mutable std::vector<PatternDatabase::ScratchPtr> pool_;
  std::shared_ptr<const void> storage_;  // declared first: destroyed after the views into it
  std::unique_ptr<PatternDatabase> db_;
  std::vector<MatchEntry> entries_;
  std::vector<std::vector<uint32_t>> by_pattern_;
  // The entries of one file. A test file can hold thousands of bare asserts: a
  // frame must not walk them all, so they are ordered by line and by short function
  // name, on the first frame that names the file (sorting every file of a
  // 100k-entry catalog cost more than the lookups saved).
  struct FileEntries {
    uint32_t first = 0;             // an entry of the file (its path)
    std::vector<uint32_t> entries;  // in entry order
    std::unique_ptr<std::once_flag> sorted = std::make_unique<std::once_flag>();
    mutable std::vector<uint32_t> by_line;            // by (line, entry)
    mutable std::vector<uint32_t> by_function;        // by (ShortClassName(function), entry)
    mutable std::vector<std::string_view> functions;  // ShortClassName of each by_function entry's function
  };
  void BuildFileIndex() const;
  void SortFile(const FileEntries& f) const;
  mutable std::once_flag file_index_once_;
  // Base name ("decoder.py") -> its files. Keyed by views into the entries' file
  // paths (they live as long as the Matcher).
  mutable std::unordered_map<std::string_view, std::vector<FileEntries>> by_base_;
  mutable std::once_flag code_index_once_;
  mutable std::vector<std::pair<uint32_t, uint32_t>> by_code_;  // (code_hash, entry), sorted
  mutable std::once_flag class_index_once_;
  mutable std::vector<std::pair<std::string_view, uint32_t>> by_class_;  // (short class, entry), sorted
};

struct ExplainOptions {
  size_t top_k = 3;                      // hits per section/line
  size_t window_bytes = 64 * 1024;       // plain lines are scanned in windows of about this size
  size_t max_line_bytes = 1024 * 1024;   // a longer line is cut into pieces of this size (no match spans a cut)
  size_t max_message_lines = 20;         // continuation lines of one exception message
  uint64_t max_input_bytes = 0;          // 0 = no limit; beyond it Feed returns kLimitExceeded
  bool fuzzy = true;                     // fuzzy fallback when nothing matched
  double fuzzy_min_similarity = 0.35;    // 0..1
  // Entries to consider (e.g. one repo); empty = all.
  std::function<bool(uint32_t entry)> accept;
};

struct ExplainCapture {
  int group;        // 1-based, as in the pattern
  uint64_t begin;   // input byte offsets
  uint64_t end;
  std::string text;
  size_t message_begin = 0;  // the same span in ExplainHit::message
  size_t message_end = 0;
};

struct ExplainHit {
  // kPattern: a template matched the message; kFrame: the traceback's frames name
  // the site; kNormalized: a template matched once case, whitespace, quotes and
  // markdown were evened out (always approximate); kFuzzy: similar words only.
  // kClass: the printed class, qualified by its package, names sites that raise it
  // with a message built at run time (always approximate).
  enum class Kind { kPattern, kFrame, kNormalized, kFuzzy, kClass };
  uint32_t entry = 0;
  double score = 0;
  Kind kind = Kind::kPattern;
  bool full = false;         // the whole printed message matched
  bool approximate = false;  // never true for kPattern
  uint64_t begin = 0;        // input bytes of the matched text
  uint64_t end = 0;
  std::vector<ExplainCapture> captures;
  std::string printed_class;  // "" when the input showed none
  std::string message;        // the normalized text that was matched against
  size_t message_offset = 0;  // where the match starts in `message`
  size_t message_length = 0;
  int class_agreement = 0;    // +1 equal/subclass, 0 unknown, -1 disagrees
  bool frame_file = false;    // a traceback frame names the entry's file
  bool frame_function = false;
  bool frame_line = false;    // the raising frame is at the entry's line
  bool frame_code = false;    // the code line printed under the raising frame is the entry's
  size_t literal_shown = 0;   // kNormalized: characters of the template's literal text shown; kFuzzy: of its words, when all are shown
  // Other entries whose evidence is exactly as good: "several sites match equally".
  std::vector<uint32_t> equal_entries;
  // Place in a chain of exceptions (traceback sections joined by "During handling
  // of the above exception..." / "The above exception was the direct cause..."):
  // chain_pos == chain_len - 1 is the exception the user hit; others are its causes.
  size_t chain_pos = 0;
  size_t chain_len = 1;
  bool chain_direct_cause = false;  // this one was the direct cause (raise ... from) of the next
  uint64_t group = 0;         // hits of the same section/line share it
};

// Candidate entries for a text (e.g. FTS5 bm25): (entry, score >= 0, higher better).
using FuzzySearch = std::function<std::vector<std::pair<uint32_t, double>>(std::string_view text, int limit)>;
using HitSink = std::function<void(const ExplainHit&)>;

class ExplainSession {
 public:
  ExplainSession(const Matcher& matcher, ExplainOptions options, FuzzySearch fuzzy = nullptr);
  ~ExplainSession();
  ExplainSession(const ExplainSession&) = delete;
  ExplainSession& operator=(const ExplainSession&) = delete;

  // Feeds the next bytes of the input; hits of completed windows go to sink
  // (approximate ones, while nothing confident has matched, wait: see held_).
  Status Feed(std::string_view bytes, const HitSink& sink);
  // End of input: flushes, then runs the fuzzy fallback when nothing matched.
  Status Finish(const HitSink& sink);
  uint64_t hit_count() const { return hits_; }
  uint64_t bytes_read() const { return raw_offset_; }

 private:
  struct Window;
  // When nothing matched in the whole input: bare classes, near-exact, fuzzy
  // (fallback.cc), best first, equal evidence folded into one hit.
  std::vector<ExplainHit> FallbackHits();
  // Numbers a section's hits as one group and hands them to sink.
  void EmitGroup(std::vector<ExplainHit>& hits, const HitSink& sink);
  // Emits the held approximate groups, in input order.
  void ReleaseHeld(const HitSink& sink);
  // Explains the window's first n bytes, then drops them.
  void FlushPrefix(size_t n, const HitSink& sink);
  // Explains `text` (complete lines of the input from offset `base` on: the
  // window's bytes, or the caller's); returns how many bytes it explained: all, or
  // fewer when the text ends inside a traceback and !force (from the traceback's
  // header on, bytes wait for the next window; 0: all wait).
  size_t Explain(std::string_view text, uint64_t base, bool force, const HitSink& sink);
  Status Flush(std::string_view text, uint64_t base, bool force, const HitSink& sink, size_t* done);
  void Drop(size_t n);  // forgets the window's first n bytes

  const Matcher& m_;
  ExplainOptions opt_;
  FuzzySearch fuzzy_;
  PatternDatabase::ScratchPtr scratch_;
  Status scratch_status_;
  LineNormalizer normalizer_;
  std::unique_ptr<Window> w_;
  std::vector<std::pair<uint32_t, size_t>> hs_hits_;  // reused by Flush
  std::vector<std::pair<PatternDatabase::Marker, size_t>> markers_;
  std::vector<uint32_t> frame_cands_;  // reused by Flush
  // Frames seen anywhere in the input so far (bounded; newest kept): a plain line's
  // hits, and the fallback's, are weighed against them (a file the paste names).
  std::vector<TracebackFrame> paste_frames_;
  size_t retry_at_ = 0;  // window size at which an open traceback is looked at again
  uint64_t raw_offset_ = 0;   // input offset of the next byte fed
  uint64_t hits_ = 0;
  // Hits that are not approximate. Until there is one, the fallback still runs (a
  // generic template's weak match must not hide a near-exact or fuzzy answer); the
  // entries already reported as approximate are not reported again by it.
  uint64_t confident_hits_ = 0;
  std::vector<uint32_t> weak_entries_;  // bounded
  // Approximate groups held back while nothing confident matched: at the end a
  // near-exact fallback answer that is stronger goes before them ("failed" found
  // inside "Parameter validation failed: ..." must not outrank the template the
  // whole line matches once its line breaks are evened out). Bounded.
  std::vector<std::vector<ExplainHit>> held_;
  uint64_t next_group_ = 0;
  bool limit_reported_ = false;
  Status flush_status_;
  std::vector<std::string> fuzzy_queries_;  // bounded: recent exception messages / lines
};

// Token similarity used by the fuzzy fallback, 0..1 (exposed for tests).
double TokenSimilarity(std::string_view query, std::string_view message_template);
// The near-exact comparison (fallback.cc): both sides lower-cased, smart quotes and
// dashes as ASCII, markdown characters (` * _ ~) dropped, whitespace runs as one
// space. NearExactShare: the share of the query the template's literal pieces
// explain when all of them appear in order (the last may be cut off: then the share
// of the template's literal text, when that is longer, as a cut-off message shows
// less of it), else -1; *literal_matched (when given): how many characters of the
// template's literal text the query shows.
std::string NearExactText(std::string_view text);
// Characters of a template's literal text (outside its holes) as NearExactShare
// counts them: what a near-exact hit shows is weighed against it.
size_t LiteralChars(std::string_view message_template);
double NearExactShare(std::string_view query, std::string_view message_template, size_t* literal_matched = nullptr);

}  // namespace errdex
