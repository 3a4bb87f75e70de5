// store/unit.cc: see unit.h. Tested by unit_test.cc.
#include "store/unit.h"

#include <nlohmann/json.hpp>

#include "store/codec.h"

namespace errdex {

namespace {

constexpr uint8_t kPayloadVersion = 1;

void WriteStats(store::ByteWriter& w, const UnitStats& s) {
  w.Varint(s.bytes);
  w.Byte((s.skipped ? 1 : 0) | (s.too_large ? 2 : 0));  // bit 2 added later: older units read as not too large
  w.Varint(static_cast<uint64_t>(s.sites_left_out));
  w.Varint(s.sites_by_kind.size());
  for (int64_t n : s.sites_by_kind) w.Varint(static_cast<uint64_t>(n));
  w.Varint(static_cast<uint64_t>(s.excerpts_cut));
  w.Varint(static_cast<uint64_t>(s.guards_cut));
  w.Varint(s.diagnostics.size());
  for (const UnitStats::Note& d : s.diagnostics) {
    w.Bytes(d.path);
    w.Signed(d.line);
    w.Signed(d.column);
    w.Bytes(d.message);
  }
}

UnitStats ReadStats(store::ByteReader& r) {
  UnitStats s;
  s.bytes = r.Varint();
  uint8_t flags = r.Byte();
  s.skipped = (flags & 1) != 0;
  s.too_large = (flags & 2) != 0;
  s.sites_left_out = static_cast<int64_t>(r.Varint());
  uint64_t kinds = r.Varint();
  for (uint64_t i = 0; i < kinds && r.ok(); ++i) {
    int64_t v = static_cast<int64_t>(r.Varint());
    if (i < 64) s.sites_by_kind.push_back(v);
  }
  s.excerpts_cut = static_cast<int64_t>(r.Varint());
  s.guards_cut = static_cast<int64_t>(r.Varint());
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    UnitStats::Note d;
    d.path = std::string(r.Bytes());
    d.line = static_cast<int>(r.Signed());
    d.column = static_cast<int>(r.Signed());
    d.message = std::string(r.Bytes());
    s.diagnostics.push_back(std::move(d));
  }
  return s;
}

// A SAX reader of one JSON object's top-level string and integer members named
// in `wanted`; it stops the parse once it has them all.
class TopLevelFields : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit TopLevelFields(std::vector<std::string_view> wanted) : wanted_(std::move(wanted)) {
    strings_.resize(wanted_.size());
    ints_.resize(wanted_.size());
    seen_.resize(wanted_.size());
  }
  // Whether `json` parsed (up to the point where all were found) as an object.
  bool Read(std::string_view json) {
    found_ = 0;
    depth_ = 0;
    started_ = false;
    failed_ = false;
    for (std::string& v : strings_) v.clear();
    std::fill(ints_.begin(), ints_.end(), 0);
    current_ = -1;
    std::fill(seen_.begin(), seen_.end(), false);
    bool completed = nlohmann::json::sax_parse(json.begin(), json.end(), this);
    return !failed_ && (completed || found_ == wanted_.size());
  }
  bool Seen(size_t i) const { return seen_[i]; }
  const std::string& String(size_t i) const { return strings_[i]; }
  int64_t Int(size_t i) const { return ints_[i]; }

