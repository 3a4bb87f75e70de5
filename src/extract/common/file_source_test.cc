// Tests of file_source.h: the directory walker, the libgit2 tree source, the
// git facts, the blob ids (GitBlobId) and the GitHub remote URL parser.
#include "extract/common/file_source.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

namespace errdex {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "errdex-fs-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  void Write(const std::string& rel, const std::string& bytes) const {
    fs::path p = fs::path(path_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
  }

 private:
  std::string path_;
};

int Sh(const std::string& cmd) { return std::system(("set -e; " + cmd + " >/dev/null 2>&1").c_str()); }

TEST(GithubRepoFromRemoteUrl, AcceptsGithubForms) {
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://github.com/o/n.git"), "o/n");
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://github.com/sgl-project/sglang"), "sgl-project/sglang");
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://github.com/o/n/"), "o/n");
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://user:tok@github.com/o/n.git"), "o/n");
  EXPECT_EQ(GithubRepoFromRemoteUrl("git@github.com:o/n.git"), "o/n");
  EXPECT_EQ(GithubRepoFromRemoteUrl("git@github.com:o/n"), "o/n");
  EXPECT_EQ(GithubRepoFromRemoteUrl("ssh://git@github.com/o/n.git"), "o/n");
  EXPECT_EQ(GithubRepoFromRemoteUrl("ssh://git@github.com:22/o/my.repo.git"), "o/my.repo");
  EXPECT_EQ(GithubRepoFromRemoteUrl("git://GitHub.com/o/n"), "o/n");
}

TEST(GithubRepoFromRemoteUrl, RejectsOthers) {
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://gitlab.com/o/n.git"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl("git@gitlab.com:o/n.git"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl("/srv/git/n.git"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl("../n"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://github.com/o"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://github.com/o/n/tree/main"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl("https://github.com.evil.org/o/n"), std::nullopt);
  EXPECT_EQ(GithubRepoFromRemoteUrl(""), std::nullopt);
}

TEST(DirectorySource, ListsSortedRegularFilesSkipsVcsAndSymlinks) {
  TempDir t;
  t.Write("b.py", "b");
  t.Write("a/z.py", "z");
  t.Write("a/b.txt", "t");
  t.Write(".git/config", "x");
  t.Write("pkg/__pycache__/m.pyc", "x");
  t.Write("node_modules/x/i.js", "x");
  t.Write("venv/lib/site.py", "x");
  ASSERT_EQ(symlink("..", (t.path() + "/a/loop").c_str()), 0);          // a symlink loop
  ASSERT_EQ(symlink("../b.py", (t.path() + "/a/link.py").c_str()), 0);  // a symlinked file
  auto src = OpenDirectorySource(t.path());
  ASSERT_TRUE(src.ok()) << src.status().ToString();
  auto list = (*src)->List();
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->paths, (std::vector<std::string>{"a/b.txt", "a/z.py", "b.py"}));
  EXPECT_TRUE(list->diagnostics.empty());
  auto bytes = (*src)->Read("a/z.py");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, "z");
}

TEST(DirectorySource, SizeLimitIsASoftError) {
  TempDir t;
  t.Write("big.py", std::string(100, 'x'));
  t.Write("small.py", "ok");
  auto src = OpenDirectorySource(t.path(), 10);
  ASSERT_TRUE(src.ok());
  auto big = (*src)->Read("big.py");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), Status::Code::kLimitExceeded);
  EXPECT_NE(big.status().message().find("100 bytes"), std::string::npos);
  EXPECT_TRUE((*src)->Read("small.py").ok());
}

