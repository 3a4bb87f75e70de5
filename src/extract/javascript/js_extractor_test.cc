// Tests of the JavaScript / TypeScript front end (js_extractor.h): each site kind
// and message form with exact expected fields, context (function, guards, catch),
// and hostile input (syntax errors, invalid UTF-8, NUL bytes, big and deep files).
#include "extract/javascript/js_extractor.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace errdex {
namespace {

#ifndef ERRDEX_HAVE_TREE_SITTER

TEST(JsExtractor, WithoutGrammarFailsWithDiagnostic) {
  JsExtractResult r = ExtractJavaScript("a.js", "throw new Error('x');", false);
  EXPECT_TRUE(r.failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("grammar not built"), std::string::npos);
  EXPECT_TRUE(r.sites.empty());
  GTEST_SKIP() << "tree-sitter was not fetched (scripts/fetch-third-party.sh): the other JS tests need it";
}

#else

JsExtractResult Js(const std::string& src, const char* path = "src/app.js") {
  return ExtractJavaScript(path, src, false);
}
JsExtractResult Ts(const std::string& src, const char* path = "src/app.ts") {
  return ExtractJavaScript(path, src, true);
}

// The only site of `src`; fails the test when there is not exactly one.
Site One(const JsExtractResult& r) {
  EXPECT_FALSE(r.failed);
  EXPECT_EQ(r.sites.size(), 1u);
  if (r.sites.empty()) return Site{};
  return r.sites[0];
}

using Strings = std::vector<std::string>;

// ---------------------------------------------------------------------------
// throw

TEST(JsThrow, NewWithStringLiteral) {
  JsExtractResult r = Js("const a = 1;\n  throw new Error(\"Invalid value (x). Use [a-z]+ only\");\n");
  EXPECT_TRUE(r.diagnostics.empty());
  Site s = One(r);
  EXPECT_EQ(s.kind, SiteKind::kRaise);
  EXPECT_EQ(s.language, "javascript");
  EXPECT_EQ(s.file_path, "src/app.js");
  EXPECT_EQ(s.line, 2);
  EXPECT_EQ(s.column, 2);
  EXPECT_EQ(s.end_line, 2);
  EXPECT_EQ(s.error_class, "Error");
  EXPECT_EQ(s.error_class_expr, "Error");
  EXPECT_EQ(s.error_message, "Invalid value (x). Use [a-z]+ only");
  EXPECT_EQ(s.message_pattern, "Invalid value \\(x\\)\\. Use \\[a-z\\]\\+ only");
  EXPECT_EQ(s.message_expr, "\"Invalid value (x). Use [a-z]+ only\"");
  EXPECT_EQ(s.message_resolution, "literal");
  EXPECT_TRUE(s.interpolations.empty());
  EXPECT_EQ(s.function, "<module>");
  EXPECT_TRUE(s.guards.empty());
  EXPECT_FALSE(s.except_context.has_value());
  EXPECT_FALSE(s.dynamic);
  EXPECT_FALSE(s.in_tests);
}

TEST(JsThrow, CallWithoutNewAndDottedClass) {
  JsExtractResult r = Js("throw TypeError('not a function');\nthrow new errors.NotFound('gone');\n");
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].error_class, "TypeError");
  EXPECT_EQ(r.sites[0].error_message, "not a function");
  EXPECT_EQ(r.sites[1].error_class, "NotFound");
  EXPECT_EQ(r.sites[1].error_class_expr, "errors.NotFound");
  EXPECT_EQ(r.sites[1].line, 2);
}

TEST(JsThrow, MultiLineStatementEndLine) {
  Site s = One(Js("throw new Error(\n  'a' +\n  'b'\n);\n"));
  EXPECT_EQ(s.line, 1);
  EXPECT_EQ(s.end_line, 4);
  EXPECT_EQ(s.error_message, "ab");
  EXPECT_EQ(s.message_expr, "'a' +\n  'b'");
}

TEST(JsThrow, NoMessage) {
  Site s = One(Js("throw new TimeoutError();"));
  EXPECT_EQ(s.error_class, "TimeoutError");
  EXPECT_FALSE(s.error_message.has_value());
  EXPECT_FALSE(s.message_pattern.has_value());
  EXPECT_FALSE(s.message_expr.has_value());
}

TEST(JsThrow, ThrowString) {
  Site s = One(Js("throw 'plain failure';"));
  EXPECT_EQ(s.kind, SiteKind::kRaise);
  EXPECT_FALSE(s.error_class.has_value());
  EXPECT_EQ(s.error_message, "plain failure");
}

TEST(JsThrow, FactoryCallIsDynamicWithMessage) {
  Site s = One(Js("throw makeError('bad ' + x);"));
  EXPECT_TRUE(s.dynamic);
  EXPECT_FALSE(s.error_class.has_value());
  EXPECT_EQ(s.error_class_expr, "makeError");
  EXPECT_EQ(s.error_message, "bad {x}");
}

TEST(JsThrow, ErrorCodeBeforeMessage) {
  Site s = One(Js("throw new AppError(ErrorCode.NOT_FOUND, `user ${id} missing`);"));
  EXPECT_EQ(s.error_class, "AppError");
  EXPECT_EQ(s.error_code, "ErrorCode.NOT_FOUND");
  EXPECT_EQ(s.error_message, "user {id} missing");
  EXPECT_EQ(s.message_expr, "`user ${id} missing`");
}

