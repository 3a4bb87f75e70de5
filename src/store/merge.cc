// merge.cc: see merge.h.
#include "store/merge.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace errdex::store {

namespace {

// The target's scan of `info`'s key, if any.
Result<std::optional<ScanInfo>> FindScan(const std::vector<ScanInfo>& scans, const ScanInfo& info) {
  for (const ScanInfo& s : scans)
    if (s.repo == info.repo && s.sha == info.sha && s.location == info.location) return std::optional<ScanInfo>(s);
  return std::optional<ScanInfo>();
}

}  // namespace

Status MergeCatalog(CatalogStore& from, CatalogStore& into, MergeStats* stats) {
  MergeStats local;
  MergeStats& st = stats ? *stats : local;
  auto shard_scans = from.ListScans();
  if (!shard_scans.ok()) return shard_scans.status();
  auto target_scans = into.ListScans();
  if (!target_scans.ok()) return target_scans.status();
  std::map<int64_t, int64_t> unit_map;  // shard unit id -> target unit id
  for (const ScanInfo& scan : *shard_scans) {
    ++st.scans;
    auto tree = from.ScanUnits(scan.scan_id);
    if (!tree.ok()) return tree.status();
    auto knowledge = from.ScanKnowledge(scan.scan_id);
    if (!knowledge.ok()) return knowledge.status();
    std::vector<int64_t> ids;
    ids.reserve(tree->size());
    for (const StoredUnit& su : *tree) {
      auto hit = unit_map.find(su.unit_id);
      if (hit != unit_map.end()) {
        ids.push_back(hit->second);
        continue;
      }
      auto unit = from.LoadUnit(su.unit_id);
      if (!unit.ok()) return unit.status();
      ++st.units_read;
      auto id = into.PutUnit(*unit);  // finds it when the target has it
      if (!id.ok()) return id.status();
      unit_map.emplace(su.unit_id, *id);
      ids.push_back(*id);
    }
    // Already there as it is: nothing to write.
    auto have = FindScan(*target_scans, scan);
    if (!have.ok()) return have.status();
    if (have->has_value() && (*have)->dataset_version == scan.dataset_version) {
      auto their_tree = into.ScanUnits((*have)->scan_id);
      if (!their_tree.ok()) return their_tree.status();
      auto their_knowledge = into.ScanKnowledge((*have)->scan_id);
      if (!their_knowledge.ok()) return their_knowledge.status();
      bool same = their_tree->size() == ids.size() && knowledge->has_value() == their_knowledge->has_value() &&
                  (!knowledge->has_value() || ((*knowledge)->key == (*their_knowledge)->key &&
                                               (*knowledge)->text == (*their_knowledge)->text));
      for (size_t i = 0; same && i < ids.size(); ++i) same = (*their_tree)[i].unit_id == ids[i];
      if (same) {
        ++st.scans_same;
        continue;
      }
    }
    std::string text = knowledge->has_value() ? (*knowledge)->text : std::string();
    std::string key = knowledge->has_value() ? (*knowledge)->key : std::string();
    auto written = into.PutScanUnits(scan, ids, text, key);
    if (!written.ok()) return written.status();
    ++st.scans_written;
  }
  return Status::Ok();
}

}  // namespace errdex::store
