// scan/previous_check.cc: see previous_check.h.
#include "scan/previous_check.h"

namespace errdex {

std::optional<PreviousCheck> PreviousCheck::Load(CatalogStore& store, const std::string& repo, std::mutex* store_mu) {
  std::unique_lock<std::mutex> lock;
  if (store_mu) lock = std::unique_lock<std::mutex>(*store_mu);
  auto scans = store.ListScans();
  if (!scans.ok()) return std::nullopt;
  int64_t latest = 0;
  for (const ScanInfo& s : *scans)
    if (s.repo == repo && s.scan_id > latest) latest = s.scan_id;
  if (latest == 0) return std::nullopt;
  auto knowledge = store.ScanKnowledge(latest);
  if (!knowledge.ok() || !knowledge->has_value()) return std::nullopt;
  auto units = store.ScanUnits(latest);
  if (!units.ok()) return std::nullopt;
  if (lock.owns_lock()) lock.unlock();
  auto section = check::ReadSectionFiles(std::move((*knowledge)->text));
  if (!section.ok()) return std::nullopt;
  PreviousCheck out;
  out.section_ = std::move(section).value();
  for (const StoredUnit& u : *units)
    if (!u.path.empty()) out.unit_of_path_[u.path] = u.unit_id;
  return out;
}

std::string_view PreviousCheck::EntryFor(std::string_view path, const std::vector<StoredUnit>& units) const {
  auto it = unit_of_path_.find(std::string(path));
  if (it == unit_of_path_.end()) return {};
  bool same = false;
  for (const StoredUnit& u : units) same = same || u.unit_id == it->second;
  if (!same) return {};
  return section_.Entry(section_.Find(path));
}

}  // namespace errdex
