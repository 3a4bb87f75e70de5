// Record: one entry of the user's data set, schema version 2, and its JSON Lines
// mapping. Each line of a catalog file is {"record": {...}, "datasetVersion": "..."}
// with the record's keys in the order of the seeds (../shared/seeds). Writing a
// record read from a seed line gives back the same bytes (tested by record_test.cc).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/site.h"
#include "model/status.h"

namespace errdex {

inline constexpr int kSchemaVersion = 2;
inline constexpr int kSourceContextLines = 18;  // sourceCode = lineNumber -/+ 18, clamped

struct Record {
  std::string id;  // 16 lowercase hex, see MakeRecordId
  std::optional<std::string> repo;  // owner/name
  std::optional<std::string> slug;
  std::optional<std::string> error_code;
  std::optional<std::string> error_message;
  std::optional<std::string> message_pattern;
  std::optional<std::string> error_type;
  std::optional<std::string> error_class;
  std::optional<int> http_status;
  std::optional<std::string> severity;
  std::string file_path;
  int line_number = 0;
  std::string source_code;
  int source_code_start = 0;
  int source_code_end = 0;
  std::optional<std::string> github_url;
  // Prose fields (document/ fills them; null until then).
  std::optional<std::string> documentation;
  std::optional<std::string> trigger_scenarios;
  std::optional<std::string> common_situations;
  std::optional<std::vector<std::string>> solutions;
  std::optional<std::string> example_fix;
  std::optional<std::string> handling_strategy;
  std::optional<std::string> validation_code;
  std::optional<std::string> type_guard;
  std::optional<std::string> try_catch_pattern;
  std::optional<std::vector<std::string>> prevention_tips;
  std::optional<std::vector<std::string>> tags;
  std::optional<std::string> background_tag;
  std::optional<std::string> analyzed_sha;
  std::optional<std::string> analyzed_at;  // ISO 8601 UTC with milliseconds: 2026-08-28T05:10:05.995Z
  int schema_version = kSchemaVersion;
};

// One line of a catalog file.
struct CatalogLine {
  Record record;
  std::string dataset_version;
  std::optional<Site> facts;  // present only in the extended export (--facts)
};

// Serializes as the seeds do: no spaces, keys in seed order, UTF-8 kept as is,
// only '"', '\\' and control characters escaped (as JavaScript's JSON.stringify).
// No trailing newline.
std::string RecordToJson(const Record& r);
std::string CatalogLineToJson(const CatalogLine& line);
std::string SiteToJson(const Site& s);  // the "facts" object

// Parses one line. Unknown keys are an error (the format is closed); a missing
// key is read as null. Returns kParseError with the reason.
Result<CatalogLine> ParseCatalogLine(std::string_view json);
Result<Record> RecordFromJson(std::string_view json);
Result<Site> SiteFromJson(std::string_view json);  // the "facts" object

// JSON string literal (with quotes) as JSON.stringify writes it. Invalid UTF-8
// bytes are replaced by U+FFFD so the output is always valid JSON.
void AppendJsonString(std::string& out, std::string_view s);

// slug: the first 50 characters (code points) of the message, lower-cased, each
// run of non-alphanumerics becomes one '-', '-' trimmed at both ends.
std::string MakeSlug(std::string_view error_message);

// id: 16 lowercase hex of a 64-bit hash of (repo, file, kind, class, message
// template) plus the occurrence index among sites of the same file with the same
// key. Never derived from the line number, so it survives code moving around.
std::string MakeRecordId(std::string_view repo, std::string_view file_path, std::string_view kind,
                         std::string_view error_class, std::string_view message_template,
                         int occurrence);

// https://github.com/<repo>/blob/<sha>/<file>#L<start>-L<end>
std::string MakeGithubUrl(std::string_view repo, std::string_view sha, std::string_view file_path,
                          int start, int end);

// Milliseconds since the epoch -> "2026-08-28T05:10:05.995Z".
std::string FormatIsoTime(long long unix_millis);
// Now, or SOURCE_DATE_EPOCH (seconds) when that variable is set, so that two
// scans of the same commit are byte-identical.
long long NowMillisHonouringSourceDateEpoch();

}  // namespace errdex
