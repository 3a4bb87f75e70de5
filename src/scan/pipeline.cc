// scan/pipeline.cc: ScanToSinks -- list -> (reuse a stored unit | read +
// extract + facts, parse_unit.h) on N threads -> the repository's knowledge -> (reuse |
// document) on N threads -> the sinks, in path order, as files complete
// (ordered_emitter.h; parsed files wait between the passes in unit_spool.h).
//
// Determinism: every file's result lands in the slot of its index in the sorted
// list, knowledge is built from the files' serialized knowledge in path order,
// and a record's prose is computed from its stored form (facts and context as
// JSON), so the output does not depend on the number of threads, on which files
// were reused, or on which waited in the spool (scan_e2e_test.cc: -j1 == -j2;
// tests/store_history_e2e_test.cc: incremental == fresh).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "check/program.h"
#include "check/scan_hook.h"
#include "document/documenter.h"
#include "document/site_context.h"
#include "extract/cpp/cpp_extractor.h"
#include "extract/python/python_extractor.h"
#include "extract/rust/rust_extractor.h"
#include "scan/cpp_table.h"
#include "scan/ordered_emitter.h"
#include "scan/parallel.h"
#include "scan/parse_unit.h"
#include "scan/previous_check.h"
#include "scan/py_classes.h"
#include "scan/resolved_source.h"
#include "scan/rust_error_table.h"
#include "scan/scanner.h"
#include "scan/unit_key.h"
#include "scan/unit_spool.h"
#include "store/catalog_store.h"
#include "store/codec.h"

namespace errdex {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ScanOptions::resident_bytes, shared (scanner.h): a quarter for the Python
// texts the class table keeps for their extraction, the rest for the spool.
size_t KeptTextBytes(const ScanOptions& o) { return o.resident_bytes / 4; }
size_t SpoolBytes(const ScanOptions& o) { return o.resident_bytes - KeptTextBytes(o); }

template <typename R>
ExtractOutput FromFrontEnd(R r) {
  ExtractOutput out;
  out.sites = std::move(r.sites);
  out.diagnostics = std::move(r.diagnostics);
  out.failed = r.failed;
  if constexpr (requires { r.sites_left_out; }) out.sites_left_out = r.sites_left_out;
  if constexpr (requires { r.tokens; }) out.python_tokens = std::move(r.tokens);
  return out;
}

// One file of the tree.
struct Task {
  std::string listed;  // as the source lists it
  std::string path;    // prefix + listed: the records' filePath
  Extractor extractor;
  bool cpp = false;
  std::string blob_id;  // from the listing (git), or the bytes' (directory, once read)
  std::string cpp_deps;  // a C-family file's CppDependencies digest
  bool py = false;
  std::string py_deps;   // a Python file's digest of the class templates it depends on (py_classes.h)
  bool rs = false;
  std::string rs_deps;   // a Rust file's digest of the thiserror types it depends on (rust_error_table.h)
  std::string key;
  std::string text;     // a C-family file read for the #define table, until extracted
  bool has_text = false;
};

// What the first pass leaves for the second.
struct FileState {
  std::vector<StoredUnit> stored;  // non-empty: the catalog has this file already
  bool fresh = false;              // parsed: in the spool
  std::string knowledge;           // its serialized FileKnowledge
  bool check_pending = false;      // reused: errdex check's hook gets it only if the knowledge is built
};

// The scan of one tree (ScanToSinks' state).
class Pipeline {
 public:
  Pipeline(const ScanOptions& o, const std::vector<ScanSink*>& sinks, CatalogStore* store, std::mutex* store_mu)
      : o_(o), sinks_(sinks), store_(store), store_mu_(store_mu ? store_mu : &own_mu_), spool_(SpoolBytes(o)) {
    for (ScanSink* s : sinks_) wants_records_ = wants_records_ || s->WantsRecords();
  }
  Result<ScanResult> Run();

