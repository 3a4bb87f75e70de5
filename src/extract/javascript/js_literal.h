// JavaScript string and template literals: the cooked value of a literal's body,
// the text a program sees at run time. Kept apart from the walker because it is
// pure text work, with rules of its own (legacy octal escapes in strings, CR/CRLF
// folded in templates), tested through js_extractor_test.cc.
#pragma once

#include <string>
#include <string_view>

namespace errdex::js {

// The cooked value of the body of a string or template literal (quotes/backticks
// and ${} excluded): escape sequences decoded, line continuations removed and,
// in templates (`tmpl`), CR/CRLF turned into LF. Malformed escapes keep their
// character; lone surrogates become U+FFFD.
std::string DecodeJsLiteral(std::string_view raw, bool tmpl);

}  // namespace errdex::js
