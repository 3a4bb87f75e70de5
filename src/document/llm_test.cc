// Tests of the language-model pass against a real HTTP server on 127.0.0.1 that
// speaks the chat-completions protocol (a small raw-socket server of our own):
// good answers, answers that drop a fact, 429 then success, timeouts, malformed
// JSON, an unreachable server, and the cache (a second run makes no request).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "document/http_client.h"
#include "document/llm.h"

namespace errdex {
namespace {

using nlohmann::json;

// One scripted reply.
struct Reply {
  int status = 200;
  std::string body;        // raw body
  int delay_ms = 0;        // wait before answering (to provoke client timeouts)
  bool chunked = false;
};

// A loopback HTTP server answering each request with the next scripted reply
// (the last one repeats). Records each request body.
class TestServer {
 public:
  TestServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    EXPECT_EQ(::bind(fd_, (sockaddr*)&a, sizeof a), 0);
    EXPECT_EQ(::listen(fd_, 16), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, (sockaddr*)&a, &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { Loop(); });
  }
  ~TestServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  void Script(std::vector<Reply> r) {
    std::lock_guard<std::mutex> l(mu_);
    script_.assign(r.begin(), r.end());
  }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int requests() const { return requests_; }
  std::vector<std::string> bodies() {
    std::lock_guard<std::mutex> l(mu_);
    return bodies_;
  }
  std::vector<std::string> paths() {
    std::lock_guard<std::mutex> l(mu_);
    return paths_;
  }

 private:
  void Loop() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      std::thread([this, c] { Serve(c); }).detach();
    }
  }
  void Serve(int c) {
    std::string in;
    char buf[8192];
    size_t need = std::string::npos;
    while (true) {
      size_t he = in.find("\r\n\r\n");
      if (he != std::string::npos && need == std::string::npos) {
        size_t cl = in.find("Content-Length: ");
        need = he + 4 + (cl == std::string::npos ? 0 : std::stoul(in.substr(cl + 16)));
      }
      if (need != std::string::npos && in.size() >= need) break;
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      in.append(buf, (size_t)n);
    }
    Reply r;
    {
      std::lock_guard<std::mutex> l(mu_);
      size_t he = in.find("\r\n\r\n");
      bodies_.push_back(he == std::string::npos ? "" : in.substr(he + 4));
      size_t sp = in.find(' ');
      paths_.push_back(in.substr(sp + 1, in.find(' ', sp + 1) - sp - 1));
      if (!script_.empty()) {
        r = script_.front();
        if (script_.size() > 1) script_.pop_front();
      }
    }
    ++requests_;
    if (r.delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(r.delay_ms));
    std::string out = "HTTP/1.1 " + std::to_string(r.status) + " X\r\nContent-Type: application/json\r\nConnection: close\r\n";
    if (r.chunked) {
      out += "Transfer-Encoding: chunked\r\n\r\n";
      size_t half = r.body.size() / 2;
      char h[32];
      std::snprintf(h, sizeof h, "%zx\r\n", half);
      out += h + r.body.substr(0, half) + "\r\n";
      std::snprintf(h, sizeof h, "%zx\r\n", r.body.size() - half);
      out += h + r.body.substr(half) + "\r\n0\r\n\r\n";
    } else {
      out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n" + r.body;
    }
    ::send(c, out.data(), out.size(), MSG_NOSIGNAL);
    ::close(c);
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
  std::mutex mu_;
  std::deque<Reply> script_;
  std::vector<std::string> bodies_, paths_;
};

std::string Completion(const json& content) {
  json j = {{"id", "x"}, {"object", "chat.completion"},
            {"choices", json::array({{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content.dump()}}}}})}};
  return j.dump();
}

Record Sample() {
  Record r;
  r.id = "70e072f5fc32f001";
  r.file_path = "python/sglang/srt/server_args.py";
  r.line_number = 7677;
  r.error_class = "ValueError";
  r.error_message = "Pass --deepep-mode low_latency or auto.";
  r.source_code = "raise ValueError(...)";
  r.documentation = "`ValueError` raised by `f` (python/sglang/srt/server_args.py:7677) when `--deepep-mode normal`.";
  r.trigger_scenarios = "Launching with `--deepep-mode normal` and SGLANG_USE_AITER=1.";
  r.common_situations = "Pinning `--deepep-mode normal`.";
  r.solutions = std::vector<std::string>{"Pass `--deepep-mode low_latency`."};
  r.prevention_tips = std::vector<std::string>{"Leave `--deepep-mode` at auto."};
  return r;
}

