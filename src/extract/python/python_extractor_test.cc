// Tests of ExtractPython: every message form and site kind with exact fields
// (expected values checked against ../shared/tools/oracle_py.py), the three
// seed records' source windows, and hostile input (must never crash or hang).
#include "extract/python/python_extractor.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace errdex {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const Site* SiteAt(const PythonExtractResult& r, int line) {
  for (const Site& s : r.sites)
    if (s.line == line) return &s;
  return nullptr;
}

std::string Opt(const std::optional<std::string>& s) { return s ? *s : std::string("<null>"); }

// The message forms (oracle_py agrees on every site of this file).
constexpr const char* kForms = R"PY(import textwrap
from flask import abort
from fastapi import HTTPException, status
from werkzeug.exceptions import NotFound
from http import HTTPStatus

PREFIX = "module prefix"

class Loader:
    def load(self, path, n):
        if not path:
            raise ValueError("path " "must be set")
        elif n > 3:
            raise ValueError(f"too many: {n!r:>4} for {self.name}")
        else:
            raise TypeError("bad %s at %d (%%)" % (path, n))
        raise KeyError("missing {} of {name}".format(path, name=n))
        raise KeyError("%(a)s and %(b)s" % {"a": path})
        raise OSError(", ".join(["x", path, "y"]))
        raise OSError(textwrap.dedent("""
            first
              second
            """))
        raise OSError("  padded  ".strip() + path)
        raise OSError("a-b".replace("-", "+"))
        msg = "base"
        msg += " more " + path
        raise RuntimeError(msg)
        raise RuntimeError(PREFIX + ": x")
        raise RuntimeError("yes" if n else "no")
        raise Err(ErrorCode.BAD_INPUT, "bad input")
        raise click.BadParameter(message="kw msg")
        err = LookupError("stored")
        raise err
        try:
            pass
        except KeyError as e:
            raise
        except (OSError, ValueError) as e:
            raise e
        except Exception as exc:
            raise RuntimeError("wrapped") from exc

def api(x):
    match x:
        case {"a": 1} if x:
            raise HTTPException(status_code=404, detail="not here")
        case _:
            raise HTTPException(status.HTTP_400_BAD_REQUEST, f"bad {x}")
    while x:
        abort(403, "forbidden")
    else:
        raise NotFound()
    if x: raise HTTPException(HTTPStatus.CONFLICT, "dup")
    assert x > 0, "x must be positive"
    assert x
)PY";

struct Want {
  int line, column, end_line;
  SiteKind kind;
  const char* cls;
  const char* message;
  const char* pattern;
  const char* resolution;
};

