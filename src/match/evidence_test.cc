// The weighing of evidence (evidence.h): each rule on its own.
#include "match/evidence.h"

#include <gtest/gtest.h>

#include "match/traceback.h"

namespace errdex {
namespace {

TEST(Evidence, PathFlagsTellTestCodeAndVendoredCopies) {
  EXPECT_EQ(PathFlags("json/decoder.py"), 0);
  EXPECT_EQ(PathFlags("test/test_json/test_fail.py"), kEntryInTests);
  EXPECT_EQ(PathFlags("pkg/tests/conftest.py"), kEntryInTests);
  EXPECT_EQ(PathFlags("pkg/test_utils.py"), kEntryInTests);
  EXPECT_EQ(PathFlags("pip/_vendor/pygments/lexers/__init__.py"), kEntryVendored);
  EXPECT_EQ(PathFlags("third_party/x/tests/a.py"), kEntryVendored | kEntryInTests);
  EXPECT_EQ(PathFlags("unittest/case.py"), 0);  // "unittest" is no test directory
}

TEST(Evidence, LongestMatchingPathSuffix) {
  // A frame of the installed package agrees with the package's file wholly, with
  // its vendored copy only partly.
  std::string frame = "/usr/lib/python3/site-packages/pygments/lexers/__init__.py";
  PathAgreement own = AgreePaths(frame, "pygments/lexers/__init__.py");
  PathAgreement vendored = AgreePaths(frame, "pip/_vendor/pygments/lexers/__init__.py");
  EXPECT_TRUE(own.whole_entry);
  EXPECT_EQ(own.components, 3);
  EXPECT_FALSE(vendored.whole_entry);
  EXPECT_EQ(vendored.components, 3);
  EXPECT_TRUE(FileMatches(frame, "pygments/lexers/__init__.py"));
  EXPECT_FALSE(FileMatches("/x/decoder.py", "json/decoder.py"));
  EXPECT_TRUE(FileMatches("C:\\py\\Lib\\json\\decoder.py", "json/decoder.py"));
}

TEST(Evidence, FrozenFramesNameTheModuleFile) {
  EXPECT_EQ(FrozenModuleFile("<frozen posixpath>"), "posixpath.py");
  EXPECT_EQ(FrozenModuleFile("<frozen importlib._bootstrap>"), "importlib/_bootstrap.py");
  EXPECT_EQ(FrozenModuleFile("x.py"), "x.py");
  EXPECT_TRUE(AgreePaths("<frozen posixpath>", "posixpath.py").whole_entry);
  EXPECT_TRUE(FileMatches("<frozen importlib._bootstrap>", "importlib/_bootstrap.py"));
}

TEST(Evidence, CodeLineHashIgnoresSpacing) {
  EXPECT_EQ(CodeLineHash("    raise ValueError(x)  "), CodeLineHash("raise ValueError(x)"));
  EXPECT_EQ(CodeLineHash("assert  a ==\tb"), CodeLineHash("assert a == b"));
  EXPECT_NE(CodeLineHash("raise ValueError(x)"), CodeLineHash("raise ValueError(y)"));
  EXPECT_EQ(CodeLineHash("   "), 0u);
}

TEST(Evidence, MatchesInsideWordsOrPathsAreNoMatches) {
  // "expected (.*?)" found inside "Unexpected": not at a word boundary.
  std::string_view t = "Unexpected token at line 3";
  EXPECT_FALSE(InsideWords(t, 2, 10));
  EXPECT_TRUE(InsideWords(t, 0, 10));
  // Inside a path.
  std::string_view p = "loading /opt/models/version/config.json failed";
  size_t b = p.find("version");
  EXPECT_FALSE(InsideWords(p, b, b + 7));
  EXPECT_TRUE(InsideWords(p, p.find("failed"), p.size()));
}

TEST(Evidence, ClassAgreement) {
  EXPECT_EQ(ClassEvidence("ValueError", "ValueError").second, 1);
  EXPECT_EQ(ClassEvidence("json.decoder.JSONDecodeError", "ValueError").second, 1);  // a subclass
  EXPECT_EQ(ClassEvidence("KeyError", "ValueError").second, -1);
  EXPECT_EQ(ClassEvidence("NoSectionError", "Error").second, 0);  // unknown: maybe a subclass
  // A warning category is no exception of another name, nor the other way round.
  EXPECT_EQ(ClassEvidence("re.error", "DeprecationWarning").second, -1);
  EXPECT_EQ(ClassEvidence("SymPyDeprecationWarning", "ValueError").second, -1);
  EXPECT_EQ(ClassEvidence("SymPyDeprecationWarning", "DeprecationWarning").second, 0);
  EXPECT_EQ(ClassEvidence("MyWarning", "UserWarning").second, 0);
  EXPECT_EQ(ClassEvidence("", "ValueError").second, 0);
}

TEST(Evidence, TheRaisingFrameOutweighsAMessageMatchedElsewhere) {
  std::vector<TracebackFrame> frames = {{"/srv/app/main.py", 3, "<module>", "main()"},
                                        {"/usr/lib/python3.11/statistics.py", 355, "_fail_neg", "raise StatisticsError(errmsg)"}};
  // The site the frame names (its message is a parameter: no template matched).
  CandidateEvidence at_frame;
  at_frame.frames = FramesFor("statistics.py", "_fail_neg", 355, CodeLineHash("raise StatisticsError(errmsg)"), frames);
  at_frame.class_score = 20;
  // Another raise of the same file, whose template matches the whole message, in
  // another function.
  CandidateEvidence elsewhere;
  elsewhere.message = {MessageEvidence::Kind::kFull, 1.0, 47};
  elsewhere.frames = FramesFor("statistics.py", "harmonic_mean", 526, CodeLineHash("raise StatisticsError(errmsg)"), frames);
  elsewhere.class_score = 20;
  EXPECT_TRUE(at_frame.frames.raising_file);
  EXPECT_TRUE(at_frame.frames.code);
  EXPECT_TRUE(FramesCertain(at_frame.frames, 1));
  EXPECT_FALSE(FramesCertain(elsewhere.frames, 1));
  EXPECT_GT(Score(at_frame), Score(elsewhere));
}

TEST(Evidence, TestCodeAndVendoredCopiesLoseTiesUnlessTheFramesPointThere) {
  CandidateEvidence lib, test;
  lib.message = test.message = {MessageEvidence::Kind::kFull, 0.8, 30};
  test.flags = kEntryInTests;
  EXPECT_GT(Score(lib), Score(test));
  std::vector<TracebackFrame> frames = {{"/repo/tests/test_x.py", 10, "test_x", "raise ValueError('x')"}};
  test.frames = FramesFor("tests/test_x.py", "test_x", 10, 0, frames);
  EXPECT_GT(Score(test), Score(lib));
}

TEST(Evidence, PackageNamesInThePaste) {
  std::vector<TracebackFrame> frames = {{"/venv/lib/python3.12/site-packages/vllm/engine/llm_engine.py", 1, "f", ""},
                                        {"/venv/lib/python3.12/site-packages/six.py", 1, "g", ""}};
  std::vector<std::string> hints;
  PackageHints(frames, "botocore.exceptions.NoRegionError", &hints);
  EXPECT_EQ(hints, (std::vector<std::string>{"vllm", "six", "botocore"}));
  EXPECT_TRUE(NamesPackage(hints, "vllm/worker/worker.py", "vllm-project/vllm"));
  EXPECT_TRUE(NamesPackage(hints, "six.py", "pypi/six"));
  EXPECT_TRUE(NamesPackage(hints, "python/sglang/x.py", "owner/vllm"));  // the repo's name
  EXPECT_FALSE(NamesPackage(hints, "sglang/x.py", "sgl-project/sglang"));
}

// The class's module names the copy the user ran: pip's vendored tomli, not the
// stdlib's tomllib nor another copy; a module outside any vendor directory names none.
TEST(Evidence, ClassModuleNamesTheVendoredCopy) {
  EXPECT_TRUE(VendoredCopyNamed("pip._vendor.tomli.TOMLDecodeError", "pip/_vendor/tomli/_parser.py"));
  EXPECT_TRUE(VendoredCopyNamed("pip._vendor.tomli.TOMLDecodeError", "src/pip/_vendor/tomli/_parser.py"));
  EXPECT_FALSE(VendoredCopyNamed("pip._vendor.tomli.TOMLDecodeError", "setuptools/_vendor/tomli/_parser.py"));
  EXPECT_FALSE(VendoredCopyNamed("pip._vendor.tomli.TOMLDecodeError", "xpip/_vendor/tomli/_parser.py"));
  EXPECT_FALSE(VendoredCopyNamed("pygments.util.ClassNotFound", "pip/_vendor/pygments/util.py"));
  EXPECT_FALSE(VendoredCopyNamed("TOMLDecodeError", "pip/_vendor/tomli/_parser.py"));
  // A module that is a file names the package it is in: the class is
  // pip/_vendor/pygments/util.py's, raised in pip/_vendor/pygments/lexers/.
  EXPECT_TRUE(VendoredCopyNamed("pip._vendor.pygments.util.ClassNotFound", "pip/_vendor/pygments/lexers/__init__.py"));
  EXPECT_FALSE(VendoredCopyNamed("pip._vendor.pygments.util.ClassNotFound", "pygments/lexers/__init__.py"));
  EXPECT_FALSE(VendoredCopyNamed("pip._vendor.pygments.util.ClassNotFound", "pip/_vendor/rich/console.py"));
  CandidateEvidence lib, vendored;
  lib.message = vendored.message = {MessageEvidence::Kind::kFull, 0.8, 30};
  vendored.flags = kEntryVendored;
  EXPECT_GT(Score(lib), Score(vendored));
  vendored.vendored_named = true;
  EXPECT_GT(Score(vendored), Score(lib));
}


}  // namespace
}  // namespace errdex
