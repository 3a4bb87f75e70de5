#include "serve/safe_text.h"

#include <gtest/gtest.h>

namespace errdex::serve {
namespace {

TEST(VisibleText, TerminalEscapesAreRemovedOtherControlsShown) {
  EXPECT_EQ(VisibleText("\x1b[1;31mred\x1b[0m plain"), "red plain");
  EXPECT_EQ(VisibleText("\x1b]8;;https://evil\x07link\x1b]8;;\x1b\\"), "link");  // OSC 8 hyperlink
  EXPECT_EQ(VisibleText("a\x1bz"), "a^[z");  // a lone ESC is shown
  EXPECT_EQ(VisibleText(std::string("nul\0here", 8)), "nul^@here");
  EXPECT_EQ(VisibleText("bell\x07"), "bell^G");
  EXPECT_EQ(VisibleText("del\x7f"), "del^?");
  EXPECT_EQ(VisibleText("tab\tand\nnewline"), "tab\tand\nnewline");
  EXPECT_EQ(VisibleText("crlf\r\nline"), "crlf\nline");
  EXPECT_EQ(VisibleText("lone\rcr"), "lone^Mcr");
  EXPECT_EQ(VisibleText("c1 \xc2\x9b csi"), "c1 \\u009b csi");
}

TEST(VisibleText, BidiAndInvisibleCharactersAreShown) {
  EXPECT_EQ(VisibleText("admin\xe2\x80\xae txt"), "admin\\u202e txt");  // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(VisibleText("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");  // isolates
  EXPECT_EQ(VisibleText("zero\xe2\x80\x8bwidth"), "zero\\u200bwidth");
  EXPECT_EQ(VisibleText("\xef\xbb\xbf" "bom"), "\\ufeffbom");
  EXPECT_EQ(VisibleText("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
}

TEST(VisibleText, InvalidUtf8BecomesReplacementCharacters) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(VisibleText("a\xff" "b"), "a" + fffd + "b");
  EXPECT_EQ(VisibleText("\xc0\xaf"), fffd + fffd);            // overlong '/'
  EXPECT_EQ(VisibleText("\xed\xa0\x80"), fffd + fffd + fffd);  // a surrogate
  EXPECT_EQ(VisibleText("\xe6\x97"), fffd + fffd);             // truncated
  EXPECT_EQ(VisibleText("\xf4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
}

TEST(PathSegment, EncodesEverythingButUnreserved) {
  EXPECT_EQ(PathSegment("a/b c?d#e"), "a%2Fb%20c%3Fd%23e");
  EXPECT_EQ(PathSegment("name-1.2_x~"), "name-1.2_x~");
  EXPECT_EQ(PathSegment(".."), "%2E%2E");
  EXPECT_EQ(PathSegment("."), "%2E");
  EXPECT_EQ(PathSegment("\"><script>"), "%22%3E%3Cscript%3E");
}

TEST(IsSafeHttpUrl, OnlyPlainHttpLinks) {
  EXPECT_TRUE(IsSafeHttpUrl("https://github.com/o/r/blob/abc/f.py#L1-L9"));
  EXPECT_TRUE(IsSafeHttpUrl("http://example.com/x"));
  EXPECT_FALSE(IsSafeHttpUrl("javascript:alert(1)"));
  EXPECT_FALSE(IsSafeHttpUrl("JAVASCRIPT:alert(1)"));
  EXPECT_FALSE(IsSafeHttpUrl("data:text/html,<script>"));
  EXPECT_FALSE(IsSafeHttpUrl("https://x/\" onmouseover=\"alert(1)"));
  EXPECT_FALSE(IsSafeHttpUrl("https://x/<b>"));
  EXPECT_FALSE(IsSafeHttpUrl("//evil.example/"));
  EXPECT_FALSE(IsSafeHttpUrl("https://x/\xe2\x80\xae"));
  EXPECT_FALSE(IsSafeHttpUrl(""));
}

std::string Marked(const std::vector<TextPart>& parts) {
  std::string s;
  for (const TextPart& p : parts) s += p.mark ? "[" + p.text + "]" : p.text;
  return s;
}

TEST(MessageParts, InterpolationsFollowThePattern) {
  Record r;
  r.error_message = "expected {n} items, got {len(x)}{unit}";
  r.message_pattern = "expected (.*?) items, got (.*?)";
  EXPECT_EQ(Marked(MessageParts(r)), "expected [{n}] items, got [{len(x)}{unit}]");
  // Literal braces in the message stay text when the pattern says so.
  r.error_message = "bad dict {} for {key}";
  r.message_pattern = "bad dict \\{\\} for (.*?)";
  EXPECT_EQ(Marked(MessageParts(r)), "bad dict {} for [{key}]");
  // Nested braces inside an interpolation ({d['k']}, a format spec) are one part.
  r.error_message = "value {x:{width}} too wide";
  r.message_pattern = "value (.*?) too wide";
  EXPECT_EQ(Marked(MessageParts(r)), "value [{x:{width}}] too wide");
}

TEST(MessageParts, WithoutAUsablePatternBracesAreInterpolations) {
  Record r;
  r.error_message = "user {user} exceeded {limit}";
  EXPECT_EQ(Marked(MessageParts(r)), "user [{user}] exceeded [{limit}]");
  r.message_pattern = "(?:a|b)";  // conditional: no single text to align
  EXPECT_EQ(Marked(MessageParts(r)), "user [{user}] exceeded [{limit}]");
  r.message_pattern = "something else";
  EXPECT_EQ(Marked(MessageParts(r)), "user [{user}] exceeded [{limit}]");
  r.error_message = "unbalanced { brace";
  EXPECT_EQ(Marked(MessageParts(r)), "unbalanced { brace");
  r.error_message.reset();
  EXPECT_TRUE(MessageParts(r).empty());
}

TEST(HighlightWords, WholeWordsAndAPrefixForTheLast) {
  EXPECT_EQ(Marked(HighlightWords("Tensor shape mismatch in tensors", "tensor")), "[Tensor] shape mismatch in [tensors]");
  EXPECT_EQ(Marked(HighlightWords("Tensor shape mismatch in tensors", "tensor shape")),
            "[Tensor] [shape] mismatch in tensors");
  EXPECT_EQ(Marked(HighlightWords("abc", "")), "abc");
  EXPECT_EQ(Marked(HighlightWords("", "x")), "");
}

}  // namespace
}  // namespace errdex::serve
