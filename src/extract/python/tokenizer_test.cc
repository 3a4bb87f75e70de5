// Tests of the Python tokenizer (tokenizer.h).
#include "extract/python/tokenizer.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace errdex::py {
namespace {

std::vector<std::string> Texts(std::string_view src, const Tokens& t, bool structural = false) {
  std::vector<std::string> out;
  for (const Token& k : t.tokens) {
    if (k.kind == TokenKind::kEnd) break;
    if (k.kind == TokenKind::kNewline) { if (structural) out.push_back("NL"); continue; }
    if (k.kind == TokenKind::kIndent) { if (structural) out.push_back("IN"); continue; }
    if (k.kind == TokenKind::kDedent) { if (structural) out.push_back("DE"); continue; }
    out.emplace_back(TokenText(src, k));
  }
  return out;
}

TEST(Tokenizer, StringPrefixesAndTripleQuotes) {
  std::string src = "a = rb'x\\'' + Rb\"y\" + f'{z}' + u'w' + '''t\n''' + br'''q''' + Fr\"{a!r}\"\n";
  Tokens t = Tokenize(src);
  std::vector<std::string> want = {"a", "=", "rb'x\\''", "+", "Rb\"y\"", "+", "f'{z}'", "+", "u'w'", "+",
                                   "'''t\n'''", "+", "br'''q'''", "+", "Fr\"{a!r}\""};
  EXPECT_EQ(Texts(src, t), want);
  EXPECT_TRUE(t.diagnostics.empty());
  StringInfo si = AnalyzeString(src, t.tokens[2]);
  EXPECT_TRUE(si.raw);
  EXPECT_TRUE(si.bytes);
  EXPECT_FALSE(si.fstring);
  EXPECT_EQ(src.substr(si.body_begin, si.body_end - si.body_begin), "x\\'");
}

TEST(Tokenizer, FStringNestingPep701) {
  std::string src = "x = f\"{d[\"k\"]} {f'{a:{w}}'} {{lit}} {b!r:>{n}}\" + y\n";
  Tokens t = Tokenize(src);
  std::vector<std::string> want = {"x", "=", "f\"{d[\"k\"]} {f'{a:{w}}'} {{lit}} {b!r:>{n}}\"", "+", "y"};
  EXPECT_EQ(Texts(src, t), want);
  EXPECT_TRUE(t.diagnostics.empty());
}

TEST(Tokenizer, OperatorsLongestMatch) {
  std::string src = "a **= b // c -> d := e ... f != g >>= h <= i\n";
  Tokens t = Tokenize(src);
  std::vector<std::string> want = {"a", "**=", "b", "//", "c", "->", "d", ":=", "e", "...", "f", "!=", "g", ">>=", "h", "<=", "i"};
  EXPECT_EQ(Texts(src, t), want);
}

TEST(Tokenizer, NumbersWithExponentsAndUnderscores) {
  std::string src = "x = 1e-5 + 0x1F - 1_000.5j + .5\n";
  Tokens t = Tokenize(src);
  std::vector<std::string> want = {"x", "=", "1e-5", "+", "0x1F", "-", "1_000.5j", "+", ".5"};
  EXPECT_EQ(Texts(src, t), want);
}

TEST(Tokenizer, LogicalLinesIndentationAndContinuations) {
  std::string src = "if a:\n    b = (1,\n  2)\n    c = 3 \\\n+ 4\n\n    # comment\nd\n";
  Tokens t = Tokenize(src);
  std::vector<std::string> want = {"if", "a", ":", "NL", "IN", "b", "=", "(", "1", ",", "2", ")", "NL",
                                   "c", "=", "3", "+", "4", "NL", "DE", "d", "NL"};
  EXPECT_EQ(Texts(src, t, true), want);
  ASSERT_EQ(t.lines.size(), 4u);
  EXPECT_EQ(t.lines[0].indent, 0);
  EXPECT_EQ(t.lines[1].indent, 4);
  EXPECT_EQ(t.lines[2].indent, 4);
  EXPECT_EQ(t.lines[3].indent, 0);
  EXPECT_EQ(t.tokens[t.lines[2].first].line, 4);
  EXPECT_EQ(t.tokens[t.lines[3].first].line, 8);
}

TEST(Tokenizer, TabsAndFormFeedIndentation) {
  std::string src = "if a:\n\tb\n        c\n\x0c    d\n";
  Tokens t = Tokenize(src);
  ASSERT_EQ(t.lines.size(), 4u);
  EXPECT_EQ(t.lines[1].indent, 8);
  EXPECT_EQ(t.lines[2].indent, 8);
  EXPECT_EQ(t.lines[3].indent, 4);
}

TEST(Tokenizer, LineEndingsAndColumns) {
  std::string src = "a\r\nbb = 1\rccc\n  d";
  Tokens t = Tokenize(src);
  ASSERT_EQ(t.line_starts.size(), 4u);
  std::vector<std::pair<int, int>> pos;
  for (const Token& k : t.tokens)
    if (k.kind == TokenKind::kName) pos.emplace_back(k.line, k.col);
  std::vector<std::pair<int, int>> want = {{1, 0}, {2, 0}, {3, 0}, {4, 2}};
  EXPECT_EQ(pos, want);
  EXPECT_EQ(t.LineOf(static_cast<uint32_t>(src.size() - 1)), 4);
}

TEST(Tokenizer, CommentsKeptOnRequest) {
  std::string src = "x = 1  # note\n# alone\n";
  TokenizeOptions o;
  o.keep_comments = true;
  Tokens t = Tokenize(src, o);
  int comments = 0;
  for (const Token& k : t.tokens) comments += k.kind == TokenKind::kComment;
  EXPECT_EQ(comments, 2);
  EXPECT_EQ(Texts(src, Tokenize(src)), (std::vector<std::string>{"x", "=", "1"}));
}

TEST(Tokenizer, ProblemsBecomeDiagnostics) {
  TokenizeOptions o;
  o.path = "p.py";
  Tokens t = Tokenize("x = $\ny = )\nz = 'abc\nw = (\n", o);
  ASSERT_EQ(t.diagnostics.size(), 4u);
  EXPECT_EQ(t.diagnostics[0].path, "p.py");
  EXPECT_EQ(t.diagnostics[0].line, 1);
  EXPECT_EQ(t.diagnostics[0].column, 4);
  EXPECT_EQ(t.diagnostics[1].message, "unmatched ')'");
  EXPECT_EQ(t.diagnostics[2].message, "unterminated string literal");
  EXPECT_EQ(t.diagnostics[3].message, "unexpected end of file: unclosed bracket");
  EXPECT_EQ(t.tokens.back().kind, TokenKind::kEnd);
}

TEST(Tokenizer, DecodeStringBody) {
  EXPECT_EQ(DecodeStringBody("a\\nb\\t\\x41\\u00e9\\101\\\nc\\q", false), "a\nb\tA\xc3\xa9" "Ac\\q");
  EXPECT_EQ(DecodeStringBody("a\\nb", true), "a\\nb");
  EXPECT_EQ(DecodeStringBody("\\N{DASH}", false), "\\N{DASH}");
}

TEST(Tokenizer, TokenizeExpressionRange) {
  std::string src = "xx(a + 'b', c)yy";
  std::vector<Token> out;
  TokenizeExpression(src, 3, 13, &out);
  std::vector<std::string> got;
  for (const Token& k : out)
    if (k.kind != TokenKind::kEnd) got.emplace_back(TokenText(src, k));
  EXPECT_EQ(got, (std::vector<std::string>{"a", "+", "'b'", ",", "c"}));
}

// A BOM is not part of the first token (it was read as identifier bytes:
// "\xEF\xBB\xBFraise" was a NAME and the first statement was missed).
TEST(Tokenizer, ByteOrderMarkIsSkipped) {
  const std::string src = "\xEF\xBB\xBFraise E('x')\n  # c\nraise F\n";
  Tokens t = Tokenize(src);
  ASSERT_GE(t.tokens.size(), 2u);
  EXPECT_EQ(t.tokens[0].kind, TokenKind::kName);
  EXPECT_EQ(TokenText(src, t.tokens[0]), "raise");
  EXPECT_EQ(t.tokens[0].begin, 3u);
  EXPECT_EQ(t.tokens[0].line, 1);
  EXPECT_EQ(t.tokens[0].col, 0);
  EXPECT_EQ(t.tokens[1].col, 6);
  ASSERT_EQ(t.lines.size(), 2u);
  EXPECT_EQ(t.lines[0].indent, 0);
  Tokens d = Tokenize("\xEF\xBB\xBF$");
  ASSERT_EQ(d.diagnostics.size(), 1u);
  EXPECT_EQ(d.diagnostics[0].column, 0);
  // A BOM anywhere else is a byte like any other.
  Tokens mid = Tokenize("x = 1\n\xEF\xBB\xBFy\n");
  ASSERT_GE(mid.tokens.size(), 5u);
  EXPECT_EQ(mid.tokens[4].col, 0);
  EXPECT_EQ(mid.tokens[4].end - mid.tokens[4].begin, 4u);
}

}  // namespace
}  // namespace errdex::py
