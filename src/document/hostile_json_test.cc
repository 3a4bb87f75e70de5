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

}  // namespace
}  // namespace errdex