TEST(PythonExtractor, MessageFormsMatchTheOracle) {
  PythonExtractResult r = ExtractPython("pkg/forms.py", kForms);
  EXPECT_FALSE(r.failed);
  EXPECT_THAT(r.diagnostics, IsEmpty());
  const Want wants[] = {
      {12, 12, 12, SiteKind::kRaise, "ValueError", "path must be set", "path must be set", "literal"},
      {14, 12, 14, SiteKind::kRaise, "ValueError", "too many: {n!r:>4} for {self.name}", "too many: (.*?) for (.*?)", "literal"},
      {16, 12, 16, SiteKind::kRaise, "TypeError", "bad {path} at {n} (%)", "bad (.*?) at (.*?) \\(%\\)", "literal"},
      {17, 8, 17, SiteKind::kRaise, "KeyError", "missing {path} of {n}", "missing (.*?) of (.*?)", "literal"},
      {18, 8, 18, SiteKind::kRaise, "KeyError", "{path} and {b}", "(.*?) and (.*?)", "literal"},
      {19, 8, 19, SiteKind::kRaise, "OSError", "x, {path}, y", "x, (.*?), y", "literal"},
      {20, 8, 23, SiteKind::kRaise, "OSError", "\nfirst\n  second\n", "\nfirst\n  second\n", "literal"},
      {24, 8, 24, SiteKind::kRaise, "OSError", "padded{path}", "padded(.*?)", "literal"},
      {25, 8, 25, SiteKind::kRaise, "OSError", "a+b", "a\\+b", "literal"},
      {28, 8, 28, SiteKind::kRaise, "RuntimeError", "base more {path}", "(?:base more (.*?)|base)", "variable+aug"},  // the += part optional (beyond the oracle)
      {29, 8, 29, SiteKind::kRaise, "RuntimeError", "module prefix: x", "module prefix: x", "module-constant"},
      {30, 8, 30, SiteKind::kRaise, "RuntimeError", "yes", "(?:yes|no)", "literal"},
      {31, 8, 31, SiteKind::kRaise, "Err", "bad input", "bad input", "literal"},
      {32, 8, 32, SiteKind::kRaise, "BadParameter", "kw msg", "kw msg", "literal"},
      {34, 8, 34, SiteKind::kRaise, "LookupError", "stored", "stored", "variable:literal"},
      {42, 12, 42, SiteKind::kRaise, "RuntimeError", "wrapped", "wrapped", "literal"},
      {47, 12, 47, SiteKind::kHttp, "HTTPException", "not here", "not here", "literal"},
      {49, 12, 49, SiteKind::kHttp, "HTTPException", "bad {x}", "bad (.*?)", "literal"},
      {51, 8, 51, SiteKind::kHttp, "Forbidden", "forbidden", "forbidden", "literal"},
      {53, 8, 53, SiteKind::kHttp, "NotFound", nullptr, nullptr, ""},
      {54, 10, 54, SiteKind::kHttp, "HTTPException", "dup", "dup", "literal"},
      {55, 4, 55, SiteKind::kAssert, "AssertionError", "x must be positive", "x must be positive", "literal"},
      {56, 4, 56, SiteKind::kAssert, "AssertionError", nullptr, nullptr, ""},
  };
  ASSERT_EQ(r.sites.size(), std::size(wants));  // bare raise / raise e of the caught error are not sites
  for (size_t i = 0; i < std::size(wants); ++i) {
    const Want& w = wants[i];
    const Site& s = r.sites[i];
    SCOPED_TRACE("line " + std::to_string(w.line));
    EXPECT_EQ(s.line, w.line);
    EXPECT_EQ(s.column, w.column);
    EXPECT_EQ(s.end_line, w.end_line);
    EXPECT_EQ(s.kind, w.kind);
    EXPECT_EQ(Opt(s.error_class), w.cls);
    EXPECT_EQ(Opt(s.error_message), w.message ? w.message : "<null>");
    EXPECT_EQ(Opt(s.message_pattern), w.pattern ? w.pattern : "<null>");
    EXPECT_EQ(s.message_resolution, w.resolution);
    EXPECT_EQ(s.file_path, "pkg/forms.py");
    EXPECT_FALSE(s.in_tests);
  }
}

TEST(PythonExtractor, ContextFields) {
  PythonExtractResult r = ExtractPython("forms.py", kForms);
  const Site* s = SiteAt(r, 14);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->function, "Loader.load");
  EXPECT_THAT(s->guards, ElementsAre("not (not path)", "n > 3"));
  EXPECT_THAT(s->interpolations, ElementsAre("n!r:>4", "self.name"));
  EXPECT_EQ(Opt(s->message_expr), "f\"too many: {n!r:>4} for {self.name}\"");
  s = SiteAt(r, 16);
  ASSERT_NE(s, nullptr);
  EXPECT_THAT(s->guards, ElementsAre("not (not path)", "not (n > 3)"));
  s = SiteAt(r, 30);
  ASSERT_NE(s, nullptr);
  EXPECT_THAT(s->message_alternatives, ElementsAre("yes", "no"));
  s = SiteAt(r, 31);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->error_code), "ErrorCode.BAD_INPUT");
  s = SiteAt(r, 34);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->error_class_expr), "err <- LookupError");
  s = SiteAt(r, 42);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->except_context), "except Exception as exc");
  EXPECT_EQ(Opt(s->cause), "exc");
  EXPECT_EQ(SiteAt(r, 38), nullptr);
  EXPECT_EQ(SiteAt(r, 40), nullptr);
  s = SiteAt(r, 47);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->function, "api");
  EXPECT_THAT(s->guards, ElementsAre("match x: case {\"a\": 1} if x"));
  EXPECT_EQ(s->http_status, 404);
  s = SiteAt(r, 49);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->http_status, 400);
  s = SiteAt(r, 51);
  ASSERT_NE(s, nullptr);
  EXPECT_THAT(s->guards, ElementsAre("x"));
  EXPECT_EQ(s->http_status, 403);
  s = SiteAt(r, 53);
  ASSERT_NE(s, nullptr);
  EXPECT_THAT(s->guards, ElementsAre("not (x)"));
  EXPECT_EQ(s->http_status, 404);
  s = SiteAt(r, 54);
  ASSERT_NE(s, nullptr);
  EXPECT_THAT(s->guards, ElementsAre("x"));  // one-line compound statement
  EXPECT_EQ(s->http_status, 409);
  s = SiteAt(r, 55);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->assert_condition), "x > 0");
}

