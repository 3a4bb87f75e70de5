// End-to-end tests of `errdex serve`, `errdex mcp` and `errdex site`: the real
// binary, a catalog made by `errdex scan` of a small Python package written here
// (with a hostile record among ordinary ones), real tracebacks from running
// python3, requests over real loopback sockets (cpp-httplib's client, and raw
// sockets for what no client would send).
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "serve_process.h"

namespace errdex::serve_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
const std::string kBin = ERRDEX_BINARY;
// A client writing a body the server refused meets a closed socket: an error, not a signal.
const bool kNoSigpipe = [] { return std::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
const std::string kSha1 = "1111111111111111111111111111111111111111";
const std::string kSha2 = "2222222222222222222222222222222222222222";

const char* kShapes = R"py("""Shape checks."""


class ShapeError(ValueError):
    pass


def check_shape(shape, expected):
    if len(shape) != len(expected):
        raise ShapeError(f"expected {len(expected)} dimensions, got {len(shape)}")
    for a, b in zip(shape, expected):
        if a != b:
            raise ValueError(f"dimension mismatch: {a} != {b}")
    assert shape, "shape must not be empty"
    return shape
)py";

const char* kModels = R"py("""Model loading."""


def load(name):
    if not name:
        raise KeyError("missing model name")
    if name == "xss":
        raise RuntimeError("<img src=x onerror=alert(1)> \x1b[31mboom\x1b[0m \u202etxt.exe")
    if name.startswith("/"):
        raise ValueError(f"model name {name!r} must not be a path")
    return name
)py";

// One catalog for the whole suite (scanning costs a second or two).
class ServeE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = (fs::temp_directory_path() / ("errdex_serve_e2e_" + std::to_string(getpid()))).string();
    fs::remove_all(dir_);
    WriteFile(dir_ + "/repo/app/__init__.py", "");
    WriteFile(dir_ + "/repo/app/shapes.py", kShapes);
    WriteFile(dir_ + "/repo/app/models.py", kModels);
    ShResult r = Sh(dir_, kBin + " scan repo --repo test/app --sha " + kSha1 + " --db c.db");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  void SetUp() override {
    server_ = std::make_unique<ServeProcess>(
        kBin, std::vector<std::string>{"--db", dir_ + "/c.db", "--listen", "127.0.0.1:0", "--read-timeout", "1",
                                       "--reload-interval", "0.1"},
        dir_ + "/serve.log");
    ASSERT_GT(server_->port(), 0) << server_->first_line() << server_->log();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    client_->set_read_timeout(30, 0);
    WaitReady(*client_);
  }
  void TearDown() override {
    client_.reset();
    EXPECT_TRUE(server_->alive()) << "the server died: " << server_->log();
    EXPECT_EQ(server_->Stop(), 0) << server_->log();
  }

  static void WaitReady(httplib::Client& c) {
    for (int i = 0; i < 600; ++i) {
      auto r = c.Get("/readyz");
      if (r && r->status == 200) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL() << "never ready";
  }

  // A real traceback: runs `code` with python3 in the repo.
  static std::string Traceback(const std::string& code) {
    ShResult py = Sh(dir_ + "/repo", "python3 -c " + Quote(code));
    EXPECT_NE(py.err.find("Traceback (most recent call last):"), std::string::npos) << py.err;
    return py.err;
  }

  static void ExpectProblem(const httplib::Result& r, int status, const std::string& kind) {
    ASSERT_TRUE(r) << "no answer";
    EXPECT_EQ(r->status, status) << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/problem+json") << r->body;
    json p = json::parse(r->body, nullptr, false);
    ASSERT_TRUE(p.is_object()) << r->body;
    EXPECT_EQ(p["status"], status);
    EXPECT_EQ(p["type"], "urn:errdex:problem:" + kind) << r->body;
    EXPECT_TRUE(p["title"].is_string());
    EXPECT_TRUE(p["detail"].is_string());
  }

  static std::string dir_;
  std::unique_ptr<ServeProcess> server_;
  std::unique_ptr<httplib::Client> client_;
};
std::string ServeE2E::dir_;

TEST_F(ServeE2E, ListensOnLoopbackByDefaultAndTellsWhere) {
  EXPECT_NE(server_->first_line().find("http://127.0.0.1:"), std::string::npos) << server_->first_line();
  ShResult help = Sh(dir_, kBin + " serve --help");
  EXPECT_NE(help.out.find("127.0.0.1:8080"), std::string::npos);
  ShResult bad = Sh(dir_, kBin + " serve --db c.db --listen nonsense");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("errdex: error: --listen nonsense"), std::string::npos) << bad.err;
  ShResult missing = Sh(dir_, kBin + " serve --db absent.db --listen 127.0.0.1:0");
  EXPECT_EQ(missing.code, 2);
  ShResult taken = Sh(dir_, kBin + " serve --db c.db --listen 127.0.0.1:" + std::to_string(server_->port()));
  EXPECT_EQ(taken.code, 2) << taken.err;
}

// POST /v1/explain answers what `errdex explain --json` prints, GET /v1/errors/ID
// what `errdex show --json` does.
TEST_F(ServeE2E, TheApiAnswersWhatTheCliAnswers) {
  std::string tb = Traceback("import app.shapes as s; s.check_shape((2, 3), (2, 4))");
  WriteFile(dir_ + "/tb.txt", tb);
  ShResult cli = Sh(dir_, kBin + " explain --db c.db --json tb.txt");
  ASSERT_EQ(cli.code, 0) << cli.err;
  json want = json::array();
  std::istringstream lines(cli.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) want.push_back(json::parse(line)["data"]);
  ASSERT_FALSE(want.empty());

  auto r = client_->Post("/v1/explain", tb, "text/plain");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  json got = json::parse(r->body);
  EXPECT_EQ(got, want);
  EXPECT_EQ(got[0]["errorMessage"], "dimension mismatch: {a} != {b}");
  EXPECT_EQ(got[0]["filePath"], "app/shapes.py");
  EXPECT_EQ(got[0]["captures"][0]["text"], "3");
  EXPECT_TRUE(got[0]["exact"]);

  // The JSON form of the request answers the same.
  auto rj = client_->Post("/v1/explain", json({{"text", tb}}).dump(), "application/json");
  ASSERT_TRUE(rj);
  EXPECT_EQ(json::parse(rj->body), want);
  auto rtop = client_->Post("/v1/explain", json({{"text", tb}, {"top", 1}, {"repo", "test/app"}}).dump(),
                            "application/json");
  EXPECT_EQ(json::parse(rtop->body).size(), 1u);
  auto rother = client_->Post("/v1/explain", json({{"text", tb}, {"repo", "other/repo"}, {"top", 1}}).dump(),
                              "application/json");
  for (const json& h : json::parse(rother->body)) EXPECT_NE(h["repo"], "test/app");

  std::string id = got[0]["recordId"];
  auto rec = client_->Get("/v1/errors/" + id);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->status, 200);
  ShResult show = Sh(dir_, kBin + " show " + id + " --db c.db --json");
  ASSERT_EQ(show.code, 0);
  json shown = json::parse(show.out.substr(0, show.out.find('\n')));
  json served = json::parse(rec->body);
  EXPECT_EQ(served["record"], shown["record"]);
  EXPECT_EQ(served["versions"], got[0]["versions"]);
  // The record bytes are the seed format's, exactly as export writes them.
  ShResult exp = Sh(dir_, kBin + " export --db c.db");
  std::string record_bytes = rec->body.substr(10, rec->body.find(",\"versions\":") - 10);
  EXPECT_NE(exp.out.find("{\"record\":" + record_bytes + ",\"datasetVersion\""), std::string::npos);

  // By slug; a record without a slug would be under its id.
  std::string slug = shown["record"]["slug"];
  auto by_slug = client_->Get("/v1/errors/by-slug/test/app/" + slug);
  ASSERT_TRUE(by_slug);
  EXPECT_EQ(by_slug->status, 200);
  EXPECT_EQ(json::parse(by_slug->body)["records"][0]["record"]["id"], id);
}

TEST_F(ServeE2E, SearchReposAndScans) {
  auto r = client_->Get("/v1/search?q=dimension+mism");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  json j = json::parse(r->body);
  ASSERT_EQ(j["results"].size(), 1u) << r->body;
  EXPECT_EQ(j["results"][0]["errorMessage"], "dimension mismatch: {a} != {b}");
  json snippet = j["results"][0]["snippet"];
  EXPECT_EQ(snippet[0], json({{"text", "dimension"}, {"match", true}}));
  EXPECT_TRUE(j["nextCursor"].is_null());

  // Cursor paging: one at a time gives every record once.
  std::set<std::string> ids;
  std::string cursor;
  for (int page = 0; page < 50; ++page) {
    auto p = client_->Get("/v1/search?repo=test%2Fapp&limit=1" + (cursor.empty() ? "" : "&cursor=" + cursor));
    ASSERT_EQ(p->status, 200) << p->body;
    json pj = json::parse(p->body);
    for (const json& it : pj["results"]) EXPECT_TRUE(ids.insert(it["id"].get<std::string>()).second);
    if (pj["nextCursor"].is_null()) break;
    cursor = pj["nextCursor"];
  }
  auto all = client_->Get("/v1/search?repo=test%2Fapp&limit=100");
  EXPECT_EQ(ids.size(), json::parse(all->body)["results"].size());
  EXPECT_GE(ids.size(), 5u);

  ExpectProblem(client_->Get("/v1/search?q=x&limit=0"), 400, "invalid-parameter");
  ExpectProblem(client_->Get("/v1/search?q=x&limit=abc"), 400, "invalid-parameter");
  ExpectProblem(client_->Get("/v1/search?q=x&cursor=zz"), 400, "invalid-parameter");

  auto repos = client_->Get("/v1/repos");
  json rj = json::parse(repos->body);
  ASSERT_EQ(rj["repos"].size(), 1u);
  EXPECT_EQ(rj["repos"][0]["repo"], "test/app");
  EXPECT_EQ(rj["repos"][0]["latest"]["sha"], kSha1);
  auto scans = client_->Get("/v1/repos/test/app/scans");
  EXPECT_EQ(json::parse(scans->body)["scans"][0]["sha"], kSha1);
  ExpectProblem(client_->Get("/v1/repos/no/such/scans"), 404, "unknown-repo");
}

TEST_F(ServeE2E, ErrorsAreProblemDetails) {
  ExpectProblem(client_->Post("/v1/explain", "{\"text\": ", "application/json"), 400, "bad-json");
  ExpectProblem(client_->Post("/v1/explain", "{\"txt\": \"x\"}", "application/json"), 400, "invalid-request");
  ExpectProblem(client_->Post("/v1/explain", "{\"text\": \"x\", \"top\": 99}", "application/json"), 400,
                "invalid-request");
  ExpectProblem(client_->Post("/v1/explain", "<xml/>", "application/xml"), 415, "unsupported-media-type");
  ExpectProblem(client_->Get("/v1/errors/0000000000000000"), 404, "unknown-id");
  ExpectProblem(client_->Get("/v1/errors/by-slug/test/app/no-such-slug"), 404, "unknown-slug");
  ExpectProblem(client_->Get("/v1/no/such/route"), 404, "not-found");
  auto wrong_method = client_->Get("/v1/explain");
  ExpectProblem(wrong_method, 405, "method-not-allowed");
  EXPECT_EQ(wrong_method->get_header_value("Allow"), "POST");
  ExpectProblem(client_->Delete("/v1/repos"), 405, "method-not-allowed");
  // Over the 1 MiB default: refused from Content-Length, before reading...
  ExpectProblem(client_->Post("/v1/explain", std::string(2 << 20, 'x'), "text/plain"), 413, "body-too-large");
  // ...and, without a Content-Length (chunked), when the limit is passed.
  httplib::Client chunked("127.0.0.1", server_->port());
  size_t sent = 0;
  auto r = chunked.Post(
      "/v1/explain",
      [&](size_t, httplib::DataSink& sink) {
        std::string block(64 * 1024, 'y');
        sink.write(block.data(), block.size());
        if ((sent += block.size()) >= (3u << 20)) sink.done();
        return true;
      },
      "text/plain");
  ExpectProblem(r, 413, "body-too-large");
}

// A client that stops sending halfway through its body gets 408 once the read
// timeout (1 s here) passes, and the server goes on.
TEST_F(ServeE2E, ASlowClientGets408) {
  RawConnection c(server_->port());
  ASSERT_TRUE(c.ok());
  c.Send("POST /v1/explain HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nonly ten b");
  std::string answer = c.ReadAll(std::chrono::seconds(10));
  EXPECT_EQ(answer.rfind("HTTP/1.1 408", 0), 0u) << answer;
  EXPECT_NE(answer.find("application/problem+json"), std::string::npos);
  EXPECT_NE(answer.find("urn:errdex:problem:request-timeout"), std::string::npos);
  EXPECT_EQ(client_->Get("/healthz")->status, 200);
}

TEST_F(ServeE2E, NoFileOutsideTheEmbeddedAssetsIsServed) {
  auto css = client_->Get("/assets/style.css");
  ASSERT_TRUE(css);
  EXPECT_EQ(css->status, 200);
  EXPECT_EQ(css->get_header_value("Content-Type"), "text/css; charset=utf-8");
  EXPECT_EQ(client_->Get("/favicon.ico")->status, 200);
  const std::string marker = "root:";  // /etc/passwd
  for (const char* path :
       {"/assets/../../../../etc/passwd", "/assets/..%2F..%2F..%2F..%2Fetc%2Fpasswd", "/assets/%2e%2e/%2e%2e/etc/passwd",
        "/../../../etc/passwd", "/assets/style.css/../../../../etc/passwd", "//etc/passwd", "/assets/%00",
        "/assets/templates/head.mustache", "/assets/templates%2Fhead.mustache", "/assets/..", "/assets/.",
        "/e/../../../etc/passwd", "/assets/%252e%252e%252fetc%252fpasswd", "/assets/\\..\\..\\etc\\passwd",
        "/etc/passwd", "/assets//etc/passwd", "/v1/errors/..%2F..%2Fetc%2Fpasswd"}) {
    RawConnection c(server_->port());
    c.Send(std::string("GET ") + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    std::string answer = c.ReadAll(std::chrono::seconds(5));
    EXPECT_TRUE(answer.rfind("HTTP/1.1 404", 0) == 0 || answer.rfind("HTTP/1.1 400", 0) == 0) << path << "\n" << answer;
    EXPECT_EQ(answer.find(marker), std::string::npos) << path;
  }
}

TEST_F(ServeE2E, TheServerNeverDiesOnARequest) {
  std::mt19937 rng(7);
  auto random_bytes = [&](size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
  };
  for (int i = 0; i < 40; ++i) {
    client_->Post("/v1/explain", random_bytes(1 + rng() % 20000), "text/plain");
    client_->Post("/mcp", random_bytes(1 + rng() % 2000), "application/json");
    client_->Post("/explain", "text=" + random_bytes(1 + rng() % 2000), "application/x-www-form-urlencoded");
    client_->Get(("/v1/search?q=" + httplib::detail::encode_query_param(random_bytes(1 + rng() % 50))).c_str());
  }
  for (const std::string& raw :
       {std::string("GARBAGE\r\n\r\n"), std::string("GET / HTTP/1.1\r\n") + std::string(100000, 'h') + "\r\n\r\n",
        std::string("GET /") + std::string(20000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n",
        std::string("POST /v1/explain HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"),
        std::string("POST /v1/explain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        std::string("POST /v1/explain HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\nabcd"),
        std::string("GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n"), random_bytes(3000), std::string("\r\n\r\n\r\n")}) {
    RawConnection c(server_->port());
    c.Send(raw);
    c.ReadAll(std::chrono::milliseconds(1500));
  }
  EXPECT_TRUE(server_->alive());
  EXPECT_EQ(client_->Get("/healthz")->status, 200);
}

TEST_F(ServeE2E, PagesAreEscapedAndCarryAStrictPolicy) {
  auto index = client_->Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_EQ(index->get_header_value("Content-Type"), "text/html; charset=utf-8");
  std::string csp = index->get_header_value("Content-Security-Policy");
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos);
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos);
  EXPECT_EQ(index->get_header_value("X-Content-Type-Options"), "nosniff");

  auto found = client_->Get("/v1/search?q=onerror");
  json results = json::parse(found->body)["results"];
  ASSERT_EQ(results.size(), 1u) << found->body;
  std::string slug = results[0]["slug"];
  auto page = client_->Get("/e/test/app/" + slug);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->body.find("<img"), std::string::npos);
  EXPECT_NE(page->body.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_EQ(page->body.find('\x1b'), std::string::npos);
  EXPECT_EQ(page->body.find("\xe2\x80\xae"), std::string::npos);
  auto searched = client_->Get("/search?q=onerror");
  EXPECT_EQ(searched->body.find("<img"), std::string::npos);
  EXPECT_NE(searched->body.find("<mark>onerror</mark>"), std::string::npos) << searched->body;

  auto head = client_->Head("/");
  EXPECT_EQ(head->status, 200);
  EXPECT_TRUE(head->body.empty());
  auto missing = client_->Get("/e/test/app/no-such-slug", {{"Accept", "text/html"}});
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(missing->get_header_value("Content-Type"), "text/html; charset=utf-8");

  // The paste box works without JavaScript: a plain form post.
  std::string tb = Traceback("import app.models as m; m.load('/etc/model')");
  auto explained = client_->Post("/explain", "text=" + httplib::detail::encode_query_param(tb),
                                 "application/x-www-form-urlencoded");
  ASSERT_EQ(explained->status, 200);
  EXPECT_NE(explained->body.find("<span class=\"label\">EXACT</span>"), std::string::npos) << explained->body;
  EXPECT_NE(explained->body.find("model name <mark class=\"cap\">&apos;/etc/model&apos;</mark> must not be a path"),
            std::string::npos)
      << explained->body;
}

TEST_F(ServeE2E, MetricsCountRequestsByRouteAndStatus) {
  client_->Post("/v1/explain", "ValueError: dimension mismatch: 1 != 2", "text/plain");
  client_->Get("/v1/errors/0000000000000000");
  auto m = client_->Get("/metrics");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->get_header_value("Content-Type"), "text/plain; version=0.0.4");
  EXPECT_NE(m->body.find("errdex_http_requests_total{route=\"/v1/explain\",method=\"POST\",status=\"200\"} 1"),
            std::string::npos)
      << m->body;
  EXPECT_NE(m->body.find("errdex_http_requests_total{route=\"/v1/errors/{id}\",method=\"GET\",status=\"404\"} 1"),
            std::string::npos);
  EXPECT_NE(m->body.find("errdex_http_request_duration_seconds_bucket{route=\"/v1/explain\",method=\"POST\",le=\"+Inf\"} 1"),
            std::string::npos);
  EXPECT_NE(m->body.find("errdex_catalog_ready 1"), std::string::npos);
}

TEST_F(ServeE2E, McpOverStreamableHttp) {
  httplib::Headers h = {{"Accept", "application/json, text/event-stream"}};
  json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
  auto r = client_->Post("/mcp", h, init.dump(), "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(json::parse(r->body)["result"]["protocolVersion"], "2025-06-18");
  auto note = client_->Post("/mcp", h, R"({"jsonrpc":"2.0","method":"notifications/initialized"})", "application/json");
  EXPECT_EQ(note->status, 202);
  EXPECT_TRUE(note->body.empty());
  auto get = client_->Get("/mcp", h);
  EXPECT_EQ(get->status, 405);
  auto evil = client_->Post("/mcp", {{"Origin", "https://evil.example"}}, init.dump(), "application/json");
  ExpectProblem(evil, 403, "forbidden-origin");
  auto bad_version = client_->Post("/mcp", {{"MCP-Protocol-Version", "1999-01-01"}}, init.dump(), "application/json");
  ExpectProblem(bad_version, 400, "unsupported-protocol-version");
  auto unparsable = client_->Post("/mcp", h, "{", "application/json");
  EXPECT_EQ(unparsable->status, 400);
  EXPECT_EQ(json::parse(unparsable->body)["error"]["code"], -32700);
}

TEST_F(ServeE2E, McpOverStdio) {
  std::string in =
      json({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
            {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                        {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}})
          .dump() +
      "\n" + R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\n" +
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_errors","arguments":{"query":"missing model"}}})" +
      "\n" + R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_error","arguments":{}}})" + "\n" +
      "not json\n";
  WriteFile(dir_ + "/mcp.in", in);
  ShResult r = Sh(dir_, kBin + " mcp --db c.db --reload-interval 0 < mcp.in");
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<json> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  ASSERT_EQ(out.size(), 4u) << r.out;  // the notification has no answer
  EXPECT_EQ(out[0]["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(out[1]["result"]["structuredContent"]["results"][0]["errorMessage"], "missing model name");
  EXPECT_EQ(out[2]["error"]["code"], -32602);
  EXPECT_EQ(out[3]["error"]["code"], -32700);
}

// More connections than workers and queue: the ones past the bound are answered
// 503 with Retry-After at once, by a thread of their own.
TEST_F(ServeE2E, TooManyConcurrentRequestsGet503) {
  ServeProcess small(kBin,
                     {"--db", dir_ + "/c.db", "--listen", "127.0.0.1:0", "--threads", "1", "--max-queue", "1",
                      "--reload-interval", "0"},
                     dir_ + "/small.log");
  ASSERT_GT(small.port(), 0);
  httplib::Client c("127.0.0.1", small.port());
  WaitReady(c);
  int shed = 0;
  {
    // The only worker holds a silent connection (waiting for its request); of the next
    // two, one waits in the queue and one is shed. Which one depends on whether the
    // worker has let go of WaitReady's connection yet (on a loaded machine it may
    // not have), so both ask and at least one must be answered 503 at once.
    RawConnection hold(small.port());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    RawConnection second(small.port()), third(small.port());
    second.Send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    third.Send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string answers[] = {second.ReadResponse(std::chrono::milliseconds(1500)),
                             third.ReadResponse(std::chrono::milliseconds(1500))};
    for (const std::string& answer : answers) {
      if (answer.empty()) continue;  // the queued one: still behind the silent connection
      EXPECT_EQ(answer.rfind("HTTP/1.1 503", 0), 0u) << answer;
      EXPECT_NE(answer.find("Retry-After: 1"), std::string::npos);
      EXPECT_NE(answer.find("urn:errdex:problem:overloaded"), std::string::npos);
      ++shed;
    }
    EXPECT_GE(shed, 1);
    // The worker is held and the queue full whatever happened above.
    RawConnection post(small.port());
    post.Send("POST /v1/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
    EXPECT_EQ(post.ReadResponse(std::chrono::seconds(3)).rfind("HTTP/1.1 503", 0), 0u);
    ++shed;
  }
  // Once the held connections close, the worker answers again: it notices the close
  // a moment later, and a request in that moment is shed too (counted, so the
  // total stays exact).
  int status = 0;
  for (int attempt = 0; attempt < 100 && status != 200; ++attempt) {
    auto res = c.Get("/healthz");
    ASSERT_TRUE(res);
    status = res->status;
    if (status == 503) {
      ++shed;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  EXPECT_EQ(status, 200);
  auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("errdex_http_shed_total " + std::to_string(shed)), std::string::npos)
      << metrics->body;
  EXPECT_TRUE(small.alive());
  EXPECT_EQ(small.Stop(), 0);
}

// A scan commits while requests keep coming: none fails, and the server moves to
// the new version (a new error appears) without a restart.
TEST_F(ServeE2E, TheCatalogChangesUnderLoadAndNoRequestFails) {
  std::string before = json::parse(client_->Get("/readyz")->body)["catalogVersion"];
  std::string tb = Traceback("import app.shapes as s; s.check_shape((2, 3), (2, 4))");
  std::atomic<bool> stop{false};
  std::atomic<int> ok{0}, failed{0};
  std::vector<std::string> failures;
  std::mutex mu;
  auto drive = [&](int which) {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_read_timeout(30, 0);
    while (!stop.load()) {
      httplib::Result r = which == 0   ? c.Post("/v1/explain", tb, "text/plain")
                          : which == 1 ? c.Get("/v1/search?q=dimension")
                                       : c.Get("/e/test/app/dimension-mismatch-a-b");
      bool good = r && r->status == 200 && (which != 0 || !json::parse(r->body).empty());
      (good ? ok : failed).fetch_add(1);
      if (!good) {
        std::lock_guard<std::mutex> lock(mu);
        failures.push_back(r ? std::to_string(r->status) + " " + r->body.substr(0, 200) : "no answer");
      }
    }
  };
  std::vector<std::thread> drivers;
  for (int i = 0; i < 3; ++i) drivers.emplace_back(drive, i);
  std::string added = std::string(kModels) + R"py(

def unload(name):
    raise RuntimeError(f"a brand new failure while unloading {name}")
)py";
  WriteFile(dir_ + "/repo2/app/__init__.py", "");
  WriteFile(dir_ + "/repo2/app/shapes.py", kShapes);
  WriteFile(dir_ + "/repo2/app/models.py", added);
  ShResult scan = Sh(dir_, kBin + " scan repo2 --repo test/app --sha " + kSha2 + " --db c.db");
  ASSERT_EQ(scan.code, 0) << scan.err;
  std::string after = before;
  for (int i = 0; i < 300 && after == before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    after = json::parse(client_->Get("/readyz")->body)["catalogVersion"];
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // requests on the new version too
  stop.store(true);
  for (auto& t : drivers) t.join();
  EXPECT_NE(after, before) << server_->log();
  EXPECT_EQ(failed.load(), 0) << (failures.empty() ? "" : failures.front());
  EXPECT_GT(ok.load(), 10);
  auto r = client_->Post("/v1/explain", "RuntimeError: a brand new failure while unloading 'm'", "text/plain");
  json hits = json::parse(r->body);
  ASSERT_FALSE(hits.empty()) << r->body;
  EXPECT_EQ(hits[0]["errorMessage"], "a brand new failure while unloading {name}");
  auto versions = json::parse(client_->Get("/v1/errors/" + hits[0]["recordId"].get<std::string>())->body)["versions"];
  EXPECT_EQ(versions.size(), 1u);
  auto old = json::parse(client_->Post("/v1/explain", tb, "text/plain")->body);
  EXPECT_EQ(old[0]["versions"].size(), 2u) << "the old error exists in both commits";
  EXPECT_NE(server_->log().find("now serving catalog version"), std::string::npos);
}

// errdex site: every internal link of every page resolves to a written file (and
// its #anchor to an id in it); the hostile record stays text.
TEST_F(ServeE2E, TheStaticSiteHasNoBrokenInternalLink) {
  std::string out = dir_ + "/site";
  ShResult r = Sh(dir_, kBin + " site --db c.db -o site --base-url https://errors.example.org/app");
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(fs::exists(out + "/index.html"));
  ASSERT_TRUE(fs::exists(out + "/search-index.json"));
  json index = json::parse(ReadFile(out + "/search-index.json"));
  EXPECT_GE(index.size(), 5u);
  std::map<std::string, std::set<std::string>> ids;  // file -> its id attributes
  // Every NAME="..." of a page (no std::regex: its recursion per character
  // overflows the stack on a long attribute value).
  auto attribute_values = [](const std::string& html, const std::string& name) {
    std::vector<std::string> out;
    const std::string key = name + "=\"";
    for (size_t p = html.find(key); p != std::string::npos; p = html.find(key, p + 1)) {
      size_t b = p + key.size(), e = html.find('"', b);
      if (e == std::string::npos) break;
      out.push_back(html.substr(b, e - b));
    }
    return out;
  };
  std::vector<std::pair<std::string, std::string>> links;  // (page, target)
  size_t pages = 0;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (e.path().extension() != ".html") continue;
    ++pages;
    std::string html = ReadFile(e.path().string());
    std::string rel = fs::relative(e.path(), out).string();
    for (const std::string& id : attribute_values(html, "id"))
      if (!id.empty()) ids[rel].insert(id);
    for (const char* attr : {"href", "src"})
      for (const std::string& target : attribute_values(html, attr)) links.emplace_back(rel, target);
    EXPECT_EQ(html.find("<img"), std::string::npos) << rel;
    EXPECT_EQ(html.find('\x1b'), std::string::npos) << rel;
  }
  EXPECT_GE(pages, 6u);
  size_t internal = 0;
  for (const auto& [page, target] : links) {
    if (target.rfind("https://", 0) == 0 || target.rfind("http://", 0) == 0) continue;  // permalinks, canonical
    ++internal;
    std::string path = target.substr(0, target.find('#'));
    std::string anchor = target.find('#') == std::string::npos ? "" : target.substr(target.find('#') + 1);
    fs::path file = path.empty() ? fs::path(page) : (fs::path(page).parent_path() / path).lexically_normal();
    EXPECT_TRUE(fs::exists(fs::path(out) / file)) << page << " -> " << target;
    EXPECT_EQ(file.string().rfind("..", 0), std::string::npos) << page << " -> " << target << " leaves the site";
    if (!anchor.empty()) EXPECT_TRUE(ids[file.string()].count(anchor)) << page << " -> " << target;
  }
  EXPECT_GT(internal, 20u);
  for (const json& e : index) EXPECT_TRUE(fs::exists(out + "/" + e["u"].get<std::string>().substr(0, e["u"].get<std::string>().find('#'))));
  EXPECT_NE(ReadFile(out + "/index.html").find("<link rel=\"canonical\" href=\"https://errors.example.org/app/index.html\">"),
            std::string::npos);
}

}  // namespace
}  // namespace errdex::serve_test
