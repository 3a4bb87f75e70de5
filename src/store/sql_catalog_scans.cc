// store/sql_catalog_scans.cc: a scan's row and its tree (path order -> unit), written
// and read back (see sql_catalog.h). Tested by sqlite_store_test.cc, content_store_test.cc
// (against both backends) and tests/store_history_e2e_test.cc.
#include <set>

#include "store/codec.h"
#include "store/sql_catalog.h"

namespace errdex::store {

namespace {

// Rows of a scan's tree written by one INSERT (PutScanUnits): on PostgreSQL each
// statement is a round trip.
constexpr size_t kTreeRowsPerInsert = 64;

}  // namespace

// ---------------------------------------------------------------- scans

Result<int64_t> SqlCatalog::FindScanId(const ScanInfo& info) {
  Query q(db(), "SELECT scan_id FROM scans WHERE repo = $1 AND sha = $2 AND location = $3");
  if (!q.ok()) return q.status();
  q->BindText(1, info.repo);
  q->BindText(2, info.sha);
  q->BindText(3, info.location);
  auto row = q->Step();
  if (!row.ok()) return row.status();
  return *row ? q->Int(0) : int64_t{-1};
}

Result<int64_t> SqlCatalog::InsertScan(const ScanInfo& info, std::optional<int64_t> knowledge_id) {
  Query q(db(),
          "INSERT INTO scans(repo, sha, location, dataset_version, source, files, sites, created, commit_time, "
          "knowledge_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING scan_id");
  if (!q.ok()) return q.status();
  q->BindText(1, info.repo);
  q->BindText(2, info.sha);
  q->BindText(3, info.location);
  q->BindText(4, info.dataset_version);
  q->BindText(5, info.source);
  q->BindInt(6, info.files);
  q->BindInt(7, info.sites);
  q->BindText(8, FormatIsoTime(NowMillisHonouringSourceDateEpoch()));
  q->BindText(9, info.commit_time);
  if (knowledge_id) q->BindInt(10, *knowledge_id);
  else q->BindNull(10);
  auto row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return Status::Internal(db().name() + ": inserting a scan returned no id");
  return q->Int(0);
}

Status SqlCatalog::DeleteScanRows(int64_t scan_id) {
  {
    Query q(db(), "DELETE FROM tree WHERE scan_id = $1");
    if (!q.ok()) return q.status();
    q->BindInt(1, scan_id);
    if (Status st = q->Run(); !st.ok()) return st;
  }
  Query q(db(), "DELETE FROM scans WHERE scan_id = $1");
  if (!q.ok()) return q.status();
  q->BindInt(1, scan_id);
  return q->Run();
}

Result<std::vector<std::pair<int64_t, int64_t>>> SqlCatalog::TreeOf(int64_t scan_id) {
  Query q(db(), "SELECT ord, unit_id FROM tree WHERE scan_id = $1 ORDER BY ord");
  if (!q.ok()) return q.status();
  q->BindInt(1, scan_id);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.emplace_back(q->Int(0), q->Int(1));
  }
  return out;
}

Status SqlCatalog::SetTreeRow(int64_t scan_id, int64_t ord, int64_t unit_id) {
  Query q(db(), "INSERT INTO tree(scan_id, ord, unit_id) VALUES ($1, $2, $3) "
                "ON CONFLICT (scan_id, ord) DO UPDATE SET unit_id = excluded.unit_id");
  if (!q.ok()) return q.status();
  q->BindInt(1, scan_id);
  q->BindInt(2, ord);
  q->BindInt(3, unit_id);
  return q->Run();
}

Status SqlCatalog::RecountScan(int64_t scan_id, const std::string& newer_dataset_version) {
  Query q(db(),
          "UPDATE scans SET sites = (SELECT coalesce(sum(u.records), 0) FROM tree t JOIN units u ON u.unit_id = t.unit_id "
          "WHERE t.scan_id = $1), dataset_version = CASE WHEN dataset_version < $2 THEN $2 ELSE dataset_version END "
          "WHERE scan_id = $1");
  if (!q.ok()) return q.status();
  q->BindInt(1, scan_id);
  q->BindText(2, newer_dataset_version);
  return q->Run();
}

