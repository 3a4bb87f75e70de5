// Unit tests of the Go front end: each idiom's site and message rule, sentinels
// and constants, context, bad input. The differential test against go/ast is
// tests/diff/lang_oracle.py with tests/diff/go_oracle.
#include "extract/go/go_extractor.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

#ifdef ERRDEX_HAVE_TS_GO

std::vector<Site> Sites(std::string_view text, std::string path = "pkg/x.go") { return ExtractGo(path, text).sites; }

TEST(GoExtractor, ErrorsSentinelsAndPrintf) {
  auto s = Sites(
      "package p\n"
      "var ErrNotFound = errors.New(\"model not found\")\n"
      "const badPriority = \"bad priority %d\" + \" (max %d)\"\n"
      "func (s *Server) Load(name string, n int) error {\n"
      "\tif err := s.open(name); err != nil {\n"
      "\t\treturn fmt.Errorf(\"load %q: %w\", name, err)\n"
      "\t} else if n > 9 {\n"
      "\t\treturn fmt.Errorf(badPriority, n, 9)\n"
      "\t}\n"
      "\treturn errors.Wrapf(err, \"open %s\", \"x\")\n"
      "}\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].error_class, "ErrNotFound");
  EXPECT_EQ(s[0].message_pattern, "model not found");
  EXPECT_EQ(s[1].error_class, "error");
  EXPECT_EQ(s[1].message_pattern, "load (.*?): (.*?)");
  EXPECT_EQ(s[1].function, "Server.Load");
  EXPECT_EQ(s[1].guards, std::vector<std::string>{"err != nil"});
  EXPECT_EQ(s[2].message_pattern, "bad priority (.*?) \\(max (.*?)\\)");
  EXPECT_EQ(s[2].guards, (std::vector<std::string>{"not (err != nil)", "n > 9"}));
  EXPECT_EQ(s[3].message_pattern, "open x: (.*?)");
}

TEST(GoExtractor, PanicsLogsAndResponses) {
  auto s = Sites(
      "package p\n"
      "func h(w http.ResponseWriter, r *http.Request) {\n"
      "\tswitch r.Method {\n"
      "\tcase \"GET\", \"HEAD\":\n"
      "\t\thttp.Error(w, \"not allowed: \"+r.Method, http.StatusMethodNotAllowed)\n"
      "\t}\n"
      "\tpanic(`raw ` + err.Error())\n"
      "\tlog.Fatalf(\"cannot listen on %s\", addr)\n"
      "\tslog.Error(\"request failed\", \"err\", err)\n"
      "\tsetupLog.Error(err, \"unable to start manager\")\n"
      "\tklog.Warningf(\"retrying %d\", n)\n"
      "\tlogger.V(1).Info(\"not a site\")\n"
      "\treturn status.Errorf(codes.InvalidArgument, \"bad model %s\", m)\n"
      "}\n");
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].kind, SiteKind::kHttpResponse);
  EXPECT_EQ(s[0].http_status, 405);
  EXPECT_EQ(s[0].message_pattern, "not allowed: (.*?)");
  EXPECT_EQ(s[0].guards, std::vector<std::string>{"r.Method == \"GET\", \"HEAD\""});
  EXPECT_EQ(s[1].error_class, "panic");
  EXPECT_EQ(s[1].message_pattern, "raw (.*?)");
  EXPECT_EQ(s[2].error_class, "fatal");
  EXPECT_EQ(s[2].message_pattern, "cannot listen on (.*?)");
  EXPECT_EQ(s[3].kind, SiteKind::kLog);
  EXPECT_EQ(s[3].message_pattern, "request failed");
  EXPECT_EQ(s[4].message_pattern, "unable to start manager");  // logr: (err, msg, kv...)
  EXPECT_EQ(s[5].log_level, "warning");
  EXPECT_EQ(s[6].error_class, "InvalidArgument");
  EXPECT_EQ(s[6].message_pattern, "bad model (.*?)");
}

TEST(GoExtractor, LiteralsAndTests) {
  auto s = Sites("package p\nfunc TestX(t *testing.T) {\n\tpanic(\"tab\\there \\u00e9\\x41\")\n}\n", "p/x_test.go");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].error_message, "tab\there \xC3\xA9" "A");
  EXPECT_TRUE(s[0].in_tests);
}

TEST(GoBadInput, NeverCrashes) {
  auto r = ExtractGo("x.go", "package p\nfunc f( { panic(\"still\") }}} \xff\xfe");
  EXPECT_FALSE(r.failed);
  EXPECT_FALSE(r.diagnostics.empty());
  std::string deep = "package p\nfunc f() {";
  for (int i = 0; i < 30000; ++i) deep += "if x {";
  deep += "panic(\"deep\")";  // a sink word: the file is parsed and walked
  auto d = ExtractGo("deep.go", deep);
  (void)d;
}

// A file with none of the words a site is spelled with is not parsed: no sites, and no
// diagnostic for its syntax; one such word and it is parsed as before.
TEST(GoExtractor, FileWithoutSiteWordsIsNotParsed) {
  auto none = ExtractGo("x.go", "package p\nfunc f( { return nil }}} (((");
  EXPECT_TRUE(none.sites.empty());
  EXPECT_TRUE(none.diagnostics.empty());
  auto broken = ExtractGo("y.go", "package p\nfunc f( { log.Fatal(\"x\") }}} (((");
  EXPECT_FALSE(broken.diagnostics.empty());
  auto s = Sites("package p\nimport \"errors\"\nfunc f() error {\n\treturn errors.New(\"bad input\")\n}\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].line, 4);
}

#else
TEST(GoExtractor, GrammarNotBuilt) { EXPECT_TRUE(ExtractGo("x.go", "package p").failed); }
#endif

}  // namespace
}  // namespace errdex
