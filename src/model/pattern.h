// messagePattern: the regex form of a message as a user sees it.
//
// The chosen form (used everywhere in errdex):
//  * literal text with exactly these characters escaped by a backslash:
//      . * + ? ^ $ { } ( ) | [ ] and the backslash itself
//    nothing else (spaces, '-', '_', '/', '#', newlines stay as they are);
//  * each run of adjacent interpolated parts becomes the group (.*?) -- lazy and
//    '*' rather than '+', because an interpolated value may be empty;
//  * a conditional message ("a" if c else "b") becomes (?:pa|pb);
//  * not anchored: match it against the whole message with DOTALL semantics.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

inline constexpr std::string_view kHoleGroup = "(.*?)";

// Escapes the regex metacharacters of the chosen form.
std::string EscapePatternLiteral(std::string_view text);

// The longest prefix of `pattern` of at most `max_bytes` that is still a pattern
// whose matches include every match of `pattern` (unanchored): it is cut only
// between two whole atoms outside any group or class, never inside an escape or
// a UTF-8 sequence. May be empty. For the excerpt limits (extract/common/limits.h).
std::string_view PatternPrefix(std::string_view pattern, size_t max_bytes);

}  // namespace errdex
