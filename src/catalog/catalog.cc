// catalog/catalog.cc: store/JSONL -> Matcher, with the compiled matcher cached in
// the store. Tested by catalog_test.cc.
#include "catalog/catalog.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "match/evidence.h"
#include "store/import.h"

namespace errdex {

namespace {

constexpr char kBlobKey[] = "match.matcher";
// '3': patterns in their MatchForm. '4': entry flag kEntryOpenMessage.
constexpr char kBlobMagic[8] = {'E', 'R', 'R', 'D', 'X', 'C', 'A', '4'};

double MillisSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void PutU32(std::string& o, uint32_t v) { o.append(reinterpret_cast<const char*>(&v), 4); }
void PutU64(std::string& o, uint64_t v) { o.append(reinterpret_cast<const char*>(&v), 8); }
void PutStr(std::string& o, std::string_view s) {
  PutU32(o, static_cast<uint32_t>(s.size()));
  o.append(s);
}

struct BlobReader {
  std::string_view s;
  size_t pos = 0;
  bool ok = true;
  uint32_t U32() {
    uint32_t v = 0;
    if (pos + 4 > s.size()) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, s.data() + pos, 4);
    pos += 4;
    return v;
  }
  uint64_t U64() {
    uint64_t v = 0;
    if (pos + 8 > s.size()) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, s.data() + pos, 8);
    pos += 8;
    return v;
  }
  std::string_view Bytes(size_t n) {
    if (pos + n > s.size()) {
      ok = false;
      return {};
    }
    auto r = s.substr(pos, n);
    pos += n;
    return r;
  }
  std::string Str() { return std::string(View()); }
  std::string_view View() { return Bytes(U32()); }
};

// Newest scan of each repo: the greatest (dataset_version, scan_id).
std::map<std::string, int64_t> LatestScanPerRepo(const std::vector<ScanInfo>& scans) {
  std::map<std::string, const ScanInfo*> best;
  for (const ScanInfo& s : scans) {
    auto& b = best[s.repo];
    if (!b || std::tie(s.dataset_version, s.scan_id) > std::tie(b->dataset_version, b->scan_id)) b = &s;
  }
  std::map<std::string, int64_t> out;
  for (auto& [repo, s] : best) out[repo] = s->scan_id;
  return out;
}

// The record's own source line (its lineNumber in its sourceCode excerpt), hashed
// as a traceback's printed code line is (CodeLineHash); 0 when the excerpt lacks it.
uint32_t SiteCodeHash(const Record& r) {
  long index = static_cast<long>(r.line_number) - r.source_code_start;
  if (r.source_code.empty() || index < 0) return 0;
  std::string_view src = r.source_code;
  size_t pos = 0;
  for (long k = 0; k < index; ++k) {
    size_t nl = src.find('\n', pos);
    if (nl == std::string_view::npos) return 0;
    pos = nl + 1;
  }
  size_t nl = src.find('\n', pos);
  return CodeLineHash(src.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
}

size_t Indent(std::string_view l) {
  size_t i = 0;
  while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
  return i;
}

}  // namespace

std::string EnclosingFunction(const Record& r) {
  std::vector<std::string_view> lines;
  std::string_view src = r.source_code;
  size_t pos = 0;
  while (pos <= src.size()) {
    size_t nl = src.find('\n', pos);
    if (nl == std::string_view::npos) nl = src.size();
    lines.push_back(src.substr(pos, nl - pos));
    pos = nl + 1;
  }
  long index = static_cast<long>(r.line_number) - r.source_code_start;
  if (r.source_code.empty() || index < 0 || index >= static_cast<long>(lines.size())) return "";
  size_t cur = Indent(lines[index]);
  if (cur == 0) return "<module>";
  for (long j = index - 1; j >= 0; --j) {
    std::string_view l = lines[j];
    size_t ind = Indent(l);
    if (ind == l.size() || ind >= cur) continue;  // blank or deeper
    std::string_view t = l.substr(ind);
    if (t.substr(0, 6) == "async ") t.remove_prefix(6);
    if (t.substr(0, 4) == "def ") {
      t.remove_prefix(4);
      size_t e = 0;
      while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
      return std::string(t.substr(0, e));
    }
    if (t[0] == '#' || t[0] == ')' || t[0] == ']' || t[0] == '}' || t[0] == '"' || t[0] == '\'') continue;
    cur = ind;
    if (cur == 0) return t.substr(0, 6) == "class " ? "" : "<module>";
  }
  return "";
}