Result<std::optional<std::string>> SqlCatalog::FindKnowledge(const std::string& key) {
  int64_t id = 0;
  {
    Query q(db(), "SELECT unit_id FROM units WHERE key = $1 AND variant = 0 AND kind = 2");
    if (!q.ok()) return q.status();
    q->BindBlob(1, key);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::optional<std::string>();
    id = q->Int(0);
  }
  auto raw = LoadRaw(id);
  if (!raw.ok()) return raw.status();
  return std::optional<std::string>(**raw);
}

Result<int64_t> SqlCatalog::PutScanUnits(const ScanInfo& info, const std::vector<int64_t>& unit_ids,
                                         std::string_view knowledge, const std::string& knowledge_key) {
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  if (Status st = LockScanKey(info); !st.ok()) return st;
  auto old = FindScanId(info);
  if (!old.ok()) return old.status();
  if (*old >= 0)
    if (Status st = DeleteScanRows(*old); !st.ok()) return st;
  // The knowledge blob of the key is the new scan's (assembled from what it stores,
  // none after --no-docs): one put for the scan it replaces described other code.
  if (Status st = DeleteBlob(KnowledgeBlobKey(info)); !st.ok()) return st;
  std::optional<int64_t> knowledge_id;
  if (!knowledge.empty()) {
    // Not copied: 10 MB on flashinfer, rewritten by every scan that changes a file.
    auto id = PutEncoded(kKindKnowledge, knowledge_key.empty() ? ContentHash(knowledge) : knowledge_key, 0, info.repo,
                         "", knowledge, nullptr);
    if (!id.ok()) return id.status();
    knowledge_id = *id;
  }
  auto scan_id = InsertScan(info, knowledge_id);
  if (!scan_id.ok()) return scan_id.status();
  // The tree's rows kTreeRowsPerInsert to a statement: a statement a row was
  // 2,363 statements for flashinfer (25 M instructions at the end of the scan
  // of the commit after a stored one; on PostgreSQL, as many round trips).
  size_t i = 0;
  for (; i + kTreeRowsPerInsert <= unit_ids.size(); i += kTreeRowsPerInsert) {
    static const std::string kSql = [] {
      std::string sql = "INSERT INTO tree(scan_id, ord, unit_id) VALUES ";
      for (size_t r = 0; r < kTreeRowsPerInsert; ++r) {
        sql += r ? ", (" : "(";
        for (size_t c = 1; c <= 3; ++c) sql += "$" + std::to_string(3 * r + c) + (c < 3 ? ", " : ")");
      }
      return sql;
    }();
    Query q(db(), kSql.c_str());  // the statement cache's key: a string that lives as long as the process
    if (!q.ok()) return q.status();
    for (size_t r = 0; r < kTreeRowsPerInsert; ++r) {
      q->BindInt(static_cast<int>(3 * r + 1), *scan_id);
      q->BindInt(static_cast<int>(3 * r + 2), static_cast<int64_t>(i + r));
      q->BindInt(static_cast<int>(3 * r + 3), unit_ids[i + r]);
    }
    if (Status st = q->Run(); !st.ok()) return st;
  }
  for (; i < unit_ids.size(); ++i) {
    Query q(db(), "INSERT INTO tree(scan_id, ord, unit_id) VALUES ($1, $2, $3)");
    if (!q.ok()) return q.status();
    q->BindInt(1, *scan_id);
    q->BindInt(2, static_cast<int64_t>(i));
    q->BindInt(3, unit_ids[i]);
    if (Status st = q->Run(); !st.ok()) return st;
  }
  {
    // A unit gc took while the scan ran (no lease, or an expired one) would
    // leave the scan with a hole: refuse it whole instead.
    Query q(db(), "SELECT count(*) FROM tree t LEFT JOIN units u ON u.unit_id = t.unit_id "
                  "WHERE t.scan_id = $1 AND u.unit_id IS NULL");
    if (!q.ok()) return q.status();
    q->BindInt(1, *scan_id);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (*row && q->Int(0) > 0)
      return Status::IoError(db().name() + ": " + std::to_string(q->Int(0)) +
                             " unit(s) of this scan were collected while it ran (errdex gc); scan again");
  }
  if (Status st = RecountScan(*scan_id, info.dataset_version); !st.ok()) return st;
  if (Status st = BumpContentVersion(); !st.ok()) return st;
  if (Status st = CommitTxn(txn); !st.ok()) return st;
  return scan_id;
}

