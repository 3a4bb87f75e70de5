// Tests of JsonLinesImport (store/import.h).
#include "store/import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::MakeLine;
using testing_util::ReadFile;

std::vector<std::filesystem::path> SeedFiles() {
  std::vector<std::filesystem::path> out;
  for (auto& e : std::filesystem::directory_iterator(ERRDEX_SHARED_DIR "/seeds")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(JsonLinesImport, SeedsGroupByRepoAndSha) {
  JsonLinesImport import("", "");
  auto seeds = SeedFiles();
  ASSERT_EQ(seeds.size(), 3u);
  for (const auto& p : seeds) ASSERT_TRUE(import.AddFile(p.string(), ReadFile(p)).ok()) << p;  // no trailing '\n'
  EXPECT_EQ(import.line_count(), 3);
  auto batches = import.TakeBatches();
  ASSERT_EQ(batches.size(), 1u);  // the seeds are one commit of one repository
  EXPECT_EQ(batches[0].info.repo, "sgl-project/sglang");
  EXPECT_EQ(batches[0].info.sha, "0132848349585cfe6aae51c4941cbae872505f8a");
  EXPECT_EQ(batches[0].info.sites, 3);
  ASSERT_EQ(batches[0].lines.size(), 3u);
  for (size_t i = 0; i < seeds.size(); ++i) EXPECT_EQ(CatalogLineToJson(batches[0].lines[i]), ReadFile(seeds[i]));
}

TEST(JsonLinesImport, SeveralReposAndCommitsBecomeSeveralScans) {
  std::string text;
  text += CatalogLineToJson(MakeLine("o/a", "s1", 0, "m0")) + "\n";
  text += CatalogLineToJson(MakeLine("o/b", "s1", 0, "m0")) + "\r\n";  // CRLF tolerated
  text += "\n   \n";                                                    // blank lines skipped
  text += CatalogLineToJson(MakeLine("o/a", "s2", 0, "m0")) + "\n";
  text += CatalogLineToJson(MakeLine("o/a", "s1", 1, "m1"));  // no final newline
  JsonLinesImport import("", "");
  ASSERT_TRUE(import.AddFile("x.jsonl", text).ok());
  auto batches = import.TakeBatches();
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0].info.repo + "@" + batches[0].info.sha, "o/a@s1");
  EXPECT_EQ(batches[0].lines.size(), 2u);
  EXPECT_EQ(batches[1].info.repo + "@" + batches[1].info.sha, "o/b@s1");
  EXPECT_EQ(batches[2].info.repo + "@" + batches[2].info.sha, "o/a@s2");
  EXPECT_EQ(batches[0].info.source, "import x.jsonl");
}

TEST(JsonLinesImport, BadLineIsLocatedAndNothingOfTheFileIsKept) {
  JsonLinesImport import("", "");
  std::string good = CatalogLineToJson(MakeLine("o/a", "s1", 0, "m0")) + "\n";
  ASSERT_TRUE(import.AddFile("first.jsonl", good).ok());
  std::string text = CatalogLineToJson(MakeLine("o/a", "s1", 1, "m1")) + "\n" + "{\"record\": {\"id\": \n";
  Status st = import.AddFile("bad.jsonl", text);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kParseError);
  EXPECT_EQ(st.message().rfind("bad.jsonl:2: ", 0), 0u) << st.message();
  EXPECT_EQ(import.line_count(), 1);  // only first.jsonl

  for (const char* bad : {"[1,2]", "{\"record\":{}}", "{\"record\":{\"id\":\"XYZ\"},\"datasetVersion\":\"v\"}",
                          "{\"record\":{\"id\":\"0123456789abcdef\",\"filePath\":\"f\"},\"extra\":1}"}) {
    JsonLinesImport one("", "");
    Status s = one.AddFile("f", bad);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.message().rfind("f:1: ", 0), 0u) << s.message();
  }
}

TEST(JsonLinesImport, DuplicateIdsInOneScanAreRejected) {
  std::string line = CatalogLineToJson(MakeLine("o/a", "s1", 0, "m0"));
  JsonLinesImport import("", "");
  Status st = import.AddFile("a.jsonl", line + "\n" + line + "\n");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("a.jsonl:2: "), std::string::npos);
  EXPECT_NE(st.message().find("a.jsonl:1"), std::string::npos);

  JsonLinesImport across("", "");
  ASSERT_TRUE(across.AddFile("a.jsonl", line).ok());
  st = across.AddFile("b.jsonl", line);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("b.jsonl:1: record"), std::string::npos) << st.message();
  // The same record in another commit is another scan: fine.
  ASSERT_TRUE(across.AddFile("c.jsonl", CatalogLineToJson(MakeLine("o/a", "s2", 0, "m0"))).ok());
}