constexpr const char* kKinds = R"PY(import logging
import warnings
from http import HTTPStatus
from fastapi.responses import JSONResponse

logger = logging.getLogger(__name__)

def make_error(msg):
    return ConfigError(msg)

class Server:
    async def handle(self, request):
        if request.bad:
            return self.create_error_response(
                f"model {request.model} not found", err_type="NotFoundError", status_code=HTTPStatus.NOT_FOUND)
        if request.limit:
            return JSONResponse(status_code=429, content={"error": {"message": "rate limited: %s" % request.user}})
        ok = JSONResponse(status_code=200, content={"error": "not an error"})
        logger.warning("slow request %s took %.2fs", request.id, request.t)
        logging.error("plain %(name)s", {"name": request.name})
        self.logger.exception("boom")
        log.critical(f"critical {request.id}")
        warnings.warn("old api", DeprecationWarning, stacklevel=2)
        warnings.warn("default category")
        logger.info("not a site")
        raise make_error("factory message")
)PY";

TEST(PythonExtractor, HttpResponseAndLogKinds) {
  PythonExtractResult r = ExtractPython("app/server.py", kKinds);
  ASSERT_EQ(r.sites.size(), 9u);
  const Site* s = SiteAt(r, 14);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SiteKind::kHttpResponse);
  EXPECT_EQ(s->column, 19);
  EXPECT_EQ(s->end_line, 15);
  EXPECT_EQ(s->http_status, 404);
  EXPECT_EQ(s->error_class, std::nullopt);
  EXPECT_EQ(Opt(s->error_message), "model {request.model} not found");
  EXPECT_EQ(Opt(s->message_pattern), "model (.*?) not found");
  EXPECT_THAT(s->guards, ElementsAre("request.bad"));
  EXPECT_EQ(s->function, "Server.handle");
  s = SiteAt(r, 17);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SiteKind::kHttpResponse);
  EXPECT_EQ(s->http_status, 429);
  EXPECT_EQ(Opt(s->error_message), "rate limited: {request.user}");
  EXPECT_EQ(SiteAt(r, 18), nullptr);  // status 200 is not an error
  s = SiteAt(r, 19);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SiteKind::kLog);
  EXPECT_EQ(Opt(s->log_level), "warning");
  EXPECT_EQ(s->error_class, std::nullopt);
  EXPECT_EQ(Opt(s->error_message), "slow request {request.id} took {request.t}s");
  EXPECT_EQ(Opt(s->message_pattern), "slow request (.*?) took (.*?)s");
  s = SiteAt(r, 20);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->log_level), "error");
  EXPECT_EQ(Opt(s->error_message), "plain {request.name}");
  s = SiteAt(r, 21);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->log_level), "exception");
  EXPECT_EQ(Opt(s->error_class_expr), "self.logger.exception");
  s = SiteAt(r, 22);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->log_level), "critical");
  s = SiteAt(r, 23);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SiteKind::kLog);
  EXPECT_EQ(Opt(s->error_class), "DeprecationWarning");
  EXPECT_EQ(Opt(s->error_message), "old api");
  s = SiteAt(r, 24);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->error_class), "UserWarning");
  EXPECT_EQ(SiteAt(r, 25), nullptr);  // info is not a warning
  s = SiteAt(r, 26);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->error_class), "ConfigError");  // resolved through the factory's return
  EXPECT_EQ(Opt(s->error_message), "factory message");
}

TEST(PythonExtractor, LoggerFromGetLogger) {
  PythonExtractResult r = ExtractPython("t.py", "import logging\nlogging.getLogger(__name__).error(\"failed: %s\", err)\nfoo(x).error('no')\n");
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].kind, SiteKind::kLog);
  EXPECT_EQ(r.sites[0].column, 0);
  EXPECT_EQ(Opt(r.sites[0].error_class_expr), "logging.getLogger(__name__).error");
  EXPECT_EQ(Opt(r.sites[0].error_message), "failed: {err}");
}

TEST(PythonExtractor, ColumnsAreUtf8Bytes) {
  PythonExtractResult r = ExtractPython("t.py", "def f():\n    x = \"\xc3\xa9\"; raise ValueError(\"\xc3\xa9t\xc3\xa9 {}\".format(x))\n");
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].column, 14);  // 4 + len('x = "\xc3\xa9"; ') in bytes
  EXPECT_EQ(Opt(r.sites[0].error_message), "\xc3\xa9t\xc3\xa9 {x}");
}

