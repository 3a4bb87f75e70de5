// store/sql_catalog.cc: transactions, units, the line view and blobs (see
// sql_catalog.h); scans and their trees are in sql_catalog_scans.cc, editing and
// gc in sql_catalog_edit.cc. Tested by
// sqlite_store_test.cc, content_store_test.cc (against both backends) and
// tests/store_history_e2e_test.cc.
#include "store/sql_catalog.h"

#include <algorithm>
#include <ctime>
#include <unordered_set>

#include "store/codec.h"

namespace errdex::store {

namespace {

// Decoded units and payloads kept between reads: a tree's units are read once
// per ForEachLine over many scans, and a delta base once per chain.
constexpr size_t kCacheBytes = size_t{64} << 20;

int64_t NowSeconds() { return static_cast<int64_t>(std::time(nullptr)); }

// Small side values (a file's knowledge): varint size + zstd, "" for "".
std::string Pack(std::string_view raw) {
  if (raw.empty()) return std::string();
  std::string out;
  ByteWriter w(&out);
  w.Varint(raw.size());
  auto c = Compress(raw, {}, 3);
  if (!c.ok()) return std::string();  // cannot happen for in-memory input; an empty value reads as none
  out += *c;
  return out;
}

Result<std::string> Unpack(std::string_view packed) {
  if (packed.empty()) return std::string();
  ByteReader r(packed);
  uint64_t n = r.Varint();
  if (!r.ok()) return Status::IoError("a stored value is damaged");
  size_t header = packed.size();
  {
    std::string tmp;
    ByteWriter w(&tmp);
    w.Varint(n);
    header = tmp.size();
  }
  return Decompress(packed.substr(header), n);
}

}  // namespace

CommitFields CommitOf(const ScanInfo& scan) {
  CommitFields c;
  if (!scan.sha.empty()) c.sha = scan.sha;
  c.dataset_version = scan.dataset_version;
  return c;
}

// ---------------------------------------------------------------- transactions

WriteTxn::~WriteTxn() {
  if (!begun_ || done_) return;
  if (!nested_) (void)db_.Exec("ROLLBACK;", "roll back");
  else if (savepoint_) (void)db_.Exec("ROLLBACK TO errdex_sp; RELEASE errdex_sp;", "roll back");
  db_.NoteRollback();
}

Status WriteTxn::Begin() {
  nested_ = db_.InTransaction();
  Status st = !nested_ ? db_.BeginWrite() : savepoint_ ? db_.Exec("SAVEPOINT errdex_sp;", "begin a savepoint") : Status::Ok();
  begun_ = st.ok();
  return st;
}

Status WriteTxn::Commit() {
  Status st = !nested_ ? db_.Exec("COMMIT;", "commit") : savepoint_ ? db_.Exec("RELEASE errdex_sp;", "commit") : Status::Ok();
  if (st.ok()) done_ = true;
  return st;
}

Status SqlCatalog::BeginTxn(WriteTxn& txn) {
  Status st = txn.Begin();
  if (st.ok() && !txn.nested()) fts_mark_ = -1;
  return st;
}

Status SqlCatalog::CommitTxn(WriteTxn& txn) {
  if (!txn.nested()) {
    if (fts_mark_ >= 0 && IndexesInBulk()) {
      Status st = IndexEntriesAfter(fts_mark_);
      if (!st.ok()) return st;
    }
    fts_mark_ = -1;
  }
  return txn.Commit();
}

Status SqlCatalog::BeginWrites() {
  if (open_writes_) return Status::Internal(db().name() + ": a batch of writes is open already");
  auto txn = std::make_unique<WriteTxn>(db());
  if (Status st = BeginTxn(*txn); !st.ok()) return st;
  open_writes_ = std::move(txn);
  return Status::Ok();
}

Status SqlCatalog::CommitWrites() {
  if (!open_writes_) return Status::Ok();
  std::unique_ptr<WriteTxn> txn = std::move(open_writes_);
  return CommitTxn(*txn);  // on failure, txn's destructor rolls it back
}

Status SqlCatalog::MarkNewEntries() {
  if (fts_mark_ >= 0 || !IndexesInBulk()) return Status::Ok();
  Query q(db(), "SELECT coalesce(max(entry_id), 0) FROM entries");
  if (!q.ok()) return q.status();
  auto row = q->Step();
  if (!row.ok()) return row.status();
  fts_mark_ = *row ? q->Int(0) : 0;
  return Status::Ok();
}

Status SqlCatalog::InTransaction(const std::function<Status()>& body) {
  WriteTxn txn(db());
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  if (Status st = body(); !st.ok()) return st;  // txn's destructor rolls back
  return CommitTxn(txn);
}

// ---------------------------------------------------------------- meta

Result<std::optional<std::string>> SqlCatalog::GetMeta(const char* key) {
  Query q(db(), "SELECT value FROM meta WHERE key = $1");
  if (!q.ok()) return q.status();
  q->BindText(1, key);
  auto row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(q->Text(0));
}

Status SqlCatalog::SetMeta(const char* key, const std::string& value) {
  Query q(db(), "INSERT INTO meta(key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  if (!q.ok()) return q.status();
  q->BindText(1, key);
  q->BindText(2, value);
  return q->Run();
}

Status SqlCatalog::BumpContentVersion() {
  Query q(db(), "UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT) WHERE key = 'content_version'");
  if (!q.ok()) return q.status();
  return q->Run();
}

Result<std::string> SqlCatalog::ContentVersion() {
  auto v = GetMeta("content_version");
  if (!v.ok()) return v.status();
  if (!v->has_value()) return Status::Internal(db().name() + ": meta.content_version is missing");
  return **v;
}

// ---------------------------------------------------------------- cache

void SqlCatalog::CacheTouch(int64_t id, CacheEntry& e) {
  lru_.erase(e.lru);
  lru_.push_front(id);
  e.lru = lru_.begin();
}

SqlCatalog::CacheEntry& SqlCatalog::CacheAt(int64_t id) {
  auto [it, inserted] = cache_.try_emplace(id);
  if (inserted) {
    lru_.push_front(id);
    it->second.lru = lru_.begin();
  } else {
    CacheTouch(id, it->second);
  }
  return it->second;
}

void SqlCatalog::CacheAdd(CacheEntry& e, size_t bytes) {
  e.bytes += bytes;
  cache_bytes_ += bytes;
}

void SqlCatalog::CacheForgetRolledBack() {
  if (cache_rollbacks_ == db_->rollbacks()) return;
  CacheClear();
  cache_rollbacks_ = db_->rollbacks();
}

void SqlCatalog::CacheTrim() {
  while (cache_bytes_ > kCacheBytes && !lru_.empty()) {
    int64_t id = lru_.back();
    lru_.pop_back();
    auto it = cache_.find(id);
    if (it != cache_.end()) {
      cache_bytes_ -= it->second.bytes;
      cache_.erase(it);
    }
  }
}

// ---------------------------------------------------------------- units

Result<std::shared_ptr<const std::string>> SqlCatalog::LoadRaw(int64_t unit_id) {
  CacheForgetRolledBack();
  auto hit = cache_.find(unit_id);
  if (hit != cache_.end() && hit->second.raw) {
    CacheTouch(unit_id, hit->second);
    return hit->second.raw;
  }
  // Walk down the delta chain to a full payload (or one in the cache), then
  // decompress back up.
  struct Link {
    int64_t id;
    uint64_t raw_size;
    std::string payload;
  };
  std::vector<Link> chain;
  std::shared_ptr<const std::string> base;
  int64_t id = unit_id;
  for (;;) {
    if (chain.size() > kMaxDeltaDepth + 1)
      return Status::IoError(db().name() + ": unit " + std::to_string(unit_id) + " has a damaged delta chain");
    auto c = cache_.find(id);
    if (c != cache_.end() && c->second.raw) {
      base = c->second.raw;
      break;
    }
    Query q(db(), "SELECT base_id, raw_size, payload FROM units WHERE unit_id = $1");
    if (!q.ok()) return q.status();
    q->BindInt(1, id);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::IoError(db().name() + ": unit " + std::to_string(id) + " is missing (a damaged catalog)");
    bool has_base = !q->IsNull(0);
    if (!has_base) {
      // The full payload: decompressed from the row, not copied out of it first
      // (7 MB for flashinfer's knowledge text).
      auto raw = Decompress(q->View(2), static_cast<uint64_t>(q->Int(1)));
      if (!raw.ok())
        return Status::IoError(db().name() + ": unit " + std::to_string(id) + ": " + raw.status().message());
      base = std::make_shared<const std::string>(std::move(raw).value());
      CacheEntry& e = CacheAt(id);
      if (!e.raw) {
        e.raw = base;
        CacheAdd(e, base->size());
      }
      break;
    }
    chain.push_back(Link{id, static_cast<uint64_t>(q->Int(1)), q->Text(2)});
    id = q->Int(0);
  }
  for (size_t i = chain.size(); i-- > 0;) {
    auto raw = Decompress(chain[i].payload, chain[i].raw_size, base ? std::string_view(*base) : std::string_view());
    if (!raw.ok())
      return Status::IoError(db().name() + ": unit " + std::to_string(chain[i].id) + ": " + raw.status().message());
    base = std::make_shared<const std::string>(std::move(raw).value());
    CacheEntry& e = CacheAt(chain[i].id);
    if (!e.raw) {
      e.raw = base;
      CacheAdd(e, base->size());
    }
  }
  CacheTrim();
  return base;
}

Result<std::shared_ptr<const Unit>> SqlCatalog::LoadUnitCached(int64_t unit_id) {
  CacheForgetRolledBack();
  auto hit = cache_.find(unit_id);
  if (hit != cache_.end() && hit->second.unit) {
    CacheTouch(unit_id, hit->second);
    return hit->second.unit;
  }
  auto unit = std::make_shared<Unit>();
  {
    Query q(db(), "SELECT kind, key, variant, repo, path, deps, knowledge FROM units WHERE unit_id = $1");
    if (!q.ok()) return q.status();
    q->BindInt(1, unit_id);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::NotFound(db().name() + ": no unit " + std::to_string(unit_id));
    int kind = static_cast<int>(q->Int(0));
    if (kind == kKindKnowledge) return Status::InvalidArgument("unit " + std::to_string(unit_id) + " is a knowledge text");
    unit->key = q->Text(1);
    unit->variant = static_cast<uint64_t>(q->Int(2));
    unit->repo = q->Text(3);
    unit->path = q->Text(4);
    unit->deps = q->Text(5);
    auto k = Unpack(q->View(6));
    if (!k.ok()) return k.status();
    unit->knowledge = std::move(k).value();
  }
  auto raw = LoadRaw(unit_id);
  if (!raw.ok()) return raw.status();
  if (Status st = DecodePayload(**raw, unit.get()); !st.ok())
    return Status::IoError(db().name() + ": unit " + std::to_string(unit_id) + ": " + st.message());
  CacheEntry& e = CacheAt(unit_id);
  e.unit = unit;
  CacheAdd(e, (*raw)->size() * 2);
  CacheTrim();
  return std::shared_ptr<const Unit>(unit);
}

Result<Unit> SqlCatalog::LoadUnit(int64_t unit_id) {
  auto u = LoadUnitCached(unit_id);
  if (!u.ok()) return u.status();
  return Unit(**u);
}

Result<std::vector<UnitSiteRef>> SqlCatalog::LoadUnitSiteRefs(int64_t unit_id) {
  CacheForgetRolledBack();
  std::vector<UnitSiteRef> refs;
  auto hit = cache_.find(unit_id);
  if (hit != cache_.end() && hit->second.unit) {  // decoded already
    CacheTouch(unit_id, hit->second);
    for (const UnitRecord& r : hit->second.unit->records)
      if (r.line.facts)
        refs.push_back({r.line.record.id, r.line.facts->line, std::string(SiteKindName(r.line.facts->kind)),
                        r.line.facts->error_class.value_or("")});
    return refs;
  }
  auto raw = LoadRaw(unit_id);
  if (!raw.ok()) return raw.status();
  if (Status st = DecodeSiteRefs(**raw, &refs); !st.ok())
    return Status::IoError(db().name() + ": unit " + std::to_string(unit_id) + ": " + st.message());
  return refs;
}

Result<int64_t> SqlCatalog::PutEncoded(int kind, const std::string& key, uint64_t variant, const std::string& repo,
                                       const std::string& path, std::string_view payload, const Unit* unit,
                                       std::string_view precompressed, std::string* owned) {
  {
    Query q(db(), "SELECT unit_id FROM units WHERE key = $1 AND variant = $2 AND kind = $3");
    if (!q.ok()) return q.status();
    q->BindBlob(1, key);
    q->BindInt(2, static_cast<int64_t>(variant));
    q->BindInt(3, kind);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (*row) return q->Int(0);
  }
  // The previous unit of this file (or this repository's previous knowledge
  // text) is the delta base, unless its chain is long already.
  int64_t base_id = 0, depth = 0;
  {
    Query q(db(), "SELECT unit_id, depth FROM units WHERE repo = $1 AND path = $2 AND kind = $3 "
                  "ORDER BY unit_id DESC LIMIT 1");
    if (!q.ok()) return q.status();
    q->BindText(1, repo);
    q->BindText(2, path);
    q->BindInt(3, kind);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (*row && q->Int(1) < kMaxDeltaDepth) {
      base_id = q->Int(0);
      depth = q->Int(1) + 1;
    }
  }
  std::string compressed;
  if (base_id > 0) {
    auto base = LoadRaw(base_id);
    if (!base.ok()) return base.status();
    auto delta = Compress(payload, **base);
    if (!delta.ok()) return delta.status();
    compressed = std::move(delta).value();
  }
  // Stored whole when there is no base, or when the delta saves nothing (an
  // unrelated new version).
  if (base_id == 0 || compressed.size() * 10 > payload.size() * 9 / 2 + 64) {
    std::string whole;
    if (!precompressed.empty()) {
      whole = std::string(precompressed);
    } else {
      auto c = Compress(payload);
      if (!c.ok()) return c.status();
      whole = std::move(c).value();
    }
    if (base_id == 0 || whole.size() <= compressed.size()) {
      compressed = std::move(whole);
      base_id = 0;
      depth = 0;
    }
  }
  int64_t unit_id = 0;
  {
    Query q(db(),
            "INSERT INTO units(kind, key, variant, repo, path, records, deps, knowledge, info, base_id, depth, raw_size, "
            "payload, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
            "ON CONFLICT (key, variant, kind) DO NOTHING RETURNING unit_id");
    if (!q.ok()) return q.status();
    q->BindInt(1, kind);
    q->BindBlob(2, key);
    q->BindInt(3, static_cast<int64_t>(variant));
    q->BindText(4, repo);
    q->BindText(5, path);
    q->BindInt(6, unit ? static_cast<int64_t>(unit->records.size()) : 0);
    q->BindBlob(7, unit ? std::string_view(unit->deps) : std::string_view());
    std::string packed = unit ? Pack(unit->knowledge) : std::string();
    q->BindBlob(8, packed);
    q->BindBlob(9, unit ? EncodeStats(unit->stats) : std::string());
    if (base_id > 0) q->BindInt(10, base_id);
    else q->BindNull(10);
    q->BindInt(11, depth);
    q->BindInt(12, static_cast<int64_t>(payload.size()));
    q->BindBlob(13, compressed);
    q->BindInt(14, NowSeconds());
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (*row) unit_id = q->Int(0);
  }
  if (unit_id == 0) {  // written meanwhile by another writer (PostgreSQL): the same bytes
    Query q(db(), "SELECT unit_id FROM units WHERE key = $1 AND variant = $2 AND kind = $3");
    if (!q.ok()) return q.status();
    q->BindBlob(1, key);
    q->BindInt(2, static_cast<int64_t>(variant));
    q->BindInt(3, kind);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::Internal(db().name() + ": a unit vanished while it was written");
    return q->Int(0);
  }
  {
    CacheForgetRolledBack();
    CacheEntry& e = CacheAt(unit_id);
    // the next version's delta base
    if (owned && owned->data() == payload.data() && owned->size() == payload.size())
      e.raw = std::make_shared<const std::string>(std::move(*owned));
    else
      e.raw = std::make_shared<const std::string>(std::string(payload));
    CacheAdd(e, payload.size());
    CacheTrim();
  }
  if (!unit) return unit_id;
  if (Status st = MarkNewEntries(); !st.ok()) return st;
  for (size_t i = 0; i < unit->records.size(); ++i) {
    EntryFields e = EntryOf(unit->records[i].line.record);
    int64_t entry_id = 0;
    {
      Query q(db(),
              "INSERT INTO entries(hash, record_id, slug, error_message, error_class, severity, tags) "
              "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (hash) DO NOTHING RETURNING entry_id");
      if (!q.ok()) return q.status();
      q->BindBlob(1, e.hash);
      q->BindText(2, e.record_id);
      q->BindOptText(3, e.slug);
      q->BindOptText(4, e.error_message);
      q->BindOptText(5, e.error_class);
      q->BindOptText(6, e.severity);
      q->BindText(7, e.tags);
      auto row = q->Step();
      if (!row.ok()) return row.status();
      if (*row) entry_id = q->Int(0);
    }
    if (entry_id != 0) {
      if (Status st = AfterEntryInsert(entry_id, e); !st.ok()) return st;
    } else {
      Query q(db(), "SELECT entry_id FROM entries WHERE hash = $1");
      if (!q.ok()) return q.status();
      q->BindBlob(1, e.hash);
      auto row = q->Step();
      if (!row.ok()) return row.status();
      if (!*row) return Status::Internal(db().name() + ": an entry vanished while it was written");
      entry_id = q->Int(0);
    }
    Query q(db(), "INSERT INTO unit_entries(unit_id, idx, entry_id) VALUES ($1, $2, $3)");
    if (!q.ok()) return q.status();
    q->BindInt(1, unit_id);
    q->BindInt(2, static_cast<int64_t>(i));
    q->BindInt(3, entry_id);
    if (Status st = q->Run(); !st.ok()) return st;
  }
  return unit_id;
}

Result<int64_t> SqlCatalog::PutUnit(const Unit& unit) {
  return PutUnitEncoded(unit, EncodePayload(unit), {});
}

Result<int64_t> SqlCatalog::PutUnitEncoded(const Unit& unit, std::string payload, std::string_view compressed) {
  WriteTxn txn(db(), /*savepoint=*/false);
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  bool verbatim = unit.kind == UnitKind::kVerbatim;
  std::string key = verbatim ? VerbatimKey(payload) : unit.key;
  if (key.empty()) return Status::InvalidArgument("a unit needs a key");
  auto id = PutEncoded(static_cast<int>(unit.kind), key, verbatim ? 0 : unit.variant, unit.repo, unit.path, payload,
                       &unit, compressed, &payload);
  if (!id.ok()) return id.status();
  if (Status st = CommitTxn(txn); !st.ok()) return st;
  return id;
}

Result<std::vector<std::vector<StoredUnit>>> SqlCatalog::FindUnits(const std::vector<std::string>& keys) {
  std::vector<std::vector<StoredUnit>> out(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    Query q(db(), "SELECT unit_id, variant, path, records, deps, knowledge, info FROM units WHERE key = $1 AND kind = 0 "
                  "ORDER BY unit_id");
    if (!q.ok()) return q.status();
    q->BindBlob(1, keys[i]);
    for (;;) {
      auto row = q->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      StoredUnit u;
      u.unit_id = q->Int(0);
      u.variant = static_cast<uint64_t>(q->Int(1));
      u.path = q->Text(2);
      u.records = q->Int(3);
      u.deps = q->Text(4);
      auto k = Unpack(q->View(5));
      if (!k.ok()) return k.status();
      u.knowledge = std::move(k).value();
      u.stats = DecodeStats(q->View(6));
      out[i].push_back(std::move(u));
    }
  }
  return out;
}

// ---------------------------------------------------------------- reading lines

Status SqlCatalog::ForEachLine(const ScanFilter& filter, const std::function<Status(StoredLine&&)>& fn) {
  auto all = ListScans();
  if (!all.ok()) return all.status();
  std::map<std::string, int64_t> latest;  // repo -> newest scan id
  for (const ScanInfo& s : *all) latest[s.repo] = std::max(latest[s.repo], s.scan_id);
  std::vector<const ScanInfo*> scans;
  for (const ScanInfo& s : *all) {
    if (!filter.repo.empty() && s.repo != filter.repo) continue;
    if (!filter.sha.empty() && s.sha != filter.sha &&
        !(filter.sha.size() >= 4 && s.sha.compare(0, filter.sha.size(), filter.sha) == 0))
      continue;
    if (filter.scan_id != 0 && s.scan_id != filter.scan_id) continue;
    if (filter.latest_only && latest[s.repo] != s.scan_id) continue;
    scans.push_back(&s);
  }
  if (filter.newest_per_record)
    std::stable_sort(scans.begin(), scans.end(), [](const ScanInfo* a, const ScanInfo* b) {
      return std::tie(a->dataset_version, a->scan_id) > std::tie(b->dataset_version, b->scan_id);
    });
  std::unordered_set<std::string> seen_ids;
  std::unordered_set<int64_t> seen_units;  // newest_per_record: a unit's records are all seen once it was read
  for (const ScanInfo* s : scans) {
    auto tree = TreeOf(s->scan_id);
    if (!tree.ok()) return tree.status();
    CommitFields commit = CommitOf(*s);
    for (const auto& [ord, unit_id] : *tree) {
      if (filter.newest_per_record && !seen_units.insert(unit_id).second) continue;
      auto unit = LoadUnitCached(unit_id);
      if (!unit.ok()) return unit.status();
      for (const UnitRecord& r : (*unit)->records) {
        if (filter.newest_per_record && !seen_ids.insert(r.line.record.id).second) continue;
        StoredLine sl{s->scan_id, Materialize((*unit)->kind, r, commit)};
        if (Status st = fn(std::move(sl)); !st.ok()) return st;
      }
    }
  }
  return Status::Ok();
}

Result<std::vector<StoredLine>> SqlCatalog::FindRecord(const std::string& id_or_slug) {
  struct Hit {
    int64_t scan_id, unit_id, idx;
  };
  std::vector<Hit> hits;
  {
    Query q(db(),
            "SELECT t.scan_id, t.unit_id, ue.idx FROM entries e JOIN unit_entries ue ON ue.entry_id = e.entry_id "
            "JOIN tree t ON t.unit_id = ue.unit_id JOIN scans s ON s.scan_id = t.scan_id "
            "WHERE e.record_id = $1 OR e.slug = $1 ORDER BY s.dataset_version DESC, s.scan_id DESC, t.ord, ue.idx");
    if (!q.ok()) return q.status();
    q->BindText(1, id_or_slug);
    for (;;) {
      auto row = q->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      hits.push_back(Hit{q->Int(0), q->Int(1), q->Int(2)});
    }
  }
  std::vector<StoredLine> out;
  if (hits.empty()) return out;
  auto scans = ListScans();
  if (!scans.ok()) return scans.status();
  std::map<int64_t, const ScanInfo*> scan_of;
  for (const ScanInfo& s : *scans) scan_of[s.scan_id] = &s;
  for (const Hit& h : hits) {
    auto unit = LoadUnitCached(h.unit_id);
    if (!unit.ok()) return unit.status();
    if (h.idx < 0 || static_cast<size_t>(h.idx) >= (*unit)->records.size())
      return Status::IoError(db().name() + ": unit " + std::to_string(h.unit_id) + " has fewer records than its index");
    auto sc = scan_of.find(h.scan_id);
    if (sc == scan_of.end()) continue;
    out.push_back(StoredLine{h.scan_id, Materialize((*unit)->kind, (*unit)->records[h.idx], CommitOf(*sc->second))});
  }
  return out;
}

// ---------------------------------------------------------------- blobs

Status SqlCatalog::PutBlob(const std::string& key, std::string_view bytes) {
  WriteTxn txn(db(), /*savepoint=*/false);
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  {
    Query q(db(), "INSERT INTO blobs(key, bytes, updated) VALUES ($1, $2, $3) "
                  "ON CONFLICT(key) DO UPDATE SET bytes = excluded.bytes, updated = excluded.updated");
    if (!q.ok()) return q.status();
    q->BindText(1, key);
    q->BindBlob(2, bytes);
    q->BindText(3, FormatIsoTime(NowMillisHonouringSourceDateEpoch()));
    if (Status st = q->Run(); !st.ok()) return st;
  }
  return CommitTxn(txn);
}

Result<std::optional<std::string>> SqlCatalog::ReadBlobRow(const std::string& key) {
  Query q(db(), "SELECT bytes FROM blobs WHERE key = $1");
  if (!q.ok()) return q.status();
  q->BindText(1, key);
  auto row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(q->Text(0));
}

Result<std::optional<std::string>> SqlCatalog::GetBlob(const std::string& key) {
  auto stored = ReadBlobRow(key);
  if (!stored.ok() || stored->has_value()) return stored;
  constexpr std::string_view kKnowledge = "knowledge:";
  if (key.compare(0, kKnowledge.size(), kKnowledge) != 0) return stored;
  // "knowledge:<repo>@<sha>", or "...@<location>" for a scan without a commit
  // (KnowledgeBlobKey): neither repo (OWNER/NAME) nor sha holds an '@'.
  std::string rest = key.substr(kKnowledge.size());
  size_t at = rest.find('@');
  if (at == std::string::npos) return stored;
  std::string repo = rest.substr(0, at), sha = rest.substr(at + 1), location;
  if (size_t at2 = sha.find('@'); at2 != std::string::npos) {
    location = sha.substr(at2 + 1);
    sha.resize(at2);
  }
  return AssembleKnowledge(repo, sha, location);
}

Status SqlCatalog::DeleteBlob(const std::string& key) {
  Query q(db(), "DELETE FROM blobs WHERE key = $1");
  if (!q.ok()) return q.status();
  q->BindText(1, key);
  return q->Run();
}

// The document stage's blob: the stored text (a JSON object) with a "sites"
// member appended -- each record's context, in the scan's order, as
// RepoKnowledge::Serialize writes them.
Result<std::optional<std::string>> SqlCatalog::AssembleKnowledge(const std::string& repo, const std::string& sha,
                                                                  const std::string& location) {
  int64_t scan_id = 0, knowledge_id = 0;
  {
    Query q(db(), "SELECT scan_id, knowledge_id FROM scans WHERE repo = $1 AND sha = $2 AND location = $3 "
                  "AND knowledge_id IS NOT NULL");
    if (!q.ok()) return q.status();
    q->BindText(1, repo);
    q->BindText(2, sha);
    q->BindText(3, location);
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::optional<std::string>();
    scan_id = q->Int(0);
    knowledge_id = q->Int(1);
  }
  auto text = LoadRaw(knowledge_id);
  if (!text.ok()) return text.status();
  std::string out = **text;
  if (out.empty() || out.back() != '}') return Status::IoError(db().name() + ": a stored knowledge text is damaged");
  out.pop_back();
  out += ",\"sites\":{";
  auto tree = TreeOf(scan_id);
  if (!tree.ok()) return tree.status();
  bool first = true;
  for (const auto& [ord, unit_id] : *tree) {
    auto unit = LoadUnitCached(unit_id);
    if (!unit.ok()) return unit.status();
    for (const UnitRecord& r : (*unit)->records) {
      if (r.context.empty()) continue;
      if (!first) out += ',';
      first = false;
      AppendJsonString(out, r.line.record.id);
      out += ':';
      out += r.context;
    }
  }
  out += "}}";
  return std::optional<std::string>(std::move(out));
}

Status SqlCatalog::PutCache(const std::string& key, std::string_view value) {
  WriteTxn txn(db(), /*savepoint=*/false);
  if (Status st = BeginTxn(txn); !st.ok()) return st;
  {
    Query q(db(), "INSERT INTO cache(key, value, updated) VALUES ($1, $2, $3) "
                  "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated = excluded.updated");
    if (!q.ok()) return q.status();
    q->BindText(1, key);
    q->BindBlob(2, value);
    q->BindText(3, FormatIsoTime(NowMillisHonouringSourceDateEpoch()));
    if (Status st = q->Run(); !st.ok()) return st;
  }
  return CommitTxn(txn);
}

Result<std::optional<std::string>> SqlCatalog::GetCache(const std::string& key) {
  Query q(db(), "SELECT value FROM cache WHERE key = $1");
  if (!q.ok()) return q.status();
  q->BindText(1, key);
  auto row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(q->Text(0));
}

}  // namespace errdex::store

namespace errdex {

Result<std::vector<StoredLine>> CatalogStore::LoadLines(const ScanFilter& filter) {
  std::vector<StoredLine> out;
  Status st = ForEachLine(filter, [&](StoredLine&& l) {
    out.push_back(std::move(l));
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return out;
}

}  // namespace errdex
