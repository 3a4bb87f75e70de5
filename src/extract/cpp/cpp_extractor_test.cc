// Unit tests of the C/C++/CUDA front end: message rules per sink, wrapper
// expansion (file and repository tables), local data flow, context, bad input.
// The differential test against clang is tests/diff/cpp_oracle.py.
#include "extract/cpp/cpp_extractor.h"

#include <gtest/gtest.h>

#include <string>

#include "extract/cpp/cpp_lexer.h"

namespace errdex {
namespace {

std::vector<Site> Sites(std::string_view text, const cpp::MacroTable* repo = nullptr, std::string path = "k.cu") {
  return ExtractCpp(path, text, repo).sites;
}

const Site* At(const std::vector<Site>& s, int line, size_t nth = 0) {
  for (const Site& x : s)
    if (x.line == line && nth-- == 0) return &x;
  return nullptr;
}

// The check a wrapper macro writes is the site's innermost guard, its
// init-statement folded in ("auto ec = e; ec != ok" -> "e != ok"); another macro's
// dispatch around code passed to it, and a check of a constant, are not guards.
// `throw new` as the file's last tokens read one token past the end (ASan
// heap-buffer-overflow, found by CI's 60 s cpp_extractor run): no site, no read.
TEST(CppExtractor, ThrowNewAtTheEndOfTheFileIsNoSite) {
  for (const char* text : {"\" u  u\n;\nthrow new", "throw new", "void f() { throw new"})
    EXPECT_TRUE(Sites(text).empty()) << text;
}

TEST(CppExtractor, AWrapperMacrosOwnCheckIsTheGuard) {
  auto s = Sites(
      "#define NCCLCHECK(e) if (auto ec = e; ec != ncclSuccess) { throw std::runtime_error(\"NCCL error\"); }\n"
      "#define MYCHECK(c) if (!(c)) { throw std::runtime_error(\"check failed\"); }\n"
      "#define DISPATCH(op, ...) if (op == 1) { __VA_ARGS__ } else if (op == 2) { __VA_ARGS__ }\n"
      "#define LAUNCH(op) if (is_valid<A, B>(op)) { throw std::runtime_error(\"launch\"); }\n"
      "void f(int rank, int op, int status) {\n"
      "  if (rank == 0) {\n"
      "    NCCLCHECK(ncclGetUniqueId(&uid));\n"
      "  }\n"
      "  DISPATCH(op, MYCHECK(status == 0));\n"
      "  MYCHECK(false);\n"
      "  LAUNCH(op);\n"
      "  MYCHECK(n <= static_cast<int64_t>(INT32_MAX));\n"
      "}\n");
  const Site* nccl = At(s, 7);
  ASSERT_NE(nccl, nullptr);
  EXPECT_EQ(nccl->guards, (std::vector<std::string>{"rank == 0", "ncclGetUniqueId(&uid) != ncclSuccess"}));
  const Site* dispatched = At(s, 9);
  ASSERT_NE(dispatched, nullptr);
  EXPECT_EQ(dispatched->guards, std::vector<std::string>{"!(status == 0)"});
  const Site* always = At(s, 10);
  ASSERT_NE(always, nullptr);
  EXPECT_TRUE(always->guards.empty());
  const Site* templated = At(s, 11);  // is_valid<A, B>(op): no later stage can read it
  ASSERT_NE(templated, nullptr);
  EXPECT_TRUE(templated->guards.empty());
  const Site* cast = At(s, 12);
  ASSERT_NE(cast, nullptr);
  EXPECT_TRUE(cast->guards.empty());
}

TEST(CppExtractor, TorchCheckConcatenatesAndNamesThePythonClass) {
  auto s = Sites("void f(at::Tensor q) {\n  TORCH_CHECK(q.dim() == 2, \"bad dim \", q.dim(), \" x\");\n"
                 "  TORCH_CHECK_VALUE(q.numel() > 0);\n}\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].line, 2);
  EXPECT_EQ(s[0].error_class, "RuntimeError");
  EXPECT_EQ(s[0].error_message, "bad dim {q.dim()} x");
  EXPECT_EQ(s[0].message_pattern, "bad dim (.*?) x");
  EXPECT_EQ(s[0].function, "f");
  EXPECT_EQ(s[0].assert_condition, "q.dim() == 2");
  EXPECT_EQ(s[1].error_class, "ValueError");
  EXPECT_EQ(s[1].message_pattern,
            "Expected q\\.numel\\(\\) > 0 to be true, but got false\\.  \\(Could this error message be improved\\?  "
            "If so, please report an enhancement request to PyTorch\\.\\)");
}

TEST(CppExtractor, WrapperMacrosExpandWithStringizingAndKeepTheUseLine) {
  auto s = Sites(
      "#define CHECK_DEVICE(x) TORCH_CHECK(x.is_cuda(), #x \" must be on CUDA\")\n"
      "#define CHECK_DIM(d, x) TVM_FFI_ICHECK_EQ(x.ndim(), d) << #x \" must be a \" #d \"D tensor\";\n"
      "#define CHECK_INPUT(x) CHECK_DEVICE(x); CHECK_DIM(3, x)\n"
      "void f(Tensor q) {\n"
      "  CHECK_INPUT(q);\n"
      "}\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].line, 5);
  EXPECT_EQ(s[0].message_pattern, "q must be on CUDA");
  EXPECT_EQ(s[0].message_resolution, "macro:CHECK_INPUT > CHECK_DEVICE");
  EXPECT_EQ(s[1].error_class, "InternalError");
  EXPECT_EQ(s[1].message_pattern, "Check failed: q\\.ndim\\(\\) == 3(.*?): q must be a 3D tensor");
  EXPECT_EQ(s[1].assert_condition, "q.ndim() == 3");  // the comparison, not its first argument
}

TEST(CppExtractor, RepositoryTableFollowsTheIncludes) {
  // Two headers define CHECK_CUDA differently; the file includes the second.
  cpp::MacroTable table;
  std::string a = "#define CHECK_CUDA(call) printf(\"cuda %d\\n\", call); exit(1)\n";
  std::string b = "#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x \" must be a CUDA tensor\")\n";
  table.AddFile("csrc/a/jit.cuh", cpp::LexDefines("csrc/a/jit.cuh", a));
  table.AddFile("csrc/utils.h", cpp::LexDefines("csrc/utils.h", b));
  table.Finish();
  auto s = Sites("#include \"utils.h\"\nvoid f(T t) { CHECK_CUDA(t); }\n", &table, "csrc/k.cu");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].message_pattern, "t must be a CUDA tensor");
}

// A kernel's source kept in a raw string for NVRTC (ATen/native/cuda/
// reduction_template.cuh) or a commented-out block holds lines starting with
// '#': no compiler reads them as directives, so they define nothing -- else this
// `assert` made every repository use of assert() expand to nothing.
TEST(CppExtractor, DefinesInRawStringsAndBlockCommentsAreNoDefines) {
  std::string jit =
      "const std::string reduction_template = R\"ESCAPE(\n"
      "  #define assert(expr) (static_cast<void>(0))\n"
      "  __device__ void f() {}\n"
      ")ESCAPE\"; /* and\n"
      "#define CHECK_CUDA(x) (void)0\n"
      "*/\n"
      "#define JIT_REAL(x) TORCH_CHECK(x, \"real\")\n"
      "/* a comment\n"
      "   first */ #define AFTER_COMMENT(x) TORCH_CHECK(x)\n";
  cpp::LexResult lexed = cpp::LexDefines("csrc/cuda/reduction_template.cuh", jit);
  ASSERT_EQ(lexed.macros.size(), 2u);
  EXPECT_EQ(lexed.macros[0].name, "JIT_REAL");
  EXPECT_EQ(lexed.macros[0].line, 7u);
  EXPECT_EQ(lexed.macros[1].name, "AFTER_COMMENT");  // a comment is whitespace: still a directive
  EXPECT_EQ(lexed.macros[1].line, 9u);
  cpp::MacroTable table;
  table.AddFile("csrc/cuda/reduction_template.cuh", std::move(lexed));
  table.Finish();
  auto s = Sites("template <class T> T& at(SmallVector<T>& v, size_t idx) {\n  assert(idx < v.size());\n"
                 "  return v[idx];\n}\n",
                 &table, "c10/util/SmallVector.h");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].line, 2);
  EXPECT_EQ(s[0].error_class, "assert");
}

