// serve/safe_text.h: making catalog text safe to show on a page or put in a link.
// A scanned repository is untrusted input: a message may hold HTML, terminal
// escapes, bidirectional-override characters (which reorder what a reader sees,
// "Trojan Source") or bytes that are not UTF-8. HTML escaping itself is the
// template engine's ({{name}} always escapes); these functions handle the rest.
//
// Thread-safety: pure functions. Tested by safe_text_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/record.h"

namespace errdex::serve {

// The text a reader should see: valid UTF-8 (each invalid byte becomes U+FFFD),
// ANSI escape sequences (CSI, OSC) removed as a terminal would not print them,
// other control characters shown as ^X (C1 as \u0085), invisible formatting and
// bidi controls (U+200B-U+200F, U+202A-U+202E, U+2066-U+2069, U+061C, U+FEFF,
// U+2028/2029) shown as \u202e. Keeps '\t' and '\n'; drops the '\r' of "\r\n".
std::string VisibleText(std::string_view s);

// `s` as one URL path segment: everything but A-Z a-z 0-9 - . _ ~ percent-encoded.
std::string PathSegment(std::string_view s);
// `s` for a URL query value (as PathSegment, space as %20).
inline std::string QueryValue(std::string_view s) { return PathSegment(s); }

// true for an absolute http(s) URL without characters that could leave an
// attribute or change the scheme: the only links taken from a record (githubUrl).
bool IsSafeHttpUrl(std::string_view url);

// A run of text, marked or not (an interpolated part of a message, a captured
// value, a word the search matched).
struct TextPart {
  std::string text;
  bool mark = false;
};

// errorMessage cut into its literal text and its interpolated parts ("{expr}"),
// using messagePattern to tell a literal brace from an interpolation; without a
// usable pattern every balanced {...} counts as interpolated.
std::vector<TextPart> MessageParts(const Record& r);

// `text` with every word of `query` (case-insensitive, whole words; the last
// query word may be a prefix) marked, as the search matched them.
std::vector<TextPart> HighlightWords(std::string_view text, std::string_view query);

}  // namespace errdex::serve