  bool null() override {  // a wanted member that is null: found, empty
    if (depth_ == 1 && current_ >= 0) return Found();
    return Value();
  }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t v) override { return SetInt(static_cast<int64_t>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return SetInt(static_cast<int64_t>(v)); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t& v) override {
    if (depth_ == 1 && current_ >= 0) {
      strings_[current_] = std::move(v);
      return Found();
    }
    return Value();
  }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    if (depth_ == 0 && started_) return Fail();
    started_ = true;
    current_ = -1;
    ++depth_;
    return true;
  }
  bool key(string_t& k) override {
    current_ = -1;
    if (depth_ != 1) return true;
    for (size_t i = 0; i < wanted_.size(); ++i)
      if (!seen_[i] && k == wanted_[i]) current_ = static_cast<int>(i);
    return true;
  }
  bool end_object() override {
    --depth_;
    current_ = -1;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 0) return Fail();
    current_ = -1;
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return Fail(); }

 private:
  bool Value() {
    if (depth_ == 0) return Fail();  // not an object
    current_ = -1;
    return true;
  }
  bool SetInt(int64_t v) {
    if (depth_ == 1 && current_ >= 0) {
      ints_[current_] = v;
      return Found();
    }
    return Value();
  }
  bool Found() {
    seen_[current_] = true;
    current_ = -1;
    return ++found_ < wanted_.size();  // false: stop, all found
  }
  bool Fail() {
    failed_ = true;
    return false;
  }

  std::vector<std::string_view> wanted_;
  std::vector<std::string> strings_;
  std::vector<int64_t> ints_;
  std::vector<bool> seen_;
  size_t found_ = 0;
  int depth_ = 0;
  int current_ = -1;
  bool started_ = false;
  bool failed_ = false;
};

}  // namespace

Status DecodeSiteRefs(std::string_view payload, std::vector<UnitSiteRef>* out) {
  store::ByteReader r(payload);
  uint8_t version = r.Byte();
  if (version != kPayloadVersion)
    return Status::IoError("a stored unit has payload version " + std::to_string(version) + "; this errdex reads " +
                           std::to_string(kPayloadVersion));
  r.Byte();  // the kind
  uint64_t n = r.Varint();
  if (!r.ok() || n > payload.size()) return Status::IoError("a stored unit is damaged (record count)");
  out->clear();
  TopLevelFields record({"id"});
  TopLevelFields facts({"kind", "lineNumber", "errorClass"});
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view record_json = r.Bytes();
    r.Bytes();  // datasetVersion
    bool has_facts = r.Byte() != 0;
    std::string_view facts_json = has_facts ? r.Bytes() : std::string_view();
    r.Bytes();  // the context
    if (!r.ok()) return Status::IoError("a stored unit is damaged (record " + std::to_string(i) + ")");
    if (!has_facts) continue;
    if (!record.Read(record_json) || !record.Seen(0))
      return Status::IoError("a stored record cannot be read back (its id)");
    if (!facts.Read(facts_json) || !facts.Seen(0) || !facts.Seen(1))
      return Status::IoError("stored facts cannot be read back (kind, lineNumber)");
    UnitSiteRef ref;
    ref.id = record.String(0);
    ref.kind = facts.String(0);
    ref.line = static_cast<int>(facts.Int(1));
    if (facts.Seen(2)) ref.error_class = facts.String(2);
    out->push_back(std::move(ref));
  }
  ReadStats(r);  // read, as DecodePayload does, so that damage there is found too
  if (!r.ok() || !r.done()) return Status::IoError("a stored unit is damaged (trailing bytes)");
  return Status::Ok();
}

std::string EncodePayload(const Unit& unit) {
  std::string out;
  store::ByteWriter w(&out);
  w.Byte(kPayloadVersion);
  w.Byte(static_cast<uint8_t>(unit.kind));
  w.Varint(unit.records.size());
  for (const UnitRecord& r : unit.records) {
    w.Bytes(RecordToJson(r.line.record));
    w.Bytes(r.line.dataset_version);
    w.Byte(r.line.facts ? 1 : 0);
    if (r.line.facts) w.Bytes(SiteToJson(*r.line.facts));
    w.Bytes(r.context);
  }
  WriteStats(w, unit.stats);
  return out;
}