Catalog::~Catalog() = default;

Status Catalog::BuildFromLines(const std::vector<StoredLine>& lines, const std::vector<ScanInfo>& scans) {
  std::map<int64_t, const ScanInfo*> scan_of;
  for (const ScanInfo& s : scans) scan_of[s.scan_id] = &s;
  auto recency = [&](int64_t id) {
    auto it = scan_of.find(id);
    return it == scan_of.end() ? std::make_pair(std::string(), id) : std::make_pair(it->second->dataset_version, id);
  };
  std::vector<const StoredLine*> order;
  for (const StoredLine& l : lines) order.push_back(&l);
  std::stable_sort(order.begin(), order.end(),
                   [&](const StoredLine* a, const StoredLine* b) { return recency(a->scan_id) > recency(b->scan_id); });
  // Newest version of each record id represents it; entries sorted by id (deterministic).
  std::map<std::string, const StoredLine*> newest;
  for (const StoredLine* l : order) newest.emplace(l->line.record.id, l);
  // An entry absent from the newest scan of its repo loses ties to one that is there.
  std::map<std::string, int64_t> latest_scan;
  {
    std::map<std::string, std::pair<std::string, int64_t>> best;
    for (const StoredLine& l : lines) {
      const std::string repo = l.line.record.repo.value_or("");
      auto rec = recency(l.scan_id);
      auto it = best.find(repo);
      if (it == best.end() || rec > it->second) best[repo] = rec;
    }
    for (auto& [repo, rec] : best) latest_scan[repo] = rec.second;
  }
  std::unordered_map<std::string, int> pattern_index;
  // The entries' text lives here (a deque never moves its strings).
  auto arena = std::make_shared<std::deque<std::string>>();
  auto keep = [&](std::string s) -> std::string_view { return arena->emplace_back(std::move(s)); };
  for (auto& [id, l] : newest) {
    const Record& r = l->line.record;
    MatchEntry e;
    e.error_class = keep(r.error_class.value_or(""));
    e.file_path = keep(r.file_path);
    e.function = keep(l->line.facts ? l->line.facts->function : EnclosingFunction(r));
    e.line = r.line_number;
    e.message = keep(r.error_message.value_or(""));
    if (r.message_pattern && !r.message_pattern->empty()) {
      std::string form = MatchForm(*r.message_pattern);
      auto [it, inserted] = pattern_index.emplace(form, static_cast<int>(patterns_.size()));
      if (inserted) patterns_.push_back(std::move(form));
      e.pattern = it->second;
    }
    ids_.push_back(keep(id));
    repos_.push_back(keep(r.repo.value_or("")));
    e.repo = repos_.back();
    e.flags = PathFlags(r.file_path);
    if (l->line.facts && l->line.facts->message_resolution.find("+open") != std::string::npos)
      e.flags |= kEntryOpenMessage;
    auto lt = latest_scan.find(r.repo.value_or(""));
    if (lt != latest_scan.end() && lt->second != l->scan_id) e.flags |= kEntryOlderOnly;
    e.code_hash = SiteCodeHash(r);
    entries_.push_back(e);
  }
  storage_ = std::move(arena);
  return Status::Ok();
}

Status Catalog::Compile(const MatcherOptions& options) {
  auto db = PatternDatabase::Build(patterns_, options);
  if (!db.ok()) return db.status();
  matcher_ = std::make_unique<Matcher>(std::move(db).value(), std::move(entries_), storage_);
  entries_.clear();
  CollectRejected();
  return Status::Ok();
}

