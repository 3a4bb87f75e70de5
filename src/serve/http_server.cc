// serve/http_server.cc: cpp-httplib wired to the router, the handlers, the
// limits and the metrics (http_server.h). Tested over a real socket by
// tests/serve/serve_e2e_test.cc, and by the node tests in tests/web/.
//
// How a request flows: the pre-routing handler sees every request first (its
// body not read yet) and answers GET/HEAD and every unknown method itself; a
// POST goes on to the one content-reader handler, which reads the body under the
// limits and then dispatches. No std::regex route table runs per request.
#include "serve/http_server.h"

#include <httplib.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "serve/assets.h"
#include "serve/mcp.h"
#include "serve/metrics.h"
#include "serve/pages.h"
#include "serve/queries.h"
#include "serve/router.h"
#include "serve/safe_text.h"
#include "model/json_bounded.h"

namespace errdex::serve {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// What the request being answered on this thread is (a worker serves one
// connection, one request at a time).
struct RequestState {
  Clock::time_point start;
  bool started = false;
  int route = -1;
  bool shed = false;  // this connection came while every worker was busy and the queue full
};
thread_local RequestState t_request;

constexpr const char* kCsp =
    "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// httplib's TaskQueue with a bound: `threads` workers take connections in order;
// when every worker is busy and `max_queue` connections already wait, a new one
// goes to the shedding threads, which answer each of its requests 503 at once.
class ServeQueue : public httplib::TaskQueue {
 public:
  ServeQueue(size_t threads, size_t max_queue, Metrics* metrics)
      : threads_(threads), max_queue_(max_queue), metrics_(metrics) {
    for (size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { Work(jobs_, jobs_cv_, false); });
    for (int i = 0; i < 2; ++i) workers_.emplace_back([this] { Work(shed_jobs_, shed_cv_, true); });
  }
  ~ServeQueue() override = default;

  void enqueue(std::function<void()> fn) override {
    bool shed;
    {
      std::lock_guard<std::mutex> lock(mu_);
      shed = busy_ + jobs_.size() >= threads_ + max_queue_;
      (shed ? shed_jobs_ : jobs_).push_back(std::move(fn));
    }
    if (shed) metrics_->CountShed();
    (shed ? shed_cv_ : jobs_cv_).notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      shutdown_ = true;
    }
    jobs_cv_.notify_all();
    shed_cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  size_t queued() const {
    std::lock_guard<std::mutex> lock(mu_);
    return jobs_.size();
  }

 private:
  void Work(std::deque<std::function<void()>>& q, std::condition_variable& cv, bool shed) {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv.wait(lock, [&] { return !q.empty() || shutdown_; });
        if (q.empty()) return;  // shutting down, nothing left
        fn = std::move(q.front());
        q.pop_front();
        if (!shed) ++busy_;
      }
      t_request.shed = shed;
      fn();
      if (!shed) {
        std::lock_guard<std::mutex> lock(mu_);
        --busy_;
      }
    }
  }

  const size_t threads_, max_queue_;
  Metrics* metrics_;
  mutable std::mutex mu_;
  std::condition_variable jobs_cv_, shed_cv_;
  std::deque<std::function<void()>> jobs_, shed_jobs_;
  size_t busy_ = 0;
  bool shutdown_ = false;
  std::vector<std::thread> workers_;
};

