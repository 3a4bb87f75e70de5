// store/sql_catalog: CatalogStore's logic over the SqlDb interface (sql.h), the
// same for SQLite (sqlite_store.cc) and PostgreSQL (pg_store.cc). A backend
// supplies the connection, the schema and its migrations, and the full-text
// index (FTS5 / tsvector), which have no common SQL.
//
// Tables (both backends; types differ):
//   meta(key, value)        application=errdex, schema_version, content_version, fts
//   scans(scan_id, repo, sha, location, dataset_version, source, files, sites,
//         created, commit_time, knowledge_id)   UNIQUE(repo, sha, location)
//   units(unit_id, kind, key, variant, repo, path, records, deps, knowledge,
//         info, base_id, depth, raw_size, payload, created)  UNIQUE(key, variant, kind)
//         payload: zstd of EncodePayload, a delta against unit base_id when set
//         (the previous unit of the same repo, path and kind; chains at most
//         kMaxDeltaDepth long); kind 2 holds a scan's knowledge text
//   tree(scan_id, ord, unit_id)                  a scan's units in order
//   entries(entry_id, hash, record_id, slug, error_message, error_class,
//           severity, tags)                      what search reads, once per distinct value
//   unit_entries(unit_id, idx, entry_id)         record idx of a unit -> its entry
//   blobs(key, bytes, updated), cache(key, value, updated)
//   leases(lease_id, started)                    scans running now (gc keeps what they wrote)
//
// Thread-compatible: one instance per thread.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/catalog_store.h"
#include "store/sql.h"

namespace errdex::store {

// Unit kinds as stored (UnitKind plus the store's own).
inline constexpr int kKindKnowledge = 2;  // a scan's knowledge text
inline constexpr int kMaxDeltaDepth = 16;

class SqlCatalog : public CatalogStore {
 public:
  Result<int64_t> PutScan(const ScanInfo& info, const std::vector<CatalogLine>& lines) override;
  Result<int64_t> AddLines(const ScanInfo& info, const std::vector<CatalogLine>& lines) override;
  Result<std::vector<ScanInfo>> ListScans() override;
  Status ForEachLine(const ScanFilter& filter, const std::function<Status(StoredLine&&)>& fn) override;
  Result<std::vector<StoredLine>> FindRecord(const std::string& id_or_slug) override;
  Status UpdateRecords(const std::vector<StoredLine>& lines) override;
  Result<std::string> ContentVersion() override;

  Result<std::vector<std::vector<StoredUnit>>> FindUnits(const std::vector<std::string>& keys) override;
  Result<int64_t> PutUnit(const Unit& unit) override;
  Result<int64_t> PutUnitEncoded(const Unit& unit, std::string payload, std::string_view compressed) override;
  Result<Unit> LoadUnit(int64_t unit_id) override;
  Result<std::vector<UnitSiteRef>> LoadUnitSiteRefs(int64_t unit_id) override;
  Result<int64_t> PutScanUnits(const ScanInfo& info, const std::vector<int64_t>& unit_ids,
                               std::string_view knowledge, const std::string& knowledge_key = "") override;
  Result<std::optional<std::string>> FindKnowledge(const std::string& key) override;
  Result<std::vector<StoredUnit>> ScanUnits(int64_t scan_id) override;
  Result<std::optional<ScanKnowledgeText>> ScanKnowledge(int64_t scan_id) override;
  Result<int64_t> DeleteScans(const std::string& repo, const std::string& sha) override;
  Result<GcStats> CollectGarbage(int64_t grace_seconds) override;
  Result<int64_t> BeginLease() override;
  Status EndLease(int64_t lease) override;

  Status InTransaction(const std::function<Status()>& body) override;
  Status BeginWrites() override;
  Status CommitWrites() override;
  void RollbackWrites() override { open_writes_.reset(); }
  Status PutBlob(const std::string& key, std::string_view bytes) override;
  Result<std::optional<std::string>> GetBlob(const std::string& key) override;
  Status PutCache(const std::string& key, std::string_view value) override;
  Result<std::optional<std::string>> GetCache(const std::string& key) override;

 protected:
  explicit SqlCatalog(SqlDb* db) : db_(db) {}

