// scan/spool_codec.cc: see spool_codec.h. Tested by spool_codec_test.cc (every
// field set, read back equal) and scanner_test.cc (a scan that spools every file
// writes the same bytes).
//
// Each struct lists its fields once, in Fields(); the writer and the reader both
// walk that list, so they cannot drift apart. A field added to a struct and not
// to its list is caught by the sizeof checks below (on the platform CI builds).
#include "scan/spool_codec.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "document/site_context.h"
#include "store/codec.h"

namespace errdex {
namespace {

using store::ByteReader;
using store::ByteWriter;

#if defined(__GLIBCXX__) && defined(__x86_64__) && !defined(_GLIBCXX_DEBUG)
static_assert(sizeof(Record) == 1024, "Record changed: list the new field in spool_codec.cc's Fields(Record)");
static_assert(sizeof(Site) == 664, "Site changed: list the new field in spool_codec.cc's Fields(Site)");
static_assert(sizeof(SiteContext) == 360, "SiteContext changed: list the new field in spool_codec.cc");
static_assert(sizeof(BranchInfo) == 112, "BranchInfo changed: list the new field in spool_codec.cc");
static_assert(sizeof(ParamInfo) == 104, "ParamInfo changed: list the new field in spool_codec.cc");
static_assert(sizeof(CallerInfo) == 72, "CallerInfo changed: list the new field in spool_codec.cc");
static_assert(sizeof(StateWrite) == 96, "StateWrite changed: list the new field in spool_codec.cc");
#endif

// The field lists. `S` is the struct, const or not; `f` is called on each field.
template <typename S, typename F>
void Fields(S& r, F&& f) requires std::is_same_v<std::remove_const_t<S>, Record> {
  f(r.id), f(r.repo), f(r.slug), f(r.error_code), f(r.error_message), f(r.message_pattern), f(r.error_type);
  f(r.error_class), f(r.http_status), f(r.severity), f(r.file_path), f(r.line_number), f(r.source_code);
  f(r.source_code_start), f(r.source_code_end), f(r.github_url), f(r.documentation), f(r.trigger_scenarios);
  f(r.common_situations), f(r.solutions), f(r.example_fix), f(r.handling_strategy), f(r.validation_code);
  f(r.type_guard), f(r.try_catch_pattern), f(r.prevention_tips), f(r.tags), f(r.background_tag);
  f(r.analyzed_sha), f(r.analyzed_at), f(r.schema_version);
}
template <typename S, typename F>
void Fields(S& s, F&& f) requires std::is_same_v<std::remove_const_t<S>, Site> {
  f(s.kind), f(s.language), f(s.file_path), f(s.line), f(s.column), f(s.end_line), f(s.error_class);
  f(s.error_class_expr), f(s.error_code), f(s.http_status), f(s.log_level), f(s.error_message);
  f(s.message_pattern), f(s.message_expr), f(s.message_alternatives), f(s.interpolations);
  f(s.message_resolution), f(s.function), f(s.guards), f(s.except_context), f(s.cause), f(s.assert_condition);
  f(s.dynamic), f(s.in_tests), f(s.truncated);
}
template <typename S, typename F>
void Fields(S& p, F&& f) requires std::is_same_v<std::remove_const_t<S>, ParamInfo> {
  f(p.name), f(p.annotation), f(p.default_value), f(p.star);
}
template <typename S, typename F>
void Fields(S& b, F&& f) requires std::is_same_v<std::remove_const_t<S>, BranchInfo> {
  f(b.guard), f(b.own), f(b.line), f(b.test), f(b.sets), f(b.warns), f(b.returns), f(b.raises);
}
template <typename S, typename F>
void Fields(S& c, F&& f) requires std::is_same_v<std::remove_const_t<S>, CallerInfo> {
  f(c.scope), f(c.line), f(c.call);
}
template <typename S, typename F>
void Fields(S& w, F&& f) requires std::is_same_v<std::remove_const_t<S>, StateWrite> {
  f(w.attr), f(w.method), f(w.value);
}
template <typename S, typename F>
void Fields(S& c, F&& f) requires std::is_same_v<std::remove_const_t<S>, SiteContext> {
  f(c.known), f(c.def_line), f(c.def_name), f(c.class_name), f(c.decorators), f(c.params), f(c.assigned);
  f(c.branches), f(c.callers), f(c.callers_total), f(c.modules), f(c.class_bases), f(c.exits), f(c.writes);
  f(c.route_method), f(c.route);
}

template <typename T>
concept HasFields = requires(T& t) { Fields(t, [](auto&) {}); };

// Writing.
void Put(ByteWriter& w, const std::string& s) { w.Bytes(s); }
void Put(ByteWriter& w, bool b) { w.Byte(b ? 1 : 0); }
void Put(ByteWriter& w, int v) { w.Signed(v); }
void Put(ByteWriter& w, uint64_t v) { w.Varint(v); }
void Put(ByteWriter& w, SiteKind k) { w.Varint(static_cast<uint64_t>(k)); }
template <HasFields T>
void Put(ByteWriter& w, const T& t);
template <typename T>
void Put(ByteWriter& w, const std::optional<T>& o);
template <typename A, typename B>
void Put(ByteWriter& w, const std::pair<A, B>& p);
template <typename T>
void Put(ByteWriter& w, const std::vector<T>& v) {
  w.Varint(v.size());
  for (const T& x : v) Put(w, x);
}
template <typename T>
void Put(ByteWriter& w, const std::optional<T>& o) {
  w.Byte(o ? 1 : 0);
  if (o) Put(w, *o);
}
template <typename A, typename B>
void Put(ByteWriter& w, const std::pair<A, B>& p) {
  Put(w, p.first);
  Put(w, p.second);
}
template <HasFields T>
void Put(ByteWriter& w, const T& t) {
  Fields(t, [&w](const auto& x) { Put(w, x); });
}

// Reading: a damaged input leaves r.ok() false and the values empty.
void Get(ByteReader& r, std::string* s) { *s = std::string(r.Bytes()); }
void Get(ByteReader& r, bool* b) { *b = r.Byte() != 0; }
void Get(ByteReader& r, int* v) { *v = static_cast<int>(r.Signed()); }
void Get(ByteReader& r, uint64_t* v) { *v = r.Varint(); }
void Get(ByteReader& r, SiteKind* k) { *k = static_cast<SiteKind>(r.Varint()); }
template <HasFields T>
void Get(ByteReader& r, T* t);
template <typename T>
void Get(ByteReader& r, std::optional<T>* o);
template <typename A, typename B>
void Get(ByteReader& r, std::pair<A, B>* p);
template <typename T>
void Get(ByteReader& r, std::vector<T>* v) {
  uint64_t n = r.Varint();
  v->clear();
  for (uint64_t i = 0; i < n && r.ok(); ++i) Get(r, &v->emplace_back());
}
template <typename T>
void Get(ByteReader& r, std::optional<T>* o) {
  if (r.Byte() == 0) return o->reset();
  Get(r, &o->emplace());
}
template <typename A, typename B>
void Get(ByteReader& r, std::pair<A, B>* p) {
  Get(r, &p->first);
  Get(r, &p->second);
}
template <HasFields T>
void Get(ByteReader& r, T* t) {
  Fields(*t, [&r](auto& x) { Get(r, &x); });
}

}  // namespace

std::string EncodeSpooled(const Unit& unit) {
  std::string out;
  ByteWriter w(&out);
  w.Byte(static_cast<uint8_t>(unit.kind));
  w.Varint(unit.records.size());
  for (const UnitRecord& r : unit.records) {
    Put(w, r.line.record);
    Put(w, r.line.dataset_version);
    Put(w, r.line.facts);
    Put(w, r.context);
    w.Byte(r.gathered_context ? 1 : 0);
    if (r.gathered_context) Put(w, *r.gathered_context);
  }
  w.Bytes(EncodeStats(unit.stats));
  return out;
}

Status DecodeSpooled(std::string_view bytes, Unit* unit) {
  ByteReader r(bytes);
  unit->kind = static_cast<UnitKind>(r.Byte());
  uint64_t n = r.Varint();
  if (!r.ok() || n > bytes.size()) return Status::IoError("the scan's spool is damaged (record count)");
  unit->records.clear();
  unit->records.reserve(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    UnitRecord& ur = unit->records.emplace_back();
    Get(r, &ur.line.record);
    Get(r, &ur.line.dataset_version);
    Get(r, &ur.line.facts);
    Get(r, &ur.context);
    if (r.Byte() != 0) {
      auto ctx = std::make_shared<SiteContext>();
      Get(r, ctx.get());
      ur.gathered_context = std::move(ctx);
    }
  }
  unit->stats = DecodeStats(r.Bytes());
  if (!r.ok() || !r.done()) return Status::IoError("the scan's spool is damaged");
  return Status::Ok();
}

}  // namespace errdex