TEST(PythonExtractor, InTestsAndQualifiedNames) {
  const char* src = "class A:\n  class B:\n    def m(self):\n      def inner():\n        raise E('x')\n";
  PythonExtractResult r = ExtractPython("tests/unit/x.py", src);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].function, "A.B.m.inner");
  EXPECT_TRUE(r.sites[0].in_tests);
  EXPECT_TRUE(ExtractPython("pkg/test_x.py", src).sites[0].in_tests);
  EXPECT_TRUE(ExtractPython("conftest.py", src).sites[0].in_tests);
  EXPECT_FALSE(ExtractPython("pkg/testing.py", src).sites[0].in_tests);
}

TEST(PythonExtractor, DynamicClasses) {
  const char* src =
      "def f(exc_cls, last_exc):\n"
      "    raise exc_cls('boom')\n"
      "    raise last_exc\n"
      "    raise get_error()('x')\n";
  PythonExtractResult r = ExtractPython("t.py", src);
  ASSERT_EQ(r.sites.size(), 3u);
  for (const Site& s : r.sites) {
    EXPECT_TRUE(s.dynamic) << s.line;
    EXPECT_EQ(s.error_class, std::nullopt) << s.line;
  }
  EXPECT_EQ(Opt(r.sites[0].error_message), "boom");
}

// Expected values from oracle_py (ast.unparse); d["k"] inside f"..." is PEP 701.
TEST(PythonExtractor, HoleTextIsNormalizedLikeAstUnparse) {
  const char* src =
      "def f(d, xs, a, b):\n"
      "    raise E(f\"{d[\"k\"]} {', '.join(str( x ) for x in xs if x)} {a if b else  -a}\")\n"
      "    raise E(\"v: %s\" % (a+b)*2)\n"
      "    raise E('{}'.format([y*2 for y, _ in d.items()]), 'x')\n"
      "    raise E(f'{a and not b} {f\"{a!r}\"}')\n";
  PythonExtractResult r = ExtractPython("t.py", src);
  ASSERT_EQ(r.sites.size(), 4u);
  EXPECT_EQ(Opt(r.sites[0].error_message), "{d['k']} {', '.join((str(x) for x in xs if x))} {a if b else -a}");
  EXPECT_EQ(r.sites[1].error_message, std::nullopt);  // ("v: %s" % (a+b)) * 2 is not a string form
  EXPECT_EQ(r.sites[2].error_message, std::nullopt);  // no literal text at all
  EXPECT_THAT(r.sites[2].interpolations, IsEmpty());
  EXPECT_EQ(Opt(r.sites[3].error_message), "{a and (not b)} {f'{a!r}'}");
}

TEST(PythonExtractor, Pep701FStrings) {
  const char* src = "def f(d, y):\n    raise ValueError(f\"bad {d[\"k\"]} and {f\"{y}\"}: {\"\\n\".join(d)}\")\n";
  PythonExtractResult r = ExtractPython("t.py", src);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_THAT(r.diagnostics, IsEmpty());
  EXPECT_EQ(Opt(r.sites[0].error_message), "bad {d['k']} and {f'{y}'}: {'\\n'.join(d)}");
  EXPECT_EQ(Opt(r.sites[0].message_pattern), "bad (.*?) and (.*?): (.*?)");
}

// Lazily parsed assignments grow the node arena while a raise is evaluated
// (a use-after-free found by fuzzing under ASan; run with ERRDEX_SANITIZE=ON).
TEST(PythonExtractor, LazyAssignmentParsingDuringEvaluation) {
  std::string big = "[0";
  for (int i = 1; i < 3000; ++i) big += ", " + std::to_string(i);
  big += "]";
  std::string src = "def f(c):\n    err = LookupError(\"stored\", " + big + ")\n    raise err\n"
                    "    m = \"ab\" if " + big + " else \"cd\"\n    raise ValueError(m if c else m)\n"
                    "    k = \"kk\" if " + big + " else \"jj\"\n    raise ValueError(\", \".join([k, \"z\"]))\n";
  PythonExtractResult r = ExtractPython("t.py", src);
  ASSERT_EQ(r.sites.size(), 3u);
  EXPECT_EQ(Opt(r.sites[0].error_class), "LookupError");
  EXPECT_EQ(Opt(r.sites[0].error_class_expr), "err <- LookupError");
  EXPECT_EQ(Opt(r.sites[0].error_message), "stored");
  EXPECT_EQ(Opt(r.sites[1].error_message), "ab");
  EXPECT_EQ(Opt(r.sites[1].message_pattern), "(?:ab|cd)");
  EXPECT_EQ(Opt(r.sites[2].error_message), "kk, z");
  EXPECT_EQ(Opt(r.sites[2].message_pattern), "(?:kk, z|jj, z)");
}

