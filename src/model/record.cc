// JSON mapping of Record/Site. Writing is hand-rolled so the bytes match the
// seeds exactly (JSON.stringify style); reading uses nlohmann::json, whose
// exceptions are caught here and returned as a Status.
#include "model/record.h"

#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <nlohmann/json.hpp>
#include <unordered_set>

namespace errdex {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 if invalid.
size_t Utf8SeqLen(std::string_view s, size_t i) {
  unsigned char c = s[i];
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
  else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
  else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = s[i + k];
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  return n;
}

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void Key(const char* k) {
    out_.push_back(first_ ? '{' : ',');
    first_ = false;
    out_.push_back('"');
    out_.append(k);
    out_.append("\":");
  }
  void Str(const char* k, const std::string& v) { Key(k); AppendJsonString(out_, v); }
  void Str(const char* k, const std::optional<std::string>& v) {
    Key(k);
    if (v) AppendJsonString(out_, *v); else out_.append("null");
  }
  void Int(const char* k, long long v) { Key(k); out_.append(std::to_string(v)); }
  void Int(const char* k, const std::optional<int>& v) {
    Key(k);
    if (v) out_.append(std::to_string(*v)); else out_.append("null");
  }
  void Bool(const char* k, bool v) { Key(k); out_.append(v ? "true" : "false"); }
  void StrList(const char* k, const std::vector<std::string>& v) {
    Key(k);
    out_.push_back('[');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_.push_back(',');
      AppendJsonString(out_, v[i]);
    }
    out_.push_back(']');
  }
  void StrList(const char* k, const std::optional<std::vector<std::string>>& v) {
    if (v) StrList(k, *v); else { Key(k); out_.append("null"); }
  }
  void Raw(const char* k, const std::string& json) { Key(k); out_.append(json); }
  void End() { out_.append(first_ ? "{}" : "}"); }

 private:
  std::string& out_;
  bool first_ = true;
};

using Json = nlohmann::json;

std::optional<std::string> OptStr(const Json& o, const char* k) {
  auto it = o.find(k);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) throw std::runtime_error(std::string("key \"") + k + "\" must be a string or null");
  return it->get<std::string>();
}
// An int field. A number outside int's range is an error, never truncated: a
// lineNumber of 4294967297 must not come back as 1.
std::optional<int> OptInt(const Json& o, const char* k) {
  auto it = o.find(k);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) throw std::runtime_error(std::string("key \"") + k + "\" must be an integer or null");
  const bool fits = it->is_number_unsigned()
                        ? it->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int>::max())
                        : it->get<int64_t>() >= std::numeric_limits<int>::min() &&
                              it->get<int64_t>() <= std::numeric_limits<int>::max();
  if (!fits)
    throw std::runtime_error(std::string("key \"") + k + "\" is " + it->dump() + ", outside the range " +
                             std::to_string(std::numeric_limits<int>::min()) + ".." +
                             std::to_string(std::numeric_limits<int>::max()));
  return it->get<int>();
}
std::optional<std::vector<std::string>> OptList(const Json& o, const char* k) {
  auto it = o.find(k);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_array()) throw std::runtime_error(std::string("key \"") + k + "\" must be an array of strings or null");
  std::vector<std::string> v;
  for (const auto& e : *it) {
    if (!e.is_string()) throw std::runtime_error(std::string("key \"") + k + "\" must hold only strings");
    v.push_back(e.get<std::string>());
  }
  return v;
}

constexpr const char* kRecordKeys[] = {
    "id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType", "errorClass",
    "httpStatus", "severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart",
    "sourceCodeEnd", "githubUrl", "documentation", "triggerScenarios", "commonSituations",
    "solutions", "exampleFix", "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern",
    "preventionTips", "tags", "backgroundTag", "analyzedSha", "analyzedAt", "schemaVersion"};