const char* ReasonPhrase(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 422: return "Unprocessable Content";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

// RFC 9457 problem details. `kind` names the problem type (urn:errdex:problem:KIND).
void Problem(httplib::Response& res, int status, std::string_view kind, std::string_view detail,
             std::string_view instance = "") {
  json p = {{"type", "urn:errdex:problem:" + std::string(kind)},
            {"title", ReasonPhrase(status)},
            {"status", status},
            {"detail", detail}};
  if (!instance.empty()) p["instance"] = instance;
  res.status = status;
  res.set_content(DumpJson(p), "application/problem+json");
}

void Json(httplib::Response& res, const std::string& body, int status = 200) {
  res.status = status;
  res.set_content(body, "application/json");
}

void Html(httplib::Response& res, const std::string& body, int status = 200) {
  res.status = status;
  res.set_header("Cache-Control", "no-cache");
  res.set_content(body, "text/html; charset=utf-8");
}

bool WantsHtml(const httplib::Request& req) {
  return req.get_header_value("Accept").find("text/html") != std::string::npos;
}

bool IsPageRoute(RouteId id) {
  switch (id) {
    case RouteId::kIndexPage:
    case RouteId::kErrorPage:
    case RouteId::kExplainPage:
    case RouteId::kExplainForm:
    case RouteId::kSearchPage: return true;
    default: return false;
  }
}

// application/x-www-form-urlencoded -> the value of `key` ("" when absent).
std::string FormValue(std::string_view body, std::string_view key) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  size_t pos = 0;
  while (pos <= body.size()) {
    size_t amp = body.find('&', pos);
    if (amp == std::string_view::npos) amp = body.size();
    std::string_view pair = body.substr(pos, amp - pos);
    size_t eq = pair.find('=');
    if (pair.substr(0, eq) == key) {
      std::string out;
      std::string_view v = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
      for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] == '+') out += ' ';
        else if (v[i] == '%' && i + 2 < v.size() + 0 && hex(v[i + 1]) >= 0 && hex(v[i + 2]) >= 0) {
          out += static_cast<char>(hex(v[i + 1]) * 16 + hex(v[i + 2]));
          i += 2;
        } else out += v[i];
      }
      return out;
    }
    pos = amp + 1;
  }
  return "";
}

// The host part of an Origin header value ("http://localhost:8080" -> "localhost").
std::string OriginHost(std::string_view origin) {
  size_t scheme = origin.find("://");
  if (scheme == std::string_view::npos) return "";
  std::string_view rest = origin.substr(scheme + 3);
  if (!rest.empty() && rest[0] == '[') return std::string(rest.substr(0, rest.find(']') + 1));
  return std::string(rest.substr(0, rest.find_first_of(":/")));
}

std::string HostOnly(std::string_view host_header) {
  if (!host_header.empty() && host_header[0] == '[') return std::string(host_header.substr(0, host_header.find(']') + 1));
  return std::string(host_header.substr(0, host_header.find(':')));
}

}  // namespace

Status ParseListen(const std::string& listen, ServerOptions* o) {
  std::string host = o->host, port;
  if (!listen.empty() && listen[0] == '[') {
    size_t close = listen.find(']');
    if (close == std::string::npos || close + 1 >= listen.size() || listen[close + 1] != ':')
      return Status::InvalidArgument("--listen " + listen + ": expected [ADDRESS]:PORT");
    host = listen.substr(1, close - 1);
    port = listen.substr(close + 2);
  } else {
    size_t colon = listen.rfind(':');
    if (colon == std::string::npos) return Status::InvalidArgument("--listen " + listen + ": expected HOST:PORT");
    if (colon > 0) host = listen.substr(0, colon);
    port = listen.substr(colon + 1);
  }
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535)
    return Status::InvalidArgument("--listen " + listen + ": the port must be a number from 0 to 65535");
  o->host = host;
  o->port = std::stoi(port);
  return Status::Ok();
}

struct HttpServer::Impl {
  CatalogService& service;
  ServerOptions opt;
  httplib::Server http;
  Metrics metrics;
  McpServer mcp;
  std::atomic<ServeQueue*> queue{nullptr};
  std::atomic<size_t> in_flight{0};
  int bound_port = -1;

  Impl(CatalogService& s, ServerOptions o) : service(s), opt(std::move(o)), mcp(s) {}

  PageContext Ctx(const CatalogSnapshot* snap) const {
    PageContext c;
    if (snap) c.catalog_version = snap->version();
    return c;
  }

  // nullptr (and a 503 answered) while the first catalog is still loading.
  std::shared_ptr<const CatalogSnapshot> Snapshot(const httplib::Request& req, httplib::Response& res, bool page) {
    auto snap = service.Current();
    if (snap) return snap;
    Status err = service.last_error();
    std::string detail = err.ok() ? "the catalog is still loading" : "the catalog could not be loaded: " + err.message();
    res.set_header("Retry-After", "1");
    if (page) Html(res, MessagePage(Ctx(nullptr), "Loading", detail), 503);
    else Problem(res, 503, "catalog-loading", detail, req.path);
    return nullptr;
  }

