// serve/mcp.cc: the MCP methods (mcp.h). Tested by mcp_test.cc (in memory) and
// by tests/web/mcp.test.mjs with the official TypeScript SDK client, over stdio
// and over Streamable HTTP.
#include "serve/mcp.h"

#include <algorithm>

#include "serve/queries.h"
#include "model/json_bounded.h"

namespace errdex::serve {

namespace {

using nlohmann::json;

// A JSON-RPC error raised inside a method; HandleOne turns it into the reply.
struct RpcError {
  int code;
  std::string message;
};

constexpr const char* kErrorUriPrefix = "errdex://errors/";

bool AtLeast(const std::string& version, const char* v) { return version >= v; }  // ISO dates compare as text

std::string RequireString(const json& args, const char* key, bool required, size_t max_bytes) {
  auto it = args.find(key);
  if (it == args.end() || it->is_null()) {
    if (required) throw RpcError{McpServer::kInvalidParams, std::string("missing required argument '") + key + "'"};
    return "";
  }
  if (!it->is_string()) throw RpcError{McpServer::kInvalidParams, std::string("argument '") + key + "' must be a string"};
  const std::string& s = it->get_ref<const std::string&>();
  if (required && s.empty()) throw RpcError{McpServer::kInvalidParams, std::string("argument '") + key + "' is empty"};
  if (s.size() > max_bytes)
    throw RpcError{McpServer::kInvalidParams,
                   std::string("argument '") + key + "' is longer than " + std::to_string(max_bytes) + " bytes"};
  return s;
}

int OptionalInt(const json& args, const char* key, int lo, int hi, int dflt) {
  auto it = args.find(key);
  if (it == args.end() || it->is_null()) return dflt;
  if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi)
    throw RpcError{McpServer::kInvalidParams, std::string("argument '") + key + "' must be an integer from " +
                                                  std::to_string(lo) + " to " + std::to_string(hi)};
  return it->get<int>();
}

void NoOtherArguments(const json& args, std::initializer_list<const char*> allowed) {
  for (auto it = args.begin(); it != args.end(); ++it)
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; }) == allowed.end())
      throw RpcError{McpServer::kInvalidParams, "unknown argument '" + it.key() + "'"};
}

std::shared_ptr<const CatalogSnapshot> Ready(CatalogService& s) {
  auto snap = s.Current();
  if (!snap) throw RpcError{McpServer::kInternalError, "the catalog is still loading; try again in a moment"};
  return snap;
}

const json kHitSchema = {
    {"type", "object"},
    {"properties",
     {{"recordId", {{"type", "string"}}},
      {"score", {{"type", "number"}}},
      {"exact", {{"type", "boolean"}}},
      {"approximate", {{"type", "boolean"}}},
      {"matchedBy", {{"type", "string"}, {"enum", {"pattern", "frame", "normalized", "fuzzy", "class"}}}},
      {"errorClass", {{"type", {"string", "null"}}}},
      {"errorMessage", {{"type", {"string", "null"}}}},
      {"filePath", {{"type", "string"}}},
      {"lineNumber", {{"type", "integer"}}},
      {"repo", {{"type", {"string", "null"}}}},
      {"captures", {{"type", "array"}}},
      {"versions", {{"type", "array"}}}}},
    {"required", {"recordId", "score", "exact", "matchedBy"}}};

const json kRecordSchema = {{"type", "object"},
                            {"properties",
                             {{"record", {{"type", "object"}}},
                              {"versions", {{"type", "array"}}},
                              {"onlyInOlderVersions", {{"type", "boolean"}}}}},
                            {"required", {"record", "versions"}}};

json ToolResult(const json& structured, const McpServer::Session& session) {
  json r = {{"content", {{{"type", "text"}, {"text", DumpJson(structured)}}}}, {"isError", false}};
  if (AtLeast(session.protocol_version, "2025-06-18")) r["structuredContent"] = structured;
  return r;
}

json ToolError(const std::string& message) {
  return {{"content", {{{"type", "text"}, {"text", message}}}}, {"isError", true}};
}

}  // namespace

