// Unit tests of the Rust/Go/Java/C++ report parser, on output captured from real
// programs (rustc 1.63 and 1.95, go 1.19, OpenJDK 17, g++ with libtorch 1.13). The
// end-to-end test that compiles and runs such programs is tests/foreign_explain_e2e_test.cc.
#include "match/foreign_traces.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace errdex {
namespace {

struct Parsed {
  std::vector<NormalizedLine> norm;
  std::vector<ExceptionSection> sections;
  std::vector<bool> consumed;
  std::string Message(size_t k) const {
    std::string m;
    for (auto [li, off] : sections[k].message_lines) {
      if (!m.empty()) m += '\n';
      m += norm[li].text.substr(off);
    }
    return m;
  }
};

Parsed Parse(const std::string& text) {
  Parsed p;
  LineNormalizer n;
  // Every line a candidate, as explain gives them (the needed lines in order).
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    p.norm.emplace_back();
    n.Normalize(std::string_view(text).substr(b, e - b), p.norm.back());
    b = e + 1;
  }
  std::vector<const NormalizedLine*> lines;
  for (const NormalizedLine& l : p.norm) lines.push_back(&l);
  p.consumed.assign(lines.size(), false);
  ParseForeignTraces(lines, 10, p.consumed, p.sections);
  return p;
}

TEST(ForeignTraces, RustPanicBothFormats) {
  Parsed old = Parse(
      "thread 'main' panicked at 'no workers available for model llama', rs/src/main.rs:10:9\n"
      "stack backtrace:\n"
      "   0: rust_begin_unwind\n"
      "             at /usr/src/rustc-1.63.0/library/std/src/panicking.rs:584:5\n"
      "   2: main::pick\n"
      "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n");
  ASSERT_EQ(old.sections.size(), 1u);
  EXPECT_EQ(old.sections[0].short_class, "panic");
  EXPECT_EQ(old.Message(0).rfind("no workers available for model llama", 0), 0u);
  ASSERT_EQ(old.sections[0].frames.size(), 1u);
  EXPECT_EQ(old.sections[0].frames[0].file, "rs/src/main.rs");
  EXPECT_EQ(old.sections[0].frames[0].line, 10);
  EXPECT_TRUE(old.consumed.back());

  Parsed neu = Parse(
      "thread 'main' (26461) panicked at src/main.rs:12:25:\n"
      "model must be registered\n"
      "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n");
  ASSERT_EQ(neu.sections.size(), 1u);
  EXPECT_EQ(neu.Message(0), "model must be registered");
  EXPECT_EQ(neu.sections[0].frames[0].file, "src/main.rs");
  EXPECT_EQ(neu.sections[0].frames[0].line, 12);
}

TEST(ForeignTraces, GoPanicWithGoroutineFrames) {
  Parsed p = Parse(
      "panic: bad model \"llama\"\n"
      "\n"
      "goroutine 1 [running]:\n"
      "main.(*Server).pick(0xc000012345, {0x4b2f1a, 0x5})\n"
      "\t/tmp/lang/progs/go/main.go:15 +0x12d\n"
      "main.main()\n"
      "\t/tmp/lang/progs/go/main.go:30 +0x27\n"
      "exit status 2\n");
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].short_class, "panic");
  EXPECT_EQ(p.Message(0), "bad model \"llama\"");
  ASSERT_EQ(p.sections[0].frames.size(), 2u);
  EXPECT_EQ(p.sections[0].frames[0].function, "main");  // outermost first
  EXPECT_EQ(p.sections[0].frames[1].function, "Server.pick");
  EXPECT_EQ(p.sections[0].frames[1].file, "/tmp/lang/progs/go/main.go");
  EXPECT_EQ(p.sections[0].frames[1].line, 15);
}