TEST(CppExtractor, MessagesBuiltInLocals) {
  auto s = Sites(
      "#define FLASHINFER_ERROR(message) throw flashinfer::Error(__FUNCTION__, __FILE__, __LINE__, message)\n"
      "void f(int n) {\n"
      "  std::ostringstream err_msg;\n"
      "  err_msg << \"Unsupported n: \" << n << \".\";\n"
      "  FLASHINFER_ERROR(err_msg.str());\n"
      "  std::string msg = \"bad \" + std::to_string(n);\n"
      "  msg += \"!\";\n"
      "  throw std::invalid_argument(msg);\n"
      "}\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].error_class, "flashinfer::Error");
  EXPECT_EQ(s[0].message_pattern, "Unsupported n: (.*?)\\.");
  EXPECT_EQ(s[1].error_class, "std::invalid_argument");
  EXPECT_EQ(s[1].message_pattern, "bad (.*?)!");
}

TEST(CppExtractor, FormatsAndPythonErrors) {
  auto s = Sites(
      "void f(int n, const char* s) {\n"
      "  PyErr_Format(PyExc_TypeError, \"expected %d items, got %s (%%)\", n, s);\n"
      "  throw std::runtime_error(fmt::format(\"bad {} and {{x}} {0}\", n));\n"
      "  LOG(FATAL) << \"dead: \" << n;\n"
      "  LOG(INFO) << \"not a site\";\n"
      "  CHECK_EQ(n, 3) << \"n\";\n"
      "  assert(n > 0 && \"positive\");\n"
      "  if (n < 0) { fprintf(stderr, \"fatal: %s\\n\", s); exit(1); }\n"
      "}\n");
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[0].error_class, "TypeError");
  EXPECT_EQ(s[0].message_pattern, "expected (.*?) items, got (.*?) \\(%\\)");
  EXPECT_EQ(s[1].message_pattern, "bad (.*?) and \\{x\\} (.*?)");
  EXPECT_EQ(s[2].kind, SiteKind::kPanic);
  EXPECT_EQ(s[2].error_class, "fatal");
  EXPECT_EQ(s[2].message_pattern, "dead: (.*?)");
  EXPECT_EQ(s[3].message_pattern, "Check failed: n == 3 \\((.*?) vs\\. (.*?)\\) n");
  EXPECT_EQ(s[3].assert_condition, "n == 3");
  EXPECT_EQ(s[4].kind, SiteKind::kAssert);
  EXPECT_EQ(s[4].message_pattern, "Assertion `n > 0 && \"positive\"' failed\\.");
  EXPECT_EQ(s[5].kind, SiteKind::kPanic);
  EXPECT_EQ(s[5].message_pattern, "fatal: (.*?)\n");
  EXPECT_EQ(s[5].guards, std::vector<std::string>{"n < 0"});
}