const std::vector<std::string>& McpServer::SupportedVersions() {
  static const std::vector<std::string> v = {kLatestVersion, "2025-06-18", "2025-03-26"};
  return v;
}

json McpServer::Tools(const Session& session) const {
  bool structured = AtLeast(session.protocol_version, "2025-06-18");
  json tools = json::array();
  auto add = [&](const char* name, const char* title, const char* description, json input, json output) {
    json t = {{"name", name}, {"description", description}, {"inputSchema", input},
              {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}};
    if (structured) {
      t["title"] = title;
      t["outputSchema"] = output;
    }
    tools.push_back(t);
  };
  add("explain_error", "Explain an error",
      "Find the place in the catalogued source code that raised an error. Give it what the user saw: an error "
      "message, a whole Python traceback, or a log excerpt (up to 1 MiB). Answers the matching catalog entries, "
      "best first, each with its record id, exception class, message template, file and line, the values the "
      "message was built from (captures), whether the match is exact or approximate, and every scanned commit "
      "the error exists in. Use it first when a user pastes an error; then call get_error with a recordId for "
      "the documentation, causes and fixes.",
      {{"type", "object"},
       {"properties",
        {{"text", {{"type", "string"}, {"description", "the error message, traceback or log text, verbatim"}}},
         {"repo", {{"type", "string"}, {"description", "only entries of this repository (owner/name)"}}},
         {"top", {{"type", "integer"}, {"minimum", 1}, {"maximum", 20}, {"description", "hits per error (3)"}}}}},
       {"required", {"text"}},
       {"additionalProperties", false}},
      {{"type", "object"}, {"properties", {{"hits", {{"type", "array"}, {"items", kHitSchema}}}}}, {"required", {"hits"}}});
  add("search_errors", "Search errors",
      "Full-text search over the catalog's error messages, exception classes and slugs: every word must appear "
      "(the last may be a prefix). Use it to browse the errors a repository can raise, or when you know roughly "
      "what an error says but have no exact text to explain. Answers records with highlighted snippets, best "
      "first.",
      {{"type", "object"},
       {"properties",
        {{"query", {{"type", "string"}, {"description", "words to look for, e.g. 'tensor shape mismatch'"}}},
         {"repo", {{"type", "string"}, {"description", "only this repository (owner/name)"}}},
         {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"description", "results (20)"}}}}},
       {"required", {"query"}},
       {"additionalProperties", false}},
      {{"type", "object"},
       {"properties", {{"results", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                       {"nextCursor", {{"type", {"string", "null"}}}}}},
       {"required", {"results"}}});
  add("get_error", "Get an error",
      "One catalog record in full: the message and its pattern, class, severity, the source code around the raise "
      "with its GitHub permalink, why it happens, what triggers it, solutions, an example fix, prevention tips, "
      "and every scanned commit it exists in. Takes a record id (16 hex digits, from explain_error or "
      "search_errors) or a slug; a slug shared by several places answers all of them.",
      {{"type", "object"},
       {"properties", {{"id_or_slug", {{"type", "string"}, {"description", "record id or slug"}}}}},
       {"required", {"id_or_slug"}},
       {"additionalProperties", false}},
      {{"type", "object"}, {"properties", {{"records", {{"type", "array"}, {"items", kRecordSchema}}}}},
       {"required", {"records"}}});
  add("list_repos", "List repositories",
      "The repositories in the catalog, each with its number of scanned commits and its latest scan (commit, "
      "time, record count). Use it to learn what the catalog covers, or to pick a repo filter.",
      {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}},
      {{"type", "object"}, {"properties", {{"repos", {{"type", "array"}, {"items", {{"type", "object"}}}}}}},
       {"required", {"repos"}}});
  return tools;
}

