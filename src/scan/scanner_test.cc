// Tests of scan/scanner.h in memory: line splitting, record building (context,
// ids, slug, URL), and Scan() over a MemoryFileSource with a fake front end
// (determinism for any number of threads, occurrences, soft errors).
#include "scan/scanner.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

using Lines = std::vector<std::string_view>;

TEST(SplitSourceLines, SplitsLikeTheTokenizer) {
  EXPECT_EQ(SplitSourceLines("a\nb\n"), (Lines{"a", "b"}));
  EXPECT_EQ(SplitSourceLines("a\nb"), (Lines{"a", "b"}));
  EXPECT_EQ(SplitSourceLines("a\r\nb\rc\n\nd"), (Lines{"a", "b", "c", "", "d"}));
  EXPECT_EQ(SplitSourceLines("a\r\r\n"), (Lines{"a", ""}));
  EXPECT_EQ(SplitSourceLines(""), Lines{});
  EXPECT_EQ(SplitSourceLines("\n"), Lines{""});
  EXPECT_EQ(SplitSourceLines("\xEF\xBB\xBFx = 1\n"), Lines{"x = 1"});
}

Site MakeSite(int line, std::optional<std::string> msg, std::string cls = "ValueError", int column = 4) {
  Site s;
  s.kind = SiteKind::kRaise;
  s.file_path = "pkg/m.py";
  s.line = line;
  s.column = column;
  s.error_class = cls;
  s.error_message = msg;
  if (msg) s.message_pattern = *msg;
  return s;
}

std::string NumberedLines(int n) {
  std::string text;
  for (int i = 1; i <= n; ++i) text += "L" + std::to_string(i) + "\n";
  return text;
}

TEST(BuildRecord, ContextIsClampedAndUrlNeedsRepoAndSha) {
  std::string text = NumberedLines(30);
  Lines lines = SplitSourceLines(text);
  Record r = BuildRecord(MakeSite(5, "Bad value: x"), lines, "o/n", "abc", "T", 0);
  EXPECT_EQ(r.source_code_start, 1);
  EXPECT_EQ(r.source_code_end, 23);
  EXPECT_EQ(r.source_code.substr(0, 6), "L1\nL2\n");
  EXPECT_EQ(r.source_code.substr(r.source_code.size() - 4), "\nL23");
  EXPECT_EQ(r.github_url, "https://github.com/o/n/blob/abc/pkg/m.py#L1-L23");
  EXPECT_EQ(r.slug, "bad-value-x");
  EXPECT_EQ(r.analyzed_sha, "abc");
  EXPECT_EQ(r.analyzed_at, "T");
  EXPECT_EQ(r.schema_version, 2);
  EXPECT_EQ(r.error_type, std::nullopt);

  Record tail = BuildRecord(MakeSite(25, std::nullopt), lines, "o/n", std::nullopt, "T", 0);
  EXPECT_EQ(tail.source_code_start, 7);
  EXPECT_EQ(tail.source_code_end, 30);
  EXPECT_EQ(tail.github_url, std::nullopt);
  EXPECT_EQ(tail.slug, std::nullopt);
  EXPECT_EQ(tail.repo, "o/n");
}

TEST(BuildRecord, IdIgnoresTheLineButNotTheOccurrence) {
  std::string text = NumberedLines(60);
  Lines lines = SplitSourceLines(text);
  Record a = BuildRecord(MakeSite(5, "m"), lines, "o/n", "s1", "T", 0);
  Record b = BuildRecord(MakeSite(50, "m"), lines, "o/n", "s2", "T", 0);
  Record c = BuildRecord(MakeSite(50, "m"), lines, "o/n", "s2", "T", 1);
  Record d = BuildRecord(MakeSite(5, "m", "TypeError"), lines, "o/n", "s1", "T", 0);
  EXPECT_EQ(a.id, b.id);
  EXPECT_NE(b.id, c.id);
  EXPECT_NE(a.id, d.id);
  EXPECT_EQ(a.id.size(), 16u);
}

