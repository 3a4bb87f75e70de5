// End-to-end regression tests for how the commands write their output
// (cli/output_file.h), from the reliability issue: M3 (write errors on stdout were
// exit 0), M4 (-o over the catalog replaced it), L1 (temporary files left by
// SIGINT/SIGTERM), L9 (a 0600 output came back 0644) and L10 (bidirectional
// controls printed raw to terminals). The real binary, inputs generated here.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "e2e_util.h"

namespace {

namespace fs = std::filesystem;
using errdex::e2e::Quote;
using errdex::e2e::ReadFile;
using errdex::e2e::TempDir;
using errdex::e2e::WriteFile;

struct Outcome {
  int code = -1;
  std::string err;
};

// Runs `errdex ARGS` through bash with `redirect` for its stdout (e.g. ">/dev/full");
// returns the exit code and stderr.
Outcome Errdex(const TempDir& t, const std::string& args, const std::string& redirect = ">/dev/null") {
  std::string err = t / "stderr.txt";
  std::string cmd = "cd " + Quote(t.path()) + " && NO_COLOR=1 " + Quote(ERRDEX_BINARY) + " " + args + " " +
                    redirect + " 2>" + Quote(err) + " </dev/null";
  int st = std::system(("bash -c " + Quote(cmd)).c_str());
  Outcome o;
  o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  o.err = ReadFile(err);
  return o;
}

// A package of `files` files with `per_file` raises each.
void WriteTree(const std::string& dir, int files, int per_file) {
  for (int f = 0; f < files; ++f) {
    std::string text = "import os\n\n";
    for (int i = 0; i < per_file; ++i)
      text += "def f" + std::to_string(i) + "(x):\n    if x < " + std::to_string(i) + ":\n        raise ValueError(\"" +
              "file " + std::to_string(f) + " error number " + std::to_string(i) + "\")\n    return x\n\n";
    WriteFile(dir + "/pkg/mod" + std::to_string(f) + ".py", text);
  }
}

std::vector<std::string> TemporaryFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) out.push_back(e.path().string());
  return out;
}

class OutputSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteTree(t_ / "src", 3, 20);
    ASSERT_EQ(Errdex(t_, "scan src --repo o/n --sha " + std::string(40, 'a') + " --db c.db -q").code, 0);
    WriteFile(t_ / "paste.txt", "ValueError: file 1 error number 7\n");
  }
  TempDir t_;
};

// M3: explain and run exited 0 when their output could not be written. A write
// error on stdout is exit 2 with a message for every command; a closed pipe is not
// an error (exit 0).
TEST_F(OutputSafety, WriteErrorsOnStdoutAreExit2) {
  const std::vector<std::string> commands = {
      "explain --db c.db -q paste.txt",       "explain --db c.db -q --json paste.txt",
      "run --db c.db -q -- cat paste.txt",    "export --db c.db",
      "scans --db c.db",                      "scan src -q",
      "document --db c.db",  // prints its summary with printf
  };
  for (const std::string& c : commands) {
    Outcome full = Errdex(t_, c, ">/dev/full");
    EXPECT_EQ(full.code, 2) << c;
    EXPECT_NE(full.err.find("cannot write to stdout: No space left on device"), std::string::npos) << c << full.err;
    Outcome closed = Errdex(t_, c, ">&-");
    EXPECT_EQ(closed.code, 2) << c << ": " << closed.err;
  }
  // A reader that goes away is not an error (| head): explain's hits, export's lines.
  for (const std::string& c : {std::string("export --db c.db"), std::string("scan src -q")}) {
    std::string cmd = "cd " + Quote(t_.path()) + " && " + Quote(ERRDEX_BINARY) + " " + c +
                      " | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}";
    int st = std::system(("bash -c " + Quote(cmd)).c_str());
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << c;
  }
  // The catalog a closed stdout might otherwise have become is untouched.
  EXPECT_EQ(Errdex(t_, "scans --db c.db").code, 0);
}

// M4: `export --db C -o C` and `scan --db C -o C` replaced the catalog with JSON
// Lines. Any spelling of the catalog (a symlink, ../), and any other SQLite file,
// is refused before work, and the catalog keeps its bytes.
TEST_F(OutputSafety, OutputNeverReplacesACatalog) {
  const std::string before = ReadFile(t_ / "c.db");
  fs::create_directories(t_ / "sub");
  fs::create_symlink(t_ / "c.db", t_ / "link.db");
  for (const std::string& out : {std::string("c.db"), std::string("sub/../c.db"), std::string("link.db"),
                                 t_ / "c.db"}) {
    Outcome e = Errdex(t_, "export --db c.db -o " + Quote(out));
    EXPECT_EQ(e.code, 2) << out;
    EXPECT_NE(e.err.find("it is the catalog"), std::string::npos) << e.err;
    Outcome s = Errdex(t_, "scan src --db c.db -o " + Quote(out) + " -q");
    EXPECT_EQ(s.code, 2) << out;
    EXPECT_NE(s.err.find("it is the catalog"), std::string::npos) << s.err;
  }
  EXPECT_EQ(ReadFile(t_ / "c.db"), before);
  EXPECT_TRUE(fs::is_symlink(t_ / "link.db"));
  // A catalog that does not exist yet, named twice.
  Outcome fresh = Errdex(t_, "scan src --db new.db -o new.db -q");
  EXPECT_EQ(fresh.code, 2);
  EXPECT_FALSE(fs::exists(t_ / "new.db"));
  // Another catalog (not the one in use) is still an SQLite file: refused too.
  fs::copy_file(t_ / "c.db", t_ / "other.db");
  Outcome other = Errdex(t_, "export --db c.db -o other.db");
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.err.find("SQLite database"), std::string::npos) << other.err;
  EXPECT_EQ(ReadFile(t_ / "other.db"), before);
  EXPECT_TRUE(TemporaryFiles(t_.path()).empty());
}

