#include "match/python_repr.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

std::string Read(std::string_view s, bool* tuple = nullptr) {
  ReprReading r;
  if (!ReadPythonRepr(s, r)) return "<none>";
  EXPECT_EQ(r.text.size(), r.source.size());
  if (tuple) *tuple = r.from_tuple;
  return r.text;
}

TEST(PythonRepr, WholeStringRepr) {
  EXPECT_EQ(Read("'missing key x'"), "missing key x");
  EXPECT_EQ(Read("\"no key 'fp4' in table\""), "no key 'fp4' in table");
  EXPECT_EQ(Read("'it\\'s \"both\"'"), "it's \"both\"");
  EXPECT_EQ(Read("'a\\nb\\tc\\\\d'"), "a\nb\tc\\d");
  EXPECT_EQ(Read("'caf\\xe9 \\u20ac \\U0001f600'"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(PythonRepr, TupleGivesItsFirstString) {
  bool tuple = false;
  EXPECT_EQ(Read("('first part ', 'second part')", &tuple), "first part ");
  EXPECT_TRUE(tuple);
  EXPECT_EQ(Read("('bad value', 42)"), "bad value");
  EXPECT_EQ(Read("('only one',)"), "only one");
}

TEST(PythonRepr, AnythingElseIsNotARepr) {
  EXPECT_EQ(Read("plain message"), "<none>");
  EXPECT_EQ(Read("'unterminated"), "<none>");
  EXPECT_EQ(Read("'a' and 'b'"), "<none>");  // two strings, not one repr
  EXPECT_EQ(Read("(42, 'x')"), "<none>");   // the first element is not a string
  EXPECT_EQ(Read("('x')"), "<none>");       // a parenthesized string, not a tuple
  EXPECT_EQ(Read("'bad \\q escape'"), "<none>");
  EXPECT_EQ(Read("'\\x4'"), "<none>");
  EXPECT_EQ(Read("'"), "<none>");
}

TEST(PythonRepr, SourceOffsetsPointIntoThePrintedText) {
  ReprReading r;
  ASSERT_TRUE(ReadPythonRepr("('a\\'b', 1)", r));
  ASSERT_EQ(r.text, "a'b");
  EXPECT_EQ(r.source[0], 2u);  // a
  EXPECT_EQ(r.source[1], 3u);  // the escape \' starts here
  EXPECT_EQ(r.source[2], 5u);  // b
}

}  // namespace
}  // namespace errdex
