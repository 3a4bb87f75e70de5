// serve/mcp.h: errdex as a Model Context Protocol server (JSON-RPC 2.0), for
// coding agents: tools explain_error, search_errors, get_error, list_repos (JSON
// Schema inputs, structured outputs) and resources errdex://errors/{id}. The
// transports are elsewhere: stdio (`errdex mcp`, cli/mcp_cmd.cc) and Streamable
// HTTP (POST /mcp on `errdex serve`, http_server.cc); both hand each message to
// McpServer::Handle.
//
// Protocol revisions: 2025-11-25 (the current one), 2025-06-18 and 2025-03-26.
// initialize answers with the client's revision when it is one of these, else
// with the newest (the specification's version negotiation).
//
// Thread-safety: thread-safe (a session is per connection/process, owned by the
// caller).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serve/catalog_service.h"

namespace errdex::serve {

class McpServer {
 public:
  static constexpr const char* kLatestVersion = "2025-11-25";
  static const std::vector<std::string>& SupportedVersions();

  struct Session {
    std::string protocol_version = "2025-03-26";  // the spec's default before negotiation
    bool initialized = false;
  };

  explicit McpServer(CatalogService& service) : service_(service) {}

  // One JSON-RPC message or a batch; the reply to send, or nullopt when there is
  // none (notifications, responses).
  std::optional<nlohmann::json> Handle(const nlohmann::json& message, Session& session);
  // The same from text: unparsable JSON gets the -32700 parse error.
  std::optional<std::string> HandleText(std::string_view text, Session& session);

  // JSON-RPC error codes used.
  static constexpr int kParseError = -32700;
  static constexpr int kInvalidRequest = -32600;
  static constexpr int kMethodNotFound = -32601;
  static constexpr int kInvalidParams = -32602;
  static constexpr int kInternalError = -32603;
  static constexpr int kResourceNotFound = -32002;

 private:
  std::optional<nlohmann::json> HandleOne(const nlohmann::json& message, Session& session);
  nlohmann::json Tools(const Session& session) const;
  nlohmann::json CallTool(const nlohmann::json& params, const Session& session);
  nlohmann::json ListResources(const nlohmann::json& params);
  nlohmann::json ReadResource(const nlohmann::json& params);

  CatalogService& service_;
};

}  // namespace errdex::serve
