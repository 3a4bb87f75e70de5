#include "model/record.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/pattern.h"

namespace errdex {
namespace {

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::filesystem::path> SeedFiles() {
  std::vector<std::filesystem::path> out;
  for (auto& e : std::filesystem::directory_iterator(ERRDEX_SHARED_DIR "/seeds")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RecordJson, SeedsRoundTripByteForByte) {
  auto seeds = SeedFiles();
  ASSERT_EQ(seeds.size(), 3u);
  for (const auto& p : seeds) {
    std::string text = ReadFile(p);
    auto line = ParseCatalogLine(text);
    ASSERT_TRUE(line.ok()) << p << ": " << line.status().ToString();
    EXPECT_EQ(CatalogLineToJson(line.value()), text) << p;
  }
}

TEST(RecordJson, SeedSlugsAndPatternsFollowTheRules) {
  for (const auto& p : SeedFiles()) {
    auto line = ParseCatalogLine(ReadFile(p));
    ASSERT_TRUE(line.ok());
    const Record& r = line->record;
    EXPECT_EQ(MakeSlug(*r.error_message), *r.slug) << p;
    EXPECT_EQ(EscapePatternLiteral(*r.error_message), *r.message_pattern) << p;
    EXPECT_EQ(MakeGithubUrl(*r.repo, *r.analyzed_sha, r.file_path, r.source_code_start, r.source_code_end),
              *r.github_url);
    EXPECT_EQ(r.source_code_start, r.line_number - 18);
    EXPECT_EQ(r.source_code_end, r.line_number + 18);
  }
}

TEST(RecordJson, EscapesLikeJsonStringify) {
  std::string out;
  AppendJsonString(out, std::string("a\"b\\c\n\t\x01/\xE2\x80\x94", 12));
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\n\\t\\u0001/\xE2\x80\x94\"");
  out.clear();
  AppendJsonString(out, "bad\xFF\xC3");  // invalid UTF-8 never leaks into JSON
  EXPECT_EQ(out, "\"bad\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

TEST(RecordJson, RejectsBadLinesWithAReason) {
  EXPECT_FALSE(ParseCatalogLine("{").ok());
  EXPECT_FALSE(ParseCatalogLine("[]").ok());
  EXPECT_FALSE(ParseCatalogLine(R"({"record":{"id":"x","bogus":1}})").ok());
  auto r = ParseCatalogLine(R"({"record":{"id":"x","lineNumber":"seven"}})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("lineNumber"), std::string::npos);
}

// Issue 15, M2: import truncated integers beyond 32 bits (lineNumber 4294967297
// came back as 1). A number outside int's range is an error naming the key.
TEST(RecordJson, IntegersOutsideIntRangeAreRejectedNotTruncated) {
  const std::string seed = ReadFile(SeedFiles().front());
  auto with = [&](const std::string& key, const std::string& value) {
    size_t k = seed.find("\"" + key + "\":");
    size_t b = k + key.size() + 3, e = seed.find_first_of(",}", b);
    return seed.substr(0, b) + value + seed.substr(e);
  };
  for (const char* key : {"lineNumber", "httpStatus", "sourceCodeStart", "sourceCodeEnd"}) {
    for (const char* bad : {"4294967297", "1099511627776", "-2147483649", "18446744073709551615"}) {
      auto r = ParseCatalogLine(with(key, bad));
      ASSERT_FALSE(r.ok()) << key << "=" << bad;
      EXPECT_NE(r.status().message().find(key), std::string::npos) << r.status().message();
      EXPECT_NE(r.status().message().find("range"), std::string::npos) << r.status().message();
    }
    auto edge = ParseCatalogLine(with(key, "2147483647"));
    ASSERT_TRUE(edge.ok()) << key;
    EXPECT_EQ(CatalogLineToJson(*edge), with(key, "2147483647"));
  }
}

// Issue 15, L4: duplicate keys were accepted (the last of two equal keys silently
// won). (schemaVersion is checked where lines come in: store/import_test.cc.)
TEST(RecordJson, DuplicateKeysAreRejected) {
  const std::string seed = ReadFile(SeedFiles().front());
  // The same key twice: in the record, at the top, in facts.
  std::string dup = seed;
  dup.replace(dup.find("{\"id\":"), 7, "{\"id\":\"00000000000000a4\",\"id\":");
  auto r = ParseCatalogLine(dup);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("duplicate key \"id\""), std::string::npos) << r.status().message();
  std::string top = seed;
  top.insert(top.rfind('}'), ",\"datasetVersion\":\"x\"");
  EXPECT_FALSE(ParseCatalogLine(top).ok());
  EXPECT_FALSE(ParseCatalogLine(R"({"record":{"id":"x","tags":["a"],"tags":null}})").ok());
  EXPECT_FALSE(RecordFromJson(R"({"id":"x","id":"y"})").ok());
  // Equal keys in different objects are fine.
  EXPECT_TRUE(ParseCatalogLine(R"({"record":{"id":"x"},"facts":{"kind":"raise","truncated":{"id":3}}})").ok());
}

// Hostile nesting is a parse error, never a stack overflow (in parsing, in the
// destruction of the parsed value, or in the error message).
TEST(RecordJson, DeepNestingIsAParseError) {
  for (const std::string& open : {std::string("["), std::string("{\"a\":")}) {
    std::string deep;
    for (int i = 0; i < 200000; ++i) deep += open;
    std::string line = "{\"record\":{\"id\":\"x\",\"tags\":" + deep + "}}";
    EXPECT_FALSE(ParseCatalogLine(line).ok());
    EXPECT_FALSE(RecordFromJson(deep).ok());
  }
}

TEST(Slug, TakesFiftyCodePointsAndCollapsesRuns) {
  EXPECT_EQ(MakeSlug("--quantization nvfp4_online supports only --moe-runner-backend x"),
            "quantization-nvfp4-online-supports-only-moe-ru");
  EXPECT_EQ(MakeSlug("  Hello,   World!  "), "hello-world");
  EXPECT_EQ(MakeSlug("\xC3\xA9t\xC3\xA9 x"), "t-x");
  EXPECT_EQ(MakeSlug(""), "");
}

TEST(Pattern, EscapesOnlyTheChosenMetacharacters) {
  EXPECT_EQ(EscapePatternLiteral("a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o p-q_r/s#t"),
            "a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o p-q_r/s#t");
}

TEST(RecordId, StableAndSensitiveToTemplateNotLine) {
  auto a = MakeRecordId("o/r", "f.py", "raise", "ValueError", "bad {x}", 0);
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a, MakeRecordId("o/r", "f.py", "raise", "ValueError", "bad {x}", 0));
  EXPECT_NE(a, MakeRecordId("o/r", "f.py", "raise", "ValueError", "bad {x}", 1));
  EXPECT_NE(a, MakeRecordId("o/r", "g.py", "raise", "ValueError", "bad {x}", 0));
  for (char c : a) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
}

TEST(IsoTime, FormatsMilliseconds) {
  EXPECT_EQ(FormatIsoTime(1787893805995LL), "2026-08-28T05:10:05.995Z");
  EXPECT_EQ(FormatIsoTime(0), "1970-01-01T00:00:00.000Z");
}

}  // namespace
}  // namespace errdex