  // --- Backend hooks.
  // Makes entries with entry_id > `after` searchable (SQLite's FTS5 table is
  // written in bulk before each commit; PostgreSQL indexes a generated column).
  virtual Status IndexEntriesAfter(int64_t after) = 0;
  // Removes entry `entry_id` from the full-text index before its row goes.
  virtual Status UnindexEntry(int64_t entry_id) = 0;
  // Whether IndexEntriesAfter needs calling.
  virtual bool IndexesInBulk() const = 0;
  // The catalog's size in bytes, and giving freed space back (gc).
  virtual Result<int64_t> StorageBytes() = 0;
  virtual Status Compact() = 0;
  // SQL that differs: the large-blob read (SQLite reads incrementally).
  virtual Result<std::optional<std::string>> ReadBlobRow(const std::string& key);
  // After a new entry's row is written (PostgreSQL fills its search words).
  virtual Status AfterEntryInsert(int64_t entry_id, const EntryFields& entry) { return Status::Ok(); }
  // Inside PutScanUnits' transaction, before the old scan of the key goes: one
  // writer of a key at a time (PostgreSQL; SQLite has one writer anyway).
  virtual Status LockScanKey(const ScanInfo& info) { return Status::Ok(); }

  SqlDb& db() { return *db_; }
  // Begins `txn`; commits it, first indexing the entries it added when it is the
  // outermost. Every write of the store goes through these two.
  Status BeginTxn(WriteTxn& txn);
  Status CommitTxn(WriteTxn& txn);
  Status BumpContentVersion();
  Result<std::optional<std::string>> GetMeta(const char* key);
  Status SetMeta(const char* key, const std::string& value);

  // Writes a stored (kind 0/1/3) unit or a knowledge text (kind 2) with its
  // payload already encoded; returns the id.
  // `compressed`: the payload compressed whole, when the caller has it.
  // `owned`: the payload's own string, when the caller gives it up (kept as
  // the next version's delta base instead of a copy).
  Result<int64_t> PutEncoded(int kind, const std::string& key, uint64_t variant, const std::string& repo,
                             const std::string& path, std::string_view payload, const Unit* unit,
                             std::string_view compressed = {}, std::string* owned = nullptr);
  // The payload of a unit, decompressed (following its delta chain).
  Result<std::shared_ptr<const std::string>> LoadRaw(int64_t unit_id);
  Result<std::shared_ptr<const Unit>> LoadUnitCached(int64_t unit_id);

  // A scan's key lookup; -1 when absent.
  Result<int64_t> FindScanId(const ScanInfo& info);
  // Inserts a scan row (no tree yet).
  Result<int64_t> InsertScan(const ScanInfo& info, std::optional<int64_t> knowledge_id);
  Status DeleteScanRows(int64_t scan_id);
  // (ord, unit_id) of a scan's tree.
  Result<std::vector<std::pair<int64_t, int64_t>>> TreeOf(int64_t scan_id);
  Status SetTreeRow(int64_t scan_id, int64_t ord, int64_t unit_id);
  Status RecountScan(int64_t scan_id, const std::string& newer_dataset_version);
  // Lines grouped into verbatim units (consecutive lines of one file together).
  Result<std::vector<int64_t>> PutVerbatim(const std::string& repo, const std::vector<CatalogLine>& lines);
  Result<std::optional<std::string>> AssembleKnowledge(const std::string& repo, const std::string& sha,
                                                       const std::string& location);
  // Removes a blob put under `key` (a scan's knowledge put by `errdex document`,
  // which would otherwise outlive the scan it described).
  Status DeleteBlob(const std::string& key);
  Status MarkNewEntries();

 private:
  SqlDb* db_;
  // SQLite: the greatest entry id when the outermost transaction began writing
  // entries (-1: none written yet).
  int64_t fts_mark_ = -1;
  std::unique_ptr<WriteTxn> open_writes_;  // BeginWrites' transaction
  // Decoded units and raw payloads recently read, bounded by bytes.
  struct CacheEntry {
    std::shared_ptr<const Unit> unit;
    std::shared_ptr<const std::string> raw;
    size_t bytes = 0;
    std::list<int64_t>::iterator lru;
  };
  std::unordered_map<int64_t, CacheEntry> cache_;
  std::list<int64_t> lru_;
  size_t cache_bytes_ = 0;
  uint64_t cache_rollbacks_ = 0;  // db_->rollbacks() when the cache was last known good
  // A rolled-back write frees unit ids for reuse: an entry cached under one may
  // describe a unit that no longer exists (the next unit put gets its id).
  void CacheForgetRolledBack();
  void CacheTouch(int64_t id, CacheEntry& e);
  CacheEntry& CacheAt(int64_t id);  // created when missing; most recently used
  void CacheAdd(CacheEntry& e, size_t bytes);
 protected:
  void CacheClear() {
    cache_.clear();
    lru_.clear();
    cache_bytes_ = 0;
  }
 private:
  void CacheTrim();
};

// Scans with their commit fields, for Materialize.
CommitFields CommitOf(const ScanInfo& scan);

// The backends (sqlite_store.cc, pg_store.cc); CatalogStore::Open picks one.
Result<std::unique_ptr<CatalogStore>> OpenSqliteStore(const std::string& path, bool create);
Result<std::unique_ptr<CatalogStore>> OpenPostgresStore(const std::string& url, bool create);

}  // namespace errdex::store