TEST(JsThrow, ObjectAssignCode) {
  Site s = One(Js("throw Object.assign(new Error('private package'), { code: 'EPRIVATE' });"));
  EXPECT_EQ(s.error_class, "Error");
  EXPECT_EQ(s.error_message, "private package");
  EXPECT_EQ(s.error_code, "EPRIVATE");
}

TEST(JsThrow, OptionsObjectMessage) {
  Site s = One(Js("throw new ConfigError({ message: 'missing key', key });"));
  EXPECT_EQ(s.error_message, "missing key");
}

TEST(JsThrow, RethrowOfCaughtErrorIsNotASite) {
  JsExtractResult r = Js(
      "try { run(); } catch (err) {\n  throw err;\n}\n"
      "p.catch(e => { throw e; });\n"
      "p.then(ok).catch(function (e2) { throw e2; });\n");
  EXPECT_TRUE(r.sites.empty());
}

TEST(JsThrow, ThrowOfUnknownIdentifierIsDynamic) {
  Site s = One(Js("function f(lastError) { throw lastError; }"));
  EXPECT_TRUE(s.dynamic);
  EXPECT_EQ(s.error_class_expr, "lastError");
  EXPECT_FALSE(s.error_class.has_value());
  EXPECT_EQ(s.function, "f");
}

TEST(JsThrow, ThrowOfVariableHoldingNewError) {
  Site s = One(Js("function f() {\n  const err = new NotFound('no ' + what);\n  throw err;\n}"));
  EXPECT_FALSE(s.dynamic);
  EXPECT_EQ(s.line, 3);
  EXPECT_EQ(s.error_class, "NotFound");
  EXPECT_EQ(s.error_class_expr, "err <- NotFound");
  EXPECT_EQ(s.error_message, "no {what}");
  EXPECT_EQ(s.message_resolution, "variable:literal");
}

TEST(JsThrow, NewErrorNotThrownIsNotASite) {
  JsExtractResult r = Js("const e = new Error('kept for later'); callback(new Error('cb'));");
  EXPECT_TRUE(r.sites.empty());
}

// ---------------------------------------------------------------------------
// Message forms

TEST(JsMessage, TemplateLiteralHoles) {
  Site s = One(Js("throw new Error(`Model ${model.name} needs ${a}${b} GB (have ${free()}).`);"));
  EXPECT_EQ(s.error_message, "Model {model.name} needs {a}{b} GB (have {free()}).");
  EXPECT_EQ(s.message_pattern, "Model (.*?) needs (.*?) GB \\(have (.*?)\\)\\.");
  EXPECT_EQ(s.interpolations, (Strings{"model.name", "a", "b", "free()"}));
}

TEST(JsMessage, ConcatenationWithHolesAndNumbers) {
  Site s = One(Js("throw new RangeError('index ' + i + ' out of ' + 10 + ' (max ' + max + ')');"));
  EXPECT_EQ(s.error_message, "index {i} out of 10 (max {max})");
  EXPECT_EQ(s.message_pattern, "index (.*?) out of 10 \\(max (.*?)\\)");
  EXPECT_EQ(s.interpolations, (Strings{"i", "max"}));
}

TEST(JsMessage, OnlyHolesHasNoMessage) {
  Site s = One(Js("throw new Error(`${prefix}${detail}`);"));
  EXPECT_FALSE(s.error_message.has_value());
  EXPECT_FALSE(s.message_pattern.has_value());
  EXPECT_EQ(s.message_expr, "`${prefix}${detail}`");
}

TEST(JsMessage, UnknownExpressionHasNoMessage) {
  Site s = One(Js("throw new Error(err.message);"));
  EXPECT_FALSE(s.error_message.has_value());
  EXPECT_EQ(s.message_expr, "err.message");
}

TEST(JsMessage, Escapes) {
  Site s = One(Js(R"(throw new Error("a\tb\n\x41\u00e9\u{1F600}\"q\" \\ c\
d");)"));
  EXPECT_EQ(s.error_message, "a\tb\nA\xC3\xA9\xF0\x9F\x98\x80\"q\" \\ cd");
  EXPECT_EQ(s.message_pattern, "a\tb\nA\xC3\xA9\xF0\x9F\x98\x80\"q\" \\\\ cd");
}

TEST(JsMessage, SurrogatePairsAndLegacyOctal) {
  Site s = One(Js(R"(throw new Error("\uD83D\uDE00 \uD800 x \101\7");)"));
  EXPECT_EQ(s.error_message, "\xF0\x9F\x98\x80 \xEF\xBF\xBD x A\x07");
}

TEST(JsMessage, TemplateEscapesAndCrLf) {
  Site s = One(Js("throw new Error(`line1\r\nline2 \\${notahole} \\`tick\\``);"));
  EXPECT_EQ(s.error_message, "line1\nline2 ${notahole} `tick`");
  EXPECT_EQ(s.message_pattern, "line1\nline2 \\$\\{notahole\\} `tick`");
  EXPECT_TRUE(s.interpolations.empty());
}