Result<std::vector<int64_t>> SqlCatalog::PutVerbatim(const std::string& repo, const std::vector<CatalogLine>& lines) {
  std::vector<int64_t> ids;
  size_t i = 0;
  while (i < lines.size()) {
    size_t j = i + 1;
    while (j < lines.size() && lines[j].record.file_path == lines[i].record.file_path) ++j;
    Unit u;
    u.kind = UnitKind::kVerbatim;
    u.repo = repo;
    u.path = lines[i].record.file_path;
    u.records.reserve(j - i);
    for (size_t k = i; k < j; ++k) u.records.push_back(UnitRecord{lines[k], std::string()});
    std::string payload = EncodePayload(u);
    auto id = PutEncoded(static_cast<int>(UnitKind::kVerbatim), VerbatimKey(payload), 0, u.repo, u.path, payload, &u);
    if (!id.ok()) return id.status();
    ids.push_back(*id);
    i = j;
  }
  return ids;
}

Result<int64_t> SqlCatalog::PutScan(const ScanInfo& info, const std::vector<CatalogLine>& lines) {
  std::set<std::string_view> seen;
  for (const CatalogLine& l : lines)
    if (!seen.insert(l.record.id).second)
      return Status::InvalidArgument(db().name() + ": record " + l.record.id + " appears twice in scan " + info.repo +
                                     "@" + info.sha);
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  auto ids = PutVerbatim(info.repo, lines);
  if (!ids.ok()) return ids.status();
  auto scan_id = PutScanUnits(info, *ids, {});
  if (!scan_id.ok()) return scan_id.status();
  if (Status st = CommitTxn(txn); !st.ok()) return st;
  return scan_id;
}

Result<std::vector<StoredUnit>> SqlCatalog::ScanUnits(int64_t scan_id) {
  Query q(db(),
          "SELECT u.unit_id, u.kind, u.variant, u.path, u.records, u.deps, u.info FROM tree t "
          "JOIN units u ON u.unit_id = t.unit_id WHERE t.scan_id = $1 ORDER BY t.ord");
  if (!q.ok()) return q.status();
  q->BindInt(1, scan_id);
  std::vector<StoredUnit> out;
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    StoredUnit u;
    u.unit_id = q->Int(0);
    u.kind = static_cast<UnitKind>(q->Int(1));
    u.variant = static_cast<uint64_t>(q->Int(2));
    u.path = q->Text(3);
    u.records = q->Int(4);
    u.deps = q->Text(5);
    u.stats = DecodeStats(q->View(6));
    out.push_back(std::move(u));
  }
  return out;
}

Result<std::optional<CatalogStore::ScanKnowledgeText>> SqlCatalog::ScanKnowledge(int64_t scan_id) {
  int64_t knowledge_id = 0;
  ScanKnowledgeText out;
  {
    Query q(db(), "SELECT u.unit_id, u.key FROM scans s JOIN units u ON u.unit_id = s.knowledge_id WHERE s.scan_id = $1");
    if (!q.ok()) return q.status();
    q->BindInt(1, scan_id);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::optional<ScanKnowledgeText>();
    knowledge_id = q->Int(0);
    out.key = std::string(q->View(1));
  }
  auto text = LoadRaw(knowledge_id);
  if (!text.ok()) return text.status();
  out.text = **text;
  return std::optional<ScanKnowledgeText>(std::move(out));
}

Result<std::vector<ScanInfo>> SqlCatalog::ListScans() {
  Query q(db(), "SELECT scan_id, repo, sha, dataset_version, source, files, sites, location, commit_time FROM scans "
                "ORDER BY scan_id");
  if (!q.ok()) return q.status();
  std::vector<ScanInfo> out;
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    ScanInfo s;
    s.scan_id = q->Int(0);
    s.repo = q->Text(1);
    s.sha = q->Text(2);
    s.dataset_version = q->Text(3);
    s.source = q->Text(4);
    s.files = q->Int(5);
    s.sites = q->Int(6);
    s.location = q->Text(7);
    s.commit_time = q->Text(8);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace errdex::store