// --- seeds ---------------------------------------------------------------
struct SeedCase {
  const char* file;
  const char* header;  // lines put above the window so its indentation parses
  int header_lines;
};

TEST(PythonExtractor, SeedWindowsReproduceTheSeedRecords) {
  const SeedCase cases[] = {
      {"000_6372fd8a0e5af399.txt", "class ServerArgs:\n    def _handle_a2a_moe(self, cfg, a2a_backend):\n", 2},
      {"001_aeab84cad267806c.txt", "def _resolve_moe_runner_backend(view):\n", 1},
      {"003_244498f5241e1ac1.txt", "", 0},
  };
  for (const SeedCase& c : cases) {
    SCOPED_TRACE(c.file);
    std::ifstream in(std::string(ERRDEX_SHARED_DIR) + "/seeds/" + c.file);
    ASSERT_TRUE(in.good()) << "missing seed file";
    std::stringstream ss;
    ss << in.rdbuf();
    nlohmann::json rec = nlohmann::json::parse(ss.str())["record"];
    std::string src = std::string(c.header) + rec["sourceCode"].get<std::string>() + "\n";
    int line = rec["lineNumber"].get<int>() - rec["sourceCodeStart"].get<int>() + 1 + c.header_lines;
    PythonExtractResult r = ExtractPython(rec["filePath"].get<std::string>(), src);
    const Site* s = SiteAt(r, line);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->kind, SiteKind::kRaise);
    EXPECT_EQ(Opt(s->error_class), rec["errorClass"].get<std::string>());
    EXPECT_EQ(Opt(s->error_message), rec["errorMessage"].get<std::string>());
    EXPECT_EQ(Opt(s->message_pattern), rec["messagePattern"].get<std::string>());
    EXPECT_EQ(s->file_path, rec["filePath"].get<std::string>());
  }
}

TEST(PythonExtractor, SeedGuards) {
  std::ifstream in(std::string(ERRDEX_SHARED_DIR) + "/seeds/001_aeab84cad267806c.txt");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json rec = nlohmann::json::parse(ss.str())["record"];
  std::string src = "def _resolve(view):\n" + rec["sourceCode"].get<std::string>() + "\n";
  PythonExtractResult r = ExtractPython("overrides.py", src);
  const Site* s = SiteAt(r, 20);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->function, "_resolve");
  EXPECT_THAT(s->guards, ElementsAre("view.quantization == \"nvfp4_online\"", "not (moe_runner_backend == \"auto\")",
                                     "moe_runner_backend not in [\n            \"flashinfer_trtllm\",\n"
                                     "            \"flashinfer_trtllm_routed\",\n            \"flashinfer_cutedsl\",\n"
                                     "        ]"));
}

// --- hostile input ----------------------------------------------------------
TEST(PythonExtractor, InvalidUtf8AndNulBytes) {
  const char raw[] = "def f():\n    raise ValueError(\"bad \xff\xfe bytes\")\n\x00\x01 junk $ ? `\n    raise KeyError('after')\n";
  std::string src(raw, sizeof raw - 1);
  ASSERT_NE(src.find('\0'), std::string::npos);
  PythonExtractResult r = ExtractPython("t.py", src);
  EXPECT_FALSE(r.failed);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(Opt(r.sites[0].error_message), "bad \xff\xfe bytes");
  EXPECT_EQ(Opt(r.sites[1].error_message), "after");
  EXPECT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].path, "t.py");
  EXPECT_EQ(r.diagnostics[0].line, 3);
}

// L5: a raise on line 1 right after a UTF-8 BOM was missed (CPython accepts it).
TEST(PythonExtractor, ByteOrderMarkBeforeTheFirstStatement) {
  PythonExtractResult r = ExtractPython(
      "b.py", "\xEF\xBB\xBFraise ValueError(\"bom first statement\")\nraise ValueError(\"second statement\")\n");
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(Opt(r.sites[0].error_message), "bom first statement");
  EXPECT_EQ(r.sites[0].line, 1);
  EXPECT_EQ(r.sites[0].column, 0);  // as CPython's col_offset
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(PythonExtractor, UnterminatedStrings) {
  PythonExtractResult r = ExtractPython("t.py", "raise ValueError('open\nraise KeyError('ok')\nx = '''never closed\n");
  ASSERT_GE(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].line, 1);
  EXPECT_EQ(r.diagnostics[0].column, 17);
  EXPECT_EQ(r.diagnostics[0].message, "unterminated string literal");
  const Site* s = SiteAt(r, 2);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Opt(s->error_message), "ok");
}