TEST(CppExtractor, ContextGuardsClassesAndRethrow) {
  auto s = Sites(
      "namespace ns {\n"
      "class Runner {\n"
      " public:\n"
      "  void run(int x) {\n"
      "    if (x > 1) {\n"
      "      throw std::out_of_range(\"too big\");\n"
      "    } else if (x < 0)\n"
      "      throw std::out_of_range(\"negative\");\n"
      "    try { g(); } catch (const std::exception& e) { throw; }\n"
      "    try { g(); } catch (const std::exception& e) { throw e; }\n"
      "  }\n"
      "};\n"
      "}\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].function, "Runner::run");
  EXPECT_EQ(s[0].guards, std::vector<std::string>{"x > 1"});
  EXPECT_EQ(s[1].guards, (std::vector<std::string>{"not (x > 1)", "x < 0"}));
}

TEST(CppExtractor, ConditionalBranchesAndDeadCode) {
  auto s = Sites(
      "#if 0\nvoid f() { TORCH_CHECK(false, \"dead\"); }\n#endif\n"
      "#ifdef FOO\nvoid g(int a) {\n#else\nvoid g(long a) {\n#endif\n"
      "  TORCH_CHECK(a, \"live\");\n}\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].message_pattern, "live");
  EXPECT_EQ(s[0].function, "g");
}

TEST(CppExtractor, DispatchBlockArgumentIsOneSite) {
  auto s = Sites(
      "#define DISPATCH(v, ...) switch (v) { case 1: { __VA_ARGS__(); } case 2: { __VA_ARGS__(); } \\\n"
      "  default: TORCH_CHECK(false, \"bad v \", v); }\n"
      "void f(int v) {\n"
      "  DISPATCH(v, [&] {\n"
      "    TORCH_CHECK(v != 3, \"three\");\n"
      "  });\n"
      "}\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].line, 4);
  EXPECT_EQ(s[0].message_pattern, "bad v (.*?)");
  EXPECT_EQ(s[1].line, 5);  // written once, pasted twice
  EXPECT_EQ(s[1].message_pattern, "three");
}

TEST(CppExtractor, LocalDeclaredRightAfterACaseLabel) {
  // flashinfer's TensorRT-LLM code: a message built in a local directly under default:.
  auto s = Sites("void f(int stages) {\n  switch (stages) {\n    case 2: break;\n    default:\n"
                 "      std::string err_msg = \"stages not supported: \" + std::to_string(stages);\n"
                 "      throw std::runtime_error(\"[dispatch] \" + err_msg);\n  }\n}\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].message_pattern, "\\[dispatch\\] stages not supported: (.*?)");
}

TEST(CppExtractor, HostileInputIsSafe) {
  std::string deep(100000, '(');
  EXPECT_TRUE(Sites(deep).empty());
  std::string braces(50000, '{');
  braces += "TORCH_CHECK(x, \"in\");";
  EXPECT_EQ(Sites(braces).size(), 1u);
  EXPECT_TRUE(Sites("#define A(x) A(x) B(x)\n#define B(x) A(x) TORCH_CHECK(x)\nA(1)\n").size() <= 2u);
  EXPECT_TRUE(Sites(std::string("\xff\xfe\x00\x01 TORCH_CHECK(", 18)).empty());
  EXPECT_TRUE(Sites("TORCH_CHECK(\"unterminated").empty());
  auto big = ExtractCpp("x.cc", std::string(kCppMaxFileBytes + 1, ' '));
  EXPECT_TRUE(big.failed);
}

// Issue 15: a 669 KB file whose 20,000 TORCH_CHECKs use a macro expanding to a
// 60 KB literal made 7 GB of sites (the front end ignored the extraction limits;
// the scanner cut them only afterwards). Every site is within the limits as it is
// made, and past max_sites the rest is counted.
TEST(CppExtractor, LimitsBoundSitesAndTheirTextsAsTheyAreMade) {
  std::string text = "#define BIG \"" + std::string(60000, 'x') + "\"\nvoid f(int x) {\n";
  for (int i = 0; i < 3000; ++i) text += "  TORCH_CHECK(x > " + std::to_string(i) + ", BIG);\n";
  text += "}\n";
  ExtractLimits limits;
  limits.max_sites = 100;
  limits.max_excerpt_bytes = 1000;
  CppExtractResult r = ExtractCpp("k.cc", text, nullptr, limits);
  ASSERT_EQ(r.sites.size(), 100u);
  EXPECT_EQ(r.sites_left_out, 2900u);
  EXPECT_EQ(r.sites.front().line, 3);  // the first ones in the file are kept
  for (const Site& s : r.sites) {
    ASSERT_TRUE(s.error_message.has_value());
    EXPECT_LE(s.error_message->size(), 1000u);
    EXPECT_LE(s.message_pattern.value_or("").size(), 1000u);
    EXPECT_LE(s.message_expr.value_or("").size(), 1000u);
    bool recorded = false;
    for (const auto& [field, before] : s.truncated) recorded |= field == "errorMessage" && before >= 60000;
    EXPECT_TRUE(recorded);
  }
}

// Issue 15: copies of one site (a block a dispatch macro pastes into each case,
// nested: flashinfer's mixed_comm.cu made 9,182 copies of 71 sites) counted
// against the site bound before they were merged, and 11 distinct sites were cut.
// Copies are merged as they are made: distinct sites under the bound all stay.
TEST(CppExtractor, CopiesOfASiteDoNotPushDistinctSitesOutOfTheBound) {
  std::string text;
  for (const char* d : {"D1", "D2", "D3"}) {  // three dispatch macros, as flashinfer's
    text += std::string("#define ") + d + "(t, ...) [&]() -> bool { ";
    for (int c = 0; c < 5; ++c) text += "if (t == " + std::to_string(c) + ") { return __VA_ARGS__(); } else ";
    text += "{ TORCH_CHECK(false, \"no case for \" #t); return false; } }()\n";
  }
  text += "void f(int a, int b, int c, int x) {\n  D1(a, [&] { return D2(b, [&] { return D3(c, [&] {\n";
  for (int i = 0; i < 30; ++i) text += "    TORCH_CHECK(x > " + std::to_string(i) + ", \"check " + std::to_string(i) + "\");\n";
  text += "    return true; }); }); });\n}\n";
  ExtractLimits limits;
  limits.max_sites = 100;  // 30 checks x 125 copies are made, and the dispatches' own
  CppExtractResult r = ExtractCpp("k.cu", text, nullptr, limits);
  EXPECT_EQ(r.sites_left_out, 0u);
  int checks = 0;
  for (const Site& s : r.sites) checks += s.error_message.value_or("").rfind("check ", 0) == 0;
  EXPECT_EQ(checks, 30);
  EXPECT_LT(r.sites.size(), 100u);
}

TEST(CppExtractor, PathsAndLanguage) {
  EXPECT_TRUE(IsCppPath("a/b.cu"));
  EXPECT_TRUE(IsCppPath("a/b.hpp"));
  EXPECT_FALSE(IsCppPath("a/b.py"));
  EXPECT_FALSE(IsCppPath("a.cu/b"));
  EXPECT_EQ(Sites("void f() { TORCH_CHECK(0, \"m\"); }", nullptr, "x.c")[0].language, "c");
  EXPECT_EQ(Sites("void f() { TORCH_CHECK(0, \"m\"); }", nullptr, "x.cuh")[0].language, "cuda");
  EXPECT_TRUE(Sites("void f() { TORCH_CHECK(0, \"m\"); }", nullptr, "tests/x_test.cc")[0].in_tests);
}

// A three-byte path ("a.h", a header at the repository's root) made the
// language test take path.substr(size - 4): an out_of_range exception, so the
// scan reported "internal error in the front end" and the file gave no sites.
TEST(CppExtractor, AThreeBytePathIsExtracted) {
  auto s = Sites("void f() { TORCH_CHECK(0, \"m\"); }", nullptr, "a.h");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].language, "cpp");
  EXPECT_EQ(Sites("void f() { TORCH_CHECK(0, \"m\"); }", nullptr, "a.c")[0].language, "c");
  EXPECT_EQ(Sites("void f() { TORCH_CHECK(0, \"m\"); }", nullptr, "k.cu")[0].language, "cuda");
}

}  // namespace
}  // namespace errdex