 private:
  Status List();
  Status ReadCppTable();
  Status ReadPyClassTable();
  Status ReadRustErrorTable();
  static bool IsRust(std::string_view path) { return path.size() >= 3 && path.compare(path.size() - 3, 3, ".rs") == 0; }
  // A file's digest of what its records depend on in other files ("" for none).
  static const std::string& DepsOf(const Task& t) { return t.cpp ? t.cpp_deps : t.py ? t.py_deps : t.rs_deps; }
  void FirstPass(size_t i);
  // Reads and parses task i into a new unit (no prose yet).
  Result<std::shared_ptr<Unit>> Parse(size_t i, std::string text);
  Result<std::shared_ptr<Unit>> ReadAndParse(size_t i);
  bool Lookup(const std::string& key, std::vector<StoredUnit>* out);
  // Gives errdex check's hook a file the catalog had (its records from the store).
  void LoadForCheck(size_t i, std::string_view text);
  static bool IsPython(std::string_view path) { return path.size() >= 3 && path.compare(path.size() - 3, 3, ".py") == 0; }
  void SecondPass(size_t i);
  Status Document(Unit& unit);
  Status EmitOne(FileOutput& out);
  void Tick();

  const ScanOptions& o_;
  std::vector<ScanSink*> sinks_;
  CatalogStore* store_;
  std::mutex own_mu_;
  std::mutex* store_mu_;
  bool wants_records_ = false;
  // Each site's context as JSON too (UnitRecord::context): only for a catalog or
  // a sink that keeps the knowledge (its sites); JSON Lines alone never read it.
  bool context_json_ = true;
  int jobs_ = 1;
  Clock::time_point t0_ = Clock::now();

  ResolvedSource rs_;
  ScanResult result_;
  KeyConfig key_config_;
  std::vector<Task> tasks_;
  std::vector<FileState> states_;
  std::shared_ptr<CppTableBuilder> cpp_;

  UnitSpool spool_;
  std::unique_ptr<RepoKnowledge> knowledge_;
  // errdex check's facts (each Python file's source and sites, console scripts),
  // part of the knowledge text for the sinks that keep it.
  std::unique_ptr<check::ScanHook> check_;
  std::vector<std::string> packaging_;  // pyproject.toml / setup.cfg, as listed
  std::vector<std::string> cargo_manifests_;  // Cargo.toml files, as listed: the Rust workspace's crates
  std::future<std::string> knowledge_future_;  // its text, for the sinks that keep it
  size_t py_files_read_ = 0;  // Python files the class table read (not in the catalog's cache)
  // The repository's previous check section, loaded beside the first pass when
  // the knowledge will be built anew (check_ and a store).
  std::future<std::optional<PreviousCheck>> previous_check_;
  std::unique_ptr<OrderedEmitter> emitter_;

