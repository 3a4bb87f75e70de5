// MCP methods in memory (the SDK client tests the transports: tests/web/mcp.test.mjs).
#include "serve/mcp.h"

#include <gtest/gtest.h>

#include "serve/serve_test_util.h"

namespace errdex::serve {
namespace {

using nlohmann::json;
using testing_util::TempDir;

class McpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing_util::WriteCatalog(dir_.File("c.db"));
    ServiceOptions o;
    o.db = dir_.File("c.db");
    service_ = std::make_unique<CatalogService>(o);
    ASSERT_TRUE(service_->LoadNow().ok());
    mcp_ = std::make_unique<McpServer>(*service_);
  }
  json Call(const std::string& method, json params = json::object(), json id = 1) {
    auto r = mcp_->Handle({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}, session_);
    EXPECT_TRUE(r.has_value());
    return r ? *r : json();
  }
  json Initialize(const std::string& version) {
    return Call("initialize", {{"protocolVersion", version},
                               {"capabilities", json::object()},
                               {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
  }
  TempDir dir_;
  std::unique_ptr<CatalogService> service_;
  std::unique_ptr<McpServer> mcp_;
  McpServer::Session session_;
};

TEST_F(McpTest, InitializeNegotiatesTheVersion) {
  json r = Initialize("2025-06-18");
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "errdex");
  EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  EXPECT_TRUE(r["result"]["capabilities"].contains("resources"));
  EXPECT_EQ(Initialize("1999-01-01")["result"]["protocolVersion"], McpServer::kLatestVersion);
  EXPECT_EQ(Initialize(McpServer::kLatestVersion)["result"]["protocolVersion"], McpServer::kLatestVersion);
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(Call("ping", json::object(), "str-id")["id"], "str-id");
}

TEST_F(McpTest, ToolsHaveSchemasAndAnswerStructuredContent) {
  Initialize(McpServer::kLatestVersion);
  json tools = Call("tools/list")["result"]["tools"];
  std::vector<std::string> names;
  for (const json& t : tools) {
    names.push_back(t["name"]);
    EXPECT_EQ(t["inputSchema"]["type"], "object");
    EXPECT_EQ(t["outputSchema"]["type"], "object");
    EXPECT_GT(t["description"].get<std::string>().size(), 80u) << "written for a model: what and when";
  }
  EXPECT_EQ(names, (std::vector<std::string>{"explain_error", "search_errors", "get_error", "list_repos"}));

  json r = Call("tools/call", {{"name", "explain_error"},
                               {"arguments", {{"text", "ValueError: expected shape (2,) for the attention kernel"}}}});
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_FALSE(r["result"]["isError"]);
  json hits = r["result"]["structuredContent"]["hits"];
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0]["errorMessage"], "expected shape {value} for the attention kernel");
  EXPECT_EQ(hits[0]["captures"][0]["text"], "(2,)");
  EXPECT_EQ(json::parse(r["result"]["content"][0]["text"].get<std::string>()), r["result"]["structuredContent"]);

  std::string id = hits[0]["recordId"];
  r = Call("tools/call", {{"name", "get_error"}, {"arguments", {{"id_or_slug", id}}}});
  EXPECT_EQ(r["result"]["structuredContent"]["records"][0]["record"]["id"], id);
  r = Call("tools/call", {{"name", "get_error"}, {"arguments", {{"id_or_slug", "tensor-is-empty"}}}});
  EXPECT_EQ(r["result"]["structuredContent"]["records"][0]["record"]["slug"], "tensor-is-empty");
  r = Call("tools/call", {{"name", "get_error"}, {"arguments", {{"id_or_slug", "no-such-thing"}}}});
  EXPECT_TRUE(r["result"]["isError"]);