TEST(PythonExtractor, DeepNestingDoesNotOverflow) {
  std::string brackets = "raise ValueError(" + std::string(5000, '(') + "'x'" + std::string(5000, ')') + ")\n";
  PythonExtractResult r = ExtractPython("t.py", brackets);
  ASSERT_EQ(r.sites.size(), 1u);  // too deep to parse: still a site, no crash
  std::string indent;
  std::string deep;
  for (int i = 0; i < 500; ++i) {
    deep += indent + "if c" + std::to_string(i) + ":\n";
    indent += " ";
  }
  deep += indent + "raise KeyError('deep')\n";
  ExtractLimits all_guards;
  all_guards.max_guards = 500;
  r = ExtractPython("t.py", deep, all_guards);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].guards.size(), 500u);
  EXPECT_EQ(r.sites[0].line, 501);
  EXPECT_TRUE(r.sites[0].truncated.empty());
  r = ExtractPython("t.py", deep);  // by default the innermost 64, and a note of the cut
  ASSERT_EQ(r.sites.size(), 1u);
  ASSERT_EQ(r.sites[0].guards.size(), 64u);
  EXPECT_EQ(r.sites[0].guards.front(), "c436");
  EXPECT_EQ(r.sites[0].guards.back(), "c499");
  EXPECT_EQ(r.sites[0].truncated, (std::vector<std::pair<std::string, uint64_t>>{{"guards", 500}}));
  std::string fdeep = "raise E(f'" + std::string(300, '{') + "x" + std::string(300, '}') + "')\n";
  r = ExtractPython("t.py", fdeep);
  EXPECT_EQ(r.sites.size(), 1u);
}

// Chains build trees as tall as they are long with no brackets at all: the
// parser bounds the height, so Unparse and the message evaluation never recurse
// past it (a 30,000-term `+` chain overflowed the stack of Unparse).
TEST(PythonExtractor, TallExpressionTreesAreBoundedNotOverflowed) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  const std::string after = "raise KeyError('after')\n";
  const std::vector<std::string> hostile = {
      "raise ValueError(" + repeat("\"part \" + ", 30000) + "\"end\")\n",
      "raise ValueError(" + repeat("x.", 30000) + "y)\n",
      "raise ValueError(f" + repeat("()", 30000) + ")\n",
      "raise ValueError(x" + repeat("[0]", 30000) + ")\n",
      "raise ValueError(" + repeat("\"a\" % ", 30000) + "\"b\")\n",
      "raise ValueError(" + repeat("-", 30000) + "1)\n",
      "raise ValueError(" + repeat("2 ** ", 30000) + "1)\n",
      "logger.error(" + repeat("\"a\" + ", 30000) + "\"b\")\n",
      "assert x, " + repeat("\"a\" + ", 30000) + "\"b\"\n",
      "msg = " + repeat("\"a\" + ", 30000) + "\"b\"\nraise TypeError(msg + x)\n",
  };
  for (const std::string& src : hostile) {
    PythonExtractResult r = ExtractPython("t.py", src + after);
    const Site* last = r.sites.empty() ? nullptr : &r.sites.back();
    ASSERT_NE(last, nullptr) << src.substr(0, 40);
    EXPECT_EQ(Opt(last->error_message), "after") << src.substr(0, 40);  // the rest of the file is scanned
  }
  PythonExtractResult r = ExtractPython("t.py", hostile[0] + after);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_TRUE(r.sites[0].dynamic);  // a safe result: the site, without class or message
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].line, 1);
  EXPECT_THAT(r.diagnostics[0].message, ::testing::HasSubstr("nested deeper than the expression limits"));

  // f-string fields are parsed by nested parses: their depth adds up (60 levels
  // of f-strings, each inside 150 brackets).
  std::string nested = "x";
  for (int i = 0; i < 60; ++i) nested = "f\"{" + std::string(150, '(') + nested + std::string(150, ')') + "}\"";
  r = ExtractPython("t.py", "raise ValueError(" + nested + ")\n" + after);
  ASSERT_FALSE(r.sites.empty());
  EXPECT_EQ(Opt(r.sites.back().error_message), "after");

  // Below the limit nothing changes: a 400-term chain is read as the oracle
  // reads it (8 levels evaluated, the rest one hole unparsed in full).
  r = ExtractPython("t.py", "raise ValueError(" + repeat("\"ab\" + ", 399) + "\"ab\")\n");
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(Opt(r.sites[0].error_message), "{'ab'" + repeat(" + 'ab'", 391) + "}" + repeat("ab", 8));
  EXPECT_TRUE(r.diagnostics.empty());
}