TEST(JsMessage, ConstVariableInFunction) {
  Site s = One(Js("function f() {\n  const msg = 'Timeout after ' + ms + 'ms';\n  throw new Error(msg);\n}"));
  EXPECT_EQ(s.error_message, "Timeout after {ms}ms");
  EXPECT_EQ(s.message_expr, "msg");
  EXPECT_EQ(s.message_resolution, "variable");
}

TEST(JsMessage, ModuleConstant) {
  Site s = One(Js("const NOT_READY = `not ready`;\nfunction f() { throw new Error(NOT_READY); }"));
  EXPECT_EQ(s.error_message, "not ready");
  EXPECT_EQ(s.message_resolution, "module-constant");
}

TEST(JsMessage, ParameterShadowsModuleConstant) {
  Site s = One(Js("const msg = 'outer';\nfunction f(msg) { throw new Error(msg); }"));
  EXPECT_FALSE(s.error_message.has_value());
  EXPECT_EQ(s.message_expr, "msg");
}

TEST(JsMessage, BlockScopedConstNotSeenFromSiblingBlock) {
  Site s = One(Js("function f() {\n  if (a) { const m = 'inner'; }\n  throw new Error(m);\n}"));
  EXPECT_FALSE(s.error_message.has_value());
}

TEST(JsMessage, ReassignedAndAugmented) {
  JsExtractResult r = Js(
      "function f() {\n  let m = 'first';\n  m = 'second';\n  throw new Error(m);\n}\n"
      "function g() {\n  let m = 'Errors:';\n  m += ' ' + count;\n  throw new Error(m);\n}\n");
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].error_message, "second");
  EXPECT_EQ(r.sites[0].message_resolution, "variable-multi");
  EXPECT_EQ(r.sites[1].error_message, "Errors: {count}");
  EXPECT_EQ(r.sites[1].message_resolution, "variable+aug");
}

TEST(JsMessage, VariableDeclaredAfterTheThrowIsNotUsed) {
  Site s = One(Js("function f() { throw new Error(later); }\nconst later = 'too late';"));
  EXPECT_FALSE(s.error_message.has_value());
}

TEST(JsMessage, SelfReferentialVariableTerminates) {
  JsExtractResult r = Js("let a = b + 'x'; let b = a + 'y'; a = b + a;\nthrow new Error(a);");
  ASSERT_EQ(r.sites.size(), 1u);  // any message is fine; it must not loop
}

TEST(JsMessage, ExponentialVariableFanOutIsBounded) {
  // v6 would be 10^6 copies of "xxxxxxxxxx" (within the 8 variable hops followed):
  // the evaluation gives up instead.
  std::string src = "const v0 = 'xxxxxxxxxx';\n";
  for (int i = 1; i <= 6; ++i) {
    src += "const v" + std::to_string(i) + " = v" + std::to_string(i - 1);
    for (int k = 1; k < 10; ++k) src += " + v" + std::to_string(i - 1);
    src += ";\n";
  }
  src += "throw new Error(v6);\nthrow new Error(v1);\n";
  JsExtractResult r = Js(src);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_FALSE(r.sites[0].error_message.has_value());
  EXPECT_EQ(r.sites[0].message_expr, "v6");
  EXPECT_EQ(r.sites[1].error_message, std::string(100, 'x'));
}

TEST(JsMessage, TernaryAlternatives) {
  Site s = One(Js("throw new Error(isDir ? 'is a directory' : `missing file ${p}`);"));
  EXPECT_EQ(s.error_message, "is a directory");
  EXPECT_EQ(s.message_pattern, "(?:is a directory|missing file (.*?))");
  EXPECT_EQ(s.message_alternatives, (Strings{"is a directory", "missing file {p}"}));
}

TEST(JsMessage, ParenthesesAndTypeScriptCasts) {
  Site s = One(Ts("throw new Error(('bad: ' + (x as string))!);"));
  EXPECT_EQ(s.error_message, "bad: {x as string}");
  EXPECT_EQ(s.interpolations, (Strings{"x as string"}));
}

// ---------------------------------------------------------------------------
// Context: function, guards, catch