// Fake front end: every line "raise <Class> <message>" is a site; a file whose
// text starts with "FAIL" fails.
ExtractOutput FakeExtract(std::string_view path, std::string_view text) {
  ExtractOutput out;
  if (text.substr(0, 4) == "FAIL") {
    out.failed = true;
    out.diagnostics.push_back({std::string(path), 1, 0, "cannot parse"});
    return out;
  }
  Lines lines = SplitSourceLines(text);
  // Emit in reverse to check that the scanner sorts by (line, column).
  for (int i = static_cast<int>(lines.size()); i >= 1; --i) {
    std::string_view l = lines[i - 1];
    size_t at = l.find("raise ");
    if (at == std::string_view::npos) continue;
    std::string rest(l.substr(at + 6));
    size_t sp = rest.find(' ');
    Site s;
    s.file_path = std::string(path);
    s.line = i;
    s.column = static_cast<int>(at);
    s.error_class = rest.substr(0, sp);
    if (sp != std::string::npos) s.error_message = rest.substr(sp + 1);
    out.sites.push_back(std::move(s));
  }
  return out;
}

MemoryFileSource MakeRepo() {
  MemoryFileSource m(1000);
  m.Add("b.py", "x = 1\nraise ValueError same\nraise ValueError same\nraise KeyError\n");
  m.Add("a.py", "raise TypeError first\n\n\nraise TypeError second\n");
  m.Add("c.py", "FAIL\n");
  m.Add("big.py", std::string(2000, '#'));
  for (int i = 0; i < 40; ++i) m.Add("many/f" + std::to_string(i) + ".py", "raise E m" + std::to_string(i) + "\n");
  return m;
}

// A scan of `repo` (in memory) as o/n@0123 on two threads, with the document stage.
ScanOptions InMemory(MemoryFileSource* repo, ScanOptions::JsonLines lines) {
  ScanOptions o;
  o.source = repo;
  o.repo = "o/n";
  o.sha = "0123";
  o.jobs = 2;
  o.json_lines = lines;
  return o;
}

std::string Serialize(const ScanResult& r) {
  std::string out;
  for (const CatalogLine& l : r.lines) out += CatalogLineToJson(l) + "\n";
  return out;
}

TEST(Scan, DeterministicOrderedAndCountsSoftErrors) {
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  MemoryFileSource repo = MakeRepo();
  ScanOptions o;
  o.source = &repo;
  o.extractor = FakeExtract;
  o.repo = "o/n";
  o.sha = "0123";
  o.document = false;
  o.jobs = 1;
  o.json_lines = ScanOptions::JsonLines::kRecordsWithFacts;
  auto one = Scan(o);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  o.jobs = 4;
  auto four = Scan(o);
  ASSERT_TRUE(four.ok());
  EXPECT_TRUE(Serialize(*one) == Serialize(*four)) << "output depends on the number of threads";

  const ScanResult& r = *one;
  std::string chunks;
  for (const std::string& c : r.jsonl_chunks) chunks += c;
  EXPECT_TRUE(chunks == Serialize(r)) << "the workers' JSON Lines differ from the lines";
  ASSERT_EQ(r.lines.size(), 45u);
  EXPECT_EQ(r.lines[0].record.file_path, "a.py");
  EXPECT_EQ(r.lines[0].record.line_number, 1);
  EXPECT_EQ(r.lines[1].record.line_number, 4);
  EXPECT_EQ(r.lines[2].record.file_path, "b.py");
  EXPECT_EQ(r.lines[2].record.line_number, 2);
  EXPECT_EQ(r.lines[3].record.line_number, 3);
  EXPECT_EQ(r.lines[4].record.error_message, std::nullopt);
  // Exact duplicates in one file: occurrence 0 and 1.
  EXPECT_EQ(r.lines[2].record.id, MakeRecordId("o/n", "b.py", "raise", "ValueError", "same", 0));
  EXPECT_EQ(r.lines[3].record.id, MakeRecordId("o/n", "b.py", "raise", "ValueError", "same", 1));
  EXPECT_EQ(r.lines[0].record.github_url, "https://github.com/o/n/blob/0123/a.py#L1-L4");
  ASSERT_TRUE(r.lines[0].facts);
  EXPECT_EQ(r.dataset_version, "2023-11-14T22:13:20.000Z");
  EXPECT_EQ(r.lines[0].dataset_version, r.dataset_version);
  EXPECT_EQ(r.lines[0].record.analyzed_at, r.dataset_version);

  EXPECT_EQ(r.stats.files_listed, 44);
  EXPECT_EQ(r.stats.files_scanned, 44);
  EXPECT_EQ(r.stats.files_skipped, 2);  // c.py (parse) and big.py (size)
  EXPECT_EQ(r.stats.sites, 45);
  EXPECT_EQ(r.stats.sites_by_kind[static_cast<int>(SiteKind::kRaise)], 45);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].path, "big.py");
  EXPECT_NE(r.diagnostics[0].message.find("max-file-size"), std::string::npos);
  EXPECT_EQ(r.diagnostics[1].path, "c.py");
  EXPECT_EQ(r.diagnostics[1].line, 1);
}