json McpServer::CallTool(const json& params, const Session& session) {
  if (!params.is_object()) throw RpcError{kInvalidParams, "params must be an object"};
  std::string name = RequireString(params, "name", true, 256);
  json args = params.contains("arguments") && !params["arguments"].is_null() ? params["arguments"] : json::object();
  if (!args.is_object()) throw RpcError{kInvalidParams, "arguments must be an object"};
  if (name == "explain_error") {
    NoOtherArguments(args, {"text", "repo", "top"});
    ExplainRequest req;
    req.text = RequireString(args, "text", true, 1 << 20);
    req.repo = RequireString(args, "repo", false, 256);
    req.top = static_cast<size_t>(OptionalInt(args, "top", 1, 20, 3));
    auto snap = Ready(service_);
    auto answer = Explain(service_, *snap, req);
    if (!answer.ok()) return ToolError(answer.status().message());
    return ToolResult({{"hits", ExplainAnswerJson(*snap, *answer)}}, session);
  }
  if (name == "search_errors") {
    NoOtherArguments(args, {"query", "repo", "limit"});
    SearchRequest req;
    req.q = RequireString(args, "query", true, 4096);
    req.repo = RequireString(args, "repo", false, 256);
    req.limit = OptionalInt(args, "limit", 1, 100, 20);
    auto snap = Ready(service_);
    auto answer = Search(service_, *snap, req);
    if (!answer.ok()) return ToolError(answer.status().message());
    return ToolResult(SearchAnswerJson(*answer), session);
  }
  if (name == "get_error") {
    NoOtherArguments(args, {"id_or_slug"});
    std::string key = RequireString(args, "id_or_slug", true, 256);
    auto snap = Ready(service_);
    auto found = RecordsByIdOrSlug(service_, *snap, key);
    if (!found.ok()) return ToolError(found.status().message());
    json records = json::array();
    for (const auto& d : *found) records.push_back(RecordJsonValue(*d));
    return ToolResult({{"records", records}}, session);
  }
  if (name == "list_repos") {
    NoOtherArguments(args, {});
    auto snap = Ready(service_);
    return ToolResult(ReposJson(Repos(*snap)), session);
  }
  throw RpcError{kInvalidParams, "unknown tool '" + name + "'"};
}

json McpServer::ListResources(const json& params) {
  // Every record, by id, a page at a time (the store's search with no words).
  CatalogStore::RecordQuery q;
  q.limit = 100;
  if (params.is_object() && params.contains("cursor") && params["cursor"].is_string()) {
    q.has_cursor = true;
    q.cursor_record_id = params["cursor"].get<std::string>();
  }
  auto snap = Ready(service_);
  auto store = service_.Store();
  if (!store.ok()) throw RpcError{kInternalError, store.status().message()};
  q.limit += 1;
  auto hits = (*store)->SearchRecords(q);
  if (!hits.ok()) throw RpcError{kInternalError, hits.status().message()};
  bool more = hits->size() > 100;
  if (more) hits->resize(100);
  json resources = json::array();
  for (const auto& h : *hits) {
    int64_t e = snap->EntryOfId(h.record_id);
    std::string title = e >= 0 ? std::string(snap->catalog().matcher().entries()[e].message) : "";
    resources.push_back({{"uri", kErrorUriPrefix + h.record_id},
                         {"name", h.record_id},
                         {"description", title.empty() ? std::string("catalog record") : title},
                         {"mimeType", "application/json"}});
  }
  json out = {{"resources", resources}};
  if (more && !hits->empty()) out["nextCursor"] = hits->back().record_id;
  return out;
}

json McpServer::ReadResource(const json& params) {
  if (!params.is_object()) throw RpcError{kInvalidParams, "params must be an object"};
  std::string uri = RequireString(params, "uri", true, 1024);
  if (uri.rfind(kErrorUriPrefix, 0) != 0) throw RpcError{kResourceNotFound, "no resource " + uri};
  auto snap = Ready(service_);
  auto d = RecordById(*snap, uri.substr(std::string_view(kErrorUriPrefix).size()));
  if (!d.ok()) throw RpcError{kResourceNotFound, "no resource " + uri};
  return {{"contents", {{{"uri", uri}, {"mimeType", "application/json"}, {"text", RecordJson(**d)}}}}};
}

