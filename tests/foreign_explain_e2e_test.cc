// End-to-end: `errdex explain` finds C++, Rust, Go and Java errors from what their
// programs really print. Small programs are compiled and run with the machine's own
// compilers (g++ and libtorch, rustc, go, javac/java), their sources scanned into a
// catalog, and their real output explained: the site that failed must come first,
// with its frame recognised. A compiler that is missing skips its part (CI installs
// them all: scripts/install-deps.sh).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace {

namespace fs = std::filesystem;
using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;
const std::string kBin = ERRDEX_BINARY;

const char kRust[] = R"src(use std::collections::HashMap;

fn pick(workers: &HashMap<String, u32>, model: &str) -> u32 {
    if workers.is_empty() {
        panic!("no workers available for model {}", model);
    }
    *workers.get(model).expect("model must be registered")
}

fn main() {
    let mut w = HashMap::new();
    if std::env::args().nth(1).as_deref() == Some("expect") {
        w.insert("other".to_string(), 1);
    }
    pick(&w, "llama");
}
)src";

const char kGo[] = R"src(package main

import (
	"errors"
	"fmt"
	"os"
)

var ErrNoWorkers = errors.New("no workers available")

type Server struct{ workers int }

func (s *Server) pick(model string) error {
	if s.workers == 0 {
		return fmt.Errorf("pick %s: %w", model, ErrNoWorkers)
	}
	return nil
}

func (s *Server) route(model string) error {
	if err := s.pick(model); err != nil {
		return fmt.Errorf("route request: %w", err)
	}
	return nil
}

func main() {
	s := &Server{}
	if len(os.Args) > 1 && os.Args[1] == "panic" {
		panic(fmt.Sprintf("bad model %q for %d workers", "llama", s.workers))
	}
	if err := s.route("llama"); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
)src";

const char kJava[] = R"src(package p;

public class App {
  static class Pool {
    int workers;
    void pick(String model) {
      if (workers == 0) {
        throw new IllegalStateException("no workers available for model " + model);
      }
    }
  }

  static void route(Pool p, String model) {
    try {
      p.pick(model);
    } catch (IllegalStateException e) {
      throw new RuntimeException("route failed for " + model, e);
    }
  }

  public static void main(String[] args) {
    route(new Pool(), "llama");
  }
}
)src";

const char kCpp[] = R"src(#include <stdexcept>
#include <string>

void load_shard(int n, int total) {
  if (n >= total) {
    throw std::runtime_error("shard " + std::to_string(n) + " out of range (total " + std::to_string(total) + ")");
  }
}

int main() { load_shard(7, 4); }
)src";

const char kTorch[] = R"src(#include <ATen/ATen.h>
#include <c10/util/Exception.h>

void check_query(const at::Tensor& q) {
  TORCH_CHECK(q.dim() == 2, "expected a 2D query tensor, got ", q.dim(), "D");
}

int main() { check_query(at::zeros({2, 3, 4})); }
)src";

struct Proc {
  int code = -1;
  std::string out;  // stdout and stderr together, as a user pastes them
};

class ForeignExplainE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    WriteFile(*dir_ / "repo/rs/src/main.rs", kRust);
    WriteFile(*dir_ / "repo/go/main.go", kGo);
    WriteFile(*dir_ / "repo/java/p/App.java", kJava);
    WriteFile(*dir_ / "repo/cpp/shard.cpp", kCpp);
    WriteFile(*dir_ / "repo/cpp/attention.cpp", kTorch);
    Proc scan = Sh(kBin + " scan repo --repo demo/services --sha " + std::string(40, 'e') + " --db cat.db --no-docs");
    ASSERT_EQ(scan.code, 0) << scan.out;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  // bash in the temporary directory; stdout and stderr captured together.
  static Proc Sh(const std::string& cmd) {
    std::string out = *dir_ / ".out";
    std::string full = "cd " + Quote(dir_->path()) + " && { " + cmd + " ; } >" + Quote(out) + " 2>&1";
    int st = std::system(("bash -c " + Quote(full)).c_str());
    Proc r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = ReadFile(out);
    return r;
  }
  static bool Have(const std::string& tool) { return Sh("command -v " + tool).code == 0; }
  // The hits of `errdex explain --json` on `output`.
  static std::vector<nlohmann::json> Explain(const std::string& output) {
    WriteFile(*dir_ / "paste.txt", output);
    Proc r = Sh(kBin + " explain --db cat.db --json paste.txt");
    std::vector<nlohmann::json> hits;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] == '{') hits.push_back(nlohmann::json::parse(line)["data"]);
    return hits;
  }
  static void ExpectTop(const std::string& output, const std::string& file, int line, const std::string& cls,
                        bool frame) {
    auto hits = Explain(output);
    ASSERT_FALSE(hits.empty()) << output;
    const auto& top = hits[0];
    EXPECT_EQ(top["filePath"], file) << output << "\n" << top.dump();
    EXPECT_EQ(top["lineNumber"], line) << output << "\n" << top.dump();
    EXPECT_EQ(top["errorClass"], cls) << output;
    EXPECT_EQ(top["exact"], true) << output;
    if (frame) EXPECT_EQ(top["frameFile"], true) << output << "\n" << top.dump();
  }
  static TempDir* dir_;
};
TempDir* ForeignExplainE2E::dir_ = nullptr;

