// match/pattern_db.h: the compiled form of a catalog's distinct message patterns.
// One Vectorscan block-mode database finds which patterns occur in a text (linear
// time, all patterns at once); PCRE2-JIT then re-runs only the patterns that hit, to
// get the span and the captured groups. Knows nothing about where patterns come
// from (the catalog/ layer passes them in and caches Serialize()'s bytes).
//
// Guarantees and limits (each an option of MatcherOptions, with its default):
//  * Scanning is linear in the input (Vectorscan). A pattern of our form (literal
//    text and "(.*?)" holes, model/pattern.h) reports at most one hit per line of
//    the text: holes at its ends are left out of the Vectorscan expression (they
//    add nothing to "does it occur", and a trailing group would report every end
//    offset), holes inside do not cross lines, and the match callback keeps the
//    first end per (pattern, line). Any other pattern (imported, maybe hostile)
//    reports at most one hit per Scan() call (HS_FLAG_SINGLEMATCH). The span and
//    captures come from PCRE2, anchored at the start of the text it is given.
//  * PCRE2 runs under a match limit and a depth limit; a pattern that hits them
//    (catastrophic backtracking, e.g. "(a+)+$") yields a hit without captures.
//  * Patterns that are invalid regexes, longer than max_pattern_bytes, have fewer
//    than min_literal_chars literal characters (they would match nearly anything:
//    "(.*?)" alone), or that Vectorscan cannot compile even as a prefilter, are
//    rejected at build time with a Status each; the other patterns stay usable.
//  * At most max_patterns patterns enter the database; the ones after the limit
//    (in the order given) are rejected with kLimitExceeded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/status.h"

struct hs_database;         // Vectorscan (<hs/hs.h>)
struct hs_scratch;
struct pcre2_real_code_8;  // PCRE2 (<pcre2.h>, 8-bit code units)

namespace errdex {

// What PatternDatabase::Build is doing, for a progress line. Vectorscan compiles
// the whole database in one call (kCompiling): it reports no progress of its own.
struct BuildProgress {
  enum class Phase { kChecking, kCompiling, kDone };
  Phase phase = Phase::kChecking;
  size_t done = 0;   // kChecking: patterns checked so far
  size_t total = 0;  // patterns given (kCompiling: patterns going into Vectorscan)
};

struct MatcherOptions {
  size_t max_patterns = 50000;     // distinct patterns per database
  size_t max_pattern_bytes = 8192;  // a longer pattern is rejected (bounds compile time/memory)
  size_t min_literal_chars = 6;     // fewer literal characters: too generic, not compiled
  uint32_t match_limit = 200000;    // PCRE2 match limit per capture run (at least 16 steps per byte of text, <= 64M)
  uint32_t depth_limit = 10000;     // PCRE2 pcre2_set_depth_limit per capture run
  // Called during Build (on the building thread); not part of what is compiled.
  std::function<void(const BuildProgress&)> on_progress;
};

struct RejectedPattern {
  uint32_t index;  // into the patterns given to Build
  Status why;
};

// One captured group of a located match; offsets into the text given to Locate*.
struct PatternCapture {
  int group;  // 1-based
  size_t begin;
  size_t end;
};

struct LocatedMatch {
  size_t begin = 0;
  size_t end = 0;
  bool whole_text = false;     // the pattern matched the whole text given
  bool limit_hit = false;      // PCRE2 gave up (match/depth limit): no captures
  std::vector<PatternCapture> captures;  // set groups only
};

// Thread-safety: a PatternDatabase is immutable after Build/Deserialize and may be
// shared by many threads, each with its own Scratch. Not copyable: it owns the
// Vectorscan database and the lazily compiled PCRE2 codes (raw C handles).
class PatternDatabase {
 public:
  // Per-thread working memory (Vectorscan scratch, PCRE2 match data, JIT stack).
  struct Scratch;
  struct ScratchDeleter {
    void operator()(Scratch* s) const;
  };
  using ScratchPtr = std::unique_ptr<Scratch, ScratchDeleter>;

  ~PatternDatabase();
  PatternDatabase(const PatternDatabase&) = delete;
  PatternDatabase& operator=(const PatternDatabase&) = delete;

  // Compiles every acceptable pattern; rejected ones are listed in rejected().
  // Fails only when Vectorscan cannot build the database at all.
  static Result<std::unique_ptr<PatternDatabase>> Build(std::vector<std::string> patterns,
                                                        const MatcherOptions& options);
  // Loads bytes made by Serialize() for exactly these patterns and options;
  // kInvalidArgument when the bytes belong to other patterns or another build
  // (the caller then rebuilds).
  static Result<std::unique_ptr<PatternDatabase>> Deserialize(std::string_view bytes,
                                                              std::vector<std::string> patterns,
                                                              const MatcherOptions& options);
  Result<std::string> Serialize() const;

