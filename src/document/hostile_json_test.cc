// Issue 15: `errdex document` reads each scan's knowledge blob and the site
// contexts in it from the catalog; a blob nested 100,000 levels deep overflowed
// the stack (the parse is iterative, copying and dumping a value recurse). Such a
// blob now reads as empty knowledge (model/json_bounded.h).
#include <gtest/gtest.h>

#include <string>

#include "document/documenter.h"
#include "document/site_context.h"

namespace errdex {
namespace {

TEST(DocumentHostileJson, DeeplyNestedKnowledgeAndContextsReadAsEmpty) {
  const size_t deep = 100000;
  const std::string nested = std::string(deep, '[') + std::string(deep, ']');
  std::string blob = "{\"version\":2,\"settings\":{},\"knowledge\":{\"fields\":" + nested + "},\"sites\":{\"a\":" +
                     nested + "}}";
  std::unique_ptr<RepoKnowledge> k = RepoKnowledge::Deserialize(blob);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->StoredContext("a"), nullptr);
  EXPECT_EQ(RepoKnowledge::Deserialize(k->Serialize())->Serialize(), k->Serialize());
  SiteContext c = SiteContextFromJson("{\"known\":true,\"x\":" + nested + "}");
  EXPECT_FALSE(c.known);
}

// Numbers that are not ints where ints are read (a damaged blob): a malformed
// context, not undefined behaviour (UBSan: "5.11111e+11 is outside the range of
// representable values of type 'int'"; found by the record_json fuzz target).
TEST(DocumentHostileJson, NumbersOutsideIntAreMalformedContexts) {
  for (std::string bad : {"{\"known\":true,\"defLine\":5.11111e11}", "{\"known\":true,\"defLine\":1e300}",
                          "{\"known\":true,\"defLine\":99999999999}",
                          "{\"known\":true,\"exits\":[[4.5e20,\"return\"]]}",
                          "{\"known\":true,\"params\":[[\"a\",\"\",\"\",-1e30]]}"}) {
    SiteContext c = SiteContextFromJson(bad);
    EXPECT_EQ(c.def_line, 0) << bad;
    EXPECT_TRUE(c.exits.empty()) << bad;
  }
  // The knowledge blob's own numbers: its version and the flags' and envs' lines
  // (UBSan: "2.44444e+107 is outside the range of representable values of type
  // 'int'", found by CI's 60 s record_json run).
  // ... or not a number at all (nlohmann's value(key, 0) threw out of Deserialize:
  // the campaign's record_json finding).
  for (std::string version : {"2.44444e107", "2.0", "1e300", "99999999999", "\"2\"", "[2]", "null"}) {
    std::unique_ptr<RepoKnowledge> k = RepoKnowledge::Deserialize(
        "{\"version\":" + version + ",\"settings\":{\"flags\":[]},\"knowledge\":{}}");
    ASSERT_NE(k, nullptr) << version;
  }
  std::unique_ptr<RepoKnowledge> lines = RepoKnowledge::Deserialize(
      "{\"version\":2,\"settings\":{\"flags\":[{\"names\":[\"--x\"],\"dest\":\"x\",\"line\":3.5e200}],"
      "\"envs\":[{\"name\":\"X\",\"line\":-9e99}]},\"knowledge\":{\"fields\":[{\"name\":\"f\",\"line\":1e40}]}}");
  ASSERT_NE(lines, nullptr);
  SiteContext ok = SiteContextFromJson("{\"known\":true,\"defLine\":12,\"exits\":[[3,\"return\"]]}");
  EXPECT_EQ(ok.def_line, 12);
  ASSERT_EQ(ok.exits.size(), 1u);
  EXPECT_EQ(ok.exits[0].first, 3);
}

}  // namespace
}  // namespace errdex