TEST(ForeignTraces, JavaTraceWithCausedBy) {
  Parsed p = Parse(
      "Exception in thread \"main\" java.lang.RuntimeException: route failed for llama\n"
      "\tat p.App.route(App.java:17)\n"
      "\tat p.App.main(App.java:22)\n"
      "Caused by: java.lang.IllegalStateException: no workers available for model llama\n"
      "\tat p.App$Pool.pick(App.java:8)\n"
      "\tat java.base/p.App.route(App.java:15)\n"
      "\t... 1 more\n");
  ASSERT_EQ(p.sections.size(), 2u);
  EXPECT_EQ(p.sections[0].short_class, "RuntimeException");
  EXPECT_EQ(p.Message(0), "route failed for llama");
  EXPECT_EQ(p.sections[0].frames.back().file, "p/App.java");
  EXPECT_EQ(p.sections[0].frames.back().function, "App.route");
  EXPECT_TRUE(p.sections[1].chained);
  EXPECT_EQ(p.sections[1].short_class, "IllegalStateException");
  EXPECT_EQ(p.Message(1), "no workers available for model llama");
  EXPECT_EQ(p.sections[1].frames.back().function, "App.Pool.pick");
  EXPECT_EQ(p.sections[1].frames.back().line, 8);
  for (bool c : p.consumed) EXPECT_TRUE(c);
}

TEST(ForeignTraces, LoggedJavaExceptionWithoutThreadHeader) {
  Parsed p = Parse(
      "2026-12-04 10:00:00,123 [myid:1] - ERROR [main:QuorumPeer@123] - Unexpected exception\n"
      "org.apache.zookeeper.KeeperException$NoNodeException: KeeperErrorCode = NoNode for /x\n"
      "\tat org.apache.zookeeper.server.DataTree.getNode(DataTree.java:42)\n");
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].short_class, "KeeperException$NoNodeException");
  EXPECT_EQ(p.sections[0].frames[0].file, "org/apache/zookeeper/server/DataTree.java");
  EXPECT_FALSE(p.consumed[0]);  // the log line is matched as a line of its own
}

TEST(ForeignTraces, CppTerminateWithC10Error) {
  Parsed p = Parse(
      "terminate called after throwing an instance of 'c10::Error'\n"
      "  what():  expected a 2D tensor, got 3D\n"
      "Exception raised from check at k.cpp:4 (most recent call first):\n"
      "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x9e (0x7fa1 in /lib/libc10.so)\n"
      "frame #1: <unknown function> + 0x34a3 (0x55e6 in ./k)\n");
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].short_class, "RuntimeError");  // what Python shows for c10::Error
  EXPECT_EQ(p.Message(0), "expected a 2D tensor, got 3D");
  ASSERT_EQ(p.sections[0].frames.size(), 1u);
  EXPECT_EQ(p.sections[0].frames[0].file, "k.cpp");
  EXPECT_EQ(p.sections[0].frames[0].function, "check");
  Parsed s = Parse("terminate called after throwing an instance of 'std::runtime_error'\n  what():  bad 3\n");
  ASSERT_EQ(s.sections.size(), 1u);
  EXPECT_EQ(s.sections[0].short_class, "std::runtime_error");
}

TEST(ForeignTraces, CandidateLinesAndPlainLogsUntouched) {
  std::string text = "INFO ok\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:3 +0x1\n\nafter\n";
  std::vector<size_t> c = ForeignTraceLines(text);
  EXPECT_NE(std::find(c.begin(), c.end(), text.find("panic:")), c.end());
  EXPECT_NE(std::find(c.begin(), c.end(), text.find("\t/x/main.go")), c.end());
  EXPECT_EQ(std::find(c.begin(), c.end(), text.find("after")), c.end());
  EXPECT_EQ(std::find(c.begin(), c.end(), size_t{0}), c.end());
  Parsed p = Parse("route request: pick llama: no workers available\nERROR something failed\n");
  EXPECT_TRUE(p.sections.empty());
  EXPECT_FALSE(p.consumed[0]);
}

}  // namespace
}  // namespace errdex
