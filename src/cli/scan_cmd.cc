// errdex scan: flags, progress line, summary, output file / catalog writing and
// exit codes of the scan command (the library work is in scan/scanner.h).
//
// Exit codes: 0 success (soft errors -- unreadable or unparsable files -- are
// counted, listed with --verbose); 2 for a bad path, an unknown revision, an
// unwritable output or catalog, or --strict with soft errors. The output file is
// written to a temporary file in the same directory and renamed, so a reader
// never sees half a catalog. Tested by tests/scan_e2e_test.cc.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/terminal.h"
#include "model/record.h"
#include "scan/scanner.h"
#include "scan/sinks.h"
#include "store/catalog_store.h"

namespace errdex::cli {

namespace {

struct ScanFlags {
  std::string path;
  std::vector<std::string> revs;
  std::vector<std::string> rev_globs;
  bool tags = false;
  std::vector<std::string> first_parent;
  std::string repo;
  std::string sha;
  std::string output;
  std::string db;
  bool facts = false;
  bool no_docs = false;
  bool replace = false;  // --replace: store even over a scan of the same key that read more files
  int jobs = 0;
  uint64_t max_file_size = kDefaultMaxFileSize;
  ExtractLimits limits;
  bool quiet = false;
  bool verbose = false;
  bool json = false;
  bool strict = false;
  std::string color = "auto";
  CLI::Option* rev_opt = nullptr;
  CLI::Option* repo_opt = nullptr;
  CLI::Option* sha_opt = nullptr;
};

class Printer {
 public:
  explicit Printer(bool color) : color_(color) {}
  // Messages can quote a scanned repository's paths: Printable (terminal.h).
  int Error(const std::string& what) const {
    std::fprintf(stderr, "errdex: %serror:%s %s\n", color_ ? "\033[1;31m" : "", color_ ? "\033[0m" : "",
                 Printable(what).c_str());
    return 2;
  }
  void Warning(const std::string& what) const {
    std::fprintf(stderr, "errdex: %swarning:%s %s\n", color_ ? "\033[1;33m" : "", color_ ? "\033[0m" : "",
                 Printable(what).c_str());
  }

 private:
  bool color_;
};

double Mb(uint64_t bytes) { return static_cast<double>(bytes) / 1e6; }

std::string SummaryText(const ScanResult& r, double seconds) {
  const ScanStats& s = r.stats;
  std::string kinds;
  for (int k = 0; k < kSiteKindCount; ++k) {
    if (s.sites_by_kind[k] == 0) continue;
    if (!kinds.empty()) kinds += ", ";
    kinds += std::to_string(s.sites_by_kind[k]) + " " + SiteKindName(static_cast<SiteKind>(k));
  }
  char buf[512];
  std::string reused;
  if (s.files_reused > 0) reused = ", " + std::to_string(s.files_reused) + " already in the catalog";
  std::snprintf(buf, sizeof buf, "scanned %lld files (%lld skipped%s), %lld sites%s%s%s, %.1f MB in %.2f s (%.1f MB/s)",
                static_cast<long long>(s.files_scanned), static_cast<long long>(s.files_skipped), reused.c_str(),
                static_cast<long long>(s.sites), kinds.empty() ? "" : " (", kinds.c_str(), kinds.empty() ? "" : ")",
                Mb(s.bytes), seconds, seconds > 0 ? Mb(s.bytes) / seconds : 0.0);
  return buf;
}

// The scan's key in the catalog, for people: "o/n@<sha>", or, without a commit,
// the directory (a later scan of that directory replaces this one).
std::string ScanKeyText(const ScanResult& r) {
  std::string repo = r.repo.value_or("(no repo)");
  if (r.sha) return repo + "@" + *r.sha;
  return repo + " at " + r.location + " (no commit: a later scan of this directory replaces it)";
}

// "limits hit: ..." naming each limit that cut something, "" when none did.
std::string LimitsText(const ScanResult& r, const ScanFlags& f) {
  const LimitStats& l = r.stats.limits;
  if (!l.any()) return "";
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "limits hit: " : "; ") + part; };
  if (l.files_too_large)
    add("--max-file-size " + std::to_string(f.max_file_size) + " skipped " + std::to_string(l.files_too_large) +
        " file(s)");
  if (l.files_sites_cut)
    add("--max-sites-per-file " + std::to_string(f.limits.max_sites) + " in " + std::to_string(l.files_sites_cut) +
        " file(s), " + std::to_string(l.sites_left_out) + " site(s) left out");
  if (l.sites_excerpts_cut)
    add("--max-excerpt-bytes " + std::to_string(f.limits.max_excerpt_bytes) + " cut texts of " +
        std::to_string(l.sites_excerpts_cut) + " site(s)");
  if (l.sites_guards_cut)
    add("--max-guards " + std::to_string(f.limits.max_guards) + " / --max-guard-bytes " +
        std::to_string(f.limits.max_guard_bytes) + " cut the guards of " + std::to_string(l.sites_guards_cut) +
        " site(s)");
  if (l.files_sites_cut || l.sites_excerpts_cut || l.sites_guards_cut)
    out += " (--facts shows what each record lost under \"truncated\")";
  return out;
}

