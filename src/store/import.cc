// import.cc: reading seed-format JSON Lines into scan batches (JsonLinesImport),
// and adding them to a catalog in one transaction (PutScans).
// Tested by import_test.cc and sqlite_store_test.cc.
#include "store/import.h"

#include <algorithm>
#include <set>

namespace errdex {
namespace {

bool IsRecordId(const std::string& id) {
  return id.size() == 16 &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

Status JsonLinesImport::AddFile(std::string_view name, std::string_view text) {
  // Parse the whole file first so that a bad line leaves nothing of this file behind.
  struct Parsed {
    CatalogLine line;
    std::string where;
  };
  std::vector<Parsed> parsed;
  std::vector<std::string> unmatchable;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    if (raw.find_first_not_of(" \t") == std::string_view::npos) continue;
    std::string where = std::string(name) + ":" + std::to_string(line_no);
    if (raw.size() > kMaxLineBytes)
      return Status::LimitExceeded(where + ": the line is " + std::to_string(raw.size()) + " bytes, more than " +
                                   std::to_string(kMaxLineBytes) + " (no record is that large)");
    auto line = ParseCatalogLine(raw);
    if (!line.ok()) return Status::ParseError(where + ": " + line.status().message());
    const Record& r = line->record;
    if (!IsRecordId(r.id))
      return Status::InvalidArgument(where + ": record.id \"" + r.id + "\" is not 16 lowercase hex digits");
    if (line->dataset_version.empty()) return Status::InvalidArgument(where + ": datasetVersion is missing");
    if (r.file_path.empty()) return Status::InvalidArgument(where + ": record.filePath is missing");
    if (r.schema_version != kSchemaVersion)
      return Status::InvalidArgument(where + ": record.schemaVersion " + std::to_string(r.schema_version) +
                                     " is not supported (this errdex reads schema " + std::to_string(kSchemaVersion) +
                                     ")");
    if (pattern_check_ && r.message_pattern) {
      Status p = pattern_check_(*r.message_pattern);
      if (p.code() == Status::Code::kParseError)
        return Status::InvalidArgument(where + ": record.messagePattern is not a regular expression: " + p.message());
      if (!p.ok()) unmatchable.push_back(where + ": " + p.message());
    }
    if (!default_repo_.empty() && r.repo && *r.repo != default_repo_)
      return Status::InvalidArgument(where + ": record.repo \"" + *r.repo + "\" differs from --repo \"" +
                                     default_repo_ + "\"");
    if (!default_sha_.empty() && r.analyzed_sha && *r.analyzed_sha != default_sha_)
      return Status::InvalidArgument(where + ": record.analyzedSha \"" + *r.analyzed_sha +
                                     "\" differs from --sha \"" + default_sha_ + "\"");
    parsed.push_back(Parsed{std::move(line.value()), std::move(where)});
  }

  // Check duplicates against earlier files and within this one before keeping anything.
  std::map<std::pair<std::pair<std::string, std::string>, std::string>, std::string> local_ids;
  for (const Parsed& p : parsed) {
    const Record& r = p.line.record;
    auto key = std::make_pair(r.repo.value_or(default_repo_), r.analyzed_sha.value_or(default_sha_));
    auto bi = batch_index_.find(key);
    if (bi != batch_index_.end()) {
      auto seen = seen_ids_.find({bi->second, r.id});
      if (seen != seen_ids_.end())
        return Status::InvalidArgument(p.where + ": record " + r.id + " already appears at " + seen->second);
    }
    auto [it, inserted] = local_ids.emplace(std::make_pair(key, r.id), p.where);
    if (!inserted) return Status::InvalidArgument(p.where + ": record " + r.id + " already appears at " + it->second);
  }

  files_.emplace_back(name);
  if (!unmatchable.empty() && unmatchable_ == 0) first_unmatchable_ = unmatchable.front();
  unmatchable_ += static_cast<int64_t>(unmatchable.size());
  for (Parsed& p : parsed) {
    const Record& r = p.line.record;
    auto key = std::make_pair(r.repo.value_or(default_repo_), r.analyzed_sha.value_or(default_sha_));
    auto [bi, inserted] = batch_index_.emplace(key, batches_.size());
    if (inserted) {
      ScanBatch b;
      b.info.repo = key.first;
      b.info.sha = key.second;
      batches_.push_back(std::move(b));
    }
    ScanBatch& b = batches_[bi->second];
    seen_ids_.emplace(std::make_pair(bi->second, r.id), p.where);
    b.info.dataset_version = std::max(b.info.dataset_version, p.line.dataset_version);
    b.lines.push_back(std::move(p.line));
    ++line_count_;
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> PutScans(CatalogStore& store, const std::vector<ScanBatch>& batches) {
  std::vector<int64_t> ids;
  Status st = store.InTransaction([&]() -> Status {
    for (const ScanBatch& b : batches) {
      auto id = store.AddLines(b.info, b.lines);
      if (!id.ok()) return id.status();
      ids.push_back(*id);
    }
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return ids;
}

std::vector<ScanBatch> JsonLinesImport::TakeBatches() {
  std::string source = "import";
  for (const std::string& f : files_) source += " " + f;
  for (ScanBatch& b : batches_) {
    std::set<std::string> files;
    for (const CatalogLine& l : b.lines) files.insert(l.record.file_path);
    b.info.files = static_cast<int64_t>(files.size());
    b.info.sites = static_cast<int64_t>(b.lines.size());
    b.info.source = source;
  }
  std::vector<ScanBatch> out = std::move(batches_);
  batches_.clear();
  batch_index_.clear();
  seen_ids_.clear();
  files_.clear();
  line_count_ = 0;
  unmatchable_ = 0;
  first_unmatchable_.clear();
  return out;
}

}  // namespace errdex