// A flag whose help text is not UTF-8 (a Latin-1 file) reaches the hash of the
// knowledge a site's prose consulted: that hash must not throw (nlohmann's dump
// does on invalid UTF-8; on a worker thread it ended the whole scan). Found by
// the document_file fuzz target.
TEST(Scan, AFlagWithInvalidUtf8HelpIsDocumented) {
  MemoryFileSource repo(1 << 20);
  repo.Add("tool.py",
           "import argparse\n\ndef main(argv=None):\n    parser = argparse.ArgumentParser()\n"
           "    parser.add_argument('--info', default=False, action='store_true',\n"
           "                        help=\"Display the interpreter \xff\xfe\xe9t\xe9 of an archive\")\n"
           "    args = parser.parse_args(argv)\n    if args.info:\n"
           "        raise SystemExit('Can only get info for an archive file')\n");
  auto r = Scan(InMemory(&repo, ScanOptions::JsonLines::kRecords));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->lines.size(), 1u);
  EXPECT_EQ(r->lines[0].record.error_message, "Can only get info for an archive file");
  EXPECT_TRUE(r->lines[0].record.documentation.has_value());
}

TEST(Scan, IdsSurviveMovedLines) {
  MemoryFileSource v1, v2;
  v1.Add("m.py", "raise ValueError boom\n");
  v2.Add("m.py", "import os\n\n\nraise ValueError boom\n");
  ScanOptions o;
  o.extractor = FakeExtract;
  o.repo = "o/n";
  o.document = false;
  o.source = &v1;
  auto a = Scan(o);
  o.source = &v2;
  auto b = Scan(o);
  ASSERT_EQ(a->lines.size(), 1u);
  ASSERT_EQ(b->lines.size(), 1u);
  EXPECT_EQ(a->lines[0].record.id, b->lines[0].record.id);
  EXPECT_NE(a->lines[0].record.line_number, b->lines[0].record.line_number);
}

TEST(CutSourceWindow, OrdinaryWindowsAreWholeAndLongOnesLoseTheirFarthestLinesFirst) {
  std::string text = NumberedLines(40);
  Lines lines = SplitSourceLines(text);
  SourceWindow whole = CutSourceWindow(lines, 20, 0, 16384);
  EXPECT_FALSE(whole.cut);
  EXPECT_EQ(whole.start, 2);
  EXPECT_EQ(whole.end, 38);
  EXPECT_EQ(whole.uncut_bytes, whole.code.size());
  // 12 bytes: "L19\nL20\nL21" is 11; the next line out is the farther of L18/L22.
  SourceWindow small = CutSourceWindow(lines, 20, 0, 12);
  EXPECT_TRUE(small.cut);
  EXPECT_EQ(small.code, "L19\nL20\nL21");
  EXPECT_EQ(small.start, 19);
  EXPECT_EQ(small.end, 21);
  EXPECT_EQ(small.uncut_bytes, whole.code.size());
}

TEST(CutSourceWindow, ALongSiteLineIsCutAroundTheColumn) {
  // One line of 3,000 throws (a minified bundle): each site keeps max_bytes around itself.
  std::string line;
  for (int i = 0; i < 3000; ++i) line += "function a" + std::to_string(i) + "(x){if(!x)throw new Error(\"bad " + std::to_string(i) + "\")};";
  Lines lines{line};
  size_t col = line.find("bad 2500");
  SourceWindow w = CutSourceWindow(lines, 1, static_cast<int>(col), 1000);
  EXPECT_TRUE(w.cut);
  EXPECT_EQ(w.start, 1);
  EXPECT_EQ(w.end, 1);
  EXPECT_EQ(w.code.size(), 1000u);
  EXPECT_NE(w.code.find("bad 2500"), std::string::npos);
  EXPECT_EQ(w.uncut_bytes, line.size());
  // Multi-byte characters are never split.
  std::string utf8;
  for (int i = 0; i < 3000; ++i) utf8 += "\xC3\xA9";
  Lines accents{utf8};
  SourceWindow a = CutSourceWindow(accents, 1, 2001, 999);
  EXPECT_EQ(a.code.size() % 2, 0u);
  EXPECT_EQ(static_cast<unsigned char>(a.code[0]), 0xC3u);
}

