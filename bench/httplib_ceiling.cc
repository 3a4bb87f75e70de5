// bench/httplib_ceiling.cc: the ceiling for errdex serve's load benchmark -- a
// trivial cpp-httplib server, configured as errdex serve configures its own
// (worker threads, TCP_NODELAY, keep-alive), whose POST /v1/explain reads the
// body and answers "[]". bench/serve_bench.sh drives both with the same wrk
// script in the same run, so the ratio says what errdex's work costs.
//
// usage: httplib_ceiling PORT [THREADS=8]
#include <httplib.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: httplib_ceiling PORT [THREADS]\n");
    return 2;
  }
  int port = std::atoi(argv[1]);
  size_t threads = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 8;
  httplib::Server server;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_tcp_nodelay(true);
  server.set_keep_alive_max_count(10000);
  server.set_keep_alive_timeout(5);
  server.Post("/v1/explain", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(req.body.empty() ? "" : "[]", "application/json");
  });
  server.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"status\":\"ok\"}", "application/json");
  });
  std::printf("listening on 127.0.0.1:%d\n", port);
  std::fflush(stdout);
  return server.listen("127.0.0.1", port) ? 0 : 1;
}
