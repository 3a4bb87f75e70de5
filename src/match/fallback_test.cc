// What explain answers when no template matches the whole text (fallback.cc): a
// message's first line shown alone, and a fuzzy answer whose words are all there.
#include <gtest/gtest.h>

#include "match/explain.h"
#include "match/explain_test_util.h"

namespace errdex {
namespace {

// A one-line log or an issue title shows the first line of a message that goes on
// over more lines: that line is near-exact when it is specific on its own, and the
// user's words may follow it. A first line too short to be specific is not.
TEST(NearExactShare, FirstLineOfALongerMessage) {
  const char* root = "Could not find root within given tolerance. ({a} > {b})\nTry another starting point.";
  EXPECT_GT(NearExactShare("Could not find root within given tolerance. (5.2 > 2.1e-19)", root), 0.3);
  EXPECT_GT(NearExactShare("Could not find root within given tolerance. (5.2 > 2.1e-19) when running the docs", root),
            0.3);
  // The words that follow must be apart from the line's last word.
  EXPECT_LT(NearExactShare("Could not find root within given tolerance. (5.2 > 2.1e-19)xyz", root), 0);
  // A cut-off first line is less than the whole template: its share says so.
  size_t shown = 0;
  double share = NearExactShare("Could not find root within given tolerance. (5.2 > 2.1e-19)", root, &shown);
  EXPECT_LT(share, NearExactShare("Could not find root within given tolerance. (5.2 > 2.1e-19)",
                                  "Could not find root within given tolerance. ({a} > {b})"));
  EXPECT_GE(shown, 40u);
  // "Invalid value:" alone says too little to stand for the whole message.
  EXPECT_LT(NearExactShare("Invalid value: when running it", "Invalid value:\nSee the docs."), 0);
}

// An issue title quotes the first line of a message that goes on ("For further
// information visit ..."): the template it comes from goes before a generic
// template matched inside the sentence ("missing {name}").
TEST(ExplainFallback, FirstLineInATitleOutranksAGenericTemplateInside) {
  std::vector<TestEntry> cat = {
      {"", "re/_parser.py", "p", 286, "missing {name}", "missing (.*?)"},
      {"PydanticUserError", "pydantic/_internal/_generate_schema.py", "s", 2161,
       "Computed field is missing return type annotation or specifying `return_type` to the "
       "`@computed_field` decorator\n\nFor further information visit {url}",
       "Computed field is missing return type annotation or specifying `return_type` to the "
       "`@computed_field` decorator\n\nFor further information visit (.*?)"},
  };
  auto m = MakeMatcher(cat);
  auto hits = Explain(*m, "Error: pydantic.errors.PydanticUserError: Computed field is missing return type annotation "
                          "or specifying `return_type` to the `@computed_field` decorator when running the example\n");
  ASSERT_GE(hits.size(), 2u);
  EXPECT_EQ(hits[0].entry, 1u);
  EXPECT_EQ(hits[0].kind, ExplainHit::Kind::kNormalized);
  EXPECT_TRUE(hits[0].approximate);
  EXPECT_EQ(hits[1].entry, 0u);  // still reported, after it
}

// A title wraps a message in the writer's words, before and after: no template
// matches, one word of a template ("failed") matches inside. A template whose words
// are all in the line, and far more of them, goes first; one whose words are not
// all there does not.
TEST(ExplainFallback, FuzzyAnswerWithAllItsWordsOutranksAOneWordTemplate) {
  std::vector<TestEntry> cat = {
      {"", "test/test_logging.py", "t", 4246, "failed", "failed"},
      {"ParamValidationError", "botocore/validate.py", "v", 424, "Parameter validation failed:\n{report}",
       "Parameter validation failed:\n(.*?)"},
  };
  auto m = MakeMatcher(cat);
  auto hits = Explain(*m, "crash: Parameter validation failed: (works with the previous release)\n");
  ASSERT_GE(hits.size(), 2u);
  EXPECT_EQ(hits[0].entry, 1u);
  EXPECT_EQ(hits[0].kind, ExplainHit::Kind::kFuzzy);
  EXPECT_EQ(hits[1].entry, 0u);
  // "validation" missing: the fuzzy answer is a guess, the template match stays first.
  hits = Explain(*m, "crash: Parameter check failed: (works with the previous release)\n");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].entry, 0u);
}

}  // namespace
}  // namespace errdex