  void Setup() {
    const size_t threads = opt.threads ? opt.threads : std::max<size_t>(8, 4 * std::thread::hardware_concurrency());
    const size_t max_queue = opt.max_queue ? opt.max_queue : 8 * threads;
    http.new_task_queue = [this, threads, max_queue] {
      auto* q = new ServeQueue(threads, max_queue, &metrics);
      queue.store(q);
      return q;
    };
    // httplib's default also sets SO_REUSEPORT, which would let a second server
    // share the port silently: keep only SO_REUSEADDR (a quick restart rebinds).
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof yes);
    });
    http.set_tcp_nodelay(true);
    http.set_keep_alive_max_count(opt.keep_alive_requests);
    http.set_keep_alive_timeout(opt.keep_alive_seconds);
    http.set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(opt.read_timeout));
    http.set_write_timeout(std::chrono::duration_cast<std::chrono::microseconds>(opt.write_timeout));
    // Bodies are limited in Post() (max_body, then drained up to kMaxDrain): httplib's
    // own limit only must not come first.
    http.set_payload_max_length(kMaxDrain);
    http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"Content-Security-Policy", kCsp},
                              {"Referrer-Policy", "no-referrer"},
                              {"X-Frame-Options", "DENY"},
                              {"Cross-Origin-Resource-Policy", "same-origin"}});

    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      t_request.start = Clock::now();
      t_request.started = true;
      t_request.route = -1;
      in_flight.fetch_add(1, std::memory_order_relaxed);
      if (t_request.shed && req.method != "POST") {
        Shed(res);
        return httplib::Server::HandlerResponse::Handled;
      }
      if (req.method == "POST") return httplib::Server::HandlerResponse::Unhandled;  // body: below
      Guarded(req, res, [&] { Dispatch(req, res, ""); });
      // A body we will not read (PUT, DELETE, ...) must not be taken for the next request.
      if (req.method != "GET" && req.method != "HEAD") CloseAfter(res);
      return httplib::Server::HandlerResponse::Handled;
    });

    http.Post(".*", [this](const httplib::Request& req, httplib::Response& res,
                           const httplib::ContentReader& reader) { Guarded(req, res, [&] { Post(req, res, reader); }); });

    // Bodiless errors (httplib's own 400/404/413/414, a handler's bare status)
    // become problem details too.
    http.set_error_handler(httplib::Server::HandlerWithResponse(
        [](const httplib::Request& req, httplib::Response& res) {
          if (!res.body.empty() || res.content_provider_) return httplib::Server::HandlerResponse::Unhandled;
          Problem(res, res.status, res.status == 413 ? "body-too-large" : "http-" + std::to_string(res.status),
                  ReasonPhrase(res.status), req.path);
          return httplib::Server::HandlerResponse::Handled;
        }));
    http.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr) {
      Problem(res, 500, "internal", "the server failed to answer this request", req.path);
    });
    http.set_post_routing_handler([this](const httplib::Request&, httplib::Response& res) {
      double secs = t_request.started ? std::chrono::duration<double>(Clock::now() - t_request.start).count() : 0;
      metrics.Observe(t_request.started ? t_request.route : -1, res.status, secs);
      if (t_request.started) in_flight.fetch_sub(1, std::memory_order_relaxed);
      t_request.started = false;
    });
  }

  void Shed(httplib::Response& res) {
    res.set_header("Retry-After", "1");
    Problem(res, 503, "overloaded", "too many concurrent requests; retry after the time in Retry-After");
    CloseAfter(res);
  }

  // Runs a handler; whatever it throws is a 500, never the end of the server.
  template <typename F>
  void Guarded(const httplib::Request& req, httplib::Response& res, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      res.headers.erase("Content-Type");
      Problem(res, 500, "internal", std::string("the server failed to answer this request: ") + e.what(), req.path);
    } catch (...) {
      Problem(res, 500, "internal", "the server failed to answer this request", req.path);
    }
  }

  // Bodies past the limit are still read (and dropped) up to this much, so that
  // the client, which is usually still sending, gets to read the 413; a close
  // with unread bytes resets the connection and loses the answer.
  static constexpr uint64_t kMaxDrain = 16u << 20;

  void Post(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    RouteMatch m = MatchRoute(req.method, req.path);
    if (m.route) t_request.route = static_cast<int>(m.index);
    uint64_t declared = req.has_header("Content-Length") ? req.get_header_value<uint64_t>("Content-Length") : 0;
    if (declared > kMaxDrain) {  // refused before reading a byte
      Problem(res, 413, "body-too-large",
              "the request body is " + std::to_string(declared) + " bytes; the limit is " + std::to_string(opt.max_body),
              req.path);
      return CloseAfter(res);
    }
    std::string body;
    uint64_t dropped = 0;
    bool too_slow = false;
    const Clock::time_point start = Clock::now();
    bool ok = reader([&](const char* data, size_t n) {
      if (Clock::now() - start > opt.request_timeout) {
        too_slow = true;
        return false;
      }
      if (dropped || body.size() + n > opt.max_body) {
        dropped += n;
        return dropped <= kMaxDrain;
      }
      body.append(data, n);
      return true;
    });
    if (dropped) {
      Problem(res, 413, "body-too-large",
              "the request body is over the limit of " + std::to_string(opt.max_body) + " bytes", req.path);
      return CloseAfter(res);
    }
    if (!ok) {
      // A read that failed after waiting the read timeout: the client went quiet.
      auto waited = Clock::now() - start;
      if (too_slow || waited >= opt.read_timeout * 9 / 10)
        Problem(res, 408, "request-timeout", "the request body did not arrive in time", req.path);
      else
        Problem(res, 400, "bad-body", "the request body could not be read", req.path);
      return CloseAfter(res);
    }
    // Turned away only now, with the body read: see kMaxDrain.
    if (t_request.shed) return Shed(res);
    if (!m.route) return Unrouted(req, res, m);
    Dispatch(req, res, body);
  }

  // Sends the answer, then closes the connection. httplib keeps a connection
  // open unless the request asked otherwise; a content provider that reports
  // failure after writing the whole body is its one way for a handler to end it.
  static void CloseAfter(httplib::Response& res) {
    res.set_header("Connection", "close");
    if (res.body.empty()) return;
    auto body = std::make_shared<std::string>(std::move(res.body));
    std::string type = res.get_header_value("Content-Type");
    res.body.clear();
    res.headers.erase("Content-Type");
    res.set_content_provider(body->size(), type, [body](size_t offset, size_t length, httplib::DataSink& sink) {
      sink.write(body->data() + offset, length);
      return false;
    });
  }

  void Unrouted(const httplib::Request& req, httplib::Response& res, const RouteMatch& m) {
    if (m.path_known) {
      res.set_header("Allow", m.allow);
      return Problem(res, 405, "method-not-allowed", req.method + " is not allowed here; allowed: " + m.allow,
                     req.path);
    }
    if (WantsHtml(req) && req.path.rfind("/v1/", 0) != 0)
      return Html(res, MessagePage(Ctx(service.Current().get()), "Not found", "There is no page at this address."), 404);
    Problem(res, 404, "not-found", "no such route", req.path);
  }

  void Dispatch(const httplib::Request& req, httplib::Response& res, const std::string& body) {
    RouteMatch m = MatchRoute(req.method, req.path);
    if (!m.route) return Unrouted(req, res, m);
    t_request.route = static_cast<int>(m.index);
    const auto& p = m.params;
    const bool page = IsPageRoute(m.route->id);
    switch (m.route->id) {
      case RouteId::kHealthz: return Json(res, "{\"status\":\"ok\"}");
      case RouteId::kReadyz: {
        auto snap = service.Current();
        if (!snap) {
          Status err = service.last_error();
          res.set_header("Retry-After", "1");
          return Problem(res, 503, "not-ready", err.ok() ? "the catalog is still loading" : err.message(), req.path);
        }
        return Json(res, DumpJson({{"status", "ready"},
                                   {"catalogVersion", snap->version()},
                                   {"entries", snap->entry_count()},
                                   {"patterns", snap->catalog().open_info().patterns}}));
      }
      case RouteId::kMetrics: {
        Metrics::CatalogGauges g;
        if (auto snap = service.Current()) {
          g.version = snap->version();
          g.entries = snap->entry_count();
          g.patterns = snap->catalog().open_info().patterns;
          g.ready = true;
        }
        g.reloads = service.reloads();
        g.load_failures = service.load_failures();
        ServeQueue* q = queue.load();
        res.set_content(metrics.Render(g, in_flight.load(), q ? q->queued() : 0), "text/plain; version=0.0.4");
        return;
      }
      case RouteId::kOpenApi: return Asset(res, "openapi.json");
      case RouteId::kAsset: {
        // Only the public top-level files: templates are served as pages, not as files.
        if (p[0] == "openapi.json" || !FindAsset(p[0])) return Unrouted(req, res, RouteMatch{});
        return Asset(res, p[0]);
      }
      case RouteId::kFavicon: return Asset(res, "favicon.svg");
      case RouteId::kMcp: return Mcp(req, res, body);
      default: break;
    }
    auto snap = Snapshot(req, res, page);
    if (!snap) return;
    switch (m.route->id) {
      case RouteId::kIndexPage: return Html(res, IndexPage(Ctx(snap.get()), snap.get()));
      case RouteId::kErrorPage: {
        std::string repo = RepoFromSegments(p[0], p[1]);
        auto recs = RecordsOfSlug(service, *snap, repo, p[2]);
        if (!recs.ok()) {  // a record without a slug has its page under its id
          auto byid = RecordById(*snap, p[2]);
          if (byid.ok() && (*byid)->record.repo.value_or("") == repo)
            recs = std::vector<std::shared_ptr<const EntryDetails>>{*byid};
        }
        if (!recs.ok())
          return Html(res, MessagePage(Ctx(snap.get()), "Not found", "No error of " + repo + " has this slug or id."), 404);
        return Html(res, ErrorPage(Ctx(snap.get()), *snap, *recs));
      }
      case RouteId::kExplainPage:
      case RouteId::kExplainForm: {
        std::string text = m.route->id == RouteId::kExplainPage ? req.get_param_value("text")
                           : req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0
                               ? FormValue(body, "text")
                               : body;
        if (text.empty()) return Html(res, ExplainPage(Ctx(snap.get()), *snap, "", nullptr));
        ExplainRequest er;
        er.text = text;
        er.repo = req.get_param_value("repo");
        auto answer = Explain(service, *snap, er);
        if (!answer.ok()) return Html(res, MessagePage(Ctx(snap.get()), "Could not explain", answer.status().message()), 400);
        return Html(res, ExplainPage(Ctx(snap.get()), *snap, text, &*answer));
      }
      case RouteId::kSearchPage: {
        SearchRequest sr = SearchFrom(req);
        bool asked = !sr.q.empty() || !sr.repo.empty() || !sr.error_class.empty() || !sr.severity.empty() ||
                     !sr.tag.empty();
        if (!asked) return Html(res, SearchPage(Ctx(snap.get()), snap.get(), sr, nullptr, ""));
        auto answer = Search(service, *snap, sr);
        if (!answer.ok())
          return Html(res, SearchPage(Ctx(snap.get()), snap.get(), sr, nullptr, answer.status().message()), 400);
        return Html(res, SearchPage(Ctx(snap.get()), snap.get(), sr, &*answer, ""));
      }
      case RouteId::kExplainApi: return ExplainApi(req, res, *snap, body);
      case RouteId::kErrorApi: {
        auto d = RecordById(*snap, p[0]);
        if (!d.ok()) return Problem(res, 404, "unknown-id", d.status().message(), req.path);
        return Json(res, RecordJson(**d));
      }
      case RouteId::kErrorBySlugApi: {
        auto recs = RecordsOfSlug(service, *snap, RepoFromSegments(p[0], p[1]), p[2]);
        if (!recs.ok()) return Problem(res, 404, "unknown-slug", recs.status().message(), req.path);
        std::string out = "{\"records\":[";
        for (size_t i = 0; i < recs->size(); ++i) out += (i ? "," : "") + RecordJson(*(*recs)[i]);
        return Json(res, out + "]}");
      }
      case RouteId::kSearchApi: {
        SearchRequest sr = SearchFrom(req);
        std::string limit = req.get_param_value("limit");
        if (!limit.empty()) {
          if (limit.size() > 3 || limit.find_first_not_of("0123456789") != std::string::npos)
            return Problem(res, 400, "invalid-parameter", "limit must be an integer from 1 to 100", req.path);
          sr.limit = std::stoi(limit);
        }
        auto answer = Search(service, *snap, sr);
        if (!answer.ok()) return Problem(res, 400, "invalid-parameter", answer.status().message(), req.path);
        return Json(res, DumpJson(SearchAnswerJson(*answer)));
      }
      case RouteId::kReposApi: return Json(res, DumpJson(ReposJson(Repos(*snap))));
      case RouteId::kScansApi: {
        std::string repo = RepoFromSegments(p[0], p[1]);
        for (const RepoSummary& r : Repos(*snap)) {
          if (r.repo != repo) continue;
          json scans = json::array();
          for (const ScanInfo* s : r.scans) scans.push_back(ScanJson(*s));
          return Json(res, DumpJson({{"repo", repo}, {"scans", scans}}));
        }
        return Problem(res, 404, "unknown-repo", "no scans of '" + repo + "' in the catalog", req.path);
      }
      default: return Problem(res, 500, "internal", "route without a handler", req.path);
    }
  }

  static SearchRequest SearchFrom(const httplib::Request& req) {
    SearchRequest sr;
    sr.q = req.get_param_value("q");
    sr.repo = req.get_param_value("repo");
    sr.error_class = req.get_param_value("class");
    sr.severity = req.get_param_value("severity");
    sr.tag = req.get_param_value("tag");
    sr.cursor = req.get_param_value("cursor");
    return sr;
  }

  void Asset(httplib::Response& res, std::string_view name) {
    const EmbeddedAsset* a = FindAsset(name);
    if (!a) return Problem(res, 404, "not-found", "no such asset");
    res.set_header("Cache-Control", "public, max-age=3600");
    res.set_content(std::string(a->bytes), std::string(ContentTypeOf(name)).c_str());
  }

  void ExplainApi(const httplib::Request& req, httplib::Response& res, const CatalogSnapshot& snap,
                  const std::string& body) {
    std::string type = req.get_header_value("Content-Type");
    type = type.substr(0, type.find(';'));
    ExplainRequest er;
    er.repo = req.get_param_value("repo");
    std::string top = req.get_param_value("top");
    if (type == "application/json") {
      json j = ParseJsonBounded(body);  // nesting bounded (model/json_bounded.h)
      if (j.is_discarded()) return Problem(res, 400, "bad-json", "the request body is not valid JSON", req.path);
      if (!j.is_object() || !j.contains("text") || !j["text"].is_string())
        return Problem(res, 400, "invalid-request", "expected {\"text\": string, \"repo\"?: string, \"top\"?: integer}",
                       req.path);
      er.text = j["text"].get<std::string>();
      if (j.contains("repo") && !j["repo"].is_null()) {
        if (!j["repo"].is_string()) return Problem(res, 400, "invalid-request", "repo must be a string", req.path);
        er.repo = j["repo"].get<std::string>();
      }
      if (j.contains("top") && !j["top"].is_null()) {
        if (!j["top"].is_number_integer() || j["top"].get<long long>() < 1 || j["top"].get<long long>() > 20)
          return Problem(res, 400, "invalid-request", "top must be an integer from 1 to 20", req.path);
        er.top = j["top"].get<size_t>();
      }
    } else if (type.empty() || type == "text/plain") {
      er.text = body;
      if (!top.empty()) {
        if (top.size() > 2 || top.find_first_not_of("0123456789") != std::string::npos || std::stoi(top) < 1 ||
            std::stoi(top) > 20)
          return Problem(res, 400, "invalid-parameter", "top must be an integer from 1 to 20", req.path);
        er.top = static_cast<size_t>(std::stoi(top));
      }
    } else {
      return Problem(res, 415, "unsupported-media-type", "send text/plain (the paste) or application/json", req.path);
    }
    auto answer = Explain(service, snap, er);
    if (!answer.ok()) return Problem(res, 400, "explain-failed", answer.status().message(), req.path);
    Json(res, DumpJson(ExplainAnswerJson(snap, *answer)));
  }

  // MCP Streamable HTTP, stateless: each POST carries JSON-RPC messages; the
  // answer is one JSON body (or 202 when they were notifications only).
  void Mcp(const httplib::Request& req, httplib::Response& res, const std::string& body) {
    // DNS rebinding: a page on another site must not drive this server.
    std::string origin = req.get_header_value("Origin");
    if (!origin.empty()) {
      std::string oh = OriginHost(origin);
      if (oh != "localhost" && oh != "127.0.0.1" && oh != "[::1]" && oh != HostOnly(req.get_header_value("Host")))
        return Problem(res, 403, "forbidden-origin", "requests from origin " + origin + " are not accepted", req.path);
    }
    std::string accept = req.get_header_value("Accept");
    if (!accept.empty() && accept.find("application/json") == std::string::npos &&
        accept.find("*/*") == std::string::npos && accept.find("text/event-stream") == std::string::npos)
      return Problem(res, 406, "not-acceptable", "MCP answers are application/json", req.path);
    McpServer::Session session;
    std::string version = req.get_header_value("MCP-Protocol-Version");
    if (!version.empty()) {
      const auto& v = McpServer::SupportedVersions();
      if (std::find(v.begin(), v.end(), version) == v.end())
        return Problem(res, 400, "unsupported-protocol-version", "MCP-Protocol-Version " + version + " is not supported",
                       req.path);
      session.protocol_version = version;
      session.initialized = true;
    }
    json msg = ParseJsonBounded(body);  // nesting bounded: an echoed id is copied and dumped
    if (msg.is_discarded()) {
      res.status = 400;
      res.set_content(DumpJson({{"jsonrpc", "2.0"}, {"id", nullptr},
                                {"error", {{"code", McpServer::kParseError}, {"message", "parse error"}}}}),
                      "application/json");
      return;
    }
    auto reply = mcp.Handle(msg, session);
    if (!reply) {
      res.status = 202;
      return;
    }
    Json(res, DumpJson(*reply));
  }
};

