// match/evidence.h: what speaks for one catalog entry being the site behind one
// printed error, and the score that orders candidates. Pure functions over small
// structs, so each rule is tested on its own (evidence_test.cc); candidates.cc
// gathers the evidence, this file weighs it.
//
// The order of strength, by design (see Score):
//  1. the raising frame (the last frame of a traceback) at the entry's file and
//     line, or printing the entry's own code line: what the interpreter says;
//  2. the message: the whole printed message matched by the template, weighed by
//     how much of it the template's literal text explains (a template of a word
//     or two explains little of a long message);
//  3. the printed class agreeing with the entry's;
//  4. tie breakers: other frames naming the file, package names seen in the
//     paste, library code over test code and vendored copies, the latest scan.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "match/line_bounds.h"  // TrimmedLength

namespace errdex {

// Flags of a catalog entry (MatchEntry::flags).
enum EntryFlag : uint8_t {
  kEntryInTests = 1,      // a test suite's code (tests/, test_*.py, conftest.py, ...)
  kEntryVendored = 2,     // a vendored copy (_vendor/, vendor/, third_party/, ...)
  kEntryOlderOnly = 4,    // absent from the newest scan of its repo
  kEntryOpenMessage = 8,  // its pattern holds some of its messages, not all (a raising
                          // helper whose callers' texts were read in part): the class
                          // alone may still point at it
};

// kEntryInTests | kEntryVendored from a repo-relative path.
uint8_t PathFlags(std::string_view path);

// How a template matched a message.
struct MessageEvidence {
  enum class Kind : uint8_t { kNone, kPartial, kFull };
  Kind kind = Kind::kNone;
  double explained = 0;  // literal characters of the template / characters of the message, 0..1
  int literal = 0;       // literal characters of the template
  bool open_ends = false;  // kFull by holes at both ends of the template (CandidateSet::Rank weighs it)
};

// How a traceback's frames point at the entry.
struct FrameEvidence {
  bool raising_file = false;     // the raising frame (last of its traceback) is in the entry's file
  bool raising_full_path = false;  // ... and the entry's whole path is a suffix of the frame's
  int path_components = 0;       // trailing path components in common with the raising frame
  bool raising_function = false;
  bool function_known = false;   // both the raising frame and the entry name a function
  int line_delta = -1;           // |raising frame line - entry line|, -1 unknown
  bool code = false;             // the code line printed under the raising frame is the entry's
  bool other_frame = false;      // another frame names the entry's file and function
};

// (score delta, agreement: +1 equal/subclass, 0 unknown, -1 disagrees) for a
// printed class (short name) against an entry's class.
std::pair<double, int> ClassEvidence(std::string_view printed, std::string_view entry_class);

// Trailing path components that agree ("json/decoder.py" and
// ".../python3.11/json/decoder.py": 2), and whether all of `entry_path` agreed.
// A "<frozen posixpath>" frame names the module's file (posixpath.py).
struct PathAgreement {
  int components = 0;
  bool whole_entry = false;
};
PathAgreement AgreePaths(std::string_view frame_file, std::string_view entry_path);
// Does a frame's file name the entry's file? At least two trailing components, or
// the entry's whole path.
bool FileMatches(std::string_view frame_file, std::string_view entry_path);
bool FunctionMatches(std::string_view frame_function, std::string_view entry_function);

// The file a "<frozen importlib._bootstrap>" frame stands for
// ("importlib/_bootstrap.py"); other names unchanged.
std::string FrozenModuleFile(std::string_view frame_file);

// A source line as compared: whitespace trimmed and runs collapsed, hashed
// (0 for an empty line).
uint32_t CodeLineHash(std::string_view line);

struct CandidateEvidence {
  MessageEvidence message;
  FrameEvidence frames;
  double class_score = 0;
  int class_agreement = 0;
  uint8_t flags = 0;            // EntryFlag
  bool package_hint = false;    // a package the paste names holds the entry
  bool class_only = false;      // a site of the printed (package-qualified) class whose message is built at run time
  bool vendored_named = false;  // the printed class's module names the entry's vendored copy (VendoredCopyNamed)
  // The printed class is another package's ("requests.exceptions.ConnectionError")
  // and another class than the entry raises (urllib3's MaxRetryError): the entry's
  // text is at most the inner error the printed one wraps.
  bool foreign_class = false;
};

double Score(const CandidateEvidence& e);

// Does a printed class's module reach into a vendored copy that holds the entry?
// "pip._vendor.tomli.TOMLDecodeError" names "pip/_vendor/tomli/_parser.py" (not
// "tomllib/_parser.py", nor "tomli/_parser.py"): the copy a user ran.
bool VendoredCopyNamed(std::string_view printed_class, std::string_view entry_path);

// Two templates that both match the whole printed message, with no frame to tell
// them apart, whose literal text explains shares closer than this: the message
// alone cannot choose ("Invalid mode: {mode}" and "Invalid mode: {mode!r}").
inline constexpr double kNearTieShare = 0.15;

// A template may call itself exact only when its literal text explains this share
// of the message (a full match), or this share when found inside it.
inline constexpr double kMinExactShare = 0.3;
// ... or, for a match of the whole message, this many literal characters (a long
// template is specific whatever its holes swallow).
inline constexpr int kMinExactLiteral = 24;
inline constexpr double kMinExactPartialShare = 0.6;
// A template with fewer literal characters than this is a few common words ("bad
// file", "Duplicate name", "could not find {x}"): many programs print them, so it
// is exact only with a printed class agreeing with the entry's, or a frame.
inline constexpr int kMinAloneLiteral = 16;
// Scores closer than this are equal: the evidence is the same.
inline constexpr double kTieEpsilon = 1e-6;

// A match of text[begin, end) inside a longer text is a match of words: it does not
// start or end inside a word, and it is not part of a path ("/x/version/y").
bool InsideWords(std::string_view text, size_t begin, size_t end);

// The frames of one traceback (outermost first; the last raised the error) against
// an entry's file, function, line and code line hash.
struct TracebackFrame;
FrameEvidence FramesFor(std::string_view entry_path, std::string_view entry_function, int entry_line,
                        uint32_t entry_code_hash, const std::vector<TracebackFrame>& frames);

// Does any of `frames` name the entry's file (FileMatches)?
bool AnyFrameNames(const std::vector<TracebackFrame>& frames, std::string_view entry_path);

// Package names a paste mentions: the directory after site-packages/ or
// dist-packages/ in frame paths, and the top module of a printed class
// ("botocore.exceptions.NoRegionError" -> "botocore"). Appended to *out.
void PackageHints(const std::vector<TracebackFrame>& frames, std::string_view printed_class,
                  std::vector<std::string>* out);
// Does one of `packages` hold the entry (a component of its path, or its repo's name)?
bool NamesPackage(const std::vector<std::string>& packages, std::string_view entry_path, std::string_view repo);
// The frames alone name the site with certainty: the raising frame at the entry's
// line (or printing its code), in its file, the class not disagreeing.
bool FramesCertain(const FrameEvidence& f, int class_agreement);

}  // namespace errdex