std::optional<json> McpServer::HandleOne(const json& msg, Session& session) {
  json id = nullptr;
  try {
    if (!msg.is_object() || msg.value("jsonrpc", "") != "2.0")
      throw RpcError{kInvalidRequest, "not a JSON-RPC 2.0 message"};
    if (msg.contains("id")) {
      id = msg["id"];
      if (!id.is_string() && !id.is_number_integer()) {
        id = nullptr;
        throw RpcError{kInvalidRequest, "id must be a string or an integer"};
      }
    }
    if (!msg.contains("method")) return std::nullopt;  // a response to us: we send no requests
    if (!msg["method"].is_string()) throw RpcError{kInvalidRequest, "method must be a string"};
    const std::string method = msg["method"].get<std::string>();
    const json params = msg.contains("params") ? msg["params"] : json::object();
    if (!msg.contains("id")) return std::nullopt;  // a notification (initialized, cancelled): nothing to answer
    json result;
    if (method == "initialize") {
      std::string asked = params.is_object() && params.contains("protocolVersion") && params["protocolVersion"].is_string()
                              ? params["protocolVersion"].get<std::string>()
                              : "";
      const auto& v = SupportedVersions();
      session.protocol_version = std::find(v.begin(), v.end(), asked) != v.end() ? asked : kLatestVersion;
      session.initialized = true;
      result = {{"protocolVersion", session.protocol_version},
                {"capabilities", {{"tools", {{"listChanged", false}}},
                                  {"resources", {{"subscribe", false}, {"listChanged", false}}}}},
                {"serverInfo", {{"name", "errdex"}, {"title", "errdex error catalog"}, {"version", "0.1.0"}}},
                {"instructions",
                 "errdex knows every error the catalogued repositories can raise. When a user shows an error, a "
                 "traceback or a log, call explain_error with the text as is; then get_error on the best hit's "
                 "recordId for causes and fixes. search_errors finds errors by words; list_repos tells what is "
                 "catalogued."}};
    } else if (method == "ping") {
      result = json::object();
    } else if (method == "tools/list") {
      result = {{"tools", Tools(session)}};
    } else if (method == "tools/call") {
      result = CallTool(params, session);
    } else if (method == "resources/list") {
      result = ListResources(params);
    } else if (method == "resources/templates/list") {
      result = {{"resourceTemplates",
                 {{{"uriTemplate", std::string(kErrorUriPrefix) + "{id}"},
                   {"name", "error"},
                   {"title", "Catalog record"},
                   {"description", "One catalog record (seed format) and the commits it exists in, by record id."},
                   {"mimeType", "application/json"}}}}};
    } else if (method == "resources/read") {
      result = ReadResource(params);
    } else {
      throw RpcError{kMethodNotFound, "method '" + method + "' is not supported"};
    }
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
  } catch (const RpcError& e) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", e.code}, {"message", e.message}}}};
  } catch (const json::exception& e) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", kInvalidParams}, {"message", e.what()}}}};
  } catch (const std::exception& e) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", kInternalError}, {"message", e.what()}}}};
  }
}

std::optional<json> McpServer::Handle(const json& message, Session& session) {
  if (!message.is_array()) return HandleOne(message, session);
  if (message.empty())
    return json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", kInvalidRequest}, {"message", "empty batch"}}}};
  json replies = json::array();
  for (const json& m : message)
    if (auto r = HandleOne(m, session)) replies.push_back(std::move(*r));
  if (replies.empty()) return std::nullopt;
  return replies;
}

std::optional<std::string> McpServer::HandleText(std::string_view text, Session& session) {
  json msg = ParseJsonBounded(text);  // nesting bounded: an echoed id is copied and dumped
  if (msg.is_discarded())
    return DumpJson({{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", kParseError}, {"message", "parse error"}}}});
  auto reply = Handle(msg, session);
  if (!reply) return std::nullopt;
  return DumpJson(*reply);
}

}  // namespace errdex::serve