TEST(JsContext, ClassMethodAndGuards) {
  JsExtractResult r = Js(
      "class UserService {\n"
      "  async find(id) {\n"
      "    if (!id) {\n"
      "      throw new Error('id required');\n"
      "    } else if (id < 0) {\n"
      "      throw new RangeError('negative');\n"
      "    } else {\n"
      "      while (retry(id)) {\n"
      "        throw new Error('retry');\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(r.sites.size(), 3u);
  EXPECT_EQ(r.sites[0].function, "UserService.find");
  EXPECT_EQ(r.sites[0].guards, (Strings{"!id"}));
  EXPECT_EQ(r.sites[1].guards, (Strings{"not (!id)", "id < 0"}));
  EXPECT_EQ(r.sites[2].guards, (Strings{"not (!id)", "not (id < 0)", "retry(id)"}));
  EXPECT_EQ(r.sites[2].line, 9);
  EXPECT_EQ(r.sites[2].column, 8);
}

TEST(JsContext, UnbracedIfAndSwitch) {
  JsExtractResult r = Js(
      "function check(kind, n) {\n"
      "  if (n > 10) throw new Error('too big');\n"
      "  switch (kind) {\n"
      "    case 'a':\n"
      "      throw new Error('no a');\n"
      "    default:\n"
      "      throw new Error('unknown');\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(r.sites.size(), 3u);
  EXPECT_EQ(r.sites[0].guards, (Strings{"n > 10"}));
  EXPECT_EQ(r.sites[1].guards, (Strings{"switch (kind): case 'a'"}));
  EXPECT_EQ(r.sites[2].guards, (Strings{"switch (kind): default"}));
}

TEST(JsContext, GuardsResetAtFunctionsAndNamesNest) {
  JsExtractResult r = Js(
      "if (top) {\n"
      "  function outer() {\n"
      "    const inner = () => { throw new Error('in inner'); };\n"
      "  }\n"
      "}\n"
      "const api = { load() { throw new Error('in load'); }, save: function () { throw new Error('in save'); } };\n"
      "module.exports.run = async () => { throw new Error('in run'); };\n"
      "const Klass = class { m() { throw new Error('in m'); } };\n"
      "app.get('/', (req, res) => { throw new Error('in callback'); });\n");
  ASSERT_EQ(r.sites.size(), 6u);
  EXPECT_EQ(r.sites[0].function, "outer.inner");
  EXPECT_TRUE(r.sites[0].guards.empty());
  EXPECT_EQ(r.sites[1].function, "load");
  EXPECT_EQ(r.sites[2].function, "save");
  EXPECT_EQ(r.sites[3].function, "run");
  EXPECT_EQ(r.sites[4].function, "Klass.m");
  EXPECT_EQ(r.sites[5].function, "<module>");
}

TEST(JsContext, ClassFieldsAndAccessors) {
  JsExtractResult r = Ts(
      "export class Store {\n"
      "  private onError = (e: Error) => { throw new StoreError('field ' + e.message); };\n"
      "  get size(): number { throw new Error('getter'); }\n"
      "  static create() { throw new Error('static'); }\n"
      "}\n");
  ASSERT_EQ(r.sites.size(), 3u);
  EXPECT_EQ(r.sites[0].function, "Store.onError");
  EXPECT_EQ(r.sites[0].error_message, "field {e.message}");
  EXPECT_EQ(r.sites[1].function, "Store.size");
  EXPECT_EQ(r.sites[2].function, "Store.create");
}

TEST(JsContext, CatchClauseIsExceptContext) {
  JsExtractResult r = Js(
      "async function main() {\n"
      "  try {\n"
      "    await run();\n"
      "  } catch (err) {\n"
      "    console.error('run failed:', err);\n"
      "    if (err.code === 'ENOENT') throw new Error(`missing: ${err.path}`);\n"
      "  }\n"
      "  throw new Error('after');\n"
      "}\n");
  ASSERT_EQ(r.sites.size(), 3u);
  EXPECT_EQ(r.sites[0].except_context, "catch (err)");
  EXPECT_EQ(r.sites[0].kind, SiteKind::kLog);
  EXPECT_EQ(r.sites[1].except_context, "catch (err)");
  EXPECT_EQ(r.sites[1].guards, (Strings{"err.code === 'ENOENT'"}));
  EXPECT_FALSE(r.sites[2].except_context.has_value());
  EXPECT_EQ(r.sites[2].function, "main");
}

TEST(JsContext, ColumnsAreBytes) {
  Site s = One(Js("/* \xC3\xA9\xC3\xA9 */ throw new Error('x');"));
  EXPECT_EQ(s.column, 11);  // "/* " 3 bytes + "éé" 4 bytes + " */ " 4 bytes
}

TEST(JsContext, InTestsFromPath) {
  EXPECT_TRUE(One(Js("throw new Error('t');", "src/__tests__/a.js")).in_tests);
  EXPECT_TRUE(One(Js("throw new Error('t');", "lib/a.test.js")).in_tests);
  EXPECT_TRUE(One(Js("throw new Error('t');", "test/a.js")).in_tests);
  EXPECT_FALSE(One(Js("throw new Error('t');", "lib/contest.js")).in_tests);
}

// ---------------------------------------------------------------------------
// log

TEST(JsLog, ConsoleAndLoggers) {
  JsExtractResult r = Js(
      "console.error('cannot open', path);\n"
      "console.warn(`deprecated: ${name}`);\n"
      "logger.error('db down');\n"
      "this.logger.warn('slow query');\n"
      "log.error({ err }, 'request failed');\n"
      "console.log('error: not a site');\n"
      "console.info('nor this');\n"
      "foo.error('nor this');\n");
  ASSERT_EQ(r.sites.size(), 5u);
  for (const Site& s : r.sites) EXPECT_EQ(s.kind, SiteKind::kLog);
  EXPECT_EQ(r.sites[0].log_level, "error");
  EXPECT_EQ(r.sites[0].error_message, "cannot open {path}");  // console prints leftovers
  EXPECT_EQ(r.sites[0].error_class_expr, "console.error");
  EXPECT_FALSE(r.sites[0].error_class.has_value());
  EXPECT_EQ(r.sites[1].log_level, "warn");
  EXPECT_EQ(r.sites[1].error_message, "deprecated: {name}");
  EXPECT_EQ(r.sites[2].error_message, "db down");
  EXPECT_EQ(r.sites[3].error_message, "slow query");
  EXPECT_EQ(r.sites[3].line, 4);
  EXPECT_EQ(r.sites[4].error_message, "request failed");  // pino: object first, message second
}

TEST(JsLog, FormatSpecifiersAndLeftoverArguments) {
  JsExtractResult r = Js(
      "console.error('cannot open %s: %d%% done', file, pct);\n"
      "console.warn('%s is deprecated', 'foo()');\n"
      "console.error('failed:', err, 'retrying');\n"
      "logger.error('user %s not found', id, { requestId });\n"
      "console.error('100% sure %x');\n"
      "console.error('%c styled', 'color: red');\n");
  ASSERT_EQ(r.sites.size(), 6u);
  EXPECT_EQ(r.sites[0].error_message, "cannot open {file}: {pct}% done");
  EXPECT_EQ(r.sites[0].message_pattern, "cannot open (.*?): (.*?)% done");
  EXPECT_EQ(r.sites[0].interpolations, (Strings{"file", "pct"}));
  EXPECT_EQ(r.sites[0].message_expr, "'cannot open %s: %d%% done'");
  EXPECT_EQ(r.sites[1].error_message, "foo() is deprecated");
  EXPECT_EQ(r.sites[2].error_message, "failed: {err} retrying");
  EXPECT_EQ(r.sites[3].error_message, "user {id} not found");  // metadata not appended
  EXPECT_EQ(r.sites[4].error_message, "100% sure %x");          // no arguments: printed as is
  EXPECT_EQ(r.sites[5].error_message, " styled");
}

TEST(JsMessage, UtilFormat) {
  Site s = One(Js("throw new Error(util.format('bad value %j for %s', v, key));"));
  EXPECT_EQ(s.error_message, "bad value {v} for {key}");
  EXPECT_EQ(s.message_pattern, "bad value (.*?) for (.*?)");
}

// ---------------------------------------------------------------------------
// http_response and http

TEST(JsHttp, ExpressResponses) {
  JsExtractResult r = Js(
      "app.get('/u/:id', (req, res) => {\n"
      "  if (!user) return res.status(404).json({ error: 'User not found' });\n"
      "  res.status(500).send(`Internal error: ${e}`);\n"
      "  res.status(HttpStatus.BAD_REQUEST).json({ success: false, message: 'bad input' });\n"
      "  reply.code(429).send({ error: { code: 'RATE', message: 'slow down' } });\n"
      "  res.status(200).json({ error: 'not an error status' });\n"
      "  res.status(403).send();\n"
      "});\n");
  ASSERT_EQ(r.sites.size(), 5u);
  EXPECT_EQ(r.sites[0].kind, SiteKind::kHttpResponse);
  EXPECT_EQ(r.sites[0].http_status, 404);
  EXPECT_EQ(r.sites[0].error_message, "User not found");
  EXPECT_EQ(r.sites[0].line, 2);
  EXPECT_EQ(r.sites[0].column, 20);
  EXPECT_EQ(r.sites[0].guards, (Strings{"!user"}));
  EXPECT_EQ(r.sites[1].http_status, 500);
  EXPECT_EQ(r.sites[1].error_message, "Internal error: {e}");
  EXPECT_EQ(r.sites[2].http_status, 400);
  EXPECT_EQ(r.sites[2].error_message, "bad input");
  EXPECT_EQ(r.sites[3].http_status, 429);
  EXPECT_EQ(r.sites[3].error_message, "slow down");
  EXPECT_EQ(r.sites[4].http_status, 403);
  EXPECT_FALSE(r.sites[4].error_message.has_value());
}

TEST(JsHttp, NextResponse) {
  JsExtractResult r = Ts(
      "export async function GET() {\n"
      "  return NextResponse.json({ error: 'Unauthorized' }, { status: 401 });\n"
      "}\n"
      "const ok = NextResponse.json({ data }, { status: 200 });\n"
      "const bad = new Response(JSON.stringify({ error: 'Bad body' }), { status: 400 });\n",
      "app/api/route.ts");
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].kind, SiteKind::kHttpResponse);
  EXPECT_EQ(r.sites[0].http_status, 401);
  EXPECT_EQ(r.sites[0].error_message, "Unauthorized");
  EXPECT_EQ(r.sites[0].function, "GET");
  EXPECT_EQ(r.sites[0].language, "typescript");
  EXPECT_EQ(r.sites[1].http_status, 400);
  EXPECT_EQ(r.sites[1].error_message, "Bad body");
}

