// cli/serve_cmd.cc: `errdex serve` -- the catalog on the web: the JSON API under
// /v1, the pages, /healthz /readyz /metrics, MCP at /mcp (serve/http_server.h).
// Exit codes: 0 after a clean stop (SIGINT/SIGTERM), 2 on error (bad flag,
// address in use). Tested by tests/serve/serve_e2e_test.cc.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "cli/commands.h"
#include "serve/catalog_service.h"
#include "serve/http_server.h"
#include "serve/router.h"

namespace errdex::cli {

namespace {

struct ServeFlags {
  std::string db;
  std::string listen = "127.0.0.1:8080";
  size_t threads = 0;
  size_t max_queue = 0;
  std::string max_body = "1MiB";
  double read_timeout = 5;
  double request_timeout = 30;
  double reload_interval = 1;
  bool routes = false;
};

// "1MiB", "512KiB", "2M", "1048576" -> bytes; false when it is none of these.
bool ParseByteSize(const std::string& text, size_t* out) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 12) return false;
  unsigned long long n = std::stoull(text.substr(0, i));
  std::string unit = text.substr(i);
  unsigned long long mul = 1;
  if (unit.empty() || unit == "B") mul = 1;
  else if (unit == "K" || unit == "KiB" || unit == "k") mul = 1ull << 10;
  else if (unit == "M" || unit == "MiB") mul = 1ull << 20;
  else if (unit == "G" || unit == "GiB") mul = 1ull << 30;
  else return false;
  *out = static_cast<size_t>(n * mul);
  return true;
}

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

int RunServe(const ServeFlags& f) {
  if (f.routes) {  // the route table, for the OpenAPI test (tests/web/openapi.test.mjs)
    nlohmann::json routes = nlohmann::json::array();
    for (const serve::Route& r : serve::Routes()) routes.push_back({{"method", r.method}, {"path", r.path}});
    std::printf("%s\n", routes.dump(1).c_str());
    return 0;
  }
  if (f.db.empty()) {
    std::fprintf(stderr, "errdex: error: no catalog: pass --db CATALOG.db\n");
    return 2;
  }
  serve::ServerOptions so;
  if (Status s = serve::ParseListen(f.listen, &so); !s.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", s.message().c_str());
    return 2;
  }
  if (!ParseByteSize(f.max_body, &so.max_body) || so.max_body == 0) {
    std::fprintf(stderr, "errdex: error: --max-body %s: expected a size such as 1MiB, 512KiB or 65536\n",
                 f.max_body.c_str());
    return 2;
  }
  so.threads = f.threads;
  so.max_queue = f.max_queue;
  so.read_timeout = Millis(f.read_timeout);
  so.request_timeout = Millis(f.request_timeout);

  // Signals are taken by one thread (sigwait), so every other thread runs with
  // them blocked: set before any thread starts.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  serve::ServiceOptions svc;
  svc.db = f.db;
  svc.reload_interval = Millis(f.reload_interval);
  svc.on_load = [](const serve::CatalogSnapshot& s, bool first) {
    const CatalogOpenInfo& info = s.catalog().open_info();
    std::fprintf(stderr, "errdex: %s catalog version %s: %zu entries, %zu patterns (%s in %.0f ms)\n",
                 first ? "serving" : "now serving", s.version().c_str(), info.entries, info.patterns,
                 info.from_cache ? "cached matcher loaded" : "matcher compiled", info.millis);
  };
  svc.on_error = [](const Status& e) {
    std::fprintf(stderr, "errdex: warning: catalog not (re)loaded: %s\n", e.message().c_str());
  };
  {
    auto store = CatalogStore::Open(f.db, /*create=*/false);  // a clear error now rather than 503s later
    if (!store.ok()) {
      std::fprintf(stderr, "errdex: error: %s\n", store.status().message().c_str());
      return 2;
    }
  }
  serve::CatalogService service(svc);
  serve::HttpServer server(service, so);
  if (Status s = server.Bind(); !s.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", s.message().c_str());
    return 2;
  }
  std::string host = so.host.find(':') != std::string::npos ? "[" + so.host + "]" : so.host;
  std::printf("errdex serve: listening on http://%s:%d (catalog %s)\n", host.c_str(), server.port(), f.db.c_str());
  std::fflush(stdout);
  service.StartWatching();  // /readyz answers 503 until the first load is in

  std::atomic<bool> done{false};
  std::thread stopper([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    if (done.load()) return;
    std::fprintf(stderr, "errdex: stopping (signal %d)\n", sig);
    while (!done.load()) {  // Stop() is a no-op until listen has begun
      server.Stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  Status run = server.Run();
  done.store(true);
  pthread_kill(stopper.native_handle(), SIGTERM);  // wake sigwait if no signal came
  stopper.join();
  if (!run.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", run.message().c_str());
    return 2;
  }
  return 0;
}

}  // namespace

void RegisterServeCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<ServeFlags>();
  CLI::App* sub = app.add_subcommand(
      "serve",
      "serve a catalog over HTTP: JSON API (/v1), pages (/), MCP (/mcp), /healthz /readyz /metrics");
  sub->footer(
      "Pages: / (search and paste), /e/OWNER/NAME/SLUG (one error), /explain, /search.\n"
      "API:   POST /v1/explain (text/plain or {\"text\":...}), GET /v1/errors/ID, /v1/search?q=,\n"
      "       /v1/repos, /v1/openapi.json. Errors are application/problem+json.\n"
      "The catalog may change while serving (errdex scan --db): the new version is picked up\n"
      "within --reload-interval, built off the request path and swapped in.");
  sub->add_option("--db", f->db, "catalog database (errdex scan/import --db)");
  sub->add_option("--listen", f->listen, "HOST:PORT to listen on (default 127.0.0.1:8080; port 0 = any free port)");
  sub->add_option("--threads", f->threads, "worker threads, each serving one connection (default max(8, 4 x cores))");
  sub->add_option("--max-queue", f->max_queue,
                  "connections waiting for a worker before new ones get 503 (default 8 x threads)");
  sub->add_option("--max-body", f->max_body, "largest request body (default 1MiB); larger gets 413");
  sub->add_option("--read-timeout", f->read_timeout, "seconds a client may stay silent mid-request (default 5); then 408")
      ->check(CLI::PositiveNumber);
  sub->add_option("--request-timeout", f->request_timeout, "seconds a request body may take in all (default 30)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--reload-interval", f->reload_interval,
                  "seconds between looks for a new catalog version (default 1; 0 = never reload)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--routes", f->routes, "print the route table as JSON and exit");
  table.emplace_back(sub, [f] { return RunServe(*f); });
}

}  // namespace errdex::cli
