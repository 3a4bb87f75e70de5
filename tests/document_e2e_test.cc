// End-to-end tests of the document stage through the real binary: `errdex scan`
// (prose filled by default) and `errdex document` (re-fill from the catalog, the
// knowledge blob and the stored facts), with and without a language model served
// by a loopback chat-completions server of our own.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "e2e_util.h"
#include "model/record.h"

namespace errdex::document_e2e {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr const char* kCliPy = R"PY(import dataclasses

MOE_RUNNER_BACKEND_CHOICES = ["auto", "triton", "flashinfer_trtllm", "flashinfer_cutedsl", "cutlass"]


@dataclasses.dataclass
class ServerArgs:
    moe_a2a_backend: str = "none"
    moe_runner_backend: str = "auto"
    deepep_mode: str = "auto"

    @staticmethod
    def add_cli_args(parser):
        parser.add_argument("--moe-a2a-backend", type=str, choices=["none", "deepep"], default=ServerArgs.moe_a2a_backend)
        parser.add_argument("--moe-runner-backend", type=str, choices=MOE_RUNNER_BACKEND_CHOICES, default="auto")
        parser.add_argument("--deepep-mode", type=str, choices=["normal", "low_latency", "auto"], default="auto")
)PY";

using e2e::ReadFile;
using e2e::TempDir;
using e2e::WriteFile;

struct RunOut {
  int rc = -1;
  std::string out, err;
};

RunOut Errdex(const TempDir& dir, const std::string& args) {
  static int n = 0;
  std::string base = dir / ("run" + std::to_string(n++));
  std::string cmd = std::string("'") + ERRDEX_BINARY + "' " + args + " >" + base + ".out 2>" + base + ".err";
  int st = std::system(cmd.c_str());
  RunOut r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = ReadFile(base + ".out");
  r.err = ReadFile(base + ".err");
  return r;
}

Json LastJson(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  size_t nl = s.rfind('\n');
  Json j = Json::parse(nl == std::string::npos ? s : s.substr(nl + 1), nullptr, false);
  return j.is_discarded() ? Json() : j;
}

std::vector<Record> Export(const TempDir& dir, const std::string& db) {
  RunOut r = Errdex(dir, "export --db " + db);
  EXPECT_EQ(r.rc, 0) << r.err;
  std::vector<Record> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    auto l = ParseCatalogLine(line);
    EXPECT_TRUE(l.ok()) << l.status().ToString();
    if (l.ok()) out.push_back(l.value().record);
  }
  return out;
}

// Seed 000's window at its real lines (7659..) under a method, next to the CLI file.
void MakeTree(const TempDir& dir) {
  std::ifstream in(std::string(ERRDEX_SHARED_DIR) + "/seeds/000_6372fd8a0e5af399.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  auto seed = ParseCatalogLine(ss.str());
  ASSERT_TRUE(seed.ok());
  const Record& r = seed.value().record;
  std::string text(r.source_code_start - 4, '\n');
  text += "class ServerArgs:\n    def _handle_a2a_moe(self, cfg):\n        a2a_backend = cfg.moe_a2a_backend\n";
  text += r.source_code + "\n";
  WriteFile(dir / "repo/python/sglang/srt/server_args.py", text);
  WriteFile(dir / "repo/python/sglang/srt/server_args_cli.py", kCliPy);
}

const Record* ByLine(const std::vector<Record>& rs, int line) {
  for (auto& r : rs)
    if (r.line_number == line) return &r;
  return nullptr;
}

// A chat-completions server that polishes by echoing the draft with a prefix
// (so every fact of the draft is kept) and counts requests.
class EchoLlm {
 public:
  EchoLlm() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, (sockaddr*)&a, sizeof a), 0);
    EXPECT_EQ(::listen(fd_, 16), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, (sockaddr*)&a, &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int c = ::accept(fd_, nullptr, nullptr);
        if (c >= 0) Serve(c);
      }
    });
  }
  ~EchoLlm() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int requests() const { return requests_; }

 private:
  void Serve(int c) {
    std::string in;
    char buf[8192];
    size_t need = std::string::npos;
    while (need == std::string::npos || in.size() < need) {
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      in.append(buf, (size_t)n);
      size_t he = in.find("\r\n\r\n");
      if (he != std::string::npos && need == std::string::npos) {
        size_t cl = in.find("Content-Length: ");
        need = he + 4 + std::stoul(in.substr(cl + 16));
      }
    }
    ++requests_;
    Json req = Json::parse(in.substr(in.find("\r\n\r\n") + 4), nullptr, false);
    Json draft = Json::parse(req["messages"][1]["content"].get<std::string>())["draft"];
    Json ans = Json::object();
    for (auto& [k, v] : draft.items()) {
      if (v.is_string()) ans[k] = "Polished: " + v.get<std::string>();
      if (v.is_array()) {
        ans[k] = Json::array();
        for (auto& x : v) ans[k].push_back("Polished: " + x.get<std::string>());
      }
    }
    Json body = {{"choices", Json::array({{{"message", {{"role", "assistant"}, {"content", ans.dump()}}}}})}};
    std::string b = body.dump();
    std::string out = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(b.size()) +
                      "\r\nConnection: close\r\n\r\n" + b;
    ::send(c, out.data(), out.size(), MSG_NOSIGNAL);
    ::close(c);
  }
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