TEST(JsHttp, HttpExceptionsAndCreateError) {
  JsExtractResult r = Ts(
      "class UsersController {\n"
      "  get(id: string) {\n"
      "    throw new HttpException('Forbidden resource', HttpStatus.FORBIDDEN);\n"
      "  }\n"
      "  find(id: number): User {\n"
      "    throw new NotFoundException(`User ${id} not found`);\n"
      "  }\n"
      "}\n"
      "next(createError(404, 'no such page'));\n"
      "throw createError(400);\n"
      "throw new HttpException({ status: 409, error: 'Already exists' }, 409);\n"
      "ctx.throw(401, 'login first');\n");
  ASSERT_EQ(r.sites.size(), 6u);
  EXPECT_EQ(r.sites[0].kind, SiteKind::kHttp);
  EXPECT_EQ(r.sites[0].error_class, "HttpException");
  EXPECT_EQ(r.sites[0].http_status, 403);
  EXPECT_EQ(r.sites[0].error_message, "Forbidden resource");
  EXPECT_EQ(r.sites[0].function, "UsersController.get");
  EXPECT_EQ(r.sites[1].error_class, "NotFoundException");
  EXPECT_EQ(r.sites[1].http_status, 404);
  EXPECT_EQ(r.sites[1].error_message, "User {id} not found");
  EXPECT_EQ(r.sites[2].kind, SiteKind::kHttp);
  EXPECT_EQ(r.sites[2].error_class, "NotFoundError");
  EXPECT_EQ(r.sites[2].error_class_expr, "createError");
  EXPECT_EQ(r.sites[2].http_status, 404);
  EXPECT_EQ(r.sites[2].error_message, "no such page");
  EXPECT_EQ(r.sites[2].line, 9);
  EXPECT_EQ(r.sites[2].column, 5);
  EXPECT_EQ(r.sites[3].error_class, "BadRequestError");
  EXPECT_FALSE(r.sites[3].error_message.has_value());
  EXPECT_EQ(r.sites[4].http_status, 409);
  EXPECT_EQ(r.sites[4].error_message, "Already exists");
  EXPECT_EQ(r.sites[5].error_class, "UnauthorizedError");
  EXPECT_EQ(r.sites[5].http_status, 401);
  EXPECT_EQ(r.sites[5].error_message, "login first");
}