TEST(Scan, LimitsCutSitesAndExcerptsAndSayHowOften) {
  MemoryFileSource repo;
  std::string many;
  for (int i = 0; i < 30; ++i) many += "raise ValueError m" + std::to_string(i) + "\n";
  repo.Add("many.py", many);
  repo.Add("long.py", "raise KeyError " + std::string(5000, 'k') + "\n");
  ScanOptions o;
  o.source = &repo;
  o.extractor = FakeExtract;  // a front end that cuts nothing itself
  o.document = false;
  o.limits.max_sites = 10;
  o.limits.max_excerpt_bytes = 1000;
  auto r = Scan(o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->lines.size(), 11u);  // long.py's one site, many.py's first 10
  EXPECT_EQ(r->stats.limits.files_sites_cut, 1);
  EXPECT_EQ(r->stats.limits.sites_left_out, 20);
  EXPECT_EQ(r->stats.limits.sites_excerpts_cut, 1);
  const CatalogLine& cut = r->lines[0];
  EXPECT_EQ(cut.record.file_path, "long.py");
  EXPECT_EQ(cut.record.source_code.size(), 1000u);
  EXPECT_EQ(cut.record.error_message->size(), 1000u);
  ASSERT_TRUE(cut.facts);
  EXPECT_EQ(cut.facts->truncated,
            (std::vector<std::pair<std::string, uint64_t>>{{"errorMessage", 5000}, {"sourceCode", 5015}}));
  EXPECT_NE(CatalogLineToJson(cut).find("\"truncated\":{\"errorMessage\":5000,\"sourceCode\":5015}"), std::string::npos);
  EXPECT_EQ(r->lines.back().record.line_number, 10);
  EXPECT_TRUE(r->lines.back().facts->truncated.empty());
  EXPECT_EQ(CatalogLineToJson(r->lines.back()).find("truncated"), std::string::npos);  // ordinary facts unchanged
  bool said = false;
  for (const Diagnostic& d : r->diagnostics) said |= d.path == "many.py" && d.message.find("20 sites left out") == 0;
  EXPECT_TRUE(said);
}

// The memory budget (ScanOptions::resident_bytes) moves parsed files to the
// spool's temporary file and makes the Python class table read files again;
// neither may change a byte of the output, prose included.
TEST(Scan, AScanWithNoMemoryBudgetWritesTheSameBytes) {
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  MemoryFileSource repo(1 << 20);
  repo.Add("pkg/errors.py",
           "class ModeError(ValueError):\n"
           "    def __init__(self, mode):\n"
           "        super().__init__(f\"unsupported mode {mode!r}\")\n");
  repo.Add("pkg/cli.py",
           "import argparse, os\n"
           "from pkg.errors import ModeError\n"
           "def main():\n"
           "    p = argparse.ArgumentParser()\n"
           "    p.add_argument(\"--mode\", choices=[\"fast\", \"slow\"], default=\"fast\")\n"
           "    a = p.parse_args()\n"
           "    if os.environ.get(\"PKG_STRICT\") and a.mode == \"slow\":\n"
           "        raise ModeError(a.mode)\n"
           "    run(a.mode)\n");
  for (int i = 0; i < 30; ++i)
    repo.Add("pkg/m" + std::to_string(i) + ".py",
             "def run(mode, n=" + std::to_string(i) + "):\n"
             "    if n > 10:\n"
             "        raise RuntimeError(f\"too many workers: {n} (at most 10)\")\n"
             "    assert mode in (\"fast\", \"slow\"), mode\n");
  ScanOptions o = InMemory(&repo, ScanOptions::JsonLines::kRecordsWithFacts);
  auto in_memory = Scan(o);
  ASSERT_TRUE(in_memory.ok()) << in_memory.status().ToString();
  o.resident_bytes = 0;
  auto spilled = Scan(o);
  ASSERT_TRUE(spilled.ok()) << spilled.status().ToString();
  ASSERT_EQ(in_memory->lines.size(), 61u);
  EXPECT_TRUE(in_memory->lines[0].record.documentation.has_value()) << "the prose ran";
  EXPECT_TRUE(Serialize(*in_memory) == Serialize(*spilled)) << "the spool or the class table's re-reads changed the output";
}

TEST(Scan, ExtensionDispatch) {
  EXPECT_TRUE(ExtractorForPath("a/b.py"));
  EXPECT_FALSE(ExtractorForPath("a/b.txt"));
  EXPECT_FALSE(ExtractorForPath("py"));
}

TEST(Scan, MissingPathIsNotFound) {
  ScanOptions o;
  o.path = "/nonexistent/errdex/path";
  auto r = Scan(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace errdex