  r = Call("tools/call", {{"name", "search_errors"}, {"arguments", {{"query", "tensor"}, {"limit", 5}}}});
  EXPECT_EQ(r["result"]["structuredContent"]["results"][0]["slug"], "tensor-is-empty");
  r = Call("tools/call", {{"name", "list_repos"}, {"arguments", json::object()}});
  EXPECT_EQ(r["result"]["structuredContent"]["repos"][0]["repo"], "o/r");
}

TEST_F(McpTest, OlderRevisionsGetNoStructuredContent) {
  Initialize("2025-03-26");
  json tools = Call("tools/list")["result"]["tools"];
  EXPECT_FALSE(tools[0].contains("outputSchema"));
  json r = Call("tools/call", {{"name", "list_repos"}});
  EXPECT_FALSE(r["result"].contains("structuredContent"));
  EXPECT_TRUE(r["result"]["content"][0]["text"].is_string());
}

TEST_F(McpTest, BadArgumentsAndMethodsAreJsonRpcErrors) {
  Initialize(McpServer::kLatestVersion);
  auto code = [&](json params) { return Call("tools/call", params)["error"]["code"]; };
  EXPECT_EQ(code({{"name", "explain_error"}, {"arguments", json::object()}}), McpServer::kInvalidParams);
  EXPECT_EQ(code({{"name", "explain_error"}, {"arguments", {{"text", 42}}}}), McpServer::kInvalidParams);
  EXPECT_EQ(code({{"name", "explain_error"}, {"arguments", {{"text", "x"}, {"top", 0}}}}), McpServer::kInvalidParams);
  EXPECT_EQ(code({{"name", "explain_error"}, {"arguments", {{"text", "x"}, {"extra", 1}}}}), McpServer::kInvalidParams);
  EXPECT_EQ(code({{"name", "search_errors"}, {"arguments", {{"query", "x"}, {"limit", "ten"}}}}),
            McpServer::kInvalidParams);
  EXPECT_EQ(code({{"name", "no_such_tool"}}), McpServer::kInvalidParams);
  EXPECT_EQ(code({{"arguments", json::object()}}), McpServer::kInvalidParams);
  EXPECT_EQ(code(json::array()), McpServer::kInvalidParams);
  EXPECT_EQ(Call("no/such/method")["error"]["code"], McpServer::kMethodNotFound);
  EXPECT_EQ(Call("resources/read", {{"uri", "errdex://errors/0000000000000000"}})["error"]["code"],
            McpServer::kResourceNotFound);

  EXPECT_FALSE(mcp_->Handle({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session_).has_value());
  EXPECT_EQ(json::parse(*mcp_->HandleText("{not json", session_))["error"]["code"], McpServer::kParseError);
  EXPECT_EQ(json::parse(*mcp_->HandleText("[1,2]", session_))[0]["error"]["code"], McpServer::kInvalidRequest);
  EXPECT_EQ(json::parse(*mcp_->HandleText("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", session_))["error"]["code"],
            McpServer::kInvalidRequest);
  EXPECT_EQ(json::parse(*mcp_->HandleText("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", session_))["error"]["code"],
            McpServer::kInvalidRequest);
}

TEST_F(McpTest, ResourcesListAndRead) {
  Initialize(McpServer::kLatestVersion);
  json templates = Call("resources/templates/list")["result"]["resourceTemplates"];
  EXPECT_EQ(templates[0]["uriTemplate"], "errdex://errors/{id}");
  json list = Call("resources/list")["result"];
  ASSERT_EQ(list["resources"].size(), 4u);
  EXPECT_FALSE(list.contains("nextCursor"));
  std::string uri = list["resources"][0]["uri"];
  json read = Call("resources/read", {{"uri", uri}})["result"];
  EXPECT_EQ(read["contents"][0]["uri"], uri);
  json record = json::parse(read["contents"][0]["text"].get<std::string>());
  EXPECT_EQ("errdex://errors/" + record["record"]["id"].get<std::string>(), uri);
}

}  // namespace
}  // namespace errdex::serve
