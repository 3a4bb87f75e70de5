// Issue 15: a JSON-RPC message of 200,000 nested '[' as its id crashed `errdex mcp`
// (and /mcp of `errdex serve`): the parse is iterative, echoing the id (a copy and
// a dump) recursed once per level. Nesting is bounded before parsing now
// (model/json_bounded.h): a parse error reply, and the server goes on.
#include <gtest/gtest.h>

#include "serve/mcp.h"
#include "serve/serve_test_util.h"

namespace errdex::serve {
namespace {

using nlohmann::json;

TEST(McpHostileJson, DeeplyNestedMessagesAreParseErrors) {
  testing_util::TempDir dir;
  testing_util::WriteCatalog(dir.File("c.db"));
  ServiceOptions o;
  o.db = dir.File("c.db");
  CatalogService service(o);
  ASSERT_TRUE(service.LoadNow().ok());
  McpServer mcp(service);
  McpServer::Session session;
  const size_t deep = 200000;
  for (const std::string& where : {std::string("id"), std::string("params")}) {
    std::string text = "{\"jsonrpc\":\"2.0\",\"" + where + "\":" + std::string(deep, '[') + std::string(deep, ']') +
                       ",\"method\":\"ping\"" + (where == "id" ? "" : ",\"id\":1") + "}";
    std::optional<std::string> reply = mcp.HandleText(text, session);
    ASSERT_TRUE(reply.has_value()) << where;
    json r = json::parse(*reply);
    EXPECT_EQ(r["error"]["code"], McpServer::kParseError) << *reply;
  }
  // Still serving.
  auto pong = mcp.HandleText(R"({"jsonrpc":"2.0","id":7,"method":"ping"})", session);
  ASSERT_TRUE(pong.has_value());
  EXPECT_EQ(json::parse(*pong)["id"], 7);
}

}  // namespace
}  // namespace errdex::serve
