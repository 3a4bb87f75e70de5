// Tests of the spool's binary form (spool_codec.h): every field of a record, its
// facts and its gathered context comes back; damage is an error, not a crash.
#include "scan/spool_codec.h"

#include <gtest/gtest.h>

#include "document/site_context.h"

namespace errdex {
namespace {

// A unit whose records set every field to something other than its default.
Unit FullUnit() {
  Unit u;
  u.kind = UnitKind::kDerived;
  for (int i = 0; i < 2; ++i) {
    UnitRecord ur;
    Record& r = ur.line.record;
    r.id = "0123456789abcdef";
    r.repo = "o/r";
    r.slug = "bad-mode";
    r.error_code = "E1";
    r.error_message = "bad mode {m}";
    r.message_pattern = "bad mode (.+)";
    r.error_type = "argument";
    r.error_class = "ValueError";
    r.http_status = 400 + i;
    r.severity = "error";
    r.file_path = "pkg/m.py";
    r.line_number = 42;
    r.source_code = "def f(m):\n    raise ValueError(f\"bad mode {m}\")\n";
    r.source_code_start = 24;
    r.source_code_end = 60;
    r.github_url = "https://github.com/o/r/blob/abc/pkg/m.py#L24-L60";
    r.documentation = "doc";
    r.trigger_scenarios = "trig";
    r.common_situations = "common";
    r.solutions = std::vector<std::string>{"a", "b"};
    r.example_fix = "fix";
    r.handling_strategy = "handle";
    r.validation_code = "validate";
    r.type_guard = "guard";
    r.try_catch_pattern = "try";
    r.prevention_tips = std::vector<std::string>{"tip"};
    r.tags = std::vector<std::string>{"t1", "t2"};
    r.background_tag = "bg";
    r.analyzed_sha = "abc";
    r.analyzed_at = "2026-12-07T00:00:00.000Z";
    r.schema_version = 7;
    ur.line.dataset_version = "2026-12-07T00:00:00.000Z";
    Site s;
    s.kind = SiteKind::kHttp;
    s.language = "rust";
    s.file_path = "pkg/m.py";
    s.line = 42;
    s.column = 4;
    s.end_line = 43;
    s.error_class = "ValueError";
    s.error_class_expr = "errors.ValueError";
    s.error_code = "E1";
    s.http_status = 400;
    s.log_level = "error";
    s.error_message = "bad mode {m}";
    s.message_pattern = "bad mode (.+)";
    s.message_expr = "f\"bad mode {m}\"";
    s.message_alternatives = {"x", "y"};
    s.interpolations = {"m"};
    s.message_resolution = "literal";
    s.function = "f";
    s.guards = {"if m:", "while n:"};
    s.except_context = "except KeyError as e";
    s.cause = "e";
    s.assert_condition = "m";
    s.dynamic = true;
    s.in_tests = true;
    s.truncated = {{"guards", 70}, {"errorMessage", uint64_t{1} << 40}};
    if (i == 0) ur.line.facts = s;  // the second record has none
    ur.context = i == 0 ? "{\"known\":true}" : "";
    if (i == 0) {
      auto c = std::make_shared<SiteContext>();
      c->known = true;
      c->def_line = 40;
      c->def_name = "f";
      c->class_name = "C";
      c->decorators = {"staticmethod"};
      c->params = {ParamInfo{"m", "str", "\"fast\"", false}, ParamInfo{"args", "", "", true}};
      c->assigned = {{"n", "len(m)"}};
      BranchInfo b;
      b.guard = 1;
      b.own = true;
      b.line = 41;
      b.test = "m == 'x'";
      b.sets = {{"k", "\"v\""}};
      b.warns = true;
      b.returns = true;
      b.raises = "KeyError";
      c->branches = {b};
      c->callers = {CallerInfo{"main", 7, "f(args.mode)"}};
      c->callers_total = 3;
      c->modules = {"os"};
      c->class_bases = {"Base"};
      c->exits = {{-5, "not m"}};
      c->writes = {StateWrite{"mode", "__init__", "None"}};
      c->route_method = "GET";
      c->route = "/items/{id}";
      ur.gathered_context = c;
    }
    u.records.push_back(std::move(ur));
  }
  u.stats.bytes = 1234;
  u.stats.skipped = true;
  u.stats.sites_by_kind = {2, 0, 1};
  u.stats.diagnostics.push_back({"pkg/m.py", 3, 4, "a soft error"});
  return u;
}

TEST(SpoolCodec, RoundTripsEveryField) {
  Unit u = FullUnit();
  std::string bytes = EncodeSpooled(u);
  Unit back;
  ASSERT_TRUE(DecodeSpooled(bytes, &back).ok());
  EXPECT_EQ(back.kind, u.kind);
  ASSERT_EQ(back.records.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(CatalogLineToJson(back.records[i].line), CatalogLineToJson(u.records[i].line)) << i;
    EXPECT_EQ(back.records[i].line.record.schema_version, 7);
    EXPECT_EQ(back.records[i].context, u.records[i].context);
  }
  ASSERT_TRUE(back.records[0].line.facts.has_value());
  EXPECT_EQ(SiteToJson(*back.records[0].line.facts), SiteToJson(*u.records[0].line.facts));
  EXPECT_EQ(back.records[0].line.facts->kind, SiteKind::kHttp);
  EXPECT_EQ(back.records[0].line.facts->truncated.at(1).second, uint64_t{1} << 40);
  EXPECT_FALSE(back.records[1].line.facts.has_value());
  ASSERT_TRUE(back.records[0].gathered_context);
  EXPECT_EQ(SiteContextToJson(*back.records[0].gathered_context), SiteContextToJson(*u.records[0].gathered_context));
  EXPECT_EQ(back.records[0].gathered_context->exits.at(0).first, -5);
  EXPECT_FALSE(back.records[1].gathered_context);
  EXPECT_EQ(EncodeStats(back.stats), EncodeStats(u.stats));
  EXPECT_EQ(EncodeSpooled(back), bytes);  // nothing read differs from what was written
}

TEST(SpoolCodec, DamageIsAnErrorNotACrash) {
  std::string bytes = EncodeSpooled(FullUnit());
  for (size_t cut = 0; cut < bytes.size(); cut += 5) {
    Unit back;
    EXPECT_FALSE(DecodeSpooled(bytes.substr(0, cut), &back).ok()) << cut;
  }
  Unit back;
  EXPECT_FALSE(DecodeSpooled(bytes + "x", &back).ok()) << "trailing bytes";
}

}  // namespace
}  // namespace errdex