Status DecodePayload(std::string_view payload, Unit* unit) {
  store::ByteReader r(payload);
  uint8_t version = r.Byte();
  if (version != kPayloadVersion)
    return Status::IoError("a stored unit has payload version " + std::to_string(version) + "; this errdex reads " +
                           std::to_string(kPayloadVersion));
  uint8_t kind = r.Byte();
  if (kind != static_cast<uint8_t>(UnitKind::kDerived) && kind != static_cast<uint8_t>(UnitKind::kVerbatim) &&
      kind != static_cast<uint8_t>(UnitKind::kEdited))
    return Status::IoError("a stored unit has an unknown kind");
  unit->kind = static_cast<UnitKind>(kind);
  uint64_t n = r.Varint();
  if (!r.ok() || n > payload.size()) return Status::IoError("a stored unit is damaged (record count)");
  unit->records.clear();
  unit->records.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    UnitRecord ur;
    std::string_view record_json = r.Bytes();
    ur.line.dataset_version = std::string(r.Bytes());
    bool has_facts = r.Byte() != 0;
    std::string_view facts_json = has_facts ? r.Bytes() : std::string_view();
    ur.context = std::string(r.Bytes());
    if (!r.ok()) return Status::IoError("a stored unit is damaged (record " + std::to_string(i) + ")");
    auto record = RecordFromJson(record_json);
    if (!record.ok()) return Status::IoError("a stored record cannot be read back: " + record.status().message());
    ur.line.record = std::move(record).value();
    if (has_facts) {
      auto facts = SiteFromJson(facts_json);
      if (!facts.ok()) return Status::IoError("stored facts cannot be read back: " + facts.status().message());
      ur.line.facts = std::move(facts).value();
    }
    unit->records.push_back(std::move(ur));
  }
  unit->stats = ReadStats(r);
  if (!r.ok() || !r.done()) return Status::IoError("a stored unit is damaged (trailing bytes)");
  return Status::Ok();
}

std::string EncodeStats(const UnitStats& stats) {
  std::string out;
  store::ByteWriter w(&out);
  WriteStats(w, stats);
  return out;
}

UnitStats DecodeStats(std::string_view bytes) {
  store::ByteReader r(bytes);
  UnitStats s = ReadStats(r);
  return r.ok() ? s : UnitStats{};
}

CatalogLine Materialize(UnitKind kind, const UnitRecord& r, const CommitFields& commit) {
  CatalogLine out = r.line;
  if (!IsDerived(kind)) return out;
  Record& rec = out.record;
  rec.analyzed_sha = commit.sha;
  rec.analyzed_at = commit.dataset_version;
  // As scan/BuildRecord: a link only when both the repository and the commit are known.
  if (rec.repo && commit.sha)
    rec.github_url = MakeGithubUrl(*rec.repo, *commit.sha, rec.file_path, rec.source_code_start, rec.source_code_end);
  else
    rec.github_url.reset();
  out.dataset_version = commit.dataset_version;
  return out;
}

void ClearCommitFields(CatalogLine* line) {
  line->record.analyzed_sha.reset();
  line->record.analyzed_at.reset();
  line->record.github_url.reset();
  line->dataset_version.clear();
}

EntryFields EntryOf(const Record& r) {
  EntryFields e;
  e.record_id = r.id;
  e.slug = r.slug;
  e.error_message = r.error_message;
  e.error_class = r.error_class;
  e.severity = r.severity;
  if (r.tags && !r.tags->empty()) {
    e.tags = "\n";
    for (const std::string& t : *r.tags) e.tags += t + "\n";
  }
  std::string key;
  store::ByteWriter w(&key);
  w.Bytes(e.record_id);
  for (const auto* f : {&e.slug, &e.error_message, &e.error_class, &e.severity}) {
    w.Byte(f->has_value() ? 1 : 0);
    if (*f) w.Bytes(**f);
  }
  w.Bytes(e.tags);
  e.hash = store::ContentHash(key);
  return e;
}

std::string VerbatimKey(std::string_view payload) { return store::ContentHash(payload); }

}  // namespace errdex