Record RecordFromObject(const Json& o) {
  if (!o.is_object()) throw std::runtime_error("\"record\" must be an object");
  for (auto it = o.begin(); it != o.end(); ++it) {
    bool known = false;
    for (const char* k : kRecordKeys) known = known || it.key() == k;
    if (!known) throw std::runtime_error("unknown record key \"" + it.key() + "\"");
  }
  Record r;
  auto id = OptStr(o, "id");
  if (!id) throw std::runtime_error("record has no \"id\"");
  r.id = *id;
  r.repo = OptStr(o, "repo");
  r.slug = OptStr(o, "slug");
  r.error_code = OptStr(o, "errorCode");
  r.error_message = OptStr(o, "errorMessage");
  r.message_pattern = OptStr(o, "messagePattern");
  r.error_type = OptStr(o, "errorType");
  r.error_class = OptStr(o, "errorClass");
  r.http_status = OptInt(o, "httpStatus");
  r.severity = OptStr(o, "severity");
  r.file_path = OptStr(o, "filePath").value_or("");
  r.line_number = OptInt(o, "lineNumber").value_or(0);
  r.source_code = OptStr(o, "sourceCode").value_or("");
  r.source_code_start = OptInt(o, "sourceCodeStart").value_or(0);
  r.source_code_end = OptInt(o, "sourceCodeEnd").value_or(0);
  r.github_url = OptStr(o, "githubUrl");
  r.documentation = OptStr(o, "documentation");
  r.trigger_scenarios = OptStr(o, "triggerScenarios");
  r.common_situations = OptStr(o, "commonSituations");
  r.solutions = OptList(o, "solutions");
  r.example_fix = OptStr(o, "exampleFix");
  r.handling_strategy = OptStr(o, "handlingStrategy");
  r.validation_code = OptStr(o, "validationCode");
  r.type_guard = OptStr(o, "typeGuard");
  r.try_catch_pattern = OptStr(o, "tryCatchPattern");
  r.prevention_tips = OptList(o, "preventionTips");
  r.tags = OptList(o, "tags");
  r.background_tag = OptStr(o, "backgroundTag");
  r.analyzed_sha = OptStr(o, "analyzedSha");
  r.analyzed_at = OptStr(o, "analyzedAt");
  r.schema_version = OptInt(o, "schemaVersion").value_or(kSchemaVersion);
  return r;
}

Site SiteFromObject(const Json& o) {
  if (!o.is_object()) throw std::runtime_error("\"facts\" must be an object");
  Site s;
  auto kind = OptStr(o, "kind");
  if (!kind || !SiteKindFromName(*kind)) throw std::runtime_error("facts.kind is missing or unknown");
  s.kind = *SiteKindFromName(*kind);
  s.language = OptStr(o, "language").value_or("python");
  s.file_path = OptStr(o, "filePath").value_or("");
  s.line = OptInt(o, "lineNumber").value_or(0);
  s.column = OptInt(o, "column").value_or(0);
  s.end_line = OptInt(o, "endLineNumber").value_or(0);
  s.error_class = OptStr(o, "errorClass");
  s.error_class_expr = OptStr(o, "errorClassExpr");
  s.error_code = OptStr(o, "errorCode");
  s.http_status = OptInt(o, "httpStatus");
  s.log_level = OptStr(o, "logLevel");
  s.error_message = OptStr(o, "errorMessage");
  s.message_pattern = OptStr(o, "messagePattern");
  s.message_expr = OptStr(o, "messageExpr");
  s.message_alternatives = OptList(o, "messageAlternatives").value_or(std::vector<std::string>{});
  s.interpolations = OptList(o, "interpolations").value_or(std::vector<std::string>{});
  s.message_resolution = OptStr(o, "messageResolution").value_or("");
  s.function = OptStr(o, "function").value_or("<module>");
  s.guards = OptList(o, "guards").value_or(std::vector<std::string>{});
  s.except_context = OptStr(o, "exceptContext");
  s.cause = OptStr(o, "cause");
  s.assert_condition = OptStr(o, "assertCondition");
  auto b = [&](const char* k) { auto it = o.find(k); return it != o.end() && it->is_boolean() && it->get<bool>(); };
  s.dynamic = b("dynamic");
  s.in_tests = b("inTests");
  auto t = o.find("truncated");
  if (t != o.end() && !t->is_null()) {
    if (!t->is_object()) throw std::runtime_error("facts.truncated must be an object");
    for (auto it = t->begin(); it != t->end(); ++it) {
      if (!it->is_number_unsigned()) throw std::runtime_error("facts.truncated values must be sizes");
      s.truncated.emplace_back(it.key(), it->get<uint64_t>());
    }
  }
  return s;
}

