// Tests of extract/common/limits.h (CapSite) and the helpers it rests on:
// model/pattern.h PatternPrefix and model/utf8.h Utf8CutPoint.
#include "extract/common/limits.h"

#include <gtest/gtest.h>

#include <string>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "model/pattern.h"
#include "model/utf8.h"

namespace errdex {
namespace {

// Does `pattern` match somewhere in `text` (PCRE2, as explain runs patterns)?
bool Search(const std::string& text, const std::string& pattern) {
  int err = 0;
  PCRE2_SIZE off = 0;
  pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), PCRE2_DOTALL, &err,
                                 &off, nullptr);
  if (!re) return false;
  pcre2_match_data* md = pcre2_match_data_create_from_pattern(re, nullptr);
  int rc = pcre2_match(re, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, md, nullptr);
  pcre2_match_data_free(md);
  pcre2_code_free(re);
  return rc >= 0;
}

TEST(Utf8CutPoint, NeverSplitsASequence) {
  const std::string s = "ab\xC3\xA9" "cd\xE2\x82\xAC" "e";  // a b é c d € e
  EXPECT_EQ(Utf8CutPoint(s, 100), s.size());
  EXPECT_EQ(Utf8CutPoint(s, 2), 2u);
  EXPECT_EQ(Utf8CutPoint(s, 3), 2u);  // inside é
  EXPECT_EQ(Utf8CutPoint(s, 4), 4u);
  EXPECT_EQ(Utf8CutPoint(s, 7), 6u);  // inside €
  EXPECT_EQ(Utf8CutPoint(s, 8), 6u);
  EXPECT_EQ(Utf8CutPoint(std::string(10, '\x80'), 5), 5u);  // invalid bytes: anywhere
}

TEST(PatternPrefix, CutsBetweenWholeAtomsOnly) {
  EXPECT_EQ(PatternPrefix("abc", 10), "abc");
  EXPECT_EQ(PatternPrefix("abc\\.def", 4), "abc");      // not between '\' and '.'
  EXPECT_EQ(PatternPrefix("ab(.*?)cd", 4), "ab");       // not inside a group
  EXPECT_EQ(PatternPrefix("ab(.*?)cd", 7), "ab(.*?)");  // right after it
  EXPECT_EQ(PatternPrefix("x(?:a|b\\))y", 9), "x");     // an escaped ')' does not close it
  EXPECT_EQ(PatternPrefix("ab*c", 2), "a");             // a quantifier binds to its atom
  EXPECT_EQ(PatternPrefix("a[)(]b", 4), "a");           // a class is one atom
  // Every prefix is a valid regex that matches wherever the whole pattern does.
  const std::string pattern = "bad value (.*?) in (?:x\\.y|z \\(w\\)) at \\[\\d\\] (.*?)!";
  const std::string message = "bad value 42 in z (w) at [7] now!";
  ASSERT_TRUE(Search(message, pattern));
  for (size_t max = 0; max <= pattern.size(); ++max) {
    std::string prefix(PatternPrefix(pattern, max));
    ASSERT_LE(prefix.size(), max);
    EXPECT_TRUE(Search(message, prefix)) << prefix;
  }
}

TEST(CapSite, OrdinarySitesAreUnchanged) {
  Site s;
  s.error_message = "bad {x}";
  s.message_pattern = "bad (.*?)";
  s.guards = {"x > 1", "not (y)"};
  Site before = s;
  CapSite(s, ExtractLimits{});
  EXPECT_EQ(s.error_message, before.error_message);
  EXPECT_EQ(s.message_pattern, before.message_pattern);
  EXPECT_EQ(s.guards, before.guards);
  EXPECT_TRUE(s.truncated.empty());
}

TEST(CapSite, CutsEveryTextAndRecordsItsSize) {
  ExtractLimits limits;
  limits.max_excerpt_bytes = 100;
  limits.max_guards = 3;
  limits.max_guard_bytes = 10;
  Site s;
  s.error_message = std::string(300, 'm');
  s.message_pattern = std::string(150, 'p') + "(.*?)" + std::string(50, 'q');
  s.message_expr = std::string(120, 'e');
  s.assert_condition = std::string(99, 'a');  // within the limit
  s.function = std::string(200, 'f');
  for (int i = 0; i < 5; ++i) s.guards.push_back("g" + std::to_string(i) + std::string(i * 5, '.'));
  s.interpolations = {std::string(60, 'i'), std::string(60, 'j'), "k"};
  CapSite(s, limits);
  EXPECT_EQ(s.error_message->size(), 100u);
  EXPECT_EQ(*s.message_pattern, std::string(100, 'p'));
  EXPECT_EQ(s.message_expr->size(), 100u);
  EXPECT_EQ(s.assert_condition->size(), 99u);
  EXPECT_EQ(s.function.size(), 100u);
  ASSERT_EQ(s.guards.size(), 3u);  // the innermost three
  EXPECT_EQ(s.guards[0], "g2" + std::string(8, '.'));  // each cut to 10 bytes
  EXPECT_EQ(s.guards[2], "g4" + std::string(8, '.'));
  ASSERT_EQ(s.interpolations.size(), 2u);  // 100 bytes in all
  EXPECT_EQ(s.interpolations[1], std::string(40, 'j'));
  auto size_of = [&](const std::string& field) -> int64_t {
    for (const auto& t : s.truncated)
      if (t.first == field) return static_cast<int64_t>(t.second);
    return -1;
  };
  EXPECT_EQ(size_of("errorMessage"), 300);
  EXPECT_EQ(size_of("messagePattern"), 205);
  EXPECT_EQ(size_of("messageExpr"), 120);
  EXPECT_EQ(size_of("function"), 200);
  EXPECT_EQ(size_of("guards"), 5);
  EXPECT_EQ(size_of("guardBytes"), 22);
  EXPECT_EQ(size_of("interpolations"), 121);
  EXPECT_EQ(size_of("assertCondition"), -1);
  Site again = s;
  CapSite(again, limits);  // idempotent
  EXPECT_EQ(again.truncated, s.truncated);
  EXPECT_EQ(again.guards, s.guards);
}

}  // namespace
}  // namespace errdex