int64_t Catalog::EntryOfId(std::string_view id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return it != ids_.end() && *it == id ? it - ids_.begin() : -1;
}

void Catalog::CollectRejected() {
  rejected_.clear();
  const auto& entries = matcher_->entries();
  for (const RejectedPattern& r : matcher_->db().rejected()) {
    RejectedEntry re{matcher_->db().pattern(r.index), {}, r.why};
    for (uint32_t entry : matcher_->EntriesOfPattern(r.index)) re.record_ids.emplace_back(ids_[entry]);
    rejected_.push_back(std::move(re));
  }
  info_.entries = entries.size();
  info_.patterns = matcher_->db().size();
  info_.compiled = matcher_->db().compiled_count();
}

std::string Catalog::SerializeBlob(const std::string& version, const std::string& db_bytes) const {
  std::string o(kBlobMagic, sizeof kBlobMagic);
  PutStr(o, version);
  const PatternDatabase& db = matcher_->db();
  PutU32(o, static_cast<uint32_t>(db.size()));
  for (uint32_t i = 0; i < db.size(); ++i) PutStr(o, db.pattern(i));
  const auto& entries = matcher_->entries();
  PutU32(o, static_cast<uint32_t>(entries.size()));
  for (uint32_t i = 0; i < entries.size(); ++i) {
    const MatchEntry& e = entries[i];
    PutStr(o, ids_[i]);
    PutStr(o, repos_[i]);
    PutStr(o, e.error_class);
    PutStr(o, e.file_path);
    PutStr(o, e.function);
    PutStr(o, e.message);
    PutU32(o, static_cast<uint32_t>(e.line));
    PutU32(o, static_cast<uint32_t>(e.pattern));
    PutU32(o, e.code_hash);
    o.push_back(static_cast<char>(e.flags));
  }
  PutU64(o, db_bytes.size());
  o += db_bytes;
  return o;
}

Status Catalog::LoadBlob(std::shared_ptr<const std::string> blob, const std::string& version,
                         const MatcherOptions& options) {
  BlobReader r{*blob};
  if (r.Bytes(sizeof kBlobMagic) != std::string_view(kBlobMagic, sizeof kBlobMagic))
    return Status::InvalidArgument("not an errdex matcher blob");
  if (r.View() != version) return Status::InvalidArgument("stale matcher blob");
  std::vector<std::string> patterns(r.U32());
  for (auto& p : patterns) {
    p = r.Str();
    if (!r.ok) return Status::InvalidArgument("truncated matcher blob");
  }
  // The entries are views into the blob, which the catalog and matcher keep.
  uint32_t n = r.U32();
  std::vector<MatchEntry> entries;
  std::vector<std::string_view> ids, repos;
  if (n <= blob->size() / 8) {  // each entry takes more than 8 bytes: a corrupt count must not reserve GBs
    entries.reserve(n);
    ids.reserve(n);
    repos.reserve(n);
  }
  for (uint32_t i = 0; i < n && r.ok; ++i) {
    MatchEntry e;
    ids.push_back(r.View());
    repos.push_back(r.View());
    e.error_class = r.View();
    e.file_path = r.View();
    e.function = r.View();
    e.message = r.View();
    e.line = static_cast<int>(r.U32());
    e.pattern = static_cast<int>(r.U32());
    e.code_hash = r.U32();
    std::string_view flags = r.Bytes(1);
    e.flags = flags.empty() ? 0 : static_cast<uint8_t>(flags[0]);
    e.repo = repos.back();
    if (e.pattern >= static_cast<int>(patterns.size())) return Status::InvalidArgument("corrupt matcher blob");
    entries.push_back(e);
  }
  uint64_t len = r.U64();
  std::string_view db_bytes = r.Bytes(len);
  if (!r.ok) return Status::InvalidArgument("truncated matcher blob");
  if (!std::is_sorted(ids.begin(), ids.end())) return Status::InvalidArgument("corrupt matcher blob");
  auto db = PatternDatabase::Deserialize(db_bytes, patterns, options);
  if (!db.ok()) return db.status();
  storage_ = blob;
  ids_ = std::move(ids);
  repos_ = std::move(repos);
  patterns_ = std::move(patterns);
  matcher_ = std::make_unique<Matcher>(std::move(db).value(), std::move(entries), storage_);
  CollectRejected();
  return Status::Ok();
}