std::string SummaryJson(const ScanResult& r, const ScanFlags& f, double write_seconds, double total_seconds,
                        long long scan_id) {
  const ScanStats& s = r.stats;
  std::string o = "{\"type\":\"summary\",\"data\":{";
  auto str = [&](const char* k, const std::optional<std::string>& v) {
    o += "\"";
    o += k;
    o += "\":";
    if (v) AppendJsonString(o, *v); else o += "null";
    o += ",";
  };
  auto num = [&](const char* k, double v, bool integer) {
    char buf[64];
    if (integer) std::snprintf(buf, sizeof buf, "\"%s\":%lld,", k, static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, "\"%s\":%.3f,", k, v);
    o += buf;
  };
  str("source", r.source);
  str("repo", r.repo);
  str("sha", r.sha);
  str("datasetVersion", r.dataset_version);
  str("output", f.output.empty() ? std::nullopt : std::optional<std::string>(f.output));
  str("db", f.db.empty() ? std::nullopt : std::optional<std::string>(f.db));
  if (scan_id >= 0) {
    num("scanId", static_cast<double>(scan_id), true);
    o += "\"scanKey\":{\"repo\":";
    AppendJsonString(o, r.repo.value_or(""));
    o += ",\"sha\":";
    AppendJsonString(o, r.sha.value_or(""));
    o += ",\"location\":";
    AppendJsonString(o, r.location);
    o += "},";
  }
  num("filesListed", static_cast<double>(s.files_listed), true);
  num("files", static_cast<double>(s.files_scanned), true);
  num("filesSkipped", static_cast<double>(s.files_skipped), true);
  num("filesReused", static_cast<double>(s.files_reused), true);
  num("filesDocumentedAgain", static_cast<double>(s.files_documented), true);
  num("diagnostics", static_cast<double>(r.diagnostics.size()), true);
  num("sites", static_cast<double>(s.sites), true);
  o += "\"sitesByKind\":{";
  for (int k = 0; k < kSiteKindCount; ++k) {
    if (k) o += ",";
    o += "\"";
    o += SiteKindName(static_cast<SiteKind>(k));
    o += "\":" + std::to_string(s.sites_by_kind[k]);
  }
  o += "},";
  num("bytes", static_cast<double>(s.bytes), true);
  o += "\"limits\":{";
  o += "\"filesTooLarge\":" + std::to_string(s.limits.files_too_large) +
       ",\"filesSitesCut\":" + std::to_string(s.limits.files_sites_cut) +
       ",\"sitesLeftOut\":" + std::to_string(s.limits.sites_left_out) +
       ",\"sitesExcerptsCut\":" + std::to_string(s.limits.sites_excerpts_cut) +
       ",\"sitesGuardsCut\":" + std::to_string(s.limits.sites_guards_cut) + "},";
  o += "\"seconds\":{";
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "\"list\":%.3f,\"extract\":%.3f,\"cppTable\":%.3f,\"document\":%.3f,\"knowledge\":%.3f,"
                "\"write\":%.3f,\"total\":%.3f},",
                s.list_seconds, s.extract_seconds, s.cpp_table_seconds, s.document_seconds, s.knowledge_seconds,
                write_seconds, total_seconds);
  o += buf;
  num("mbPerSecond", total_seconds > 0 ? Mb(s.bytes) / total_seconds : 0.0, false);
  o.back() = '}';
  o += "}";
  return o;
}