  Result<ScratchPtr> NewScratch() const;

  // Lines a reader of logs must look at closer, found by the same scan as the
  // patterns (one pass over a window instead of three).
  enum class Marker : uint8_t {
    kTracebackHeader,  // "Traceback (most recent call last)"
    kEscape,           // an ANSI escape byte
    kFrameLine,        // 'File "x.py", line 12' (a traceback's frame, maybe without its header)
  };

  // Appends (pattern index, end offset of its first match on that line) for every
  // line of `text` where a pattern occurs (a foreign-form pattern: its first
  // match only), and when `markers` is given (marker, end offset) for every line
  // where a marker occurs. Roughly in order of end offset.
  Status Scan(std::string_view text, Scratch& scratch, std::vector<std::pair<uint32_t, size_t>>& hits,
              std::vector<std::pair<Marker, size_t>>* markers = nullptr) const;

  // PCRE2: does pattern `index` match all of `text`? (Anchored at both ends.)
  std::optional<LocatedMatch> LocateWhole(uint32_t index, std::string_view text, Scratch& scratch) const;
  // PCRE2: the first match of pattern `index` in `text` (a line); a leading group
  // of the pattern starts at text[0], a trailing one runs to the end of the line.
  std::optional<LocatedMatch> LocateIn(uint32_t index, std::string_view text, Scratch& scratch) const;

  size_t size() const { return patterns_.size(); }
  const std::string& pattern(uint32_t index) const { return patterns_[index]; }
  int literal_chars(uint32_t index) const { return literal_chars_[index]; }
  bool compiled(uint32_t index) const { return compiled_[index]; }
  // Left out of the scan only for being too generic (3 to min_literal_chars - 1 literal
  // characters, within the size and repeat limits): a template such a match may still
  // test by PCRE where something else (the printed class) has picked it out.
  bool TooGenericOnly(uint32_t index) const;
  size_t compiled_count() const { return hs_ids_.size(); }
  const std::vector<RejectedPattern>& rejected() const { return rejected_; }
  // The Vectorscan database itself (patterns and markers), for the benchmark's raw
  // hs_scan baseline. Owned by this object.
  const ::hs_database* raw_database() const { return db_; }
  // The hs_scan entry point Scan uses (see ScanRuntime in the .cc: Debian 12's
  // Vectorscan misses matches in its AVX-512 runtime), for baselines that must
  // scan the same way. Signature of hs_scan.
  using RawScanFunction = int (*)(const ::hs_database*, const char*, unsigned, unsigned, ::hs_scratch*,
                                  int (*)(unsigned, unsigned long long, unsigned long long, unsigned, void*), void*);
  static RawScanFunction raw_scan_function();

 private:
  struct Lazy;
  PatternDatabase(std::vector<std::string> patterns, const MatcherOptions& options);
  // PCRE2 codes of a pattern, compiled on first use (see LazyCode in the .cc).
  ::pcre2_real_code_8* WholeCode(uint32_t index) const;
  ::pcre2_real_code_8* SearchCode(uint32_t index) const;

  std::vector<std::string> patterns_;
  MatcherOptions options_;
  std::vector<int> literal_chars_;
  std::vector<bool> compiled_;
  std::vector<uint32_t> hs_ids_;       // Vectorscan id -> pattern index
  std::vector<unsigned> hs_flags_;     // per Vectorscan id
  std::vector<RejectedPattern> rejected_;
  uint64_t fingerprint_ = 0;
  ::hs_database* db_ = nullptr;
  std::vector<std::unique_ptr<Lazy>> lazy_;
};

// Number of literal characters of a pattern (escaped metacharacters count as one,
// groups, holes and regex operators as none). Exposed for ranking and tests.
int CountLiteralChars(std::string_view pattern);

// The form of a record's messagePattern the matcher compiles: without the blanks
// (spaces, tabs, newlines) that end it. A message printed with a trailing space
// ("... Unexpected character: %s ") loses it to every terminal, editor and paste,
// so the matcher never requires it.
std::string MatchForm(std::string_view pattern);

// Build's own checks of one pattern, without compiling a database (for an
// importer): Ok, or kLimitExceeded (longer than max_pattern_bytes), kParseError
// (not a regular expression PCRE2 accepts: the record is broken) or
// kInvalidArgument (too generic: fewer than min_literal_chars literal
// characters). Vectorscan's own refusals are not checked (they need a compile).
Status CheckPattern(std::string_view pattern, const MatcherOptions& options = MatcherOptions{});

}  // namespace errdex