namespace {

// An exclusive flock on the directory holding a catalog, released on destruction.
// Not on the catalog file itself: closing any descriptor of a file drops every
// POSIX lock this process holds on it, SQLite's included (a serve reloading its
// catalog then failed reads with "disk I/O error"). Catalogs sharing a directory
// compile one after the other.
class CompileLock {
 public:
  ~CompileLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  // Waits for the lock; false when the directory cannot be opened or locked (then
  // nothing is serialized: the caller compiles anyway).
  bool Acquire(const std::string& catalog_path) {
    size_t slash = catalog_path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : catalog_path.substr(0, slash));
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return false;
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      ::close(fd_);
      fd_ = -1;
      return false;
    }
    return true;
  }

 private:
  int fd_ = -1;
};

}  // namespace

Result<std::unique_ptr<Catalog>> Catalog::OpenStore(const std::string& path, const CatalogOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  auto store = CatalogStore::Open(path, /*create=*/false);
  if (!store.ok()) return store.status();
  std::unique_ptr<Catalog> c(new Catalog());
  c->store_ = std::move(store).value();
  auto version = c->store_->ContentVersion();
  if (!version.ok()) return version.status();
  auto load_cached = [&]() {
    auto blob = c->store_->GetBlob(kBlobKey);
    if (!blob.ok() || !blob->has_value()) return false;
    if (!c->LoadBlob(std::make_shared<const std::string>(std::move(**blob)), *version, options.matcher).ok())
      return false;
    c->info_.from_cache = true;
    c->info_.millis = MillisSince(t0);
    return true;
  };
  if (options.use_cache && load_cached()) return c;
  // Compiling takes seconds to minutes: one process compiles, the others that open
  // the same catalog meanwhile wait for it and load what it cached (M8: each
  // compiled its own copy). An advisory lock on the catalog's directory: nothing
  // new is created, so a read-only directory is fine.
  CompileLock lock;
  if (options.use_cache && !options.read_only && lock.Acquire(path)) {
    version = c->store_->ContentVersion();
    if (!version.ok()) return version.status();
    if (load_cached()) return c;
  }
  auto scans = c->store_->ListScans();
  if (!scans.ok()) return scans.status();
  ScanFilter newest;  // each record once, from the newest scan holding it (what BuildFromLines keeps)
  newest.newest_per_record = true;
  auto lines = c->store_->LoadLines(newest);
  if (!lines.ok()) return lines.status();
  Status s = c->BuildFromLines(*lines, *scans);
  if (s.ok()) s = c->Compile(options.matcher);
  if (!s.ok()) return s;
  if (options.use_cache && !options.read_only) {
    auto bytes = c->matcher_->db().Serialize();
    if (bytes.ok()) c->store_->PutBlob(kBlobKey, c->SerializeBlob(*version, *bytes));  // best effort: read-only is fine
  }
  c->info_.millis = MillisSince(t0);
  return c;
}