TEST(JsHttp, HttpExceptionNotThrownIsStillASite) {
  Site s = One(Ts("return next(new BadRequestException('bad payload'));"));
  EXPECT_EQ(s.kind, SiteKind::kHttp);
  EXPECT_EQ(s.http_status, 400);
  EXPECT_EQ(s.column, 12);
}

// ---------------------------------------------------------------------------
// TypeScript specifics

TEST(JsTypeScript, TypedCodeAndTsx) {
  JsExtractResult r = Ts(
      "interface Opts { n: number }\n"
      "export function parse<T>(raw: string, opts?: Opts): T {\n"
      "  try { return JSON.parse(raw) as T; }\n"
      "  catch (e: unknown) { throw new ParseError(`invalid JSON: ${(e as Error).message}`); }\n"
      "}\n");
  Site s = One(r);
  EXPECT_EQ(s.function, "parse");
  EXPECT_EQ(s.except_context, "catch (e: unknown)");
  EXPECT_EQ(s.error_message, "invalid JSON: {(e as Error).message}");

  JsExtractResult x = Ts(
      "export const Page = ({ id }: Props) => {\n"
      "  if (!id) throw new Error('no id');\n"
      "  return <div className=\"a\">{id}</div>;\n"
      "};\n",
      "app/page.tsx");
  EXPECT_TRUE(x.diagnostics.empty());
  Site t = One(x);
  EXPECT_EQ(t.function, "Page");
  EXPECT_EQ(t.guards, (Strings{"!id"}));
}

TEST(JsTypeScript, JsxInJavaScript) {
  JsExtractResult r = Js("const C = () => { if (bad) throw new Error('jsx'); return <b>hi</b>; };", "a.jsx");
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(One(r).error_message, "jsx");
}

// ---------------------------------------------------------------------------
// Bad input

TEST(JsBadInput, SyntaxErrorsGivePartialResultsAndADiagnostic) {
  JsExtractResult r = Js(
      "function ok() { throw new Error('one'); }\n"
      "function broken( { = ;\n"
      "throw new TypeError('two');\n");
  EXPECT_FALSE(r.failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].path, "src/app.js");
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_NE(r.diagnostics[0].message.find("syntax error"), std::string::npos);
  ASSERT_GE(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].error_message, "one");
}

TEST(JsBadInput, MissingClosingBraceIsReported) {
  JsExtractResult r = Js("function f() {\n  throw new Error('x')\n");
  EXPECT_FALSE(r.failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 2);
  Site s = One(r);
  EXPECT_EQ(s.error_message, "x");
  EXPECT_EQ(s.function, "f");
}

TEST(JsBadInput, ByteOrderMarkCrLfAndHashbang) {
  JsExtractResult r = Js("\xEF\xBB\xBF#!/usr/bin/env node\r\nif (a) {\r\n  throw new Error(\"crlf\");\r\n}\r\n");
  EXPECT_TRUE(r.diagnostics.empty());
  Site s = One(r);
  EXPECT_EQ(s.line, 3);
  EXPECT_EQ(s.column, 2);
  EXPECT_EQ(s.guards, (Strings{"a"}));
  EXPECT_EQ(s.error_message, "crlf");
}

TEST(JsBadInput, InvalidUtf8BytesAreKept) {
  std::string src = "throw new Error(\"caf\xE9 \xFF\xFE end\");\nconsole.error(`x\xC3(${y}`);\n";
  JsExtractResult r = Js(src);
  EXPECT_FALSE(r.failed);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].error_message, "caf\xE9 \xFF\xFE end");
  EXPECT_EQ(r.sites[1].line, 2);
}

TEST(JsBadInput, NulBytes) {
  static const char kSrc[] = "throw new Error(\"a\0b\");\0\0\nthrow new Error(\"after nul\");\n";
  std::string src(kSrc, sizeof(kSrc) - 1);
  JsExtractResult r = Js(src);
  EXPECT_FALSE(r.failed);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].error_message, std::string("a\0b", 3));
  EXPECT_EQ(r.sites[1].error_message, "after nul");
  EXPECT_EQ(r.sites[1].line, 2);
}

