#include "model/json_bounded.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

TEST(JsonNestingDepth, CountsBracketsOutsideStrings) {
  EXPECT_EQ(JsonNestingDepth("1"), 0u);
  EXPECT_EQ(JsonNestingDepth("[]"), 1u);
  EXPECT_EQ(JsonNestingDepth(R"({"a":[{"b":[1]}]})"), 4u);
  EXPECT_EQ(JsonNestingDepth(R"(["[[[[", "\"[[[", {}])"), 2u);  // brackets in strings, escaped quotes
  EXPECT_EQ(JsonNestingDepth(std::string(1000, '['), 10), 11u);  // stops past the limit
  EXPECT_EQ(JsonNestingDepth("]]]][["), 2u);                   // malformed: counted, never negative
}

// Issue 15: a JSON text of 200,000 '[' parsed (iteratively) and then copied or
// dumped (recursively) overflowed the stack: `errdex mcp` echoing such an id,
// `errdex document` reading such a knowledge blob.
TEST(ParseJsonBounded, RefusesDeepNestingAndParsesTheRest) {
  const size_t deep = 200000;
  for (const std::string& open : {std::string("["), std::string("{\"a\":")}) {
    std::string text;
    for (size_t i = 0; i < deep; ++i) text += open;
    EXPECT_TRUE(ParseJsonBounded(text).is_discarded());
  }
  std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  nlohmann::json j = ParseJsonBounded(ok);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j.dump().size(), ok.size());
  EXPECT_TRUE(ParseJsonBounded("[" + ok + "]").is_discarded());
  EXPECT_TRUE(ParseJsonBounded("{not json").is_discarded());
  EXPECT_EQ(ParseJsonBounded(R"({"id":7})")["id"], 7);
}

}  // namespace
}  // namespace errdex
