// serve/http_server.h: `errdex serve`'s HTTP server (cpp-httplib underneath):
// the JSON API under /v1, the pages, /healthz /readyz /metrics, the OpenAPI
// document, and MCP's Streamable HTTP transport at /mcp. Read-only; answers only
// from the catalog and its embedded assets, never from files on disk.
//
// Limits (each an option; the error a client gets, as application/problem+json):
//   max_body         request body size (413; never read past it)
//   read_timeout     a client silent this long while sending its body (408)
//   request_timeout  a body still arriving after this long (408)
//   threads          workers; each serves one connection at a time
//   max_queue        connections waiting for a worker; past it a connection is
//                    answered 503 + Retry-After by a separate thread
// Every handler's failure is caught and answered 500: the server never dies on a
// request.
//
// Thread-safety: Stop() may be called from any thread; the rest from one.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "model/status.h"
#include "serve/catalog_service.h"

namespace errdex::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";  // loopback unless told otherwise
  int port = 8080;                 // 0 = any free port (see HttpServer::port)
  size_t threads = 0;              // 0 = max(8, 4 x cores)
  size_t max_queue = 0;            // 0 = 8 x threads
  size_t max_body = 1 << 20;       // 1 MiB
  std::chrono::milliseconds read_timeout{5000};
  std::chrono::milliseconds write_timeout{5000};
  std::chrono::milliseconds request_timeout{30000};
  int keep_alive_seconds = 5;
  size_t keep_alive_requests = 10000;  // requests on one connection before it is closed
};

// Parses "HOST:PORT", "[V6]:PORT" or ":PORT" into options (host kept when absent).
Status ParseListen(const std::string& listen, ServerOptions* options);

class HttpServer {
 public:
  HttpServer(CatalogService& service, ServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the listening socket. kIoError when the address is taken or refused.
  Status Bind();
  // The bound port (after Bind).
  int port() const;
  const ServerOptions& options() const;
  // Serves until Stop(). REQUIRES: Bind() succeeded.
  Status Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace errdex::serve