TEST(DocumentE2E, ScanFillsProseAndDocumentRefillsItFromTheCatalog) {
  TempDir dir;
  MakeTree(dir);
  std::string db = dir / "c.db";
  RunOut scan = Errdex(dir, "scan " + (dir / "repo") + " --repo sgl-project/sglang --sha abc123 --db " + db + " -j 2 -q");
  ASSERT_EQ(scan.rc, 0) << scan.err;
  auto recs = Export(dir, db);
  const Record* r = ByLine(recs, 7677);
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->trigger_scenarios);
  EXPECT_NE(r->trigger_scenarios->find("`--moe-runner-backend flashinfer_cutedsl`"), std::string::npos);
  EXPECT_NE(r->trigger_scenarios->find("`--deepep-mode normal`"), std::string::npos);
  EXPECT_NE(r->trigger_scenarios->find("only an explicit `--deepep-mode normal`"), std::string::npos);
  ASSERT_TRUE(r->solutions);
  EXPECT_EQ((*r->solutions)[0], "Pass `--deepep-mode low_latency` or `--deepep-mode auto` (the message's own hint).");
  EXPECT_EQ(r->background_tag, "unsupported-configuration-combo");
  const std::string scanned_doc = *r->documentation;

  // `errdex document` rebuilds the same text from the stored facts, window and knowledge blob.
  RunOut d = Errdex(dir, "document --db " + db + " --json");
  ASSERT_EQ(d.rc, 0) << d.err;
  Json s = LastJson(d.out);
  EXPECT_EQ(s["type"], "summary");
  EXPECT_EQ(s["data"]["records"], (int)recs.size());
  EXPECT_EQ(s["data"]["withKnowledge"], (int)recs.size());
  EXPECT_EQ(s["data"]["withoutFacts"], 0);
  auto again = Export(dir, db);
  ASSERT_NE(ByLine(again, 7677), nullptr);
  EXPECT_EQ(*ByLine(again, 7677)->documentation, scanned_doc);

  // Nothing matches: exit 1.
  EXPECT_EQ(Errdex(dir, "document --db " + db + " --repo nobody/none").rc, 1);
  // No catalog: exit 2.
  EXPECT_EQ(Errdex(dir, "document --db " + (dir / "missing.db")).rc, 2);
}