// JSON.parse would keep the last of two equal keys and drop the first in
// silence; a catalog line with a duplicate key is malformed. Also refuses
// nesting deeper than a record can have (the parser itself is iterative, but
// nothing legitimate nests deeper than 3 levels).
Json ParseStrict(std::string_view json) {
  constexpr int kMaxDepth = 64;
  std::vector<std::unordered_set<std::string>> keys;  // the keys of each open object
  Json::parser_callback_t check = [&keys](int depth, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (depth >= kMaxDepth) throw std::runtime_error("JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        if (!keys.empty()) keys.pop_back();
        break;
      case Json::parse_event_t::key: {
        if (keys.empty()) break;
        const std::string& k = parsed.get_ref<const std::string&>();
        if (!keys.back().insert(k).second) throw std::runtime_error("duplicate key \"" + k + "\"");
        break;
      }
      default:
        break;
    }
    return true;
  };
  return Json::parse(json, check);
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out.push_back('"');
  out.reserve(out.size() + s.size() + 2);
  size_t i = 0;
  while (i < s.size()) {
    // A run of bytes that need no escape is copied at once (most of every text).
    size_t run = i;
    while (run < s.size()) {
      unsigned char r = s[run];
      if (r < 0x20 || r == '"' || r == '\\' || r >= 0x80) break;
      ++run;
    }
    if (run > i) {
      out.append(s.data() + i, run - i);
      i = run;
      continue;
    }
    unsigned char c = s[i];
    if (c >= 0x80) {
      size_t n = Utf8SeqLen(s, i);
      if (n == 0) {
        out.append("\xEF\xBF\xBD");
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (c < 0x20) {
          out.append("\\u00");
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 15]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

std::string RecordToJson(const Record& r) {
  std::string out;
  out.reserve(1024 + r.source_code.size() * 11 / 10);
  Writer w(out);
  w.Str("id", r.id);
  w.Str("repo", r.repo);
  w.Str("slug", r.slug);
  w.Str("errorCode", r.error_code);
  w.Str("errorMessage", r.error_message);
  w.Str("messagePattern", r.message_pattern);
  w.Str("errorType", r.error_type);
  w.Str("errorClass", r.error_class);
  w.Int("httpStatus", r.http_status);
  w.Str("severity", r.severity);
  w.Str("filePath", r.file_path);
  w.Int("lineNumber", r.line_number);
  w.Str("sourceCode", r.source_code);
  w.Int("sourceCodeStart", r.source_code_start);
  w.Int("sourceCodeEnd", r.source_code_end);
  w.Str("githubUrl", r.github_url);
  w.Str("documentation", r.documentation);
  w.Str("triggerScenarios", r.trigger_scenarios);
  w.Str("commonSituations", r.common_situations);
  w.StrList("solutions", r.solutions);
  w.Str("exampleFix", r.example_fix);
  w.Str("handlingStrategy", r.handling_strategy);
  w.Str("validationCode", r.validation_code);
  w.Str("typeGuard", r.type_guard);
  w.Str("tryCatchPattern", r.try_catch_pattern);
  w.StrList("preventionTips", r.prevention_tips);
  w.StrList("tags", r.tags);
  w.Str("backgroundTag", r.background_tag);
  w.Str("analyzedSha", r.analyzed_sha);
  w.Str("analyzedAt", r.analyzed_at);
  w.Int("schemaVersion", r.schema_version);
  w.End();
  return out;
}

std::string SiteToJson(const Site& s) {
  std::string out;
  Writer w(out);
  w.Str("kind", std::string(SiteKindName(s.kind)));
  w.Str("language", s.language);
  w.Str("filePath", s.file_path);
  w.Int("lineNumber", s.line);
  w.Int("column", s.column);
  w.Int("endLineNumber", s.end_line);
  w.Str("function", s.function);
  w.StrList("guards", s.guards);
  w.Str("exceptContext", s.except_context);
  w.Str("errorClass", s.error_class);
  w.Str("errorClassExpr", s.error_class_expr);
  w.Str("errorCode", s.error_code);
  w.Int("httpStatus", s.http_status);
  w.Str("logLevel", s.log_level);
  w.Str("errorMessage", s.error_message);
  w.Str("messagePattern", s.message_pattern);
  w.Str("messageExpr", s.message_expr);
  w.StrList("messageAlternatives", s.message_alternatives);
  w.StrList("interpolations", s.interpolations);
  w.Str("messageResolution", s.message_resolution);
  w.Str("cause", s.cause);
  w.Str("assertCondition", s.assert_condition);
  w.Bool("dynamic", s.dynamic);
  w.Bool("inTests", s.in_tests);
  if (!s.truncated.empty()) {  // only when a limit cut something: ordinary facts stay as they were
    auto sorted = s.truncated;  // by key, as they are read back
    std::sort(sorted.begin(), sorted.end());
    std::string t = "{";
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i) t.push_back(',');
      AppendJsonString(t, sorted[i].first);
      t.push_back(':');
      t += std::to_string(sorted[i].second);
    }
    t.push_back('}');
    w.Raw("truncated", t);
  }
  w.End();
  return out;
}

std::string CatalogLineToJson(const CatalogLine& line) {
  std::string out;
  Writer w(out);
  w.Raw("record", RecordToJson(line.record));
  w.Str("datasetVersion", line.dataset_version);
  if (line.facts) w.Raw("facts", SiteToJson(*line.facts));
  w.End();
  return out;
}

Result<CatalogLine> ParseCatalogLine(std::string_view json) {
  try {
    Json o = ParseStrict(json);
    if (!o.is_object()) return Status::ParseError("a catalog line must be a JSON object");
    for (auto it = o.begin(); it != o.end(); ++it) {
      if (it.key() != "record" && it.key() != "datasetVersion" && it.key() != "facts")
        return Status::ParseError("unknown key \"" + it.key() + "\" (expected record, datasetVersion, facts)");
    }
    auto rec = o.find("record");
    if (rec == o.end()) return Status::ParseError("line has no \"record\"");
    CatalogLine line;
    line.record = RecordFromObject(*rec);
    line.dataset_version = OptStr(o, "datasetVersion").value_or("");
    auto facts = o.find("facts");
    if (facts != o.end() && !facts->is_null()) line.facts = SiteFromObject(*facts);
    return line;
  } catch (const std::exception& e) {
    return Status::ParseError(e.what());
  }
}

Result<Record> RecordFromJson(std::string_view json) {
  try {
    return RecordFromObject(ParseStrict(json));
  } catch (const std::exception& e) {
    return Status::ParseError(e.what());
  }
}

Result<Site> SiteFromJson(std::string_view json) {
  try {
    return SiteFromObject(Json::parse(json));
  } catch (const std::exception& e) {
    return Status::ParseError(e.what());
  }
}

std::string MakeSlug(std::string_view msg) {
  // Take the first 50 code points.
  size_t i = 0, count = 0;
  while (i < msg.size() && count < 50) {
    size_t n = Utf8SeqLen(msg, i);
    i += n ? n : 1;
    ++count;
  }
  std::string out;
  bool pending_dash = false;
  for (size_t k = 0; k < i; ++k) {
    unsigned char c = msg[k];
    bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alnum) {
      if (pending_dash && !out.empty()) out.push_back('-');
      pending_dash = false;
      out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    } else {
      pending_dash = true;
    }
  }
  return out;
}

std::string MakeRecordId(std::string_view repo, std::string_view file_path, std::string_view kind,
                         std::string_view error_class, std::string_view message_template,
                         int occurrence) {
  std::string key;
  for (std::string_view part : {repo, file_path, kind, error_class, message_template}) {
    key.append(part);
    key.push_back('\0');
  }
  key.append(std::to_string(occurrence));
  unsigned long long h = XXH64(key.data(), key.size(), 0);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}

std::string MakeGithubUrl(std::string_view repo, std::string_view sha, std::string_view file_path,
                          int start, int end) {
  std::string url = "https://github.com/";
  url.append(repo);
  url.append("/blob/");
  url.append(sha);
  url.push_back('/');
  url.append(file_path);
  url.append("#L" + std::to_string(start) + "-L" + std::to_string(end));
  return url;
}

std::string FormatIsoTime(long long unix_millis) {
  time_t secs = static_cast<time_t>(unix_millis / 1000);
  int ms = static_cast<int>(unix_millis % 1000);
  if (ms < 0) { ms += 1000; --secs; }
  struct tm tm;
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

long long NowMillisHonouringSourceDateEpoch() {
  if (const char* sde = std::getenv("SOURCE_DATE_EPOCH"); sde && *sde) {
    char* end = nullptr;
    long long secs = std::strtoll(sde, &end, 10);
    if (end && *end == '\0') return secs * 1000;
  }
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace errdex
