// End-to-end tests of `errdex scan`: they run the real binary (ERRDEX_BINARY) on
// trees built in temporary directories and check its output files, exit codes
// and messages: the three seeds, git revisions and bare clones, determinism,
// hostile input, and the SQLite catalog.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "extract/common/limits.h"
#include "model/record.h"
#include "store/catalog_store.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr const char* kSeedRepo = "sgl-project/sglang";
constexpr const char* kSeedSha = "0132848349585cfe6aae51c4941cbae872505f8a";
constexpr const char* kEpochEnv = "SOURCE_DATE_EPOCH=1700000000";
constexpr const char* kEpochIso = "2023-11-14T22:13:20.000Z";

using e2e::Quote;
using e2e::ReadFile;
using e2e::TempDir;
using e2e::WriteFile;

int Sh(const std::string& cmd) {
  int st = std::system(("set -e; " + cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string ShOut(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

struct RunResult {
  int rc = -1;
  std::string out, err;
};

// Runs `errdex scan <args>` with `prefix` before it (environment, setpriv, ...).
RunResult Errdex(const std::string& args, const std::string& prefix = "") {
  static int counter = 0;
  std::string base = (fs::temp_directory_path() / ("errdex-e2e-run-" + std::to_string(getpid()) + "-" +
                                                   std::to_string(counter++))).string();
  std::string cmd = prefix + " " + Quote(ERRDEX_BINARY) + " scan " + args + " >" + base + ".out 2>" + base + ".err";
  int st = std::system(cmd.c_str());
  RunResult r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = ReadFile(base + ".out");
  r.err = ReadFile(base + ".err");
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  return r;
}

std::vector<CatalogLine> ParseJsonl(const std::string& text) {
  std::vector<CatalogLine> lines;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    auto parsed = ParseCatalogLine(line);
    EXPECT_TRUE(parsed.ok()) << "line " << n << ": " << parsed.status().ToString();
    if (parsed.ok()) lines.push_back(std::move(parsed.value()));
  }
  return lines;
}

const Record* FindRecord(const std::vector<CatalogLine>& lines, const std::string& file, int line) {
  for (const CatalogLine& l : lines)
    if (l.record.file_path == file && l.record.line_number == line) return &l.record;
  return nullptr;
}

const Record* FindByMessage(const std::vector<CatalogLine>& lines, const std::string& message) {
  for (const CatalogLine& l : lines)
    if (l.record.error_message == message) return &l.record;
  return nullptr;
}

Json Summary(const RunResult& r) {
  // --json prints {"type":"summary","data":{...}} as the last stdout line.
  std::string last = r.out;
  size_t nl = last.rfind('\n', last.size() >= 2 ? last.size() - 2 : 0);
  if (nl != std::string::npos && nl + 1 < last.size()) last = last.substr(nl + 1);
  Json j = Json::parse(last, nullptr, false);
  if (j.is_discarded() || !j.contains("data")) {
    ADD_FAILURE() << "no JSON summary in: " << r.out << r.err;
    return Json::object();
  }
  return j["data"];
}

// ---------------------------------------------------------------------------
// (a) The seeds: a tree whose files hold each seed's sourceCode at its exact lines.

// Open brackets left at the end of `code` (Python strings and comments skipped).
std::string OpenBrackets(const std::string& code) {
  std::string stack;
  size_t i = 0, n = code.size();
  while (i < n) {
    char c = code[i];
    if (c == '#') {
      while (i < n && code[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      bool triple = i + 2 < n && code[i + 1] == c && code[i + 2] == c;
      size_t q = triple ? 3 : 1;
      i += q;
      while (i < n) {
        if (code[i] == '\\') { i += 2; continue; }
        if (!triple && code[i] == '\n') break;
        if (code.compare(i, q, std::string(q, c)) == 0) { i += q; break; }
        ++i;
      }
      continue;
    } else if (c == '(' || c == '[' || c == '{') {
      stack.push_back(c);
    } else if ((c == ')' || c == ']' || c == '}') && !stack.empty()) {
      stack.pop_back();
    }
    ++i;
  }
  return stack;
}

// The file of one seed: a plausible class/def header, blank lines down to
// sourceCodeStart, the seed's lines, then whatever closes its open brackets.
std::string SeedFile(const Record& seed) {
  std::vector<std::string> lines;
  std::istringstream in(seed.source_code);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  size_t indent = 0;
  for (const std::string& l : lines) {
    if (l.find_first_not_of(' ') == std::string::npos) continue;
    indent = l.find_first_not_of(' ');
    break;
  }
  size_t levels = indent / 4;
  std::string text;
  int written = 0;
  for (size_t i = 0; i < levels; ++i) {
    std::string pad(i * 4, ' ');
    if (i + 1 == levels) text += pad + (i == 0 ? "def seed_padding(view, cfg):\n" : "def seed_padding(self, cfg, view, a2a_backend):\n");
    else if (i == 0) text += "class SeedPadding:\n";
    else text += pad + "if True:\n";
    ++written;
  }
  for (int k = written + 1; k < seed.source_code_start; ++k) text += "\n";
  text += seed.source_code + "\n";
  std::string open = OpenBrackets(seed.source_code);
  if (!open.empty()) {
    std::string close;
    for (auto it = open.rbegin(); it != open.rend(); ++it) close += *it == '(' ? ')' : *it == '[' ? ']' : '}';
    text += close + "\n";
  }
  return text;
}

TEST(ScanSeeds, ReproducesEachSeed) {
  std::vector<Record> seeds;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(std::string(ERRDEX_SHARED_DIR) + "/seeds")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    std::string text = ReadFile(p.string());
    while (!text.empty() && text.back() == '\n') text.pop_back();
    auto line = ParseCatalogLine(text);
    ASSERT_TRUE(line.ok()) << p << ": " << line.status().ToString();
    seeds.push_back(line->record);
  }
  ASSERT_EQ(seeds.size(), 3u);

  TempDir t;
  for (const Record& s : seeds) {
    ASSERT_EQ(s.source_code_end, s.line_number + kSourceContextLines) << "a seed clamped at the end of its file";
    WriteFile(t / s.file_path, SeedFile(s));
  }
  RunResult r = Errdex(Quote(t.path()) + " --repo " + kSeedRepo + " --sha " + kSeedSha + " -o " + Quote(t / "out.jsonl") +
                 " --no-docs --quiet");
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> out = ParseJsonl(ReadFile(t / "out.jsonl"));
  for (const Record& s : seeds) {
    SCOPED_TRACE(s.file_path + ":" + std::to_string(s.line_number));
    const Record* got = FindRecord(out, s.file_path, s.line_number);
    ASSERT_NE(got, nullptr) << "no record at the seed's line";
    EXPECT_EQ(got->error_message, s.error_message);
    EXPECT_EQ(got->message_pattern, s.message_pattern);
    EXPECT_EQ(got->error_class, s.error_class);
    EXPECT_EQ(got->file_path, s.file_path);
    EXPECT_EQ(got->line_number, s.line_number);
    EXPECT_EQ(got->source_code_start, s.source_code_start);
    EXPECT_EQ(got->source_code_end, s.source_code_end);
    EXPECT_EQ(got->source_code, s.source_code);
    EXPECT_EQ(got->github_url, s.github_url);
    EXPECT_EQ(got->slug, s.slug);
    EXPECT_EQ(got->repo, s.repo);
    EXPECT_EQ(got->analyzed_sha, s.analyzed_sha);
    EXPECT_EQ(got->schema_version, 2);
  }
}

// ---------------------------------------------------------------------------
// (b) git: --rev without checkout, bare clones, ids stable across commits.

const char* kV1 =
    "def f(x):\n"
    "    if x < 0:\n"
    "        raise ValueError(\"x must be non-negative\")\n"
    "    return x\n";
const char* kV2 =
    "import os\n"
    "\n"
    "\n"
    "def g():\n"
    "    raise KeyError(\"new in v2\")\n"
    "\n"
    "\n"
    "def f(x):\n"
    "    if x < 0:\n"
    "        raise ValueError(\"x must be non-negative\")\n"
    "    return x\n";

class GitScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string w = t_ / "w";
    WriteFile(w + "/pkg/m.py", kV1);
    const std::string git = "git -C " + Quote(w) + " -c user.name=t -c user.email=t@example.com ";
    ASSERT_EQ(Sh(git + "init -q -b main && " + git + "add -A && " + git + "commit -q -m v1"), 0);
    WriteFile(w + "/pkg/m.py", kV2);
    WriteFile(w + "/pkg/other.py", "def h():\n    assert False, \"other\"\n");
    ASSERT_EQ(Sh(git + "add -A && " + git + "commit -q -m v2 && " + git +
                 "remote add origin https://github.com/o/n.git"),
              0);
    sha1_ = ShOut("git -C " + Quote(w) + " rev-parse HEAD~1");
    sha2_ = ShOut("git -C " + Quote(w) + " rev-parse HEAD");
    ASSERT_EQ(sha1_.size(), 40u);
    ASSERT_EQ(Sh("git clone -q --bare " + Quote(w) + " " + Quote(t_ / "bare.git") + " && git -C " +
                 Quote(t_ / "bare.git") + " remote set-url origin git@github.com:o/n.git"),
              0);
  }
  TempDir t_;
  std::string sha1_, sha2_;
};

TEST_F(GitScanTest, RevisionsAndBareClone) {
  RunResult a = Errdex(Quote(t_ / "w") + " --rev HEAD~1 -o " + Quote(t_ / "a.jsonl") + " --json --quiet", kEpochEnv);
  ASSERT_EQ(a.rc, 0) << a.err;
  Json sa = Summary(a);
  EXPECT_EQ(sa["repo"], "o/n");
  EXPECT_EQ(sa["sha"], sha1_);
  EXPECT_EQ(sa["files"], 1);
  RunResult b = Errdex(Quote(t_ / "w") + " --rev main -o " + Quote(t_ / "b.jsonl") + " --json --quiet", kEpochEnv);
  ASSERT_EQ(b.rc, 0) << b.err;
  Json sb = Summary(b);
  EXPECT_EQ(sb["sha"], sha2_);
  EXPECT_EQ(sb["files"], 2);

  // The work tree (HEAD) and the bare clone give the same bytes as --rev.
  RunResult c = Errdex(Quote(t_ / "w") + " -o " + Quote(t_ / "c.jsonl") + " --quiet", kEpochEnv);
  ASSERT_EQ(c.rc, 0) << c.err;
  RunResult d = Errdex(Quote(t_ / "bare.git") + " -o " + Quote(t_ / "d.jsonl") + " --quiet", kEpochEnv);
  ASSERT_EQ(d.rc, 0) << d.err;
  RunResult e = Errdex(Quote(t_ / "bare.git") + " --rev " + sha1_ + " -o " + Quote(t_ / "e.jsonl") + " --quiet", kEpochEnv);
  ASSERT_EQ(e.rc, 0) << e.err;
  std::string a_text = ReadFile(t_ / "a.jsonl"), b_text = ReadFile(t_ / "b.jsonl");
  EXPECT_EQ(ReadFile(t_ / "c.jsonl"), b_text);
  EXPECT_EQ(ReadFile(t_ / "d.jsonl"), b_text);
  EXPECT_EQ(ReadFile(t_ / "e.jsonl"), a_text);

  // The unchanged error moved from line 3 to line 10 and kept its id.
  std::vector<CatalogLine> la = ParseJsonl(a_text), lb = ParseJsonl(b_text);
  const Record* ra = FindByMessage(la, "x must be non-negative");
  const Record* rb = FindByMessage(lb, "x must be non-negative");
  ASSERT_NE(ra, nullptr);
  ASSERT_NE(rb, nullptr);
  EXPECT_EQ(ra->id, rb->id);
  EXPECT_EQ(ra->line_number, 3);
  EXPECT_EQ(rb->line_number, 10);
  EXPECT_EQ(ra->repo, "o/n");
  EXPECT_EQ(ra->analyzed_sha, sha1_);
  EXPECT_EQ(rb->github_url, "https://github.com/o/n/blob/" + sha2_ + "/pkg/m.py#L1-L11");
  EXPECT_EQ(ra->analyzed_at, kEpochIso);
  EXPECT_NE(FindByMessage(lb, "new in v2"), nullptr);
  EXPECT_EQ(FindByMessage(la, "new in v2"), nullptr);
}

TEST_F(GitScanTest, SubdirectoryOfAWorkTreeKeepsRepoRelativePaths) {
  RunResult r = Errdex(Quote(t_ / "w/pkg") + " -o - --quiet --no-docs", kEpochEnv);
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> lines = ParseJsonl(r.out);
  ASSERT_FALSE(lines.empty());
  for (const CatalogLine& l : lines) EXPECT_EQ(l.record.file_path.rfind("pkg/", 0), 0u) << l.record.file_path;
}

TEST_F(GitScanTest, AnotherRepoInsideAWorkTreeIsItsOwnRoot) {
  RunResult r = Errdex(Quote(t_ / "w/pkg") + " --repo x/vendored -o - --quiet --no-docs", kEpochEnv);
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> lines = ParseJsonl(r.out);
  ASSERT_FALSE(lines.empty());
  for (const CatalogLine& l : lines) {
    EXPECT_EQ(l.record.file_path.rfind("pkg/", 0), std::string::npos) << l.record.file_path;
    EXPECT_EQ(l.record.repo, "x/vendored");
    EXPECT_EQ(l.record.analyzed_sha, std::nullopt) << "the enclosing repository's HEAD is not x/vendored's";
    EXPECT_EQ(l.record.github_url, std::nullopt);
  }
}

// L7: a git-ignored directory inside a work tree is in no commit; it got the
// enclosing HEAD as its sha (and GitHub URLs to files that are not there).
TEST_F(GitScanTest, IgnoredDirectoryInsideAWorkTreeIsNotInGit) {
  WriteFile(t_ / "w/.gitignore", "build/\n");
  WriteFile(t_ / "w/build/gen/out.py", "raise ValueError(\"generated\")\n");
  RunResult r = Errdex(Quote(t_ / "w/build/gen") + " -o - --no-docs", kEpochEnv);
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> lines = ParseJsonl(r.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].record.file_path, "out.py");  // relative to PATH: it is its own root
  EXPECT_EQ(lines[0].record.analyzed_sha, std::nullopt);
  EXPECT_EQ(lines[0].record.repo, std::nullopt);
  EXPECT_EQ(lines[0].record.github_url, std::nullopt);
  EXPECT_NE(r.err.find("no --repo"), std::string::npos) << r.err;
  // A directory that is not ignored keeps the enclosing HEAD.
  RunResult tracked = Errdex(Quote(t_ / "w/pkg") + " -o - --quiet --no-docs", kEpochEnv);
  ASSERT_EQ(tracked.rc, 0) << tracked.err;
  std::vector<CatalogLine> tl = ParseJsonl(tracked.out);
  ASSERT_FALSE(tl.empty());
  EXPECT_EQ(tl[0].record.analyzed_sha, sha2_);
}

TEST_F(GitScanTest, UnknownRevisionIsExit2) {
  RunResult r = Errdex(Quote(t_ / "w") + " --rev no-such-tag -o " + Quote(t_ / "x.jsonl"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("errdex: error: unknown revision 'no-such-tag'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t_ / "x.jsonl"));
  for (const auto& e : fs::directory_iterator(t_.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << "left " << e.path();
}

// (e) --db: the same repo + commit is replaced, not duplicated.
TEST_F(GitScanTest, CatalogReplacesTheSameCommit) {
  std::string db = t_ / "catalog.db";
  RunResult first = Errdex(Quote(t_ / "w") + " --db " + Quote(db) + " --json --quiet", kEpochEnv);
  ASSERT_EQ(first.rc, 0) << first.err;
  EXPECT_TRUE(first.out.find("\"record\"") == std::string::npos) << "--db alone writes no JSON Lines";
  RunResult again = Errdex(Quote(t_ / "w") + " --db " + Quote(db) + " --json --quiet", kEpochEnv);
  ASSERT_EQ(again.rc, 0) << again.err;
  RunResult older = Errdex(Quote(t_ / "w") + " --rev HEAD~1 --db " + Quote(db) + " --quiet", kEpochEnv);
  ASSERT_EQ(older.rc, 0) << older.err;

  auto store = CatalogStore::Open(db, false);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto scans = (*store)->ListScans();
  ASSERT_TRUE(scans.ok());
  ASSERT_EQ(scans->size(), 2u);
  int64_t sites_head = Summary(again)["sites"].get<int64_t>();
  ScanFilter head;
  head.repo = "o/n";
  head.sha = sha2_;
  auto lines = (*store)->LoadLines(head);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(static_cast<int64_t>(lines->size()), sites_head);
  EXPECT_GT(sites_head, 0);
  for (const StoredLine& l : *lines) EXPECT_TRUE(l.line.facts.has_value()) << "the catalog keeps the facts";
  auto knowledge = (*store)->GetBlob("knowledge:o/n@" + sha2_);
  ASSERT_TRUE(knowledge.ok());
  EXPECT_TRUE(knowledge->has_value());
}

// ---------------------------------------------------------------------------
// (c) Determinism.

TEST(ScanDeterminism, SameBytesTwiceAndForAnyJobs) {
  TempDir t;
  std::string example = std::string(ERRDEX_SOURCE_DIR) + "/examples/hello-repo";
  std::string common = Quote(example) + " --repo example/hello --sha 0000000000000000000000000000000000000000 --quiet";
  ASSERT_EQ(Errdex(common + " -j1 -o " + Quote(t / "1.jsonl"), kEpochEnv).rc, 0);
  ASSERT_EQ(Errdex(common + " -j2 -o " + Quote(t / "2.jsonl"), kEpochEnv).rc, 0);
  ASSERT_EQ(Errdex(common + " -j2 -o " + Quote(t / "3.jsonl"), kEpochEnv).rc, 0);
  ASSERT_EQ(Errdex(common + " -j2 --facts -o " + Quote(t / "f.jsonl"), kEpochEnv).rc, 0);
  std::string one = ReadFile(t / "1.jsonl");
  EXPECT_EQ(one, ReadFile(t / "2.jsonl"));
  EXPECT_EQ(one, ReadFile(t / "3.jsonl"));
  std::vector<CatalogLine> lines = ParseJsonl(one);
  EXPECT_GE(lines.size(), 13u) << "hello-repo holds ~15 sites";
  for (const CatalogLine& l : lines) {
    EXPECT_EQ(l.dataset_version, kEpochIso);
    EXPECT_EQ(l.record.analyzed_at, kEpochIso);
    EXPECT_FALSE(l.facts.has_value());
  }
  // Sorted by (file, line).
  for (size_t i = 1; i < lines.size(); ++i) {
    const Record& p = lines[i - 1].record;
    const Record& q = lines[i].record;
    EXPECT_TRUE(p.file_path < q.file_path || (p.file_path == q.file_path && p.line_number <= q.line_number));
  }
  std::vector<CatalogLine> with_facts = ParseJsonl(ReadFile(t / "f.jsonl"));
  ASSERT_EQ(with_facts.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    ASSERT_TRUE(with_facts[i].facts.has_value());
    EXPECT_EQ(RecordToJson(with_facts[i].record), RecordToJson(lines[i].record));
  }
}

// ---------------------------------------------------------------------------
// (d) Bad input: exit 0, every soft error counted, never a crash.

TEST(ScanBadInput, HostileFilesAreSoftErrors) {
  TempDir t;
  std::string d = t / "repo";
  WriteFile(d + "/good.py", "def f():\n    raise ValueError(\"good one\")\n");
  WriteFile(d + "/latin1.py", "# -*- coding: latin-1 -*-\nraise ValueError(\"caf\xe9\")\n");
  WriteFile(d + "/junk.py", "\xff\xfe\x00\x01raise\n\x80\x81(\"\n");
  static const char kNul[] = "x = 1\0\0\nraise ValueError(\"after nul\")\n";
  WriteFile(d + "/nul.py", std::string(kNul, sizeof kNul - 1));
  WriteFile(d + "/syntax.py", "def f(:\n    raise ValueError('x'\nclass\n  raise ]]]\n");
  WriteFile(d + "/unterminated.py", "raise ValueError(\"never closed\n");
  WriteFile(d + "/unterminated3.py", "raise ValueError(\"\"\"never\nclosed\n");
  std::string deep = "x = " + std::string(500, '(') + "1" + std::string(500, ')') + "\n";
  for (int i = 0; i < 500; ++i) deep += std::string(i, ' ') + "if x:\n";
  deep += std::string(500, ' ') + "raise ValueError(\"deep\")\n";
  deep += "y = " + std::string(500, '[') + "\n";
  WriteFile(d + "/deep.py", deep);
  std::string huge;
  huge.reserve(52u << 20);
  size_t huge_sites = 0;
  for (int i = 0; huge.size() < 50u * 1000 * 1000; ++i) {
    huge += "value_" + std::to_string(i) + " = compute(" + std::to_string(i) + ", \"some text to make the line longer\")\n";
    if (i % 20000 == 0) {
      huge += "if value_" + std::to_string(i) + " is None:\n    raise RuntimeError(\"missing value\")\n";
      ++huge_sites;
    }
  }
  WriteFile(d + "/huge.py", huge);
  fs::create_directories(d + "/loop");
  ASSERT_EQ(symlink("..", (d + "/loop/up").c_str()), 0);
  ASSERT_EQ(symlink("self.py", (d + "/loop/self.py").c_str()), 0);
  std::string prefix = kEpochEnv;
  bool unreadable_case = true;
  if (geteuid() == 0) {
    // root reads every file whatever its mode: run errdex as "nobody" instead.
    if (access("/usr/bin/setpriv", X_OK) == 0) {
      prefix += " setpriv --reuid=65534 --regid=65534 --clear-groups";
    } else {
      unreadable_case = false;
      std::cerr << "[ NOTE ] unreadable-file case skipped: running as root without setpriv\n";
    }
  }
  for (const auto& e : fs::recursive_directory_iterator(t.path())) {
    if (!e.is_symlink() && e.is_directory()) chmod(e.path().c_str(), 0755);
  }
  if (unreadable_case) {
    WriteFile(d + "/locked.py", "raise ValueError(\"secret\")\n");
    chmod((d + "/locked.py").c_str(), 0);
  }

  // The 50 MB file is above the default --max-file-size (16 MiB): allow it here.
  RunResult r = Errdex(Quote(d) + " -o - --verbose --no-docs -j2 --max-file-size 100000000", prefix);
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> lines = ParseJsonl(r.out);
  EXPECT_NE(FindByMessage(lines, "good one"), nullptr);
  std::vector<const Record*> huge_found;
  for (const CatalogLine& l : lines)
    if (l.record.error_message == "missing value") huge_found.push_back(&l.record);
  ASSERT_EQ(huge_found.size(), huge_sites) << "every site of the 50 MB file";
  const Record* last = huge_found.back();
  EXPECT_EQ(last->source_code_end - last->source_code_start, 2 * kSourceContextLines);
  EXPECT_NE(last->source_code.find("raise RuntimeError(\"missing value\")"), std::string::npos);
  std::string scanned = "errdex: scanned " + std::to_string(unreadable_case ? 10 : 9) + " files";
  EXPECT_NE(r.err.find(scanned), std::string::npos) << r.err;  // symlinks are not files
  if (unreadable_case) {
    EXPECT_NE(r.err.find("locked.py: cannot open: Permission denied"), std::string::npos) << r.err;
    EXPECT_EQ(FindByMessage(lines, "secret"), nullptr);
    RunResult strict = Errdex(Quote(d) + " -o - --strict --no-docs --max-file-size 100000000", prefix);
    EXPECT_EQ(strict.rc, 2) << strict.err;
    EXPECT_NE(strict.err.find("errdex: error: "), std::string::npos);
    EXPECT_NE(strict.err.find("--strict"), std::string::npos) << strict.err;
    EXPECT_TRUE(strict.out.empty()) << "--strict with soft errors writes nothing";
  }

  // --max-file-size makes the 50 MB file a counted, listed soft error; the summary names the limit.
  for (std::string limit : {std::string(" --max-file-size 1000000"), std::string()}) {  // and by default
    RunResult small = Errdex(Quote(d) + " -o - --verbose --no-docs" + limit, prefix);
    ASSERT_EQ(small.rc, 0) << small.err;
    EXPECT_NE(small.err.find("huge.py: file is"), std::string::npos) << small.err;
    EXPECT_NE(small.err.find("max-file-size"), std::string::npos);
    EXPECT_EQ(FindByMessage(ParseJsonl(small.out), "missing value"), nullptr);
    std::string bytes = limit.empty() ? "16777216" : "1000000";
    EXPECT_NE(small.err.find("errdex: limits hit: --max-file-size " + bytes + " skipped 1 file(s)"), std::string::npos)
        << small.err;
  }
}

// A one-line minified bundle with 3,000 throws: before the excerpt limit every
// record carried the whole file (625 MB of JSON Lines for 202 KB).
TEST(ScanBadInput, OneLineBundleIsCutByTheExcerptLimit) {
  TempDir t;
  std::string bundle;
  for (int i = 0; i < 3000; ++i)
    bundle += "function a" + std::to_string(i) + "(x){if(!x)throw new Error(\"bad input " + std::to_string(i) +
              "\");return x};";
  WriteFile(t / "repo/bundle.js", bundle);
  RunResult r = Errdex(Quote(t / "repo") + " -o " + Quote(t / "out.jsonl") + " --facts --no-docs -j1");
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> lines = ParseJsonl(ReadFile(t / "out.jsonl"));
  ASSERT_EQ(lines.size(), 3000u);
  const size_t max = ExtractLimits{}.max_excerpt_bytes;
  for (const CatalogLine& l : lines) {
    ASSERT_LE(l.record.source_code.size(), max);
    ASSERT_TRUE(l.facts);
    ASSERT_EQ(l.facts->truncated.size(), 1u);
    EXPECT_EQ(l.facts->truncated[0], (std::pair<std::string, uint64_t>{"sourceCode", bundle.size()}));
    // The excerpt shows the site itself.
    ASSERT_NE(l.record.source_code.find(*l.record.error_message), std::string::npos) << *l.record.error_message;
  }
  EXPECT_LT(fs::file_size(t / "out.jsonl"), 3000 * (max + 4096)) << "every record bounded";
  EXPECT_NE(r.err.find("limits hit: --max-excerpt-bytes 8192 cut texts of 3000 site(s)"), std::string::npos) << r.err;

  // The limits are options: a larger excerpt limit keeps more, --max-sites-per-file fewer sites.
  RunResult opts = Errdex(Quote(t / "repo") + " -o - --no-docs --max-excerpt-bytes 300000 --max-sites-per-file 100 --verbose");
  ASSERT_EQ(opts.rc, 0) << opts.err;
  std::vector<CatalogLine> few = ParseJsonl(opts.out);
  ASSERT_EQ(few.size(), 100u);
  EXPECT_EQ(few[0].record.source_code, bundle);
  EXPECT_NE(opts.err.find("bundle.js: 2900 sites left out"), std::string::npos) << opts.err;
  EXPECT_NE(opts.err.find("--max-sites-per-file 100 in 1 file(s), 2900 site(s) left out"), std::string::npos) << opts.err;
}

// Random bytes named .js / .py: recognised as not source text and skipped with a
// diagnostic, in no time and memory (they took 37 s and 1.9 GB in tree-sitter).
TEST(ScanBadInput, BinaryFilesAreSkipped) {
  TempDir t;
  std::string random(8u << 20, '\0');
  uint64_t x = 88172645463325252ull;
  for (char& c : random) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
  }
  WriteFile(t / "repo/blob.js", random);
  WriteFile(t / "repo/blob.py", random.substr(0, 1 << 20));
  WriteFile(t / "repo/ok.py", "raise ValueError(\"still read\")\n");
  RunResult r = Errdex(Quote(t / "repo") + " -o - --verbose --no-docs -j1");
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<CatalogLine> lines = ParseJsonl(r.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].record.error_message, "still read");
  EXPECT_NE(r.err.find("blob.js: not source text, skipped: a NUL byte at offset"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("blob.py: not source text, skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scanned 3 files (2 skipped)"), std::string::npos) << r.err;
}

TEST(ScanErrors, BadPathsAndOutputsAreExit2WithoutPartialFiles) {
  TempDir t;
  WriteFile(t / "src/a.py", "raise ValueError(\"a\")\n");
  WriteFile(t / "plain.txt", "x");

  RunResult missing = Errdex(Quote(t / "does-not-exist") + " -o " + Quote(t / "out.jsonl"));
  EXPECT_EQ(missing.rc, 2);
  EXPECT_EQ(missing.err.rfind("errdex: error: ", 0), 0u) << missing.err;
  EXPECT_FALSE(fs::exists(t / "out.jsonl"));

  RunResult not_git = Errdex(Quote(t / "src") + " --rev HEAD");
  EXPECT_EQ(not_git.rc, 2);
  EXPECT_NE(not_git.err.find("errdex: error: "), std::string::npos);

  RunResult no_dir = Errdex(Quote(t / "src") + " -o " + Quote(t / "no/such/dir/out.jsonl"));
  EXPECT_EQ(no_dir.rc, 2);
  EXPECT_NE(no_dir.err.find("errdex: error: cannot write"), std::string::npos) << no_dir.err;
  RunResult under_file = Errdex(Quote(t / "src") + " -o " + Quote(t / "plain.txt/out.jsonl"));
  EXPECT_EQ(under_file.rc, 2);
  RunResult dir_out = Errdex(Quote(t / "src") + " -o " + Quote(t / "src"));
  EXPECT_EQ(dir_out.rc, 2);
  RunResult bad_db = Errdex(Quote(t / "src") + " --db " + Quote(t / "no/such/dir/c.db"));
  EXPECT_EQ(bad_db.rc, 2);

  RunResult file_path = Errdex(Quote(t / "plain.txt"));
  EXPECT_EQ(file_path.rc, 2);
  RunResult bad_repo = Errdex(Quote(t / "src") + " --repo not-a-repo");
  EXPECT_EQ(bad_repo.rc, 2);
  EXPECT_NE(bad_repo.err.find("--repo must be OWNER/NAME"), std::string::npos) << bad_repo.err;

  for (const auto& e : fs::recursive_directory_iterator(t.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << "left " << e.path();

  // An existing file is replaced; a symlink stays a symlink; a FIFO (like
  // /dev/null, not a regular file) is written in place, never renamed over.
  WriteFile(t / "out/old.jsonl", "stale\n");
  ASSERT_EQ(symlink("old.jsonl", (t / "out/link.jsonl").c_str()), 0);
  RunResult via_link = Errdex(Quote(t / "src") + " -o " + Quote(t / "out/link.jsonl") + " --quiet");
  EXPECT_EQ(via_link.rc, 0) << via_link.err;
  EXPECT_TRUE(fs::is_symlink(t / "out/link.jsonl"));
  EXPECT_EQ(ReadFile(t / "out/old.jsonl").find("stale"), std::string::npos);
  EXPECT_NE(ReadFile(t / "out/old.jsonl").find("\"record\""), std::string::npos);
  ASSERT_EQ(mkfifo((t / "out/fifo").c_str(), 0644), 0);
  ASSERT_EQ(Sh("(cat " + Quote(t / "out/fifo") + " > " + Quote(t / "out/fifo.txt") + " &) ; " + Quote(ERRDEX_BINARY) +
               " scan " + Quote(t / "src") + " --quiet -o " + Quote(t / "out/fifo") + "; sleep 0.2"),
            0);
  struct stat st;
  ASSERT_EQ(lstat((t / "out/fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
  EXPECT_NE(ReadFile(t / "out/fifo.txt").find("\"record\""), std::string::npos);

  // A good scan still works and -o - is stdout.
  RunResult ok = Errdex(Quote(t / "src") + " -o - --quiet");
  EXPECT_EQ(ok.rc, 0) << ok.err;
  EXPECT_TRUE(ok.err.empty()) << ok.err;
}

}  // namespace
}  // namespace errdex