json Good() {
  return {{"documentation", "Raised at python/sglang/srt/server_args.py:7677 when --deepep-mode is normal: polished."},
          {"triggerScenarios", "Starting the server with --deepep-mode normal while SGLANG_USE_AITER=1 is set."},
          {"commonSituations", "A script that pins --deepep-mode normal."},
          {"solutions", {"Use --deepep-mode low_latency instead."}},
          {"preventionTips", {"Keep --deepep-mode on auto."}}};
}

LlmOptions Options(const TestServer& s) {
  LlmOptions o;
  o.url = s.Url();
  o.model = "test-model";
  o.concurrency = 2;
  o.max_attempts = 3;
  o.timeout_ms = 3000;
  o.backoff_ms = 1;
  return o;
}

TEST(Llm, GoodAnswerIsTakenAndRequestFollowsTheProtocol) {
  TestServer srv;
  srv.Script({{200, Completion(Good())}});
  Record r = Sample();
  std::vector<LlmItem> items{{&r, "{\"kind\":\"raise\"}", "",
                              "{\"conditions\":[{\"kind\":\"flag\",\"code\":\"cfg.deepep_mode == \\\"normal\\\"\",\"user\":\"`--deepep-mode normal`\"}]}"}};
  LlmOptions o = Options(srv);
  o.api_key = "sekret";
  LlmStats st = PolishWithLlm(o, nullptr, items);
  EXPECT_EQ(st.requests, 1);
  EXPECT_EQ(st.polished, 1);
  EXPECT_EQ(st.fallbacks, 0);
  EXPECT_EQ(*r.documentation, Good()["documentation"].get<std::string>());
  EXPECT_EQ((*r.solutions)[0], "Use --deepep-mode low_latency instead.");
  ASSERT_EQ(srv.paths().size(), 1u);
  EXPECT_EQ(srv.paths()[0], "/v1/chat/completions");
  json req = json::parse(srv.bodies()[0]);
  EXPECT_EQ(req["model"], "test-model");
  EXPECT_EQ(req["response_format"]["type"], "json_schema");
  EXPECT_EQ(req["messages"][1]["role"], "user");
  json user = json::parse(req["messages"][1]["content"].get<std::string>());
  EXPECT_EQ(user["facts"]["kind"], "raise");
  // The conditions in the user's terms reach the model.
  EXPECT_EQ(user["userFacts"]["conditions"][0]["user"], "`--deepep-mode normal`");
  EXPECT_NE(req["messages"][0]["content"].get<std::string>().find("never as the code attribute"), std::string::npos);
  EXPECT_EQ(user["draft"]["solutions"][0], "Pass `--deepep-mode low_latency`.");
}

TEST(Llm, FieldThatDropsAFactKeepsTheDeterministicText) {
  TestServer srv;
  json bad = Good();
  bad["triggerScenarios"] = "Starting the server with the normal mode.";  // lost --deepep-mode and the env var
  bad["documentation"] = "Raised when the mode is wrong.";                 // lost file:line
  srv.Script({{200, Completion(bad)}});
  Record r = Sample(), orig = Sample();
  std::vector<LlmItem> items{{&r, "", "", ""}};
  LlmStats st = PolishWithLlm(Options(srv), nullptr, items);
  EXPECT_EQ(st.fields_kept, 2);
  EXPECT_EQ(st.polished, 1);
  EXPECT_EQ(r.trigger_scenarios, orig.trigger_scenarios);
  EXPECT_EQ(r.documentation, orig.documentation);
  EXPECT_EQ(*r.common_situations, "A script that pins --deepep-mode normal.");
}

TEST(Llm, RetriesAfter429And503ThenSucceeds) {
  TestServer srv;
  srv.Script({{429, "{\"error\":\"rate\"}"}, {503, "busy"}, {200, Completion(Good()), 0, true}});
  Record r = Sample();
  std::vector<LlmItem> items{{&r, "", "", ""}};
  LlmStats st = PolishWithLlm(Options(srv), nullptr, items);
  EXPECT_EQ(st.requests, 3);
  EXPECT_EQ(st.retries, 2);
  EXPECT_EQ(st.polished, 1);
  EXPECT_EQ(st.fallbacks, 0);
}