TEST(JsBadInput, EmptyAndBinaryGarbage) {
  EXPECT_TRUE(Js("").sites.empty());
  EXPECT_FALSE(Js("").failed);
  std::string garbage;
  for (int i = 0; i < 20000; ++i) garbage.push_back(static_cast<char>((i * 7919) & 0xFF));
  JsExtractResult r = Js(garbage);
  EXPECT_FALSE(r.failed);
  EXPECT_FALSE(r.diagnostics.empty());
}

TEST(JsBadInput, FiveMegabyteFile) {
  const std::string unit =
      "function g(a) { if (a > 1) { throw new Error('value ' + a + ' too big'); } logger.warn(`w ${a}`); }\n";
  std::string src;
  int units = 0;
  while (src.size() + unit.size() <= 5u * 1024 * 1024) {
    src += unit;
    ++units;
  }
  // Correctness on a big file, not speed: a generous budget so that a slow
  // sanitizer build cannot cancel the parse.
  JsExtractOptions patient;
  patient.parse_timeout = std::chrono::minutes(10);
  patient.limits.max_sites = SIZE_MAX;
  JsExtractResult r = ExtractJavaScript("src/big.js", src, false, patient);
  EXPECT_FALSE(r.failed);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.sites.size(), static_cast<size_t>(2 * units));
  const Site& last = r.sites.back();
  EXPECT_EQ(last.line, units);
  EXPECT_EQ(last.kind, SiteKind::kLog);
  EXPECT_EQ(r.sites[r.sites.size() - 2].error_message, "value {a} too big");
  EXPECT_EQ(r.sites[r.sites.size() - 2].guards, (Strings{"a > 1"}));
}

TEST(JsBadInput, DeepNesting) {
  const int depth = 2000;
  std::string ifs = "function f() {";
  for (int i = 0; i < depth; ++i) ifs += "if (a" + std::to_string(i) + ") {";
  ifs += "throw new Error('deep');";
  for (int i = 0; i < depth; ++i) ifs += "}";
  ifs += "}\n";
  Site s = One(Js(ifs));
  EXPECT_EQ(s.error_message, "deep");
  ASSERT_EQ(s.guards.size(), JsExtractOptions{}.limits.max_guards);  // the innermost ones, outermost first
  EXPECT_EQ(s.guards.front(), "a" + std::to_string(depth - JsExtractOptions{}.limits.max_guards));
  EXPECT_EQ(s.guards.back(), "a1999");
  JsExtractOptions all;
  all.limits.max_guards = depth;
  EXPECT_EQ(ExtractJavaScript("a.js", ifs, false, all).sites.at(0).guards.size(), static_cast<size_t>(depth));

  std::string fns;
  for (int i = 0; i < depth; ++i) fns += "function f" + std::to_string(i) + "() {";
  fns += "throw new Error('in f1999');";
  fns += std::string(depth, '}');
  Site deep_fn = One(Js(fns));
  std::string expected_name;
  for (int i = depth - 32; i < depth; ++i) expected_name += (expected_name.empty() ? "f" : ".f") + std::to_string(i);
  EXPECT_EQ(deep_fn.function, expected_name);

  std::string arrays = "x = " + std::string(depth, '[') + std::string(depth, ']') + ";\n";
  std::string parens = "y = " + std::string(depth, '(') + "'p'" + std::string(depth, ')') + ";\n";
  std::string concat = "throw new Error('s'";
  for (int i = 0; i < depth; ++i) concat += " + v" + std::to_string(i);
  concat += ");\n";
  JsExtractResult r = Js(arrays + parens + concat);
  EXPECT_FALSE(r.failed);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].line, 3);
  // Deeper than the evaluator follows: the message is unknown, never a crash.
  EXPECT_FALSE(r.sites[0].error_message.has_value());
}

// The walk over the tree is iterative (a TSTreeCursor) and every recursion of the
// evaluator is depth-bounded: 30,000 levels of any shape are a safe result and
// the rest of the file is still read.
TEST(JsBadInput, ThirtyThousandLevelsOfEveryShape) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  const int n = 30000;
  const std::vector<std::string> shapes = {
      "throw new Error(" + repeat("\"a\" + ", n) + "\"b\");\n",
      "throw new Error(" + repeat("(", n) + "\"b\"" + repeat(")", n) + ");\n",
      "throw new Error(" + repeat("[", n) + repeat("]", n) + ");\n",
      "throw new Error(" + repeat("c ? \"a\" : ", n) + "\"b\");\n",
      "throw new Error(a" + repeat(".b", n) + ");\n",
      "throw new Error(f" + repeat("()", n) + ");\n",
      "throw new Error(" + repeat("x => ", n) + "1);\n",
      "throw new Error(" + repeat("-", n) + "1);\n",
      "throw new Error(" + repeat("`${", 3000) + "x" + repeat("}`", 3000) + ");\n",
      "const {" + repeat("a: {", n) + "b" + repeat("}", n) + "} = o;\n",
      "x = " + repeat("\"a\" + ", n) + "\"b\"; throw new Error(x);\n",
      repeat("if (x) {", n) + "throw new Error(\"deep\");" + repeat("}", n) + "\n",
      repeat("function f() {", n) + "throw new Error(\"deep\");" + repeat("}", n) + "\n",
  };
  JsExtractOptions patient;  // a sanitizer build parses slowly: correctness here, not speed
  patient.parse_timeout = std::chrono::minutes(10);
  for (const std::string& src : shapes) {
    JsExtractResult r = ExtractJavaScript("a.js", src + "throw new KeyError(\"after\");\n", false, patient);
    ASSERT_FALSE(r.failed) << src.substr(0, 40);
    ASSERT_FALSE(r.sites.empty()) << src.substr(0, 40);
    EXPECT_EQ(r.sites.back().error_message, "after") << src.substr(0, 40);
  }
}