TEST(DirectorySource, ReadsEveryByteWhateverTheSize) {
  TempDir t;
  const size_t sizes[] = {0, 1, 4095, 4096, 4097, 65536, 65537, 200003};
  for (size_t n : sizes) {
    std::string bytes(n, '\0');
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>('a' + (i * 7919) % 26);
    t.Write("f" + std::to_string(n) + ".py", bytes);
  }
  auto src = OpenDirectorySource(t.path(), 1 << 20);
  ASSERT_TRUE(src.ok());
  for (size_t n : sizes) {
    auto got = (*src)->Read("f" + std::to_string(n) + ".py");
    ASSERT_TRUE(got.ok()) << n;
    ASSERT_EQ(got->size(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ((*got)[i], static_cast<char>('a' + (i * 7919) % 26)) << n << " at " << i;
  }
}

// fstat says 0 bytes, yet there are bytes to read (procfs; a file growing while
// it is read looks the same): all of them are read, and the size cap still holds.
TEST(DirectorySource, AFileLargerThanItsStatSizeIsReadToTheEnd) {
  std::string proc = "/proc/" + std::to_string(getpid());
  struct stat st;
  if (stat((proc + "/status").c_str(), &st) != 0 || st.st_size != 0) GTEST_SKIP() << "no procfs here";
  auto src = OpenDirectorySource(proc, 1 << 20);
  ASSERT_TRUE(src.ok());
  auto got = (*src)->Read("status");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_GT(got->size(), 100u);
  EXPECT_NE(got->find("Pid:"), std::string::npos);
  EXPECT_EQ(got->back(), '\n');
  auto capped = OpenDirectorySource(proc, 16);
  ASSERT_TRUE(capped.ok());
  auto big = (*capped)->Read("status");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), Status::Code::kLimitExceeded);
}

TEST(DirectorySource, MissingRootAndFileRoot) {
  TempDir t;
  t.Write("f.py", "x");
  EXPECT_EQ(OpenDirectorySource(t.path() + "/nope").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(OpenDirectorySource(t.path() + "/f.py").status().code(), Status::Code::kInvalidArgument);
}

TEST(DirectorySource, UnreadableDirectoryIsADiagnostic) {
  TempDir t;
  t.Write("ok.py", "x");
  t.Write("locked/in.py", "x");
  chmod(t.path().c_str(), 0755);
  chmod((t.path() + "/locked").c_str(), 0);
  // 0 when the walker lists ok.py only and reports "locked" as a diagnostic.
  auto check = [&]() -> int {
    auto src = OpenDirectorySource(t.path());
    if (!src.ok()) return 1;
    auto list = (*src)->List();
    if (!list.ok()) return 2;
    if (list->paths != std::vector<std::string>{"ok.py"}) return 3;
    if (list->diagnostics.size() != 1 || list->diagnostics[0].path != "locked") return 4;
    return 0;
  };
  int rc;
  if (geteuid() == 0) {
    // root reads any directory: check as the unprivileged user "nobody" in a child.
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(9);
      _exit(check());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 10;
  } else {
    rc = check();
  }
  chmod((t.path() + "/locked").c_str(), 0755);
  EXPECT_EQ(rc, 0);
}

class GitRepoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string& d = t_.path();
    t_.Write("w/pkg/a.py", "one\n");
    t_.Write("w/README", "r\n");
    ASSERT_EQ(Sh("cd " + d + "/w && git init -q -b main . && git add -A && git -c user.name=t -c user.email=t@t "
                 "commit -q -m one && git remote add origin git@github.com:o/n.git"),
              0);
    t_.Write("w/pkg/a.py", "two\n");
    t_.Write("w/pkg/b.py", "b\n");
    ASSERT_EQ(symlink("a.py", (d + "/w/pkg/l.py").c_str()), 0);
    ASSERT_EQ(Sh("cd " + d + "/w && git add -A && git -c user.name=t -c user.email=t@t commit -q -m two && "
                 "git clone -q --bare . ../bare.git"),
              0);
  }
  TempDir t_;
};

TEST_F(GitRepoTest, ReadsTreesOfCommitsWithoutCheckout) {
  auto old = OpenGitTreeSource(t_.path() + "/w", "HEAD~1");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old->commit_sha.size(), 40u);
  auto list = old->source->List();
  EXPECT_EQ(list->paths, (std::vector<std::string>{"README", "pkg/a.py"}));
  EXPECT_EQ(old->source->Read("pkg/a.py").value(), "one\n");

  auto head = OpenGitTreeSource(t_.path() + "/bare.git", "main");
  ASSERT_TRUE(head.ok()) << head.status().ToString();
  EXPECT_EQ(head->source->List()->paths, (std::vector<std::string>{"README", "pkg/a.py", "pkg/b.py"}));  // no symlink
  EXPECT_EQ(head->source->Read("pkg/a.py").value(), "two\n");

  auto sub = OpenGitTreeSource(t_.path() + "/w", "HEAD", "pkg");
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->source->List()->paths, (std::vector<std::string>{"pkg/a.py", "pkg/b.py"}));

  auto small = OpenGitTreeSource(t_.path() + "/w", "HEAD", "", 2);
  EXPECT_EQ(small->source->Read("pkg/a.py").status().code(), Status::Code::kLimitExceeded);
}

