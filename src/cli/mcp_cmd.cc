// cli/mcp_cmd.cc: `errdex mcp` -- the catalog as a Model Context Protocol server
// on stdin/stdout (one JSON-RPC message per line, as the MCP stdio transport
// has it) for coding agents; serve/mcp.h has the methods and tools. Log lines go
// to stderr only: stdout carries nothing but protocol messages. Exit codes: 0 at
// the end of stdin, 2 when the catalog cannot be opened.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "serve/catalog_service.h"
#include "serve/mcp.h"

namespace errdex::cli {

namespace {

struct McpFlags {
  std::string db;
  double reload_interval = 1;
  size_t max_message = 4 << 20;
};

bool WriteLine(const std::string& s) {
  std::string line = s + "\n";
  size_t off = 0;
  while (off < line.size()) {
    ssize_t n = ::write(STDOUT_FILENO, line.data() + off, line.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

int RunMcp(const McpFlags& f) {
  if (f.db.empty()) {
    std::fprintf(stderr, "errdex: error: no catalog: pass --db CATALOG.db\n");
    return 2;
  }
  serve::ServiceOptions svc;
  svc.db = f.db;
  svc.reload_interval = std::chrono::milliseconds(static_cast<long long>(f.reload_interval * 1000));
  svc.on_error = [](const Status& e) {
    std::fprintf(stderr, "errdex: warning: catalog not reloaded: %s\n", e.message().c_str());
  };
  serve::CatalogService service(svc);
  if (Status s = service.LoadNow(); !s.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", s.message().c_str());
    return 2;
  }
  if (svc.reload_interval.count() > 0) service.StartWatching();
  serve::McpServer server(service);
  serve::McpServer::Session session;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::optional<std::string> reply;
    if (line.size() > f.max_message) {
      reply = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"message larger than " +
              std::to_string(f.max_message) + " bytes\"}}";
    } else {
      reply = server.HandleText(line, session);
    }
    if (reply && !WriteLine(*reply)) return 0;  // the client went away
  }
  return 0;
}

}  // namespace

void RegisterMcpCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<McpFlags>();
  CLI::App* sub = app.add_subcommand("mcp", "serve a catalog to coding agents over MCP (JSON-RPC on stdin/stdout)");
  sub->footer(
      "Tools: explain_error(text, repo?), search_errors(query, repo?, limit?), get_error(id_or_slug),\n"
      "list_repos(). Resources: errdex://errors/{id}. For an MCP client's config:\n"
      "  {\"command\": \"errdex\", \"args\": [\"mcp\", \"--db\", \"/path/to/catalog.db\"]}");
  sub->add_option("--db", f->db, "catalog database (errdex scan/import --db)");
  sub->add_option("--reload-interval", f->reload_interval,
                  "seconds between looks for a new catalog version (default 1; 0 = never reload)")
      ->check(CLI::NonNegativeNumber);
  table.emplace_back(sub, [f] { return RunMcp(*f); });
}

}  // namespace errdex::cli
