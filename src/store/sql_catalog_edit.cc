// store/sql_catalog_edit.cc: the writes that change stored lines in place --
// AddLines (import), UpdateRecords (errdex document), DeleteScans and
// CollectGarbage. A changed unit is never rewritten: the change makes a new
// unit and the scan's tree row points at it, so other scans holding the old
// unit keep it. Tested by sqlite_store_test.cc and content_store_test.cc.
#include <algorithm>
#include <ctime>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "store/codec.h"
#include "store/sql_catalog.h"

namespace errdex::store {

namespace {

// The prose fields of a record (model/record.h: "document/ fills them").
void CopyProse(const Record& from, Record* to) {
  to->documentation = from.documentation;
  to->trigger_scenarios = from.trigger_scenarios;
  to->common_situations = from.common_situations;
  to->solutions = from.solutions;
  to->example_fix = from.example_fix;
  to->handling_strategy = from.handling_strategy;
  to->validation_code = from.validation_code;
  to->type_guard = from.type_guard;
  to->try_catch_pattern = from.try_catch_pattern;
  to->prevention_tips = from.prevention_tips;
  to->tags = from.tags;
  to->background_tag = from.background_tag;
  // The classification is written by the document stage too (scan --no-docs leaves it null).
  to->error_type = from.error_type;
  to->severity = from.severity;
}

// A lease older than this is a scan that died.
constexpr int64_t kLeaseSeconds = 24 * 3600;

// Where each record of a scan is: record id -> (tree ord, index in its unit).
struct Position {
  int64_t ord, idx;
};

}  // namespace

Result<int64_t> SqlCatalog::AddLines(const ScanInfo& info, const std::vector<CatalogLine>& lines) {
  std::set<std::string_view> ids;
  for (const CatalogLine& line : lines)
    if (!ids.insert(line.record.id).second)
      return Status::InvalidArgument(db().name() + ": record " + line.record.id +
                                     " appears twice in the lines added to " + info.repo + "@" + info.sha);
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  auto found = FindScanId(info);
  if (!found.ok()) return found.status();
  int64_t scan_id = *found;
  ScanInfo scan = info;
  if (scan_id < 0) {
    ScanInfo fresh = info;
    fresh.sites = 0;
    auto id = InsertScan(fresh, std::nullopt);
    if (!id.ok()) return id.status();
    scan_id = *id;
  } else {
    auto all = ListScans();
    if (!all.ok()) return all.status();
    for (const ScanInfo& s : *all)
      if (s.scan_id == scan_id) scan = s;
  }
  std::map<std::string, Position> where;
  {
    Query q(db(),
            "SELECT t.ord, ue.idx, e.record_id FROM tree t JOIN unit_entries ue ON ue.unit_id = t.unit_id "
            "JOIN entries e ON e.entry_id = ue.entry_id WHERE t.scan_id = $1");
    if (!q.ok()) return q.status();
    q->BindInt(1, scan_id);
    for (;;) {
      auto row = q->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      where[q->Text(2)] = Position{q->Int(0), q->Int(1)};
    }
  }
  auto tree = TreeOf(scan_id);
  if (!tree.ok()) return tree.status();
  std::map<int64_t, int64_t> unit_at(tree->begin(), tree->end());
  int64_t next_ord = tree->empty() ? 0 : tree->back().first + 1;

  std::map<int64_t, std::vector<std::pair<int64_t, const CatalogLine*>>> replaced;  // ord -> (idx, line)
  std::vector<CatalogLine> appended;
  for (const CatalogLine& line : lines) {
    auto it = where.find(line.record.id);
    if (it != where.end()) replaced[it->second.ord].emplace_back(it->second.idx, &line);
    else appended.push_back(line);
  }
  CommitFields commit = CommitOf(scan);
  for (const auto& [ord, changes] : replaced) {
    auto unit = LoadUnitCached(unit_at[ord]);
    if (!unit.ok()) return unit.status();
    Unit u;
    u.kind = UnitKind::kVerbatim;
    u.repo = (*unit)->repo;
    u.path = (*unit)->path;
    for (const UnitRecord& r : (*unit)->records) u.records.push_back(UnitRecord{Materialize((*unit)->kind, r, commit), {}});
    for (const auto& [idx, line] : changes) {
      if (idx < 0 || static_cast<size_t>(idx) >= u.records.size())
        return Status::IoError(db().name() + ": a stored unit has fewer records than its index");
      u.records[idx].line = *line;
    }
    std::string payload = EncodePayload(u);
    auto id = PutEncoded(static_cast<int>(UnitKind::kVerbatim), VerbatimKey(payload), 0, u.repo, u.path, payload, &u);
    if (!id.ok()) return id.status();
    if (Status st = SetTreeRow(scan_id, ord, *id); !st.ok()) return st;
  }
  auto added = PutVerbatim(info.repo, appended);
  if (!added.ok()) return added.status();
  for (int64_t id : *added)
    if (Status st = SetTreeRow(scan_id, next_ord++, id); !st.ok()) return st;
  if (Status st = RecountScan(scan_id, info.dataset_version); !st.ok()) return st;
  {
    Query q(db(),
            "UPDATE scans SET files = (SELECT CASE WHEN count(DISTINCT u.path) > scans.files THEN count(DISTINCT u.path) "
            "ELSE scans.files END FROM tree t JOIN units u ON u.unit_id = t.unit_id WHERE t.scan_id = $1) "
            "WHERE scan_id = $1");
    if (!q.ok()) return q.status();
    q->BindInt(1, scan_id);
    if (Status st = q->Run(); !st.ok()) return st;
  }
  if (Status st = BumpContentVersion(); !st.ok()) return st;
  if (Status st = CommitTxn(txn); !st.ok()) return st;
  return scan_id;
}

Status SqlCatalog::UpdateRecords(const std::vector<StoredLine>& lines) {
  std::map<int64_t, std::map<std::string, const Record*>> by_scan;
  for (const StoredLine& l : lines) by_scan[l.scan_id][l.line.record.id] = &l.line.record;
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  for (const auto& [scan_id, updates] : by_scan) {
    std::map<int64_t, std::vector<std::pair<int64_t, const Record*>>> by_ord;
    std::set<std::string> found;
    {
      Query q(db(),
              "SELECT t.ord, ue.idx, e.record_id FROM tree t JOIN unit_entries ue ON ue.unit_id = t.unit_id "
              "JOIN entries e ON e.entry_id = ue.entry_id WHERE t.scan_id = $1");
      if (!q.ok()) return q.status();
      q->BindInt(1, scan_id);
      for (;;) {
        auto row = q->Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        std::string id = q->Text(2);
        auto it = updates.find(id);
        if (it == updates.end()) continue;
        by_ord[q->Int(0)].emplace_back(q->Int(1), it->second);
        found.insert(id);
      }
    }
    for (const auto& [id, record] : updates)
      if (!found.count(id))
        return Status::NotFound(db().name() + ": no record " + id + " in scan " + std::to_string(scan_id));
    auto tree = TreeOf(scan_id);
    if (!tree.ok()) return tree.status();
    std::map<int64_t, int64_t> unit_at(tree->begin(), tree->end());
    for (const auto& [ord, changes] : by_ord) {
      auto unit = LoadUnitCached(unit_at[ord]);
      if (!unit.ok()) return unit.status();
      Unit u = **unit;
      for (const auto& [idx, record] : changes) {
        if (idx < 0 || static_cast<size_t>(idx) >= u.records.size())
          return Status::IoError(db().name() + ": a stored unit has fewer records than its index");
        CopyProse(*record, &u.records[idx].line.record);
      }
      // Derived records stay derived (one copy serves every commit holding the
      // file), marked as edited so that a scan never takes this prose for its own.
      if (IsDerived(u.kind)) u.kind = UnitKind::kEdited;
      std::string payload = EncodePayload(u);
      uint64_t variant = 0;
      std::string key = u.key;
      if (u.kind == UnitKind::kEdited) {
        std::string h = ContentHash(payload);
        for (int i = 0; i < 8; ++i) variant = (variant << 8) | static_cast<unsigned char>(h[i]);
      } else {
        key = VerbatimKey(payload);
      }
      auto id = PutEncoded(static_cast<int>(u.kind), key, variant, u.repo, u.path, payload, &u);
      if (!id.ok()) return id.status();
      if (Status st = SetTreeRow(scan_id, ord, *id); !st.ok()) return st;
    }
  }
  if (Status st = BumpContentVersion(); !st.ok()) return st;
  return CommitTxn(txn);
}

Result<int64_t> SqlCatalog::DeleteScans(const std::string& repo, const std::string& sha) {
  if (sha.empty()) return Status::InvalidArgument("give the commit to delete: REPO@SHA");
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  auto scans = ListScans();
  if (!scans.ok()) return scans.status();
  std::vector<int64_t> doomed;
  std::vector<std::string> doomed_blobs;
  std::set<std::string> shas;
  for (const ScanInfo& s : *scans) {
    if (s.repo != repo) continue;
    bool exact = s.sha == sha;
    bool prefix = sha.size() >= 4 && s.sha.compare(0, sha.size(), sha) == 0;
    if (!exact && !prefix) continue;
    doomed.push_back(s.scan_id);
    doomed_blobs.push_back(KnowledgeBlobKey(s));
    shas.insert(s.sha);
  }
  if (shas.size() > 1) {
    std::string list;
    for (const std::string& s : shas) list += (list.empty() ? "" : ", ") + s;
    return Status::InvalidArgument("'" + sha + "' names several commits of " + repo + " (" + list +
                                   "); give more of the sha");
  }
  for (int64_t id : doomed)
    if (Status st = DeleteScanRows(id); !st.ok()) return st;
  for (const std::string& key : doomed_blobs)
    if (Status st = DeleteBlob(key); !st.ok()) return st;
  if (!doomed.empty())
    if (Status st = BumpContentVersion(); !st.ok()) return st;
  if (Status st = CommitTxn(txn); !st.ok()) return st;
  return static_cast<int64_t>(doomed.size());
}

Result<int64_t> SqlCatalog::BeginLease() {
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  int64_t id = 0;
  {
    Query q(db(), "INSERT INTO leases(started) VALUES ($1) RETURNING lease_id");
    if (!q.ok()) return q.status();
    q->BindInt(1, static_cast<int64_t>(std::time(nullptr)));
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::Internal(db().name() + ": a lease got no id");
    id = q->Int(0);
  }
  if (Status st = CommitTxn(txn); !st.ok()) return st;
  return id;
}

Status SqlCatalog::EndLease(int64_t lease) {
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  {
    Query q(db(), "DELETE FROM leases WHERE lease_id = $1 OR started < $2");
    if (!q.ok()) return q.status();
    q->BindInt(1, lease);
    q->BindInt(2, static_cast<int64_t>(std::time(nullptr)) - kLeaseSeconds);
    if (Status st = q->Run(); !st.ok()) return st;
  }
  return CommitTxn(txn);
}

Result<GcStats> SqlCatalog::CollectGarbage(int64_t grace_seconds) {
  GcStats stats;
  auto before = StorageBytes();
  if (!before.ok()) return before.status();
  stats.bytes_before = *before;
  {
    WriteTxn txn(db());
    if (Status st = BeginTxn(txn); !st.ok()) return st;
    // Roots: every unit a tree or a scan's knowledge refers to, every unit too
    // young to judge (a running scan's). The rest is dead -- but a root may be a
    // delta over a dead unit: it is compressed again over its first live
    // ancestor (or whole) before the dead go.
    int64_t now = static_cast<int64_t>(std::time(nullptr));
    int64_t cutoff = now - grace_seconds;
    {
      Query l(db(), "SELECT min(started) FROM leases WHERE started > $1");
      if (!l.ok()) return l.status();
      l->BindInt(1, now - kLeaseSeconds);
      auto row = l->Step();
      if (!row.ok()) return row.status();
      if (*row && !l->IsNull(0)) cutoff = std::min(cutoff, l->Int(0) - 1);
    }
    std::unordered_set<int64_t> live;
    {
      Query q(db(), "SELECT unit_id FROM tree UNION SELECT knowledge_id FROM scans WHERE knowledge_id IS NOT NULL "
                    "UNION SELECT unit_id FROM units WHERE created >= $1");
      if (!q.ok()) return q.status();
      q->BindInt(1, cutoff);
      for (;;) {
        auto row = q->Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        live.insert(q->Int(0));
      }
    }
    struct Row {
      int64_t id, base, depth;
    };
    std::vector<Row> all;
    std::unordered_map<int64_t, size_t> at;
    {
      Query q(db(), "SELECT unit_id, coalesce(base_id, 0), depth FROM units ORDER BY unit_id");
      if (!q.ok()) return q.status();
      for (;;) {
        auto row = q->Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        at[q->Int(0)] = all.size();
        all.push_back(Row{q->Int(0), q->Int(1), q->Int(2)});
      }
    }
    std::vector<int64_t> dead;
    for (const Row& r : all)
      if (!live.count(r.id)) dead.push_back(r.id);
    for (Row& r : all) {  // ascending: a new base is final before its dependents
      if (!live.count(r.id) || r.base == 0 || live.count(r.base)) continue;
      int64_t base = r.base;
      while (base != 0 && !live.count(base)) {
        auto it = at.find(base);
        base = it == at.end() ? 0 : all[it->second].base;
      }
      auto raw = LoadRaw(r.id);
      if (!raw.ok()) return raw.status();
      std::string compressed;
      int64_t depth = 0;
      if (base != 0) {
        auto base_raw = LoadRaw(base);
        if (!base_raw.ok()) return base_raw.status();
        auto c = Compress(**raw, **base_raw);
        if (!c.ok()) return c.status();
        compressed = std::move(c).value();
        depth = all[at[base]].depth + 1;
      }
      if (base == 0) {
        auto c = Compress(**raw);
        if (!c.ok()) return c.status();
        compressed = std::move(c).value();
      }
      Query q(db(), "UPDATE units SET base_id = $2, depth = $3, payload = $4 WHERE unit_id = $1");
      if (!q.ok()) return q.status();
      q->BindInt(1, r.id);
      if (base != 0) q->BindInt(2, base);
      else q->BindNull(2);
      q->BindInt(3, depth);
      q->BindBlob(4, compressed);
      if (Status st = q->Run(); !st.ok()) return st;
      r.base = base;
      r.depth = depth;
    }
    std::reverse(dead.begin(), dead.end());
    for (int64_t id : dead) {
      {
        Query q(db(), "DELETE FROM unit_entries WHERE unit_id = $1");
        if (!q.ok()) return q.status();
        q->BindInt(1, id);
        if (Status st = q->Run(); !st.ok()) return st;
      }
      Query q(db(), "DELETE FROM units WHERE unit_id = $1");
      if (!q.ok()) return q.status();
      q->BindInt(1, id);
      if (Status st = q->Run(); !st.ok()) return st;
    }
    stats.units = static_cast<int64_t>(dead.size());
    std::vector<int64_t> dead_entries;
    {
      Query q(db(), "SELECT entry_id FROM entries e WHERE NOT EXISTS "
                    "(SELECT 1 FROM unit_entries ue WHERE ue.entry_id = e.entry_id) ORDER BY entry_id");
      if (!q.ok()) return q.status();
      for (;;) {
        auto row = q->Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        dead_entries.push_back(q->Int(0));
      }
    }
    for (int64_t id : dead_entries) {
      if (Status st = UnindexEntry(id); !st.ok()) return st;
      Query q(db(), "DELETE FROM entries WHERE entry_id = $1");
      if (!q.ok()) return q.status();
      q->BindInt(1, id);
      if (Status st = q->Run(); !st.ok()) return st;
    }
    stats.entries = static_cast<int64_t>(dead_entries.size());
    if (Status st = CommitTxn(txn); !st.ok()) return st;
  }
  CacheClear();
  if (Status st = Compact(); !st.ok()) return st;
  auto after = StorageBytes();
  if (!after.ok()) return after.status();
  stats.bytes_after = *after;
  return stats;
}

}  // namespace errdex::store