HttpServer::HttpServer(CatalogService& service, ServerOptions options)
    : impl_(std::make_unique<Impl>(service, std::move(options))) {
  impl_->Setup();
}

HttpServer::~HttpServer() { Stop(); }

const ServerOptions& HttpServer::options() const { return impl_->opt; }

Status HttpServer::Bind() {
  if (impl_->opt.port == 0) {
    int port = impl_->http.bind_to_any_port(impl_->opt.host);
    if (port <= 0) return Status::IoError("cannot listen on " + impl_->opt.host + " (any port)");
    impl_->bound_port = port;
    return Status::Ok();
  }
  if (!impl_->http.bind_to_port(impl_->opt.host, impl_->opt.port))
    return Status::IoError("cannot listen on " + impl_->opt.host + ":" + std::to_string(impl_->opt.port) +
                           " (in use, or not an address of this machine)");
  impl_->bound_port = impl_->opt.port;
  return Status::Ok();
}

int HttpServer::port() const { return impl_->bound_port; }

Status HttpServer::Run() {
  if (!impl_->http.listen_after_bind()) return Status::IoError("the server stopped listening");
  return Status::Ok();
}

void HttpServer::Stop() {
  if (impl_->http.is_running()) impl_->http.stop();
}

}  // namespace errdex::serve