  std::atomic<int64_t> done_{0}, sites_{0}, documented_{0}, redocumented_{0};
  std::atomic<bool> documenting_{false};
  std::atomic<uint64_t> bytes_{0};
};

void Pipeline::Tick() {
  if (!o_.on_progress) return;
  ScanProgress p;
  p.files_total = static_cast<int64_t>(tasks_.size());
  p.files_done = done_.load();
  p.sites = sites_.load();
  p.documenting = documenting_.load();
  p.sites_documented = documented_.load();
  p.bytes = bytes_.load();
  p.seconds = SecondsSince(t0_);
  o_.on_progress(p);
}

Status Pipeline::List() {
  auto listing = rs_.source->List();
  if (!listing.ok()) return listing.status();
  result_.stats.files_listed = static_cast<int64_t>(listing->paths.size());
  for (Diagnostic& d : listing->diagnostics) {
    d.path = rs_.prefix + d.path;
    result_.diagnostics.push_back(std::move(d));
  }
  const bool ids = listing->blob_ids.size() == listing->paths.size();
  for (size_t k = 0; k < listing->paths.size(); ++k) {
    std::string& p = listing->paths[k];
    if (o_.document && check::IsPackagingFile(p) && !(p.size() >= 3 && p.compare(p.size() - 3, 3, ".py") == 0))
      packaging_.push_back(p);
    if (p == "Cargo.toml" || (p.size() > 11 && p.compare(p.size() - 11, 11, "/Cargo.toml") == 0))
      cargo_manifests_.push_back(p);
    Extractor ex = o_.extractor ? o_.extractor : ExtractorForPath(p, o_.limits);
    if (!ex) continue;
    Task t;
    t.cpp = !o_.extractor && IsCppPath(p);
    t.py = !o_.extractor && IsPython(p);
    t.rs = !o_.extractor && IsRust(p);
    t.path = rs_.prefix + p;
    t.listed = std::move(p);
    t.extractor = std::move(ex);
    if (ids) t.blob_id = std::move(listing->blob_ids[k]);
    tasks_.push_back(std::move(t));
  }
  result_.stats.files_scanned = static_cast<int64_t>(tasks_.size());
  if (tasks_.empty()) {
    if (result_.stats.files_listed == 0)
      return Status::InvalidArgument("no files in " + result_.source + " (an empty directory or commit); nothing scanned");
    return Status::InvalidArgument(std::to_string(result_.stats.files_listed) + " files in " + result_.source +
                                   " but none that errdex reads (.py, .js, .ts, ...); nothing scanned");
  }
  states_.resize(tasks_.size());
  return Status::Ok();
}

// C/C++ files need the whole repository's #define table (a wrapper macro
// defined in one header is used in every .cu file) and, with a catalog, each
// file's digest of what in it they depend on (cpp_table.h); the files read for
// it keep their text for the extraction below.
Status Pipeline::ReadCppTable() {
  std::vector<size_t> cpp_files;
  for (size_t i = 0; i < tasks_.size(); ++i)
    if (tasks_[i].cpp) cpp_files.push_back(i);
  if (cpp_files.empty()) return Status::Ok();
  std::vector<CppFile> files(cpp_files.size());
  for (size_t k = 0; k < cpp_files.size(); ++k) {
    Task& t = tasks_[cpp_files[k]];
    files[k].path = t.path;
    files[k].listed = t.listed;
    files[k].blob_id = t.blob_id;
  }
  cpp_ = std::make_shared<CppTableBuilder>(rs_.source, store_, store_mu_, jobs_);
  if (Status st = cpp_->Run(files); !st.ok()) return st;
  for (size_t k = 0; k < cpp_files.size(); ++k) {
    Task& t = tasks_[cpp_files[k]];
    t.text = std::move(files[k].text);
    t.has_text = files[k].has_text;
    t.blob_id = std::move(files[k].blob_id);
    t.cpp_deps = std::move(files[k].deps);
    std::shared_ptr<CppTableBuilder> table = cpp_;
    t.extractor = [table, limits = o_.limits](std::string_view path, std::string_view text) {
      return FromFrontEnd(ExtractCpp(path, text, table->Table().get(), limits));
    };
  }
  return Status::Ok();
}

// Python files: messages built by exception classes (a template in one module,
// raises of the class in others; extract/python/class_messages.h). Every Python
// file's classes make the repository's table (cached per blob with a catalog);
// with a catalog, each file's key names the templates it depends on, so a unit
// is not reused after one of them changed in another file.
Status Pipeline::ReadPyClassTable() {
  std::vector<size_t> py_files;
  for (size_t i = 0; i < tasks_.size(); ++i)
    if (tasks_[i].py) py_files.push_back(i);
  if (py_files.empty()) return Status::Ok();
  std::vector<PyFile> files(py_files.size());
  for (size_t k = 0; k < py_files.size(); ++k) {
    Task& t = tasks_[py_files[k]];
    files[k].path = t.path;
    files[k].listed = t.listed;
    files[k].blob_id = t.blob_id;
  }
  PyClassTableBuilder builder(rs_.source, store_, store_mu_, jobs_, KeptTextBytes(o_));
  if (Status st = builder.Run(files); !st.ok()) return st;
  py_files_read_ = builder.files_read();
  std::shared_ptr<const py::ClassMessageTable> table = builder.Table();
  for (size_t k = 0; k < py_files.size(); ++k) {
    Task& t = tasks_[py_files[k]];
    t.text = std::move(files[k].text);
    t.has_text = files[k].has_text;
    t.blob_id = std::move(files[k].blob_id);
    t.py_deps = std::move(files[k].deps);
    if (table)
      t.extractor = [table, limits = o_.limits](std::string_view path, std::string_view text) {
        return FromFrontEnd(ExtractPython(path, text, limits, table.get()));
      };
  }
  return Status::Ok();
}

// Rust files: messages of thiserror enums (a template in one crate, its
// constructions in others; extract/rust/rust_error_types.h). Every Rust file's
// types make the workspace's table (cached per blob with a catalog); with a
// catalog, each file's key names the types it depends on.
Status Pipeline::ReadRustErrorTable() {
  std::vector<size_t> rs_files;
  for (size_t i = 0; i < tasks_.size(); ++i)
    if (tasks_[i].rs) rs_files.push_back(i);
  if (rs_files.empty()) return Status::Ok();
  std::vector<RustFile> files(rs_files.size());
  for (size_t k = 0; k < rs_files.size(); ++k) {
    Task& t = tasks_[rs_files[k]];
    files[k].path = t.path;
    files[k].listed = t.listed;
    files[k].blob_id = t.blob_id;
  }
  RustErrorTableBuilder builder(rs_.source, store_, store_mu_, jobs_);
  if (Status st = builder.Run(files, cargo_manifests_, rs_.prefix); !st.ok()) return st;
  std::shared_ptr<const rust::ErrorTypeTable> table = builder.Table();
  TsExtractOptions ts;
  ts.limits = o_.limits;
  for (size_t k = 0; k < rs_files.size(); ++k) {
    Task& t = tasks_[rs_files[k]];
    t.blob_id = std::move(files[k].blob_id);
    t.rs_deps = std::move(files[k].deps);
    if (table)
      t.extractor = [table, ts](std::string_view path, std::string_view text) {
        return FromFrontEnd(ExtractRust(path, text, ts, table.get()));
      };
  }
  return Status::Ok();
}

bool Pipeline::Lookup(const std::string& key, std::vector<StoredUnit>* out) {
  std::lock_guard<std::mutex> l(*store_mu_);
  auto found = store_->FindUnits({key});
  if (!found.ok() || found->empty() || (*found)[0].empty()) return false;
  *out = std::move((*found)[0]);
  return true;
}

Result<std::shared_ptr<Unit>> Pipeline::Parse(size_t i, std::string text) {
  const Task& t = tasks_[i];
  const std::string& path = t.path;
  ParsedFile parsed = ParseUnit(t.extractor, path, text, t.key, rs_.repo, o_.limits, o_.document, context_json_);
  std::shared_ptr<Unit> unit = std::move(parsed.unit);
  if (!parsed.text) return unit;
  // Only in the first pass, which parses each file once: a file parsed again in
  // the second (stored, but the knowledge its prose used changed) was given to
  // the hook by LoadForCheck, and the hook's Finish may be running by then.
  // Its sites alone, and only for the files the hook keeps (Python, not tests,
  // as ScanHook::AddFile's test): it used to get a copy of every record's whole
  // line (source, guards, facts) of every file, to read four fields of it.
  if (check_ && !documenting_.load() && IsPython(path) && !check::IsTestPath(path)) {
    std::vector<check::SiteRef> sites;
    sites.reserve(unit->records.size());
    for (const UnitRecord& r : unit->records) {
      const CatalogLine& l = r.line;
      if (!l.facts) continue;
      sites.push_back({l.record.id, l.facts->line, SiteKindName(l.facts->kind), l.facts->error_class.value_or("")});
    }
    check_->AddFile(i, path, text, std::move(sites));
  }
  return unit;
}

Result<std::shared_ptr<Unit>> Pipeline::ReadAndParse(size_t i) {
  Task& t = tasks_[i];
  std::string text;
  if (t.has_text) {
    text = std::move(t.text);
    t.has_text = false;
  } else {
    auto read = rs_.source->Read(t.listed);
    if (!read.ok()) {
      auto unit = std::make_shared<Unit>();
      unit->kind = UnitKind::kDerived;
      if (t.key.empty() && store_) t.key = UnreadableKeyOf(key_config_, t.path, read.status().message());
      unit->key = t.key;
      unit->repo = rs_.repo.value_or("");
      unit->path = t.path;
      unit->stats.skipped = true;
      unit->stats.too_large = read.status().code() == Status::Code::kLimitExceeded;  // --max-file-size
      unit->stats.diagnostics.push_back(UnitStats::Note{t.path, 0, 0, read.status().message()});
      return unit;
    }
    text = std::move(read.value());
  }
  return Parse(i, std::move(text));
}

void Pipeline::LoadForCheck(size_t i, std::string_view text) {
  const FileState& fs = states_[i];
  if (!check_ || fs.stored.empty() || !IsPython(tasks_[i].path) || check::IsTestPath(tasks_[i].path)) return;
  std::vector<UnitSiteRef> stored;
  {
    std::lock_guard<std::mutex> l(*store_mu_);
    auto loaded = store_->LoadUnitSiteRefs(fs.stored.front().unit_id);
    if (!loaded.ok()) return;  // the check section goes without this file; the scan does not depend on it
    stored = std::move(loaded).value();
  }
  std::vector<check::SiteRef> sites;
  sites.reserve(stored.size());
  for (UnitSiteRef& r : stored)
    sites.push_back({std::move(r.id), r.line, std::move(r.kind), std::move(r.error_class)});
  check_->AddFile(i, tasks_[i].path, text, std::move(sites));
}

// What a record's context holds in memory until the second pass: its JSON and the
// gathered context (about twice the JSON), or the gathered one alone when no sink
// wants the JSON (context_json_).
size_t ContextBytes(const UnitRecord& r) {
  if (!r.context.empty()) return 2 * r.context.size();
  return r.gathered_context ? SiteContextTextBytes(*r.gathered_context) : 0;
}

// Pass 1: a stored unit for the file, or the file parsed into the spool.
void Pipeline::FirstPass(size_t i) {
  Task& t = tasks_[i];
  FileState& fs = states_[i];
  auto finish = [&] { done_.fetch_add(1); };
  if (store_ && !t.blob_id.empty()) {
    t.key = UnitKeyOf(key_config_, t.path, t.blob_id, DepsOf(t));
    if (Lookup(t.key, &fs.stored)) {
      fs.knowledge = fs.stored.front().knowledge;
      fs.check_pending = check_ != nullptr;
      std::string().swap(t.text);
      t.has_text = false;
      bytes_.fetch_add(fs.stored.front().stats.bytes);
      return finish();
    }
  }
  std::string text;
  if (t.has_text) {
    text = std::move(t.text);
    t.has_text = false;
  } else {
    auto read = rs_.source->Read(t.listed);
    if (read.ok()) text = std::move(read.value());
    else if (store_ && t.key.empty()) t.key = UnreadableKeyOf(key_config_, t.path, read.status().message());
    if (!read.ok()) {
      auto unit = std::make_shared<Unit>();
      unit->kind = UnitKind::kDerived;
      unit->key = t.key;
      unit->repo = rs_.repo.value_or("");
      unit->path = t.path;
      unit->stats.skipped = true;
      unit->stats.too_large = read.status().code() == Status::Code::kLimitExceeded;  // --max-file-size
      unit->stats.diagnostics.push_back(UnitStats::Note{t.path, 0, 0, read.status().message()});
      fs.fresh = true;
      if (Status st = spool_.Put(i, unit, 256); !st.ok()) emitter_->Fail(st);
      return finish();
    }
  }
  if (store_ && t.key.empty()) {
    t.blob_id = GitBlobId(text);
    t.key = UnitKeyOf(key_config_, t.path, t.blob_id, DepsOf(t));
    if (Lookup(t.key, &fs.stored)) {
      fs.knowledge = fs.stored.front().knowledge;
      fs.check_pending = check_ != nullptr;
      bytes_.fetch_add(text.size());
      return finish();
    }
  }
  uint64_t size = text.size();
  auto unit = Parse(i, std::move(text));
  if (!unit.ok()) {
    emitter_->Fail(unit.status());
    return finish();
  }
  fs.fresh = true;
  fs.knowledge = (*unit)->knowledge;
  size_t held = 256;
  for (const UnitRecord& r : (*unit)->records)
    held += 1024 + r.line.record.source_code.size() + ContextBytes(r) +
            (r.line.record.error_message ? r.line.record.error_message->size() * 3 : 0);
  sites_.fetch_add(static_cast<int64_t>((*unit)->records.size()));
  bytes_.fetch_add(size);
  if (Status st = spool_.Put(i, std::move(unit).value(), held); !st.ok()) emitter_->Fail(st);
  finish();
}

// The prose of a new unit, and its variant.
Status Pipeline::Document(Unit& unit) {
  if (!o_.document) {
    unit.variant = kNoDocsVariant;
    return Status::Ok();
  }
  std::vector<std::pair<std::string, std::string>> used;
  for (UnitRecord& r : unit.records) {
    DocDeps deps;
    try {
      if (r.gathered_context) {
        DocumentRecord(*r.line.facts, *r.gathered_context, *knowledge_, &r.line.record, &deps);
        r.gathered_context.reset();
      } else {
        SiteContext ctx = SiteContextFromJson(r.context);
        DocumentRecord(*r.line.facts, ctx, *knowledge_, &r.line.record, &deps);
      }
    } catch (const std::exception& e) {
      unit.stats.diagnostics.push_back(UnitStats::Note{r.line.record.file_path, r.line.record.line_number, 0,
                                                       std::string("internal error in the document stage: ") + e.what()});
    }
    used.insert(used.end(), deps.used.begin(), deps.used.end());
  }
  documented_.fetch_add(static_cast<int64_t>(unit.records.size()));
  unit.deps = EncodeDeps(used);
  unit.variant = DepsVariant(*knowledge_, DecodeDeps(unit.deps), unit.path);
  return Status::Ok();
}

// Pass 2: the stored unit whose prose still holds, or the file documented now.
void Pipeline::SecondPass(size_t i) {
  if (!emitter_->WaitTurn(i)) return emitter_->Done(i, std::nullopt);
  Task& t = tasks_[i];
  FileState& fs = states_[i];
  FileOutput out;
  out.index = i;
  out.path = t.path;
  out.commit.sha = rs_.sha;
  out.commit.dataset_version = result_.dataset_version;
  std::shared_ptr<Unit> fresh;
  if (!fs.stored.empty()) {
    const StoredUnit* match = nullptr;
    for (const StoredUnit& c : fs.stored) {
      uint64_t want = o_.document ? DepsVariant(*knowledge_, DecodeDeps(c.deps), t.path) : kNoDocsVariant;
      if (c.variant == want) {
        match = &c;
        break;
      }
    }
    if (match) {
      out.unit_id = match->unit_id;
      out.stats = match->stats;
      out.records = match->records;
      if (wants_records_) {
        std::lock_guard<std::mutex> l(*store_mu_);
        auto u = store_->LoadUnit(match->unit_id);
        if (!u.ok()) {
          emitter_->Fail(u.status());
          return emitter_->Done(i, std::nullopt);
        }
        out.unit = std::make_shared<const Unit>(std::move(u).value());
      }
    } else {
      // The file is stored, but the knowledge its prose consulted changed:
      // read it again and document it anew.
      redocumented_.fetch_add(1);
      auto parsed = ReadAndParse(i);
      if (!parsed.ok()) {
        emitter_->Fail(parsed.status());
        return emitter_->Done(i, std::nullopt);
      }
      fresh = std::move(parsed).value();
    }
  } else if (fs.fresh) {
    auto taken = spool_.Take(i);
    if (!taken.ok()) {
      emitter_->Fail(taken.status());
      return emitter_->Done(i, std::nullopt);
    }
    fresh = std::move(taken).value();
  }
  if (fresh) {
    if (Status st = Document(*fresh); !st.ok()) {
      emitter_->Fail(st);
      return emitter_->Done(i, std::nullopt);
    }
    out.stats = fresh->stats;
    out.records = static_cast<int64_t>(fresh->records.size());
    out.unit = std::move(fresh);
  }
  for (ScanSink* s : sinks_) s->Prepare(out);
  emitter_->Done(i, std::move(out));
}

Status Pipeline::EmitOne(FileOutput& out) {
  ScanStats& st = result_.stats;
  const UnitStats& us = out.stats;
  st.bytes += us.bytes;
  if (us.skipped) ++st.files_skipped;
  if (us.too_large) ++st.limits.files_too_large;
  if (out.unit_id > 0) ++st.files_reused;
  for (size_t k = 0; k < us.sites_by_kind.size() && k < st.sites_by_kind.size(); ++k)
    st.sites_by_kind[k] += us.sites_by_kind[k];
  st.sites += out.records;
  if (us.sites_left_out > 0) {
    ++st.limits.files_sites_cut;
    st.limits.sites_left_out += us.sites_left_out;
  }
  st.limits.sites_excerpts_cut += us.excerpts_cut;
  st.limits.sites_guards_cut += us.guards_cut;
  for (const UnitStats::Note& n : us.diagnostics) result_.diagnostics.push_back({n.path, n.line, n.column, n.message});
  auto tw = Clock::now();
  for (ScanSink* s : sinks_)
    if (Status e = s->Emit(out); !e.ok()) return e;
  st.write_seconds += SecondsSince(tw);
  return Status::Ok();
}

Result<ScanResult> Pipeline::Run() {
  result_.dataset_version = FormatIsoTime(NowMillisHonouringSourceDateEpoch());
  auto resolved = ResolveSource(o_);
  if (!resolved.ok()) return resolved.status();
  rs_ = std::move(resolved).value();
  result_.repo = rs_.repo;
  result_.sha = rs_.sha;
  if (!rs_.sha) result_.location = rs_.root.empty() ? rs_.source->Describe() : rs_.root;
  result_.source = rs_.source->Describe();
  if (rs_.commit_time > 0) result_.commit_time = FormatIsoTime(rs_.commit_time * 1000);
  jobs_ = o_.jobs > 0 ? o_.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  key_config_.repo = rs_.repo.value_or("");
  key_config_.limits = o_.limits;
  key_config_.max_file_size = o_.max_file_size;
  key_config_.document = o_.document;
  if (o_.extractor) store_ = nullptr;  // a test's front end: nothing to reuse, nothing a key could name

  // 1. List.
  if (Status st = List(); !st.ok()) return st;
  result_.stats.list_seconds = SecondsSince(t0_);
  bool keeps_knowledge = false;
  for (ScanSink* sink : sinks_) keeps_knowledge = keeps_knowledge || sink->WantsKnowledge();
  context_json_ = keeps_knowledge || store_ != nullptr;
  if (o_.document && keeps_knowledge) check_ = std::make_unique<check::ScanHook>(tasks_.size());

  // 2. Read + extract + facts, or find the file's unit in the catalog.
  auto t1 = Clock::now();
  emitter_ = std::make_unique<OrderedEmitter>(tasks_.size(), [this](FileOutput& out) { return EmitOne(out); });
  // The two tables at once: each has a stretch on one thread (its cache entries
  // read from the store one by one, its merge), which the other's parallel work
  // fills; one after the other they were half of the first pass of the commit
  // after a stored one. They touch disjoint tasks (t.cpp / t.py) and take turns
  // at the store (store_mu_).
  auto cpp_table = std::async(std::launch::async, [this, t1] {
    Status st = ReadCppTable();
    result_.stats.cpp_table_seconds = SecondsSince(t1);
    return st;
  });
  Status py_table = ReadPyClassTable();
  if (py_table.ok() && check_ && store_ && py_files_read_ > 0) {
    // A Python file the catalog has not seen changes the knowledge's key (the
    // check section is named by every Python file's blob), so the knowledge
    // will be built, copying the previous section's entries: its loading (a
    // third of the knowledge stage of the commit after a stored one) runs now,
    // beside the #define table and the first pass, holding the store only while
    // it reads it (started as soon as the class table knows, not after the
    // other table: its 10.9 MB read held the store against the first pass's
    // lookups on flashinfer).
    CatalogStore* store = store_;
    std::mutex* mu = store_mu_;
    std::string repo = rs_.repo.value_or("");
    previous_check_ = std::async(std::launch::async, [store, mu, repo] { return PreviousCheck::Load(*store, repo, mu); });
  }
  Status rs_table = py_table.ok() ? ReadRustErrorTable() : Status::Ok();
  if (Status st = cpp_table.get(); !st.ok()) return st;
  if (!py_table.ok()) return py_table;
  if (!rs_table.ok()) return rs_table;
  ParallelFor(tasks_.size(), jobs_, [this](size_t i) { FirstPass(i); }, [this] { Tick(); });
  if (emitter_->failed()) return emitter_->error();
  result_.stats.extract_seconds = SecondsSince(t1);

  // 3. The repository's knowledge, from every file's (stored or just read), in path order.
  auto t2 = Clock::now();
  documenting_ = true;
  std::string knowledge_text, knowledge_key;
  if (o_.document) {
    // Named by what it is built from: a catalog that holds the knowledge of the
    // same files gives it back without building it again.
    // Hashed as it goes: every file's knowledge at once would be a second copy
    // of it, growing with the tree.
    store::ContentHasher inputs;
    inputs.UpdateBytes(PipelineFingerprint());
    for (size_t i = 0; i < tasks_.size(); ++i) {
      if (states_[i].knowledge.empty()) continue;
      inputs.UpdateBytes(tasks_[i].path);
      inputs.UpdateBytes(states_[i].knowledge);
    }
    // errdex check's section: built from every Python file's source and the
    // packaging files, so those name the knowledge too.
    std::vector<std::pair<std::string, std::string>> packaging;
    if (check_) {
      for (size_t i = 0; i < tasks_.size(); ++i)
        if (IsPython(tasks_[i].path)) {
          inputs.UpdateBytes(tasks_[i].path);
          inputs.UpdateBytes(tasks_[i].key.empty() ? tasks_[i].blob_id : tasks_[i].key);
        }
      for (const std::string& p : packaging_)
        if (auto text = rs_.source->Read(p); text.ok()) {
          inputs.UpdateBytes(p);
          inputs.UpdateBytes(*text);
          packaging.emplace_back(rs_.prefix + p, std::move(text).value());
        }
    }
    knowledge_key = inputs.Digest();
    if (store_) {
      std::lock_guard<std::mutex> l(*store_mu_);
      auto stored = store_->FindKnowledge(knowledge_key);
      if (!stored.ok()) return stored.status();
      if (stored->has_value()) knowledge_text = std::move(**stored);
    }
    if (knowledge_text.empty()) {
      if (check_) {
        // The Python files the catalog had: read again for errdex check's section
        // (only now that the knowledge is built anew), unless the repository's
        // previous section holds the entry of the very unit reused here.
        std::optional<PreviousCheck> previous;
        if (previous_check_.valid()) previous = previous_check_.get();
        else if (store_) previous = PreviousCheck::Load(*store_, rs_.repo.value_or(""), store_mu_);
        ParallelFor(tasks_.size(), jobs_, [this, &previous](size_t i) {
          if (!states_[i].check_pending || !IsPython(tasks_[i].path)) return;
          // A test file has no entry (LoadForCheck leaves it out): not read from
          // git only to be dropped (476 of flashinfer's 1,487 Python files: 25 ms
          // of zlib in the scan of the commit after a stored one).
          if (check::IsTestPath(tasks_[i].path)) return;
          if (previous && !check::IsPackagingFile(tasks_[i].path)) {
            std::string_view entry = previous->EntryFor(tasks_[i].path, states_[i].stored);
            if (!entry.empty()) return check_->AddEntry(i, tasks_[i].path, entry);
          }
          auto text = rs_.source->Read(tasks_[i].listed);
          if (text.ok()) LoadForCheck(i, *text);
        }, nullptr);
        for (auto& [path, text] : packaging) check_->AddPackagingFile(path, text);
      }
      std::vector<FileKnowledgePtr> files;
      for (size_t i = 0; i < tasks_.size(); ++i)
        if (!states_[i].knowledge.empty())
          files.push_back(DeserializeFileKnowledge(tasks_[i].path, states_[i].knowledge));
      knowledge_ = RepoKnowledge::Build(std::move(files));
      // The sinks that keep it get its text (the store's form: without sites,
      // each record keeps its own context), written meanwhile on another thread.
      bool wanted = false;
      for (ScanSink* sink : sinks_) wanted = wanted || sink->WantsKnowledge();
      if (wanted) {
        const RepoKnowledge* k = knowledge_.get();
        check::ScanHook* hook = check_.get();
        knowledge_future_ = std::async(std::launch::async, [k, hook] {
          // The check section is built meanwhile on a thread of its own: the
          // two were half of the commit after a stored one's critical path
          // (serialize, then build the section, then compress and store).
          std::future<std::string> section;
          if (hook) section = std::async(std::launch::async, [k, hook] { return hook->Section(k); });
          std::string text = k->Serialize({});
          constexpr std::string_view kNoSites = ",\"sites\":{}}";
          if (text.size() >= kNoSites.size() && text.compare(text.size() - kNoSites.size(), kNoSites.size(), kNoSites) == 0) {
            text.resize(text.size() - kNoSites.size());
            text.push_back('}');
          }
          return hook ? check::WithCheckSection(text, section.get()) : text;
        });
      }
    } else {
      // Read back from its text, the knowledge writes the same prose as built
      // (`errdex document` relies on it; the store's history test checks it).
      knowledge_ = RepoKnowledge::Deserialize(knowledge_text);
    }
    // The knowledge holds what the second pass needs of every file's.
    for (FileState& fs : states_) std::string().swap(fs.knowledge);
  }
  result_.stats.knowledge_seconds = SecondsSince(t2);

  // 4. Document (or reuse) and hand each file to the sinks in order.
  ParallelFor(tasks_.size(), jobs_, [this](size_t i) { SecondPass(i); }, [this] { Tick(); });
  if (emitter_->failed()) return emitter_->error();
  result_.stats.document_seconds = SecondsSince(t2);
  result_.stats.files_documented = redocumented_.load();
  std::stable_sort(result_.diagnostics.begin(), result_.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.path != b.path) return a.path < b.path;
                     return a.line < b.line;
                   });
  if (knowledge_future_.valid()) knowledge_text = knowledge_future_.get();
  if (o_.before_finish)
    if (Status st = o_.before_finish(result_); !st.ok()) return st;
  auto tw = Clock::now();
  for (ScanSink* s : sinks_)
    if (Status st = s->Finish(result_, knowledge_text, knowledge_key); !st.ok()) return st;
  result_.stats.write_seconds += SecondsSince(tw);
  result_.stats.total_seconds = SecondsSince(t0_);
  Tick();
  return std::move(result_);
}

}  // namespace

Result<ScanResult> ScanToSinks(const ScanOptions& options, const std::vector<ScanSink*>& sinks, CatalogStore* store,
                               std::mutex* store_mu) {
  Pipeline p(options, sinks, store, store_mu);
  return p.Run();
}

}  // namespace errdex
