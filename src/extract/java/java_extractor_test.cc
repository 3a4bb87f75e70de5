// Unit tests of the Java front end: throws, Preconditions, loggers, message rules
// (concatenation, String.format, text blocks, locals and constants), context and
// bad input. The differential test against javac's parser is tests/diff/lang_oracle.py
// with tests/diff/JavaOracle.java.
#include "extract/java/java_extractor.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

#ifdef ERRDEX_HAVE_TS_JAVA

std::vector<Site> Sites(std::string_view text, std::string path = "src/main/java/p/A.java") {
  return ExtractJava(path, text).sites;
}

TEST(JavaExtractor, ThrowsWithLocalsConstantsAndFormats) {
  auto s = Sites(
      "package p;\n"
      "public class A {\n"
      "  static final String PREFIX = \"zk\" + \": \";\n"
      "  A() { throw new IllegalStateException(); }\n"
      "  void m(int x) {\n"
      "    String msg = PREFIX + \"bad x=\" + x;\n"
      "    msg += \" (max 9)\";\n"
      "    if (x > 9) {\n"
      "      throw new IllegalArgumentException(msg);\n"
      "    } else if (x < 0) {\n"
      "      throw new java.io.UncheckedIOException(String.format(\"negative %d, %s%n\", x, \"lit\"), cause);\n"
      "    }\n"
      "    try { f(); } catch (IOException e) {\n"
      "      throw new KeeperException.NoNodeException(ErrorCode.X, \"no node \" + path);\n"
      "    }\n"
      "    throw new RuntimeException(e);\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].error_class, "IllegalStateException");
  EXPECT_EQ(s[0].function, "A.<init>");
  EXPECT_FALSE(s[0].error_message.has_value());
  EXPECT_EQ(s[1].line, 9);
  EXPECT_EQ(s[1].message_pattern, "zk: bad x=(.*?) \\(max 9\\)");
  EXPECT_EQ(s[1].guards, std::vector<std::string>{"x > 9"});
  EXPECT_EQ(s[1].function, "A.m");
  EXPECT_EQ(s[2].error_class, "UncheckedIOException");
  EXPECT_EQ(s[2].message_pattern, "negative (.*?), lit\n");
  EXPECT_EQ(s[2].guards, (std::vector<std::string>{"not (x > 9)", "x < 0"}));
  EXPECT_EQ(s[3].error_class, "NoNodeException");
  EXPECT_EQ(s[3].message_pattern, "no node (.*?)");
  EXPECT_EQ(s[3].except_context, "catch (IOException e)");
  EXPECT_FALSE(s[4].error_message.has_value());  // the cause's message: unknown here
}

TEST(JavaExtractor, PreconditionsLoggersAndTextBlocks) {
  auto s = Sites(
      "class B {\n"
      "  static { LOG.error(\"init failed for {} in {}\", name, \"zone\", e); }\n"
      "  void n(Object o, int x) {\n"
      "    Preconditions.checkArgument(x > 1, \"x %s out of %s\", x);\n"
      "    checkState(ready);\n"
      "    Objects.requireNonNull(o, \"o must not be null\");\n"
      "    logger.log(Level.SEVERE, \"lost {0} of {1}\", new Object[] {a, b});\n"
      "    LOG.info(\"not a site {}\", x);\n"
      "    throw new IllegalStateException(\"\"\"\n"
      "        first line\n"
      "          indented \\\n"
      "        continued\"\"\");\n"
      "  }\n"
      "}\n",
      "zookeeper/src/test/java/B.java");
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[0].kind, SiteKind::kLog);
  EXPECT_EQ(s[0].function, "B.<clinit>");
  EXPECT_EQ(s[0].message_pattern, "init failed for (.*?) in zone");
  EXPECT_TRUE(s[0].in_tests);
  EXPECT_EQ(s[1].error_class, "IllegalArgumentException");
  EXPECT_EQ(s[1].message_pattern, "x (.*?) out of %s");
  EXPECT_EQ(s[2].error_class, "IllegalStateException");
  EXPECT_FALSE(s[2].error_message.has_value());
  EXPECT_EQ(s[1].assert_condition, "x > 1");
  EXPECT_EQ(s[3].error_class, "NullPointerException");
  EXPECT_EQ(s[3].assert_condition, "o != null");  // the check requireNonNull makes
  EXPECT_EQ(s[4].log_level, "error");
  EXPECT_EQ(s[4].message_pattern, "lost (.*?) of (.*?)");  // {1}: past the one (array) argument
  EXPECT_EQ(s[5].error_message, "first line\n  indented continued");
}