TEST(Llm, TimeoutFallsBackToDeterministicText) {
  TestServer srv;
  srv.Script({{200, Completion(Good()), 1500}});
  Record r = Sample(), orig = Sample();
  std::vector<LlmItem> items{{&r, "", "", ""}};
  LlmOptions o = Options(srv);
  o.timeout_ms = 100;
  o.max_attempts = 2;
  LlmStats st = PolishWithLlm(o, nullptr, items);
  EXPECT_EQ(st.fallbacks, 1);
  EXPECT_EQ(st.requests, 2);
  ASSERT_EQ(st.errors.size(), 1u);
  EXPECT_NE(st.errors[0].find("timed out"), std::string::npos) << st.errors[0];
  EXPECT_EQ(r.documentation, orig.documentation);
}

TEST(Llm, MalformedJsonFallsBackAndIsNotCached) {
  TestServer srv;
  srv.Script({{200, "{not json"}});
  MemoryLlmCache cache;
  Record r = Sample(), orig = Sample();
  std::vector<LlmItem> items{{&r, "", "", ""}};
  LlmStats st = PolishWithLlm(Options(srv), &cache, items);
  EXPECT_EQ(st.fallbacks, 1);
  EXPECT_EQ(r.documentation, orig.documentation);
  // Content that is not a JSON object inside a well-formed completion.
  json j = {{"choices", json::array({{{"message", {{"content", "Sure! Here is the doc."}}}}})}};
  srv.Script({{200, j.dump()}});
  LlmStats st2 = PolishWithLlm(Options(srv), &cache, items);
  EXPECT_EQ(st2.fallbacks, 1);
  EXPECT_EQ(st2.cache_hits, 0);
  EXPECT_EQ(r.documentation, orig.documentation);
}

TEST(Llm, SecondRunIsServedFromTheCache) {
  TestServer srv;
  srv.Script({{200, Completion(Good())}});
  MemoryLlmCache cache;
  Record a = Sample(), b = Sample();
  std::vector<LlmItem> first{{&a, "{}", "", ""}};
  LlmStats s1 = PolishWithLlm(Options(srv), &cache, first);
  EXPECT_EQ(s1.requests, 1);
  int before = srv.requests();
  std::vector<LlmItem> second{{&b, "{}", "", ""}};
  LlmStats s2 = PolishWithLlm(Options(srv), &cache, second);
  EXPECT_EQ(srv.requests(), before);  // no request
  EXPECT_EQ(s2.cache_hits, 1);
  EXPECT_EQ(s2.requests, 0);
  EXPECT_EQ(*b.documentation, *a.documentation);
  // Another model is another cache key.
  LlmOptions o = Options(srv);
  o.model = "other";
  Record c = Sample();
  std::vector<LlmItem> third{{&c, "{}", "", ""}};
  EXPECT_EQ(PolishWithLlm(o, &cache, third).requests, 1);
}

TEST(Llm, ManyRecordsUnreachableServerNeverFails) {
  int port;
  {
    TestServer srv;  // take a free port, then close it
    port = std::stoi(srv.Url().substr(17));
  }
  std::vector<Record> recs(5, Sample());
  std::vector<LlmItem> items;
  for (auto& r : recs) items.push_back({&r, "", "", ""});
  LlmOptions o;
  o.url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  o.model = "m";
  o.max_attempts = 2;
  o.backoff_ms = 1;
  o.timeout_ms = 500;
  LlmStats st = PolishWithLlm(o, nullptr, items);
  EXPECT_EQ(st.fallbacks, 5);
  EXPECT_EQ(st.polished, 0);
  for (auto& r : recs) EXPECT_EQ(r.documentation, Sample().documentation);
}

TEST(HttpClient, ParsesUrls) {
  auto u = doc::ParseHttpUrl("http://localhost:8080/v1/");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "localhost");
  EXPECT_EQ(u->port, 8080);
  EXPECT_EQ(u->path, "/v1");
  EXPECT_FALSE(doc::ParseHttpUrl("https://api.example.com/v1").ok());
  EXPECT_FALSE(doc::ParseHttpUrl("http://h:99999").ok());
}

}  // namespace
}  // namespace errdex