// Resource limits (extract/common/limits.h) are applied as sites are made: a
// 20,000-branch elif chain builds 64 guards per site, not 20,000.
TEST(PythonExtractor, LimitsBoundGuardsSitesAndExcerpts) {
  std::string chain = "def f(x):\n    if x == 0:\n        raise ValueError('b0')\n";
  for (int i = 1; i < 20000; ++i)
    chain += "    elif x == " + std::to_string(i) + ":\n        raise ValueError('b" + std::to_string(i) + "')\n";
  ExtractLimits limits;
  limits.max_sites = 100000;
  PythonExtractResult r = ExtractPython("t.py", chain, limits);
  ASSERT_EQ(r.sites.size(), 20000u);
  const Site& last = r.sites.back();
  ASSERT_EQ(last.guards.size(), 64u);
  EXPECT_EQ(last.guards.back(), "x == 19999");
  EXPECT_EQ(last.guards.front(), "not (x == 19936)");
  EXPECT_EQ(last.truncated, (std::vector<std::pair<std::string, uint64_t>>{{"guards", 20000}}));
  EXPECT_TRUE(r.sites[10].truncated.empty());

  // Sites past max_sites are counted, not made; the first ones are kept.
  r = ExtractPython("t.py", chain);
  EXPECT_EQ(r.sites.size(), 5000u);
  EXPECT_EQ(r.sites_left_out, 15000u);
  EXPECT_EQ(Opt(r.sites.back().error_message), "b4999");

  // A 1 MB condition guarding 200 raises, a 1 MB message reused by each of them.
  std::string big = "MSG = '" + std::string(1 << 20, 'm') + "'\nif " + std::string(1 << 20, 'c') + ":\n";
  for (int i = 0; i < 200; ++i) big += "    raise ValueError(MSG)\n";
  r = ExtractPython("t.py", big);
  ASSERT_EQ(r.sites.size(), 200u);
  for (const Site& s : r.sites) {
    ASSERT_EQ(s.guards.size(), 1u);
    EXPECT_EQ(s.guards[0].size(), ExtractLimits{}.max_guard_bytes);
    EXPECT_EQ(s.error_message->size(), ExtractLimits{}.max_excerpt_bytes);
    EXPECT_EQ(s.message_pattern->size(), ExtractLimits{}.max_excerpt_bytes);
  }
  EXPECT_EQ(r.sites[0].truncated, (std::vector<std::pair<std::string, uint64_t>>{
                                      {"guardBytes", 1u << 20}, {"messagePattern", 1u << 20}, {"errorMessage", 1u << 20}}));
}

TEST(PythonExtractor, LineEndingsFormFeedsAndTabs) {
  PythonExtractResult crlf = ExtractPython("t.py", "def f():\r\n    x = 1\r\n    raise ValueError('a')\r\n");
  ASSERT_EQ(crlf.sites.size(), 1u);
  EXPECT_EQ(crlf.sites[0].line, 3);
  EXPECT_EQ(crlf.sites[0].column, 4);
  PythonExtractResult cr = ExtractPython("t.py", "def f():\r    x = 1\r    raise ValueError('a\\\r b')\r");
  ASSERT_EQ(cr.sites.size(), 1u);
  EXPECT_EQ(cr.sites[0].line, 3);
  EXPECT_EQ(cr.sites[0].end_line, 4);
  EXPECT_EQ(Opt(cr.sites[0].error_message), "a b");
  PythonExtractResult ff = ExtractPython("t.py", "\x0c\ndef f():\n\x0c    if x:\n\traise ValueError('t')\n");
  ASSERT_EQ(ff.sites.size(), 1u);
  EXPECT_EQ(ff.sites[0].function, "f");
  EXPECT_THAT(ff.sites[0].guards, ElementsAre("x"));
  EXPECT_TRUE(ExtractPython("t.py", "").sites.empty());
  EXPECT_TRUE(ExtractPython("t.py", "\\").sites.empty());
}