// L9: the output keeps the target's mode; through a symlink the link stays and
// the file it names is replaced.
TEST_F(OutputSafety, OutputKeepsItsModeAndFollowsSymlinks) {
  ::umask(022);
  for (const std::string& cmd : {std::string("export --db c.db -o link.jsonl"), std::string("scan src -q -o link.jsonl")}) {
    WriteFile(t_ / "private.jsonl", "old\n");
    ASSERT_EQ(::chmod((t_ / "private.jsonl").c_str(), 0600), 0);
    fs::remove(t_ / "link.jsonl");
    fs::create_symlink("private.jsonl", t_ / "link.jsonl");
    ASSERT_EQ(Errdex(t_, cmd).code, 0) << cmd;
    struct stat st;
    ASSERT_EQ(::stat((t_ / "private.jsonl").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u) << cmd;
    EXPECT_TRUE(fs::is_symlink(t_ / "link.jsonl")) << cmd;
    EXPECT_NE(ReadFile(t_ / "private.jsonl"), "old\n") << cmd;
  }
  // A new file gets 0666 minus the umask.
  ASSERT_EQ(Errdex(t_, "export --db c.db -o fresh.jsonl").code, 0);
  struct stat st;
  ASSERT_EQ(::stat((t_ / "fresh.jsonl").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  EXPECT_TRUE(TemporaryFiles(t_.path()).empty());
}

// L1: SIGINT/SIGTERM/SIGHUP during `scan -o out.jsonl` kept the old out.jsonl but
// left .out.jsonl.tmp-XXXXXX behind. The signal still ends errdex (status says
// so); the old file stays and no temporary file does.
TEST_F(OutputSafety, SignalsLeaveNoTemporaryFiles) {
  WriteTree(t_ / "big", 200, 150);  // long enough to be interrupted while documenting
  int interrupted = 0;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    WriteFile(t_ / "out.jsonl", "old\n");
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::signal(SIGINT, SIG_DFL);  // as in an interactive shell (a test runner may ignore them)
      ::signal(SIGHUP, SIG_DFL);
      int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 2);
      ::execl(ERRDEX_BINARY, ERRDEX_BINARY, "scan", (t_ / "big").c_str(), "-o", (t_ / "out.jsonl").c_str(), "-q",
              "-j1", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // The temporary file is created before any work: wait for it, then interrupt.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (TemporaryFiles(t_.path()).empty() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_FALSE(TemporaryFiles(t_.path()).empty()) << "scan never created its temporary file";
    ::kill(pid, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status)) {
      // The scan finished before the signal arrived (a very fast machine): still no litter.
      EXPECT_EQ(WEXITSTATUS(status), 0);
    } else {
      ASSERT_TRUE(WIFSIGNALED(status));
      EXPECT_EQ(WTERMSIG(status), sig);
      EXPECT_EQ(ReadFile(t_ / "out.jsonl"), "old\n");
      ++interrupted;
    }
    EXPECT_TRUE(TemporaryFiles(t_.path()).empty()) << "signal " << sig << " status " << status << " " << (TemporaryFiles(t_.path()).empty() ? "" : TemporaryFiles(t_.path())[0]);
  }
  EXPECT_GE(interrupted, 1) << "no scan was interrupted: the test tested nothing";
}

// L10: bidirectional controls (U+202E ...) reached the terminal raw and reordered
// what it showed; so did ESC in a scanned file's name with --verbose. Every text a
// repository or a catalog supplies is shown, not obeyed.
TEST_F(OutputSafety, TerminalControlsAreShownNotObeyed) {
  const std::string rlo = "\xe2\x80\xae", lri = "\xe2\x81\xa6", lrm = "\xe2\x80\x8e", ls = "\xe2\x80\xa8";
  WriteFile(t_ / "evil/pkg/mod.py", "raise ValueError(\"access " + rlo + "granted" + lri + " for " + lrm + "you" + ls +
                                        " now\")\n");
  WriteFile(t_ / "evil/pkg/bad\x1b[2Jname.py", "def f(:\n    raise ValueError(\"x\"\n");
  Outcome scan = Errdex(t_, "scan evil --repo o/e --sha " + std::string(40, 'b') + " --db e.db -v", ">/dev/null");
  ASSERT_EQ(scan.code, 0) << scan.err;
  EXPECT_EQ(scan.err.find('\x1b'), std::string::npos) << scan.err;
  EXPECT_NE(scan.err.find("bad^[[2Jname.py"), std::string::npos) << scan.err;
  WriteFile(t_ / "evil.txt", "ValueError: access " + rlo + "granted" + lri + " for " + lrm + "you" + ls + " now\n");
  for (const std::string& cmd : {std::string("explain --db e.db -q --color=always evil.txt"),
                                 std::string("explain --db e.db -q evil.txt")}) {
    Outcome r = Errdex(t_, cmd, ">out.txt");
    ASSERT_EQ(r.code, 0) << r.err;
    std::string out = ReadFile(t_ / "out.txt");
    for (const std::string& bad : {rlo, lri, lrm, ls}) EXPECT_EQ(out.find(bad), std::string::npos) << cmd;
    EXPECT_NE(out.find("access \\u202egranted\\u2066 for \\u200eyou\\u2028 now"), std::string::npos) << out;
  }
  // --json keeps the data as it is (JSON is for programs).
  Outcome j = Errdex(t_, "explain --db e.db -q --json evil.txt", ">out.json");
  ASSERT_EQ(j.code, 0);
  EXPECT_NE(ReadFile(t_ / "out.json").find(rlo), std::string::npos);
}

}  // namespace