// Apache Commons Validate and Spring Assert make the message at the call: the call is the
// site (its class the one the helper throws), Validate's values formatted by
// String.format, Spring's message as is; argument 0 is the condition where it is one.
TEST(JavaExtractor, ValidateAndAssertHelpersAreSites) {
  auto s = Sites(
      "class C {\n"
      "  void f(Object o, int n, long ms) {\n"
      "    Validate.isTrue(n > 0, \"n must be positive: %d\", n);\n"
      "    Validate.notNull(o, \"o is required\");\n"
      "    org.apache.commons.lang3.Validate.validState(ready, \"not ready\");\n"
      "    Validate.inclusiveBetween(0, Long.MAX_VALUE, ms, \"ms must not be negative\");\n"
      "    Assert.state(open, \"Connection is closed %d\");\n"
      "    Validate.isTrue(n > 0);\n"
      "    com.example.Validate.isTrue(n > 0, \"not the library's\");\n"
      "  }\n"
      "}\n",
      "src/main/java/C.java");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].error_class, "IllegalArgumentException");
  EXPECT_EQ(s[0].message_pattern, "n must be positive: (.*?)");
  EXPECT_EQ(s[0].assert_condition, "n > 0");
  EXPECT_EQ(s[1].error_class, "NullPointerException");
  EXPECT_EQ(s[1].assert_condition, "o != null");
  EXPECT_EQ(s[2].error_class, "IllegalStateException");
  EXPECT_EQ(s[3].assert_condition, "0 <= ms && ms <= Long.MAX_VALUE");
  EXPECT_EQ(s[4].error_class, "IllegalStateException");
  EXPECT_EQ(s[4].message_pattern, "Connection is closed %d");  // Spring does not format
}

TEST(JavaBadInput, NeverCrashes) {
  auto r = ExtractJava("X.java", "class X { void f( { throw new E(\"still\"); }}} \xff\xfe");
  EXPECT_FALSE(r.failed);
  EXPECT_FALSE(r.diagnostics.empty());
  std::string deep = "class X { void f() {";
  for (int i = 0; i < 30000; ++i) deep += "if (x) {";
  deep += "throw new E(\"deep\");";  // a sink word: the file is parsed and walked
  auto d = ExtractJava("Deep.java", deep);
  (void)d;
}

// A file with none of the words a site is spelled with (an interface, a DTO) is not
// parsed: no sites, no diagnostic for its syntax; one such word and it is parsed.
TEST(JavaExtractor, FileWithoutSiteWordsIsNotParsed) {
  auto none = ExtractJava("X.java", "interface X { int f( { }}} (((");
  EXPECT_TRUE(none.sites.empty());
  EXPECT_TRUE(none.diagnostics.empty());
  auto broken = ExtractJava("Y.java", "class Y { void f( { throw new E(\"x\"); }}} (((");
  EXPECT_FALSE(broken.diagnostics.empty());
  auto s = Sites("class A {\n  void f(int n) {\n    if (n < 0) LOG.warn(\"negative {}\", n);\n  }\n}\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].line, 3);
}

#else
TEST(JavaExtractor, GrammarNotBuilt) { EXPECT_TRUE(ExtractJava("X.java", "class X {}").failed); }
#endif

}  // namespace
}  // namespace errdex
