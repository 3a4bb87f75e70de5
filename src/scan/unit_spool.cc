// scan/unit_spool.cc: see unit_spool.h. Tested by scanner_test.cc
// (AScanWithNoMemoryBudgetWritesTheSameBytes: every parsed file goes to disk).
#include "scan/unit_spool.h"

#include "scan/spool_codec.h"
#include "store/codec.h"

namespace errdex {

UnitSpool::~UnitSpool() {
  if (file_) std::fclose(file_);
}

Status UnitSpool::Put(size_t index, std::shared_ptr<Unit> unit, size_t bytes) {
  if (resident_.load() + bytes <= budget_) {
    resident_ += bytes;
    std::lock_guard<std::mutex> l(mu_);
    memory_[index] = Held{std::move(unit), bytes};
    return Status::Ok();
  }
  std::string payload = EncodeSpooled(*unit);
  auto compressed = store::Compress(payload, {}, 1);
  if (!compressed.ok()) return compressed.status();
  std::lock_guard<std::mutex> l(mu_);
  if (!file_) {
    file_ = std::tmpfile();
    if (!file_) return Status::IoError("cannot create a temporary file for the scan's spool");
  }
  if (std::fseek(file_, 0, SEEK_END) != 0) return Status::IoError("the scan's spool file cannot be written");
  long at = std::ftell(file_);
  if (std::fwrite(compressed->data(), 1, compressed->size(), file_) != compressed->size())
    return Status::IoError("the scan's spool file cannot be written (disk full?)");
  on_disk_[index] = Spilled{at, compressed->size(), payload.size(), unit->key, unit->repo, unit->path,
                            std::move(unit->knowledge)};
  return Status::Ok();
}

Result<std::shared_ptr<Unit>> UnitSpool::Take(size_t index) {
  std::lock_guard<std::mutex> l(mu_);
  auto m = memory_.find(index);
  if (m != memory_.end()) {
    auto unit = std::move(m->second.unit);
    resident_ -= m->second.bytes;
    memory_.erase(m);
    return unit;
  }
  auto d = on_disk_.find(index);
  if (d == on_disk_.end()) return Status::Internal("the scan's spool lost a file");
  std::string compressed(d->second.size, '\0');
  if (std::fseek(file_, d->second.offset, SEEK_SET) != 0 ||
      std::fread(compressed.data(), 1, compressed.size(), file_) != compressed.size())
    return Status::IoError("the scan's spool file cannot be read");
  auto raw = store::Decompress(compressed, d->second.raw_size);
  if (!raw.ok()) return raw.status();
  auto unit = std::make_shared<Unit>();
  if (Status st = DecodeSpooled(*raw, unit.get()); !st.ok()) return st;
  unit->key = std::move(d->second.key);
  unit->repo = std::move(d->second.repo);
  unit->path = std::move(d->second.path);
  unit->knowledge = std::move(d->second.knowledge);
  on_disk_.erase(d);
  return unit;
}

}  // namespace errdex