// `raise error(msg)` through a parameter that defaults to a class (runpy's
// `_get_module_details(mod_name, error=ImportError)`): the default is the class; a
// parameter the body rebinds, or one without a class default, stays unknown.
TEST(PythonExtractor, ParameterDefaultingToAClassIsTheRaisedClass) {
  PythonExtractResult r = ExtractPython(
      "runpy.py",
      "def details(mod_name, error=ImportError):\n    raise error(\"No module named %s\" % mod_name)\n"
      "def rebound(x, error=ValueError):\n    error = TypeError\n    raise error('a')\n"
      "def plain(x, error):\n    raise error('b')\n"
      "def nested(x, error=KeyError):\n    def inner():\n        raise error('c')\n    return inner\n");
  ASSERT_EQ(r.sites.size(), 4u);
  EXPECT_EQ(Opt(r.sites[0].error_class), "ImportError");
  EXPECT_EQ(Opt(r.sites[0].error_message), "No module named {mod_name}");
  EXPECT_FALSE(r.sites[1].error_class);
  EXPECT_TRUE(r.sites[1].dynamic);
  EXPECT_FALSE(r.sites[2].error_class);
  EXPECT_EQ(Opt(r.sites[3].error_class), "KeyError");  // the enclosing function's parameter
}

TEST(PythonExtractor, LargeFileIsLinear) {
  // ~2 KB per site, like real code (a dense unit only measures allocation)
  std::string unit = "def f(x):\n    \"\"\"" + std::string(1500, 'd') + "\"\"\"\n    if x:\n        raise ValueError(f\"bad {x}\")\n" +
                     std::string(40, '#') + "\n" + "    y = [x, x + 1, {'k': x}]  # comment\n    return y\n";
  std::string big;
  while (big.size() < (50u << 20)) big += unit;
  ExtractLimits unlimited;
  unlimited.max_sites = SIZE_MAX;
  PythonExtractResult r = ExtractPython("big.py", big, unlimited);
  EXPECT_EQ(r.sites.size(), big.size() / unit.size());
  EXPECT_EQ(r.sites_left_out, 0u);
  EXPECT_EQ(r.sites.back().line, static_cast<int>(big.size() / unit.size()) * 7 - 3);
}

// A parameter's default template where the message is formatted from it (the
// warnings module's `_deprecated(name, message=_DEPRECATED_MSG, ...)`, which calls
// its own `warn`) or is it: the text callers get when they leave it out, open to
// others ("+default+open"). A parameter inside a larger text stays a hole: callers
// pass it differently.
TEST(PythonExtractorBeyondOracle, ParameterDefaultTemplate) {
  constexpr const char* kSrc = R"PY(
def warn(message, category=None, stacklevel=1, source=None):
    pass

_DEPRECATED_MSG = "{name!r} is deprecated and slated for removal in Python {remove}"

def _deprecated(name, message=_DEPRECATED_MSG, *, remove):
    msg = message.format(name=name, remove=f"{remove[0]}.{remove[1]}")
    warn(msg, DeprecationWarning, stacklevel=3)

def load(path, reason="file not found: %s"):
    raise OSError(reason % path)

def check(mode="r"):
    raise ValueError(f"invalid mode {mode}")

def fail(message="Invalid file"):
    raise ValueError(message)
)PY";
  PythonExtractResult r = ExtractPython("warnings.py", kSrc, ExtractLimits{});
  const Site* s = SiteAt(r, 9);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "DeprecationWarning");
  EXPECT_EQ(s->message_pattern.value_or(""), "(.*?) is deprecated and slated for removal in Python (.*?)");
  EXPECT_NE(s->message_resolution.find("+default+open"), std::string::npos) << s->message_resolution;
  s = SiteAt(r, 12);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "file not found: (.*?)");
  s = SiteAt(r, 15);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "invalid mode (.*?)");
  s = SiteAt(r, 18);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "Invalid file");
  EXPECT_NE(s->message_resolution.find("+default+open"), std::string::npos) << s->message_resolution;
  // Elsewhere a bare warn() is the warnings module's only when imported from it.
  r = ExtractPython("other.py", "def warn(message, level):\n    pass\n\ndef f():\n    warn('x', 1)\n",
                    ExtractLimits{});
  EXPECT_EQ(SiteAt(r, 5), nullptr);
}

}  // namespace
}  // namespace errdex