// A catalog in a temporary directory, removed with it: what a multi-revision
// scan without --db remembers between revisions.
class TempCatalog {
 public:
  ~TempCatalog() {
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }
  Result<std::unique_ptr<CatalogStore>> Open() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "errdex-scan-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) return Status::IoError(std::strerror(errno));
    dir_ = tmpl;
    return CatalogStore::Open(dir_ + "/reuse.db", true);
  }

 private:
  std::string dir_;
};

int RunScan(const ScanFlags& f) {
  Printer printer(UseColor(f.color, STDERR_FILENO));
  // -o SHARD.errdex: a shard, a fresh catalog file of its own (errdex merge folds
  // shards into a catalog); whatever was at that path is replaced.
  constexpr std::string_view kShard = ".errdex";
  if (f.output.size() > kShard.size() && f.output.compare(f.output.size() - kShard.size(), kShard.size(), kShard) == 0) {
    if (!f.db.empty()) return printer.Error("-o " + f.output + " writes a shard: not with --db (errdex merge folds it in)");
    ScanFlags shard = f;
    shard.db = f.output;
    shard.output.clear();
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
      std::error_code ec;
      std::filesystem::remove(f.output + suffix, ec);
      if (ec) return printer.Error("cannot replace " + f.output + suffix + ": " + ec.message());
    }
    return RunScan(shard);
  }
  const bool to_stdout = f.output == "-" || (f.output.empty() && f.db.empty());
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();

  if (f.repo_opt->count()) {
    size_t slash = f.repo.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == f.repo.size() ||
        f.repo.find('/', slash + 1) != std::string::npos || f.repo.find_first_of(" \t\n") != std::string::npos)
      return printer.Error("--repo must be OWNER/NAME, got '" + f.repo + "'");
  }

  // Fail on unwritable or refused outputs (the catalog itself) before doing any work.
  std::unique_ptr<OutputFile> out_file;
  if (!to_stdout && !f.output.empty()) {
    auto opened = OutputFile::Open(f.output, {f.db});
    if (!opened.ok()) return printer.Error(opened.status().message());
    out_file = std::move(opened).value();
  }
  std::unique_ptr<TempCatalog> temp;  // declared first: it outlives the store open in it
  std::unique_ptr<CatalogStore> store;
  if (!f.db.empty()) {
    auto s = CatalogStore::Open(f.db, true);
    if (!s.ok()) return printer.Error("cannot open catalog " + f.db + ": " + s.status().message());
    store = std::move(s.value());
  }

  // The revisions: none (the directory, or HEAD of a bare repository), or
  // every commit --rev/--revs/--tags/--first-parent name, each its own scan.
  RevisionQuery query;
  query.revs = f.revs;
  query.globs = f.rev_globs;
  query.tags = f.tags;
  query.ranges = f.first_parent;
  std::vector<Revision> revisions;
  if (!query.empty()) {
    auto listed = ListRevisions(f.path, query);
    if (!listed.ok()) return printer.Error(listed.status().message());
    revisions = std::move(listed).value();
    if (revisions.empty()) return printer.Error("no commit of " + f.path + " matches the revisions given");
    if (revisions.size() > 1 && f.sha_opt->count())
      return printer.Error("--sha names one commit; " + std::to_string(revisions.size()) + " revisions were given");
  }
  // Several revisions without a catalog: a temporary one remembers what the
  // earlier revisions parsed, so a file shared by them is read once.
  if (!store && revisions.size() > 1) {
    temp = std::make_unique<TempCatalog>();
    auto s = temp->Open();
    if (!s.ok()) return printer.Error("cannot create a temporary catalog: " + s.status().message());
    store = std::move(s).value();
  }

  ScanOptions o;
  o.path = f.path;
  if (f.repo_opt->count()) o.repo = f.repo;
  if (f.sha_opt->count()) o.sha = f.sha;
  o.jobs = f.jobs;
  o.max_file_size = f.max_file_size;
  o.limits = f.limits;
  o.document = !f.no_docs;
  const bool progress = !f.quiet && isatty(STDERR_FILENO);
  bool progress_shown = false;
  if (progress) {
    o.on_progress = [&](const ScanProgress& p) {
      if (p.documenting)
        std::fprintf(stderr, "\rerrdex: %lld files, documenting %lld/%lld sites\033[K",
                     static_cast<long long>(p.files_total), static_cast<long long>(p.sites_documented),
                     static_cast<long long>(p.sites));
      else
        std::fprintf(stderr, "\rerrdex: %lld/%lld files, %lld sites, %.1f MB/s\033[K",
                   static_cast<long long>(p.files_done), static_cast<long long>(p.files_total),
                   static_cast<long long>(p.sites), p.seconds > 0 ? Mb(p.bytes) / p.seconds : 0.0);
      std::fflush(stderr);
      progress_shown = true;
    };
  }
  // --strict: nothing is written unless no file had a soft error. The catalog's
  // scan is committed last (the check runs before it); JSON Lines bound for
  // stdout wait in a temporary file, since stdout cannot be taken back.
  std::string strict_error;
  std::mutex store_mu;  // guards `store` (the scan's lookups and sinks use it too)
  const bool check_replace = store && !temp && !f.replace;
  o.before_finish = [&](const ScanResult& r) -> Status {
    // A scan replaces the stored one of its key (repo+commit, or directory). One of
    // other files -- a subdirectory scanned with the repository's --repo/--sha --
    // would delete the records of every file it did not read: refused, unless
    // --replace says so. Checked here, before the catalog's scan is committed.
    if (check_replace) {
      std::lock_guard<std::mutex> l(store_mu);
      auto scans = store->ListScans();
      if (!scans.ok()) return Status::IoError("cannot read catalog " + f.db + ": " + scans.status().message());
      for (const ScanInfo& s : scans.value()) {
        if (s.repo != r.repo.value_or("") || s.sha != r.sha.value_or("") || s.location != r.location) continue;
        if (s.source == r.source || s.files <= r.stats.files_scanned) continue;
        return Status::InvalidArgument(
            "not stored: " + f.db + " holds " + ScanKeyText(r) + " scanned from " + s.source + " (" +
            std::to_string(s.files) + " files, " + std::to_string(s.sites) + " records); this scan of " + r.source +
            " read " + std::to_string(r.stats.files_scanned) +
            " files and would delete the records of the others. Scan the same tree, or pass --replace");
      }
    }
    if (f.verbose) {
      if (progress_shown) std::fprintf(stderr, "\r\033[K");
      for (const Diagnostic& d : r.diagnostics) {
        const std::string path = Printable(d.path), message = Printable(d.message);  // a repository's file names
        if (d.line > 0) std::fprintf(stderr, "%s:%d:%d: %s\n", path.c_str(), d.line, d.column, message.c_str());
        else std::fprintf(stderr, "%s: %s\n", path.c_str(), message.c_str());
      }
    }
    const size_t soft = r.diagnostics.size() + static_cast<size_t>(r.stats.files_skipped);
    if (!f.strict || soft == 0) return Status::Ok();
    strict_error = std::to_string(r.diagnostics.size()) + " soft error(s) and " +
                   std::to_string(r.stats.files_skipped) + " skipped file(s) with --strict" +
                   (revisions.size() > 1 ? " in " + r.source : std::string()) + "; nothing written" +
                   (f.verbose ? "" : " (--verbose lists them)");
    return Status::InvalidArgument(strict_error);
  };
  FILE* jsonl_target = nullptr;
  std::unique_ptr<FILE, int (*)(FILE*)> held(nullptr, std::fclose);
  if (to_stdout) {
    // Held in a temporary file while the scan may still be refused (--strict, or a
    // catalog scan that would replace one of more files): stdout cannot be taken back.
    if (f.strict || check_replace) {
      held.reset(std::tmpfile());
      if (!held) return printer.Error(std::string("cannot create a temporary file: ") + std::strerror(errno));
      jsonl_target = held.get();
    } else {
      jsonl_target = stdout;
    }
  } else if (!f.output.empty()) {
    jsonl_target = out_file->file();
  }
  std::unique_ptr<JsonlSink> jsonl;
  if (jsonl_target) jsonl = std::make_unique<JsonlSink>(jsonl_target, f.facts);

  std::vector<ScanResult> results;
  const size_t rounds = revisions.empty() ? 1 : revisions.size();
  for (size_t k = 0; k < rounds; ++k) {
    if (!revisions.empty()) o.rev = revisions[k].name;
    std::vector<ScanSink*> sinks;
    if (jsonl) sinks.push_back(jsonl.get());
    std::unique_ptr<CatalogSink> catalog;
    if (store) {
      catalog = std::make_unique<CatalogSink>(store.get(), &store_mu);
      sinks.push_back(catalog.get());
    }
    auto t_rev = Clock::now();
    auto scanned = ScanToSinks(o, sinks, store.get(), &store_mu);
    if (progress_shown) std::fprintf(stderr, "\r\033[K");
    if (!scanned.ok()) {
      if (!strict_error.empty()) return printer.Error(strict_error);
      if (jsonl && jsonl->write_errno()) {
        // A closed pipe (| head) is not an error.
        if (to_stdout && !held) return StdoutWriteFailed(jsonl->write_errno(), 0);
        return printer.Error("cannot write " + (to_stdout ? std::string("a temporary file") : f.output) + ": " +
                             std::strerror(jsonl->write_errno()));
      }
      std::string where = revisions.size() > 1 ? revisions[k].name + ": " : std::string();
      return printer.Error(where + scanned.status().message());
    }
    ScanResult& r = scanned.value();
    double seconds = std::chrono::duration<double>(Clock::now() - t_rev).count();
    if (!r.repo || !r.sha) {
      if (!f.quiet)
        printer.Warning(std::string("no ") + (!r.repo ? "--repo" : "--sha") +
                        " (not found in git): githubUrl is null in every record");
    }
    if (!f.quiet) {
      std::string line = SummaryText(r, seconds);
      if (!r.diagnostics.empty())
        line += "; " + std::to_string(r.diagnostics.size()) + " diagnostic(s)" + (f.verbose ? "" : " (--verbose lists them)");
      if (store && !temp) line += "; stored in " + f.db + " as " + ScanKeyText(r);
      else if (revisions.size() > 1) line += " (" + revisions[k].name + ")";
      std::fprintf(stderr, "errdex: %s\n", Printable(line).c_str());
      std::string limits = LimitsText(r, f);
      if (!limits.empty()) std::fprintf(stderr, "errdex: %s\n", limits.c_str());
    }
    if (f.json) {
      std::string js = SummaryJson(r, f, r.stats.write_seconds, seconds, temp ? -1 : r.scan_id) + "\n";
      std::fputs(js.c_str(), to_stdout ? stderr : stdout);
      std::fflush(to_stdout ? stderr : stdout);
    }
  }

  if (held) {  // held for stdout: the lines now
    std::rewind(held.get());
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, held.get())) > 0)
      if (std::fwrite(buf, 1, n, stdout) != n) return StdoutWriteFailed(errno, 0);  // EPIPE (| head) is not an error
    if (std::fflush(stdout) != 0) return StdoutWriteFailed(errno, 0);
  } else if (!to_stdout && !f.output.empty()) {
    if (Status st = out_file->Commit(); !st.ok()) return printer.Error(st.message());
  }
  (void)t0;
  return 0;
}

}  // namespace

void RegisterScanCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<ScanFlags>();
  CLI::App* sub = app.add_subcommand("scan", "Scan a repository (directory, work tree or git repository) into an error catalog");
  sub->add_option("PATH", f->path, "directory, git work tree, or git repository (bare or not)")->required();
  f->rev_opt = sub->add_option("--rev", f->revs,
                               "read the tree of this commit (tag, branch, sha) from git, no checkout; repeat it to "
                               "scan several commits (each its own scan; JSON Lines of all of them, in order)");
  sub->add_option("--revs", f->rev_globs, "every tag and branch whose name matches this glob ('v0.4.*'), oldest first");
  sub->add_flag("--tags", f->tags, "every tag, oldest first");
  sub->add_option("--first-parent", f->first_parent,
                  "A..B: every commit on B's first-parent chain after A ('main~50..main'), oldest first");
  f->repo_opt = sub->add_option("--repo", f->repo, "OWNER/NAME (default: the origin remote's GitHub owner/name)");
  f->sha_opt = sub->add_option("--sha", f->sha, "commit recorded in the records (default: the commit scanned)");
  sub->add_option("-o,--output", f->output,
                  "write JSON Lines to FILE ('-' = stdout; default stdout without --db); FILE.errdex: a shard (a "
                  "catalog file of its own, for errdex merge)");
  sub->add_option("--db", f->db,
                  "add the scan to this SQLite catalog; a scan of the same repo+commit (without a commit: of the "
                  "same directory) is replaced");
  sub->add_flag("--replace", f->replace,
                "with --db: replace the stored scan of the same key even when it read files this scan does not "
                "(refused otherwise: it would delete their records)");
  sub->add_flag("--facts", f->facts, "add each site's facts object beside the record (extended export)");
  sub->add_flag("--no-docs", f->no_docs, "skip the document stage (prose fields stay null)");
  sub->add_option("-j,--jobs", f->jobs, "worker threads (default: hardware concurrency)")->check(CLI::NonNegativeNumber);
  // Resource limits (extract/common/limits.h): ordinary code never reaches them;
  // when one is hit the summary says which, and how often.
  sub->add_option("--max-file-size", f->max_file_size,
                  "skip files larger than BYTES, with a diagnostic (default 16777216 = 16 MiB)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-sites-per-file", f->limits.max_sites,
                  "keep the first N sites of a file, count the rest (default 5000)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-excerpt-bytes", f->limits.max_excerpt_bytes,
                  "cut sourceCode, messages and every other text copied into a record to BYTES (default 8192)")
      ->check(CLI::Range(size_t{64}, size_t{1} << 30));
  sub->add_option("--max-guards", f->limits.max_guards, "keep the innermost N guards of a site (default 64)");
  sub->add_option("--max-guard-bytes", f->limits.max_guard_bytes, "cut each guard to BYTES (default 4096)")
      ->check(CLI::Range(size_t{16}, size_t{1} << 30));
  sub->add_flag("-q,--quiet", f->quiet, "no progress line, no summary");
  sub->add_flag("-v,--verbose", f->verbose, "list every diagnostic as path:line:col: message");
  sub->add_flag("--json", f->json, "print the summary as one JSON object (stdout; stderr when the catalog goes to stdout)");
  sub->add_flag("--strict", f->strict, "exit 2 (and write nothing) when any file could not be read or parsed");
  sub->add_option("--color", f->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  table.emplace_back(sub, [f] { return RunScan(*f); });
}

}  // namespace errdex::cli