Result<std::unique_ptr<Catalog>> Catalog::FromJsonLines(const std::vector<std::string>& paths,
                                                       const CatalogOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<Catalog> c(new Catalog());
  // Read exactly as `errdex import` reads (store/import.h): a file import rejects
  // is rejected here too, with the same message.
  JsonLinesImport import("", "");
  import.set_pattern_check([&options](std::string_view p) { return CheckPattern(p, options.matcher); });
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::NotFound(path + ": cannot open");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return Status::IoError(path + ": read error");
    if (Status st = import.AddFile(path, text); !st.ok()) return st;
  }
  std::vector<StoredLine> lines;
  for (ScanBatch& b : import.TakeBatches()) {
    ScanInfo si = std::move(b.info);
    si.scan_id = static_cast<int64_t>(c->scans_.size() + 1);  // synthetic
    for (CatalogLine& l : b.lines) lines.push_back(StoredLine{si.scan_id, std::move(l)});
    c->scans_.push_back(std::move(si));
  }
  c->scans_loaded_ = true;
  Status s = c->BuildFromLines(lines, c->scans_);
  if (s.ok()) s = c->Compile(options.matcher);
  if (!s.ok()) return s;
  for (StoredLine& l : lines) {
    std::string id = l.line.record.id;
    c->lines_of_id_[id].push_back(std::move(l));
  }
  c->info_.millis = MillisSince(t0);
  return c;
}

Result<EntryDetails> Catalog::Details(uint32_t entry) {
  const std::string id(ids_.at(entry));
  std::vector<StoredLine> found;
  if (store_) {
    auto r = store_->FindRecord(id);
    if (!r.ok()) return r.status();
    found = std::move(r).value();
    if (!scans_loaded_) {
      auto s = store_->ListScans();
      if (!s.ok()) return s.status();
      scans_ = std::move(s).value();
      scans_loaded_ = true;
    }
  } else {
    auto it = lines_of_id_.find(id);
    if (it != lines_of_id_.end()) found = it->second;
  }
  if (found.empty()) return Status::NotFound("record " + id + " is no longer in the catalog");
  std::map<int64_t, const ScanInfo*> scan_of;
  for (const ScanInfo& s : scans_) scan_of[s.scan_id] = &s;
  auto recency = [&](int64_t sid) {
    auto it = scan_of.find(sid);
    return it == scan_of.end() ? std::make_pair(std::string(), sid) : std::make_pair(it->second->dataset_version, sid);
  };
  std::stable_sort(found.begin(), found.end(),
                   [&](const StoredLine& a, const StoredLine& b) { return recency(a.scan_id) > recency(b.scan_id); });
  auto latest = LatestScanPerRepo(scans_);
  EntryDetails d;
  d.record = found.front().line.record;
  d.only_in_older = true;
  for (const StoredLine& l : found) {
    const Record& r = l.line.record;
    RecordVersion v;
    auto it = scan_of.find(l.scan_id);
    v.repo = it != scan_of.end() && !it->second->repo.empty() ? it->second->repo : r.repo.value_or("");
    v.sha = it != scan_of.end() && !it->second->sha.empty() ? it->second->sha : r.analyzed_sha.value_or("");
    v.dataset_version = l.line.dataset_version;
    v.line = r.line_number;
    v.github_url = r.github_url.value_or("");
    auto lt = latest.find(it != scan_of.end() ? it->second->repo : v.repo);
    v.latest = lt != latest.end() && lt->second == l.scan_id;
    if (v.latest) d.only_in_older = false;
    d.versions.push_back(std::move(v));
  }
  return d;
}

FuzzySearch Catalog::Fuzzy() {
  if (!store_) return nullptr;
  return Fuzzy(*store_);
}

FuzzySearch Catalog::Fuzzy(CatalogStore& store) const {
  return [this, &store](std::string_view text, int limit) {
    std::vector<std::pair<uint32_t, double>> out;
    auto hits = store.FullTextSearch(std::string(text), limit);
    if (!hits.ok()) return out;
    std::set<uint32_t> seen;
    for (const auto& h : *hits) {
      int64_t entry = EntryOfId(h.record_id);
      if (entry < 0 || !seen.insert(static_cast<uint32_t>(entry)).second) continue;
      out.emplace_back(static_cast<uint32_t>(entry), std::max(0.0, h.score));
    }
    return out;
  };
}

}  // namespace errdex
