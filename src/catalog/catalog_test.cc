#include "catalog/catalog.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "store/import.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;

std::vector<CatalogLine> Seeds() {
  std::vector<CatalogLine> out;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(std::string(ERRDEX_SHARED_DIR) + "/seeds")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    auto l = ParseCatalogLine(ss.str());
    EXPECT_TRUE(l.ok()) << l.status().ToString();
    out.push_back(std::move(l).value());
  }
  return out;
}

class TempDir {
 public:
  TempDir() {
    std::string t = (fs::temp_directory_path() / "errdex_catalog_test_XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string WriteJsonl(const TempDir& d, const std::string& name, const std::vector<CatalogLine>& lines) {
  std::string path = d.File(name);
  std::ofstream out(path);
  for (const auto& l : lines) out << CatalogLineToJson(l) << "\n";
  return path;
}

void Import(const std::string& db, const std::vector<CatalogLine>& lines, const std::string& name = "x.jsonl") {
  auto store = CatalogStore::Open(db, true);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  JsonLinesImport imp("", "");
  std::string text;
  for (const auto& l : lines) text += CatalogLineToJson(l) + "\n";
  ASSERT_TRUE(imp.AddFile(name, text).ok());
  auto ids = PutScans(**store, imp.TakeBatches());
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
}

std::vector<ExplainHit> Explain(Catalog& c, std::string_view input) {
  std::vector<ExplainHit> hits;
  ExplainSession s(c.matcher(), ExplainOptions{}, c.Fuzzy());
  HitSink sink = [&](const ExplainHit& h) { hits.push_back(h); };
  EXPECT_TRUE(s.Feed(input, sink).ok());
  EXPECT_TRUE(s.Finish(sink).ok());
  return hits;
}

// A chained traceback in SGLang's log format around the seed's message.
std::string TracebackAround(const Record& r) {
  std::string p = "[2025-03-10 14:17:52 TP6] ";
  std::string s;
  s += p + "Scheduler hit an exception: Traceback (most recent call last):\n";
  s += p + "  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/utils.py\", line 88, in get_int\n";
  s += p + "    return int(os.environ[name])\n";
  s += p + "KeyError: 'SGLANG_DEEPEP_MODE'\n";
  s += p + "\n";
  s += p + "During handling of the above exception, another exception occurred:\n";
  s += p + "\n";
  s += p + "Traceback (most recent call last):\n";
  s += p + "  File \"/usr/local/lib/python3.10/dist-packages/sglang/launch_server.py\", line 11, in <module>\n";
  s += p + "    server_args = prepare_server_args(sys.argv[1:])\n";
  std::string file = r.file_path.substr(r.file_path.find("sglang/"));
  s += p + "  File \"/usr/local/lib/python3.10/dist-packages/" + file + "\", line " +
       std::to_string(r.line_number + 7) + ", in check\n";
  s += p + "    raise " + *r.error_class + "(\n";
  s += p + *r.error_class + ": " + *r.error_message + "\n";
  s += "[2025-03-10 14:17:53] Received sigquit from a child process. It usually means the child failed.\n";
  return s;
}

TEST(Catalog, SeedsAreTheTopHitOfTheirTracebacks) {
  TempDir d;
  auto seeds = Seeds();
  ASSERT_EQ(seeds.size(), 3u);
  std::string jsonl = WriteJsonl(d, "seeds.jsonl", seeds);
  std::string db = d.File("c.db");
  Import(db, seeds);
  auto from_jsonl = Catalog::FromJsonLines({jsonl}, CatalogOptions{});
  ASSERT_TRUE(from_jsonl.ok()) << from_jsonl.status().ToString();
  auto from_store = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(from_store.ok()) << from_store.status().ToString();
  for (Catalog* c : {from_jsonl->get(), from_store->get()}) {
    for (const CatalogLine& seed : seeds) {
      auto hits = Explain(*c, TracebackAround(seed.record));
      ASSERT_FALSE(hits.empty()) << seed.record.id;
      EXPECT_EQ(c->record_id(hits[0].entry), seed.record.id);
      EXPECT_TRUE(hits[0].full);
      EXPECT_FALSE(hits[0].approximate);
      EXPECT_TRUE(hits[0].frame_file);
      EXPECT_EQ(hits[0].class_agreement, 1);
      auto det = c->Details(hits[0].entry);
      ASSERT_TRUE(det.ok());
      EXPECT_EQ(det->record.documentation, seed.record.documentation);
      ASSERT_EQ(det->versions.size(), 1u);
      EXPECT_TRUE(det->versions[0].latest);
      EXPECT_FALSE(det->only_in_older);
    }
  }
}

TEST(Catalog, MatcherIsCachedInTheStoreByContentVersion) {
  TempDir d;
  auto seeds = Seeds();
  std::string db = d.File("c.db");
  Import(db, {seeds[0], seeds[1]});
  auto first = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE((*first)->open_info().from_cache);
  auto second = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE((*second)->open_info().from_cache);
  EXPECT_EQ((*second)->open_info().compiled, 2u);
  auto hits = Explain(**second, "ValueError: " + *seeds[1].record.error_message + "\n");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ((*second)->record_id(hits[0].entry), seeds[1].record.id);
  // New content: the cached matcher is stale and rebuilt.
  first->reset();
  second->reset();
  CatalogLine other = seeds[2];
  other.record.analyzed_sha = "1111111111111111111111111111111111111111";
  Import(db, {other}, "y.jsonl");
  auto third = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE((*third)->open_info().from_cache);
  hits = Explain(**third, "RuntimeError: " + *seeds[2].record.error_message + "\n");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ((*third)->record_id(hits[0].entry), seeds[2].record.id);
}

TEST(Catalog, VersionsAndMessagesOnlyInOlderCommits) {
  TempDir d;
  auto seeds = Seeds();
  std::vector<CatalogLine> old_scan = seeds, new_scan = {seeds[0], seeds[1]};
  for (auto& l : old_scan) {
    l.record.analyzed_sha = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    l.dataset_version = "2026-01-01T00:00:00.000Z";
  }
  for (auto& l : new_scan) {
    l.record.analyzed_sha = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    l.record.line_number += 10;
    l.dataset_version = "2026-06-01T00:00:00.000Z";
  }
  std::string db = d.File("c.db");
  Import(db, old_scan, "old.jsonl");
  Import(db, new_scan, "new.jsonl");
  std::vector<CatalogLine> both = old_scan;
  both.insert(both.end(), new_scan.begin(), new_scan.end());
  std::string jsonl = WriteJsonl(d, "both.jsonl", both);
  auto s = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(s.ok());
  auto j = Catalog::FromJsonLines({jsonl}, CatalogOptions{});
  ASSERT_TRUE(j.ok());
  for (Catalog* c : {s->get(), j->get()}) {
    auto hits = Explain(*c, "ValueError: " + *seeds[0].record.error_message + "\n");
    ASSERT_FALSE(hits.empty());
    auto det = c->Details(hits[0].entry);
    ASSERT_TRUE(det.ok());
    ASSERT_EQ(det->versions.size(), 2u);  // one hit, every version listed
    EXPECT_EQ(det->versions[0].sha, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    EXPECT_TRUE(det->versions[0].latest);
    EXPECT_FALSE(det->versions[1].latest);
    EXPECT_FALSE(det->only_in_older);
    EXPECT_EQ(det->record.line_number, seeds[0].record.line_number + 10);

    hits = Explain(*c, "RuntimeError: " + *seeds[2].record.error_message + "\n");
    ASSERT_FALSE(hits.empty());
    det = c->Details(hits[0].entry);
    ASSERT_TRUE(det.ok());
    ASSERT_EQ(det->versions.size(), 1u);
    EXPECT_TRUE(det->only_in_older);
  }
}

CatalogLine Hostile(const CatalogLine& base, const std::string& id, const std::string& pattern) {
  CatalogLine l = base;
  l.record.id = id;
  l.record.slug = "hostile-" + id;
  l.record.message_pattern = pattern;
  l.record.error_message = "hostile";
  return l;
}

TEST(Catalog, HostilePatternsAreRejectedAndTheRestStaysUsable) {
  TempDir d;
  auto seeds = Seeds();
  std::string alternations;
  for (int i = 0; i < 100000; ++i) alternations += (i ? "|" : "") + std::string("word") + std::to_string(i);
  std::vector<CatalogLine> lines = seeds;
  lines.push_back(Hostile(seeds[0], "00000000000000a1", "(a+)+$"));
  lines.push_back(Hostile(seeds[0], "00000000000000a2", "unclosed (group [ here"));
  lines.push_back(Hostile(seeds[0], "00000000000000a3", alternations));
  lines.push_back(Hostile(seeds[0], "00000000000000a4", "(.*?)"));
  lines.push_back(Hostile(seeds[0], "00000000000000a5", "hostile prefix: (x+x+)+y"));
  std::string db = d.File("c.db");
  Import(db, lines);
  auto c = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  std::map<std::string, std::string> why;
  for (const auto& r : (*c)->rejected())
    for (const auto& id : r.record_ids) why[id] = r.why.message();
  EXPECT_NE(why["00000000000000a1"].find("too generic"), std::string::npos);
  EXPECT_NE(why["00000000000000a2"].find("invalid regex"), std::string::npos);
  EXPECT_NE(why["00000000000000a3"].find("max_pattern_bytes"), std::string::npos);
  EXPECT_NE(why["00000000000000a4"].find("too generic"), std::string::npos);
  EXPECT_EQ(why.count("00000000000000a5"), 0u);  // compiled; PCRE2 runs under limits
  for (const auto& seed : seeds) {
    auto hits = Explain(**c, *seed.record.error_class + ": " + *seed.record.error_message + "\n");
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ((*c)->record_id(hits[0].entry), seed.record.id);
  }
  // The catastrophic pattern on an adversarial line: returns (limited), no hang.
  std::string evil = "hostile prefix: " + std::string(30, 'x') + " hostile prefix: xxy\n";
  auto hits = Explain(**c, evil);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ((*c)->record_id(hits[0].entry), "00000000000000a5");
}

// A message printed with a trailing space ("... Unexpected character: %s ") is
// pasted without it: the matcher never requires the blanks a pattern ends with.
TEST(Catalog, APatternsTrailingBlanksAreNotRequired) {
  TempDir d;
  auto seeds = Seeds();
  std::vector<CatalogLine> lines = seeds;
  CatalogLine trailing = Hostile(seeds[0], "00000000000000b1", "Error on line (.*?), col (.*?): Unexpected character: (.*?) ");
  trailing.record.error_message = "Error on line {a}, col {b}: Unexpected character: {c} ";
  trailing.record.error_class = "JsonPathLexerError";
  lines.push_back(trailing);
  std::string db = d.File("c.db");
  Import(db, lines);
  auto c = Catalog::OpenStore(db, CatalogOptions{});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto hits = Explain(**c, "JsonPathLexerError: Error on line 1, col 4: Unexpected character: ^\n");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ((*c)->record_id(hits[0].entry), "00000000000000b1");
  EXPECT_FALSE(hits[0].approximate);
}

TEST(MatchForm, DropsTheBlanksAPatternEndsWith) {
  EXPECT_EQ(MatchForm("character: (.*?) "), "character: (.*?)");
  EXPECT_EQ(MatchForm("done\t\n \n"), "done");
  EXPECT_EQ(MatchForm("a \\ b"), "a \\ b");
  EXPECT_EQ(MatchForm("escaped\\ "), "escaped\\ ");   // "\ " is a blank its backslash needs
  EXPECT_EQ(MatchForm("slash\\\\ "), "slash\\\\");  // an escaped backslash, then a blank
  EXPECT_EQ(MatchForm("   "), "   ");
}

TEST(Catalog, MissingCatalogIsNotFound) {
  auto c = Catalog::OpenStore("/nonexistent/dir/x.db", CatalogOptions{});
  EXPECT_FALSE(c.ok());
  auto j = Catalog::FromJsonLines({"/nonexistent/x.jsonl"}, CatalogOptions{});
  EXPECT_EQ(j.status().code(), Status::Code::kNotFound);
}

TEST(EnclosingFunction, FromTheSourceExcerpt) {
  auto seeds = Seeds();
  EXPECT_EQ(EnclosingFunction(seeds[2].record), "_require_fp4_dtype");
  EXPECT_EQ(EnclosingFunction(seeds[0].record), "");  // the def is above the excerpt
  Record r;
  r.source_code = "x = 1\nraise ValueError('top')\n";
  r.source_code_start = 1;
  r.line_number = 2;
  EXPECT_EQ(EnclosingFunction(r), "<module>");
}

}  // namespace
}  // namespace errdex