TEST_F(GitRepoTest, UnknownRevisionIsNotFound) {
  auto r = OpenGitTreeSource(t_.path() + "/w", "no-such-branch");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(OpenGitTreeSource(t_.path(), "HEAD").status().code(), Status::Code::kNotFound);  // not a repo
}

TEST_F(GitRepoTest, Facts) {
  GitFacts f = DiscoverGitFacts(t_.path() + "/w/pkg");
  EXPECT_TRUE(f.in_git);
  EXPECT_FALSE(f.bare);
  EXPECT_EQ(f.subdir, "pkg");
  ASSERT_TRUE(f.head_sha);
  EXPECT_EQ(f.head_sha->size(), 40u);
  EXPECT_EQ(f.github_repo, "o/n");
  GitFacts b = DiscoverGitFacts(t_.path() + "/bare.git");
  EXPECT_TRUE(b.bare);
  EXPECT_EQ(b.head_sha, f.head_sha);
  EXPECT_FALSE(DiscoverGitFacts(t_.path()).in_git);
}

std::string Hex(const std::string& raw) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// 1 MiB: every third byte NUL, the others (i * 7) % 251.
std::string MegabyteWithNuls() {
  std::string s(1 << 20, '\0');
  for (size_t i = 0; i < s.size(); ++i)
    if (i % 3 != 0) s[i] = static_cast<char>((i * 7) % 251);
  return s;
}

// The ids `git hash-object --stdin` printed for these bytes (git 2.39).
TEST(GitBlobId, IsTheIdGitGivesTheBlob) {
  EXPECT_EQ(Hex(GitBlobId("")), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  EXPECT_EQ(Hex(GitBlobId("a")), "2e65efe2a145dda7ee51d1741299f848e5bf752e");
  EXPECT_EQ(Hex(GitBlobId(std::string(1, '\0'))), "f76dd238ade08917e6712764a16a22005a50573d");
  // invalid UTF-8: a lone continuation start, a truncated sequence, a surrogate, Latin-1
  EXPECT_EQ(Hex(GitBlobId("\xff\xfe\xc3(\xed\xa0\x80 caf\xe9\n")), "55d30e04e66e801dbbab6bd0450f463e239f501a");
  EXPECT_EQ(Hex(GitBlobId(MegabyteWithNuls())), "18a5d7e8329a32cb334dcf2eafb2a8a79e477c8e");
}

// Against the git on this machine, around SHA-1's 64-byte blocks (the header and its
// length field move the padding), and from several threads at once (one context each).
TEST(GitBlobId, MatchesGitHashObjectAroundBlockBoundaries) {
  TempDir t;
  std::vector<std::string> inputs;
  for (size_t n : {40, 41, 47, 48, 49, 55, 56, 63, 64, 65, 119, 120, 4096, 99999})
    inputs.push_back(MegabyteWithNuls().substr(1, n));
  for (size_t i = 0; i < inputs.size(); ++i) t.Write("f" + std::to_string(i), inputs[i]);
  std::string cmd = "cd " + t.path() + " && git hash-object";
  for (size_t i = 0; i < inputs.size(); ++i) cmd += " f" + std::to_string(i);
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::vector<std::string> want;
  char line[128];
  while (std::fgets(line, sizeof line, p) != nullptr) want.push_back(std::string(line, 40));
  ASSERT_EQ(pclose(p), 0);
  ASSERT_EQ(want.size(), inputs.size());
  std::vector<std::string> got(inputs.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < inputs.size(); ++i) threads.emplace_back([&, i] { got[i] = Hex(GitBlobId(inputs[i])); });
  for (std::thread& th : threads) th.join();
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(got[i], want[i]) << inputs[i].size() << " bytes";
}

TEST(MemoryFileSource, ListsAndReads) {
  MemoryFileSource m(3);
  m.Add("b.py", "bb");
  m.Add("a.py", "aaaa");
  EXPECT_EQ(m.List()->paths, (std::vector<std::string>{"a.py", "b.py"}));
  EXPECT_EQ(m.Read("a.py").status().code(), Status::Code::kLimitExceeded);
  EXPECT_EQ(m.Read("b.py").value(), "bb");
}

}  // namespace
}  // namespace errdex