TEST(JsBadInput, LimitsBoundSitesGuardsAndExcerpts) {
  std::string src = "function f(x) { if (" + std::string(100000, 'c') + ") {";
  for (int i = 0; i < 30; ++i) src += "throw new Error(\"m" + std::to_string(i) + "\");";
  src += "} }\n";
  JsExtractOptions o;
  o.limits.max_sites = 10;
  o.limits.max_guard_bytes = 100;
  JsExtractResult r = ExtractJavaScript("a.js", src, false, o);
  ASSERT_EQ(r.sites.size(), 10u);
  EXPECT_EQ(r.sites_left_out, 20u);
  EXPECT_EQ(r.sites.back().error_message, "m9");
  ASSERT_EQ(r.sites[0].guards.size(), 1u);
  EXPECT_EQ(r.sites[0].guards[0], std::string(100, 'c'));
  EXPECT_EQ(r.sites[0].truncated, (std::vector<std::pair<std::string, uint64_t>>{{"guardBytes", 100000}}));
}

// Text that is not code: tree-sitter's error recovery crawls (8 MB took 43 s of
// CPU on one machine before the deadline); the error-rate rule gives up after
// error_grace. How fast recovery runs depends on the machine (the same 3 MB parse
// at 0.2 MiB/s on one and 0.8 MiB/s on another), so the test does not assert a
// speed: it sets the bar above any machine's rate and checks that a parse with
// syntax errors is then cancelled once the grace is spent, with the rule named.
TEST(JsBadInput, PrintableGarbageIsCancelledByTheErrorRate) {
  std::string garbage;
  uint32_t x = 12345;
  while (garbage.size() < (3u << 20)) {
    x = x * 1103515245u + 12345u;
    char c = static_cast<char>(32 + (x >> 16) % 95);
    garbage.push_back((x >> 8) % 40 == 0 ? '\n' : c);
  }
  JsExtractOptions o;
  o.parse_timeout = std::chrono::minutes(10);  // only the error rate may cancel it
  o.error_grace = std::chrono::milliseconds(20);
  o.min_error_mib_per_second = 1e6;
  JsExtractResult r = ExtractJavaScript("g.js", garbage, false, o);
  EXPECT_TRUE(r.failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("min_error_mib_per_second"), std::string::npos) << r.diagnostics[0].message;
  EXPECT_TRUE(r.sites.empty());

  // The same bar does not touch code without syntax errors, however long it takes.
  std::string code;
  while (code.size() < (1u << 20)) code += "function f(a) { if (!a) { throw new Error('no a'); } return a; }\n";
  JsExtractResult ok = ExtractJavaScript("c.js", code, false, o);
  EXPECT_FALSE(ok.failed);
  EXPECT_FALSE(ok.sites.empty());
}

TEST(JsBadInput, SizeLimitAndCancelledParse) {
  JsExtractOptions small;
  small.max_file_bytes = 10;
  JsExtractResult r = ExtractJavaScript("a.js", "throw new Error('longer than ten bytes');", false, small);
  EXPECT_TRUE(r.failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("max_file_bytes"), std::string::npos);
  EXPECT_TRUE(r.sites.empty());

  // A deadline already passed cancels any parse that reaches its first check.
  std::string big;
  while (big.size() < (1u << 20)) big += "if (a) { throw new Error('x' + b); }\n";
  JsExtractOptions expired;
  expired.parse_timeout = std::chrono::milliseconds(-1000);
  expired.parse_timeout_per_mib = std::chrono::milliseconds(0);
  JsExtractResult c = ExtractJavaScript("big.js", big, false, expired);
  EXPECT_TRUE(c.failed);
  ASSERT_EQ(c.diagnostics.size(), 1u);
  EXPECT_NE(c.diagnostics[0].message.find("parse_timeout"), std::string::npos);
  // The thread's parser is usable again afterwards.
  EXPECT_EQ(One(Js("throw new Error('again');")).error_message, "again");
}

TEST(JsExtractor, ConcurrentCallsAgree) {
  const std::string src = "function f(x) { if (x) throw new Error(`bad ${x}`); console.warn('w'); }\n";
  std::vector<size_t> counts(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) counts[t] += ExtractJavaScript(t % 2 ? "a.ts" : "a.js", src, t % 2).sites.size();
    });
  }
  for (auto& th : threads) th.join();
  for (size_t c : counts) EXPECT_EQ(c, 100u);
}

#endif  // ERRDEX_HAVE_TREE_SITTER

}  // namespace
}  // namespace errdex