TEST(JsonLinesImport, RepoAndShaDefaultsFillNullsAndMustAgree) {
  CatalogLine anon = MakeLine("o/a", "s1", 0, "m0");
  anon.record.repo.reset();
  anon.record.analyzed_sha.reset();
  JsonLinesImport import("me/repo", "abc");
  ASSERT_TRUE(import.AddFile("a", CatalogLineToJson(anon)).ok());
  auto batches = import.TakeBatches();
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].info.repo, "me/repo");
  EXPECT_EQ(batches[0].info.sha, "abc");

  JsonLinesImport strict("other/repo", "");
  Status st = strict.AddFile("b", CatalogLineToJson(MakeLine("o/a", "s1", 0, "m0")));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("--repo"), std::string::npos);
}

// Issue 15, L4: schemaVersion 99 was accepted.
TEST(JsonLinesImport, OnlySchemaVersion2IsAccepted) {
  for (int v : {99, 1, 0, -1, 3}) {
    CatalogLine l = MakeLine("o/a", "s1", 0, "m0");
    l.record.schema_version = v;
    JsonLinesImport import("", "");
    Status st = import.AddFile("v.jsonl", CatalogLineToJson(l));
    ASSERT_FALSE(st.ok()) << v;
    EXPECT_EQ(st.message().rfind("v.jsonl:1: record.schemaVersion " + std::to_string(v), 0), 0u) << st.message();
  }
  // A line without the key is version 2 (the key is written back).
  std::string line = CatalogLineToJson(MakeLine("o/a", "s1", 0, "m0"));
  line.replace(line.find(",\"schemaVersion\":2"), 18, "");
  JsonLinesImport import("", "");
  EXPECT_TRUE(import.AddFile("n.jsonl", line).ok());
}

// Issue 15, L2: an invalid pattern was accepted in silence (and warned about on
// every explain). With a PatternCheck a broken pattern rejects the file; an
// unusable one (too generic) is kept and counted.
TEST(JsonLinesImport, BrokenPatternsAreRejectedUnusableOnesCounted) {
  auto check = [](std::string_view p) {
    if (p.find('(') != std::string_view::npos && p.find(')') == std::string_view::npos)
      return Status::ParseError("missing closing parenthesis");
    if (p.size() < 6) return Status::InvalidArgument("too generic");
    return Status::Ok();
  };
  CatalogLine broken = MakeLine("o/a", "s1", 0, "m0");
  broken.record.message_pattern = "(unclosed";
  JsonLinesImport import("", "");
  import.set_pattern_check(check);
  ASSERT_TRUE(import.AddFile("ok.jsonl", CatalogLineToJson(MakeLine("o/a", "s1", 1, "a fine message"))).ok());
  Status st = import.AddFile("bad.jsonl", CatalogLineToJson(MakeLine("o/a", "s1", 2, "fine")) + "\n" +
                                              CatalogLineToJson(broken));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "bad.jsonl:2: record.messagePattern is not a regular expression: missing closing parenthesis");
  EXPECT_EQ(import.line_count(), 1);
  EXPECT_EQ(import.unmatchable_patterns(), 0);  // nothing of bad.jsonl is kept, not even its count

  ASSERT_TRUE(import.AddFile("generic.jsonl", CatalogLineToJson(MakeLine("o/a", "s1", 3, "ab"))).ok());
  EXPECT_EQ(import.line_count(), 2);
  EXPECT_EQ(import.unmatchable_patterns(), 1);
  EXPECT_EQ(import.first_unmatchable(), "generic.jsonl:1: too generic");
}

// A line longer than kMaxLineBytes is refused before it is parsed (parsing takes
// about ten times its size).
TEST(JsonLinesImport, AHugeLineIsRefusedBeforeParsing) {
  std::string huge = CatalogLineToJson(MakeLine("o/a", "s1", 0, "m0"));
  huge.insert(huge.find("\"sourceCode\":\"") + 14, std::string(JsonLinesImport::kMaxLineBytes, 'x'));
  JsonLinesImport import("", "");
  Status st = import.AddFile("huge.jsonl", CatalogLineToJson(MakeLine("o/a", "s1", 1, "m1")) + "\n" + huge);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kLimitExceeded);
  EXPECT_EQ(st.message().rfind("huge.jsonl:2: the line is ", 0), 0u) << st.message();
  EXPECT_EQ(import.line_count(), 0);
}

}  // namespace
}  // namespace errdex