TEST_F(ForeignExplainE2E, RustPanicsOfEachRustcOnTheMachine) {
  std::vector<std::string> rustcs;
  for (const std::string& c : std::vector<std::string>{
           "/usr/bin/rustc", std::string(getenv("HOME") ? getenv("HOME") : "") + "/.cargo/bin/rustc"})
    if (fs::exists(c)) rustcs.push_back(c);
  if (rustcs.empty()) GTEST_SKIP() << "no rustc";
  for (const std::string& rustc : rustcs) {
    // Built from the repository root, so the panic names repo-relative files.
    Proc build = Sh("cd repo && " + Quote(rustc) + " -o ../rs_app rs/src/main.rs");
    ASSERT_EQ(build.code, 0) << build.out;
    for (const char* backtrace : {"0", "1"}) {
      Proc panic = Sh(std::string("RUST_BACKTRACE=") + backtrace + " ./rs_app");
      ASSERT_NE(panic.code, 0);
      ASSERT_NE(panic.out.find("panicked at"), std::string::npos) << panic.out;
      ExpectTop(panic.out, "rs/src/main.rs", 5, "panic", true);
      Proc expect = Sh(std::string("RUST_BACKTRACE=") + backtrace + " ./rs_app expect");
      ExpectTop(expect.out, "rs/src/main.rs", 7, "panic", true);
    }
  }
}

TEST_F(ForeignExplainE2E, GoErrorChainAndPanic) {
  if (!Have("go")) GTEST_SKIP() << "no go";
  Proc build = Sh("cd repo && GOCACHE=" + Quote(*dir_ / "gocache") + " GOPROXY=off GOFLAGS=-mod=mod go build -o ../go_app go/main.go");
  ASSERT_EQ(build.code, 0) << build.out;
  // "error: route request: pick llama: no workers available": the outermost wrap
  // covers the whole chain; each inner link is found too.
  Proc chain = Sh("./go_app");
  ASSERT_EQ(chain.code, 1);
  ExpectTop(chain.out, "go/main.go", 22, "error", false);
  auto hits = Explain(chain.out);
  bool inner = false, sentinel = false;
  for (const auto& h : hits) {
    inner = inner || h["lineNumber"] == 15;
    sentinel = sentinel || h["errorClass"] == "ErrNoWorkers";
  }
  EXPECT_TRUE(inner && sentinel) << chain.out;
  Proc panic = Sh("./go_app panic");
  ASSERT_EQ(panic.code, 2);
  ASSERT_NE(panic.out.find("goroutine 1 [running]"), std::string::npos) << panic.out;
  ExpectTop(panic.out, "go/main.go", 30, "panic", true);
}

TEST_F(ForeignExplainE2E, JavaStackTraceWithCausedBy) {
  if (!Have("javac") || !Have("java")) GTEST_SKIP() << "no JDK";
  Proc build = Sh("javac -d java_out repo/java/p/App.java");
  ASSERT_EQ(build.code, 0) << build.out;
  Proc run = Sh("java -cp java_out p.App");
  ASSERT_NE(run.code, 0);
  ASSERT_NE(run.out.find("Caused by: java.lang.IllegalStateException"), std::string::npos) << run.out;
  ExpectTop(run.out, "java/p/App.java", 17, "RuntimeException", true);
  auto hits = Explain(run.out);
  bool cause = false;
  for (const auto& h : hits)
    cause = cause || (h["lineNumber"] == 8 && h["errorClass"] == "IllegalStateException" && h["frameFile"] == true);
  EXPECT_TRUE(cause) << run.out;
}

TEST_F(ForeignExplainE2E, CppExceptionAndTorchCheck) {
  if (!Have("g++")) GTEST_SKIP() << "no g++";
  Proc build = Sh("cd repo && g++ -std=c++17 -o ../shard cpp/shard.cpp");
  ASSERT_EQ(build.code, 0) << build.out;
  Proc run = Sh("./shard");
  ASSERT_NE(run.out.find("what():  shard 7 out of range"), std::string::npos) << run.out;
  ExpectTop(run.out, "cpp/shard.cpp", 6, "std::runtime_error", false);
  // A real c10::Error from libtorch (Debian's libtorch-dev): "Exception raised from
  // check_query at cpp/attention.cpp:5" names the frame.
  if (!fs::exists("/usr/include/ATen/ATen.h")) GTEST_SKIP() << "no libtorch-dev";
  Proc tb = Sh("cd repo && g++ -std=c++17 -O0 -o ../attention cpp/attention.cpp -ltorch -ltorch_cpu -lc10");
  ASSERT_EQ(tb.code, 0) << tb.out;
  Proc torch = Sh("./attention");
  ASSERT_NE(torch.out.find("expected a 2D query tensor, got 3D"), std::string::npos) << torch.out;
  ExpectTop(torch.out, "cpp/attention.cpp", 5, "RuntimeError", true);
}

}  // namespace
