// scan/sinks.cc: see sinks.h. Tested by scanner_test.cc, tests/scan_e2e_test.cc
// and tests/store_history_e2e_test.cc.
#include "scan/sinks.h"

#include <cerrno>
#include <cstring>

#include "store/codec.h"

namespace errdex {

namespace {

// A batch of new units is written once it holds this many units or bytes,
// into a transaction that stays open across batches until it is a second old
// (other writers of a SQLite catalog wait for it) or the scan ends: each
// commit rewrites every index page it touched (CatalogStore::BeginWrites).
// Measured on the stdlib and dist-packages (13,065 units, 123,869 records):
// a commit per batch of 256 was 51 commits and 730 MB written for a 129 MB
// catalog.
constexpr size_t kBatchUnits = 256;
constexpr size_t kBatchBytes = size_t{32} << 20;
constexpr auto kCommitAfter = std::chrono::seconds(1);

}  // namespace

void JsonlSink::Prepare(FileOutput& out) {
  if (!out.unit) return;
  for (const UnitRecord& r : out.unit->records) {
    out.jsonl += CatalogLineJson(Materialize(out.unit->kind, r, out.commit), with_facts_);
    out.jsonl.push_back('\n');
  }
}

Status JsonlSink::Emit(FileOutput& out) {
  if (write_errno_ || out.jsonl.empty()) return Status::Ok();
  if (std::fwrite(out.jsonl.data(), 1, out.jsonl.size(), out_) != out.jsonl.size()) {
    write_errno_ = errno ? errno : EIO;
    return Status::IoError(std::string("cannot write the records: ") + std::strerror(write_errno_));
  }
  std::string().swap(out.jsonl);
  return Status::Ok();
}

Status JsonlSink::Finish(ScanResult&, const std::string&, const std::string&) {
  if (std::fflush(out_) != 0) {
    write_errno_ = errno ? errno : EIO;
    return Status::IoError(std::string("cannot write the records: ") + std::strerror(write_errno_));
  }
  return Status::Ok();
}

void CatalogSink::Prepare(FileOutput& out) {
  if (out.unit_id > 0 || !out.unit) return;
  out.payload = EncodePayload(*out.unit);
  auto c = store::Compress(out.payload);
  if (c.ok()) out.compressed = std::move(c).value();  // else the store compresses it
}

Status CatalogSink::Emit(FileOutput& out) {
  if (out.unit_id > 0) {
    ids_.push_back(out.unit_id);
    return Status::Ok();
  }
  if (!out.unit) return Status::Internal("a scanned file reached the catalog without its unit");
  pending_bytes_ += out.compressed.size() + out.payload.size() / 8;
  pending_.push_back(Pending{ids_.size(), out.unit, std::move(out.payload), std::move(out.compressed)});
  ids_.push_back(0);
  if (pending_.size() >= kBatchUnits || pending_bytes_ >= kBatchBytes ||
      (open_ && std::chrono::steady_clock::now() - opened_ >= kCommitAfter))
    return Flush(/*commit_due=*/true);
  return Status::Ok();
}

CatalogSink::~CatalogSink() {
  if (!open_ && lease_ == 0) return;
  std::lock_guard<std::mutex> l(*mu_);
  if (open_) store_->RollbackWrites();  // a scan that failed: none of its units land
  if (lease_ > 0) (void)store_->EndLease(lease_);  // a lease left behind only delays gc by a day
}

Status CatalogSink::Flush(bool commit_due) {
  std::lock_guard<std::mutex> l(*mu_);
  if (!pending_.empty()) {
    if (lease_ == 0) {
      auto lease = store_->BeginLease();
      if (!lease.ok()) return lease.status();
      lease_ = *lease;
    }
    if (!open_) {
      if (Status st = store_->BeginWrites(); !st.ok()) return st;
      open_ = true;
      opened_ = std::chrono::steady_clock::now();
    }
    Status st = Status::Ok();
    for (Pending& p : pending_) {
      auto id = store_->PutUnitEncoded(*p.unit, std::move(p.payload), p.compressed);
      if (!id.ok()) {
        st = id.status();
        break;
      }
      ids_[p.slot] = *id;
    }
    pending_.clear();
    pending_bytes_ = 0;
    if (!st.ok()) {
      store_->RollbackWrites();
      open_ = false;
      return st;
    }
  }
  if (open_ && commit_due && std::chrono::steady_clock::now() - opened_ >= kCommitAfter) {
    open_ = false;
    return store_->CommitWrites();
  }
  return Status::Ok();
}

Status CatalogSink::Finish(ScanResult& result, const std::string& knowledge, const std::string& knowledge_key) {
  // The last units join the scan's own transaction (one commit fewer).
  if (Status st = Flush(/*commit_due=*/false); !st.ok()) return st;
  ScanInfo info;
  info.repo = result.repo.value_or("");
  info.sha = result.sha.value_or("");
  info.location = result.location;
  info.dataset_version = result.dataset_version;
  info.source = result.source;
  info.files = result.stats.files_scanned;
  info.sites = result.stats.sites;
  info.commit_time = result.commit_time;
  std::lock_guard<std::mutex> l(*mu_);
  auto id = store_->PutScanUnits(info, ids_, knowledge, knowledge_key);
  if (!id.ok()) return id.status();  // the destructor rolls back an open transaction
  if (open_) {
    open_ = false;
    if (Status st = store_->CommitWrites(); !st.ok()) return st;
  }
  result.scan_id = *id;
  if (lease_ > 0) {
    Status st = store_->EndLease(lease_);
    lease_ = 0;
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status CollectSink::Emit(FileOutput& out) {
  if (!out.unit) return Status::Ok();
  std::string chunk;
  for (const UnitRecord& r : out.unit->records) {
    CatalogLine line = Materialize(out.unit->kind, r, out.commit);
    if (json_ != ScanOptions::JsonLines::kNone) {
      chunk += CatalogLineJson(line, json_ == ScanOptions::JsonLines::kRecordsWithFacts);
      chunk.push_back('\n');
    }
    if (!r.context.empty()) contexts_.emplace_back(line.record.id, r.context);
    lines_.push_back(std::move(line));
  }
  if (!chunk.empty()) chunks_.push_back(std::move(chunk));
  return Status::Ok();
}

Status CollectSink::Finish(ScanResult& result, const std::string& knowledge, const std::string&) {
  result.lines = std::move(lines_);
  result.jsonl_chunks = std::move(chunks_);
  result.knowledge = knowledge.empty() ? std::string() : AssembleKnowledge(knowledge, contexts_);
  return Status::Ok();
}

std::string AssembleKnowledge(const std::string& knowledge,
                              const std::vector<std::pair<std::string, std::string>>& contexts) {
  std::string out = knowledge;
  if (out.empty() || out.back() != '}') return out;
  out.pop_back();
  out += ",\"sites\":{";
  bool first = true;
  for (const auto& [id, ctx] : contexts) {
    if (!first) out += ',';
    first = false;
    AppendJsonString(out, id);
    out += ':';
    out += ctx;
  }
  out += "}}";
  return out;
}

}  // namespace errdex