// M5: `scan --no-docs` then `errdex document` writes what `scan` writes (the
// knowledge of other files included: the CLI choices live in server_args_cli.py),
// by reading the scanned source again; a source changed since is not read (a note,
// the stored excerpts instead); two plain directories keep their own knowledge.
TEST(DocumentE2E, DocumentAfterNoDocsEqualsTheScansOwnDocumentStage) {
  TempDir dir;
  MakeTree(dir);
  std::string full = dir / "full.db", bare = dir / "bare.db";
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "repo") + " --repo o/r --sha abc123 --db " + full + " -q").rc, 0);
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "repo") + " --repo o/r --sha abc123 --db " + bare + " -q --no-docs").rc, 0);
  auto before = Export(dir, bare);
  ASSERT_NE(ByLine(before, 7677), nullptr);
  EXPECT_FALSE(ByLine(before, 7677)->trigger_scenarios);
  RunOut d = Errdex(dir, "document --db " + bare + " --json");
  ASSERT_EQ(d.rc, 0) << d.err;
  EXPECT_EQ(LastJson(d.out)["data"]["sourcesReadAgain"], 1);
  auto scanned = Export(dir, full), documented = Export(dir, bare);
  ASSERT_EQ(scanned.size(), documented.size());
  for (size_t i = 0; i < scanned.size(); ++i) {
    Record a = scanned[i], b = documented[i];
    a.analyzed_at = b.analyzed_at;  // two scans, two times
    EXPECT_EQ(RecordToJson(a), RecordToJson(b)) << "line " << a.line_number;
  }
  EXPECT_NE(ByLine(documented, 7677)->trigger_scenarios->find("`--moe-runner-backend flashinfer_cutedsl`"), std::string::npos);

  // Changed since the scan: not read again, said so, still documented (exit 0).
  std::string changed = dir / "changed.db";
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "repo") + " --repo o/r --sha abc123 --db " + changed + " -q --no-docs").rc, 0);
  WriteFile(dir / "repo/python/sglang/srt/server_args.py", "\n" + ReadFile(dir / "repo/python/sglang/srt/server_args.py"));
  RunOut c = Errdex(dir, "document --db " + changed);
  EXPECT_EQ(c.rc, 0) << c.err;
  EXPECT_NE(c.err.find("changed since it was scanned"), std::string::npos) << c.err;
  EXPECT_NE(ByLine(Export(dir, changed), 7677)->trigger_scenarios, std::nullopt);

  // Imported records have no tree to read again: documented quietly from their excerpts.
  ASSERT_EQ(Errdex(dir, "export --db " + full + " -o " + (dir / "all.jsonl")).rc, 0);
  RunOut imp = Errdex(dir, "import " + (dir / "all.jsonl") + " --db " + (dir / "imported.db"));
  ASSERT_EQ(imp.rc, 0) << imp.err;
  RunOut di = Errdex(dir, "document --db " + (dir / "imported.db"));
  EXPECT_EQ(di.rc, 0) << di.err;
  EXPECT_EQ(di.err, "");

  // Two plain directories (no repo, no sha) in one catalog: each keeps its knowledge.
  std::string plain = dir / "plain.db";
  WriteFile(dir / "a/a.py", "import os\nif os.environ.get('ONLY_IN_A'):\n    raise ValueError('a fired')\n");
  WriteFile(dir / "b/b.py", "raise ValueError('b fired')\n");
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "a") + " --db " + plain + " -q").rc, 0);
  auto a_scanned = Export(dir, plain);
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "b") + " --db " + plain + " -q").rc, 0);
  ASSERT_EQ(Errdex(dir, "document --db " + plain).rc, 0);
  auto both = Export(dir, plain);
  ASSERT_EQ(both.size(), 2u);
  const Record& a_again = both[0].file_path == "a.py" ? both[0] : both[1];
  EXPECT_EQ(a_again.trigger_scenarios, a_scanned[0].trigger_scenarios);
  EXPECT_EQ(a_again.documentation, a_scanned[0].documentation);
}

TEST(DocumentE2E, LanguageModelPassPolishesThenServesFromTheCache) {
  TempDir dir;
  MakeTree(dir);
  std::string db = dir / "c.db";
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "repo") + " --repo sgl-project/sglang --sha abc123 --db " + db + " -j 2 -q").rc, 0);
  size_t n = Export(dir, db).size();
  ASSERT_GT(n, 0u);
  EchoLlm llm;
  RunOut first = Errdex(dir, "document --db " + db + " --llm-url " + llm.Url() + " --llm-model echo --json");
  ASSERT_EQ(first.rc, 0) << first.err;
  Json s1 = LastJson(first.out)["data"]["llm"];
  EXPECT_EQ(s1["polished"], (int)n);
  EXPECT_EQ(s1["fallbacks"], 0);
  EXPECT_EQ(llm.requests(), (int)n);
  auto recs = Export(dir, db);
  ASSERT_NE(ByLine(recs, 7677), nullptr);
  EXPECT_EQ(ByLine(recs, 7677)->documentation->rfind("Polished: ", 0), 0u);
  // Second run: the prose is re-derived, the answers come from the catalog's cache.
  RunOut second = Errdex(dir, "document --db " + db + " --llm-url " + llm.Url() + " --llm-model echo --json");
  ASSERT_EQ(second.rc, 0) << second.err;
  Json s2 = LastJson(second.out)["data"]["llm"];
  EXPECT_EQ(s2["cacheHits"], (int)n);
  EXPECT_EQ(s2["requests"], 0);
  EXPECT_EQ(llm.requests(), (int)n);
}

TEST(DocumentE2E, UnreachableModelFallsBackAndStillSucceeds) {
  TempDir dir;
  MakeTree(dir);
  std::string db = dir / "c.db";
  ASSERT_EQ(Errdex(dir, "scan " + (dir / "repo") + " --repo sgl-project/sglang --sha abc123 --db " + db + " -j 2 -q").rc, 0);
  int port;
  {
    EchoLlm gone;
    port = std::stoi(gone.Url().substr(17));
  }
  RunOut r = Errdex(dir, "document --db " + db + " --llm-url http://127.0.0.1:" + std::to_string(port) +
                          "/v1 --llm-model m --llm-attempts 1 --llm-timeout 2 --json");
  ASSERT_EQ(r.rc, 0) << r.err;
  Json s = LastJson(r.out)["data"];
  EXPECT_EQ(s["llm"]["fallbacks"], s["records"]);
  auto recs = Export(dir, db);
  ASSERT_NE(ByLine(recs, 7677), nullptr);
  EXPECT_NE(ByLine(recs, 7677)->trigger_scenarios->find("`--deepep-mode normal`"), std::string::npos);
}

}  // namespace
}  // namespace errdex::document_e2e
