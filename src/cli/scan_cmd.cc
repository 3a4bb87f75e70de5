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
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/terminal.h"
#include "model/record.h"
#include "scan/scanner.h"
#include "store/catalog_store.h"

namespace errdex::cli {

namespace {

struct ScanFlags {
  std::string path;
  std::string rev;
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

// Writes the JSON Lines (serialized by the scan's workers); false on a write
// error (errno set).
bool WriteLines(FILE* out, const ScanResult& result) {
  for (const std::string& chunk : result.jsonl_chunks)
    if (std::fwrite(chunk.data(), 1, chunk.size(), out) != chunk.size()) return false;
  return std::fflush(out) == 0;
}

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
  std::snprintf(buf, sizeof buf, "scanned %lld files (%lld skipped), %lld sites%s%s%s, %.1f MB in %.2f s (%.1f MB/s)",
                static_cast<long long>(s.files_scanned), static_cast<long long>(s.files_skipped),
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
  std::snprintf(buf, sizeof buf, "\"list\":%.3f,\"extract\":%.3f,\"document\":%.3f,\"write\":%.3f,\"total\":%.3f},",
                s.list_seconds, s.extract_seconds, s.document_seconds, write_seconds, total_seconds);
  o += buf;
  num("mbPerSecond", total_seconds > 0 ? Mb(s.bytes) / total_seconds : 0.0, false);
  o.back() = '}';
  o += "}";
  return o;
}

int RunScan(const ScanFlags& f) {
  Printer printer(UseColor(f.color, STDERR_FILENO));
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
  std::unique_ptr<CatalogStore> store;
  if (!f.db.empty()) {
    auto s = CatalogStore::Open(f.db, true);
    if (!s.ok()) return printer.Error("cannot open catalog " + f.db + ": " + s.status().message());
    store = std::move(s.value());
  }

  ScanOptions o;
  o.path = f.path;
  if (f.rev_opt->count()) o.rev = f.rev;
  if (f.repo_opt->count()) o.repo = f.repo;
  if (f.sha_opt->count()) o.sha = f.sha;
  o.jobs = f.jobs;
  o.max_file_size = f.max_file_size;
  o.limits = f.limits;
  o.document = !f.no_docs;
  if (to_stdout || !f.output.empty())
    o.json_lines = f.facts ? ScanOptions::JsonLines::kRecordsWithFacts : ScanOptions::JsonLines::kRecords;
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
  auto scanned = Scan(o);
  if (progress_shown) std::fprintf(stderr, "\r\033[K");
  if (!scanned.ok()) return printer.Error(scanned.status().message());
  const ScanResult& r = scanned.value();

  // A scan replaces the stored one of its key (repo+commit, or directory). One of
  // other files -- a subdirectory scanned with the repository's --repo/--sha --
  // would delete the records of every file it did not read: refused, unless
  // --replace says so.
  if (store && !f.replace) {
    auto scans = store->ListScans();
    if (!scans.ok()) return printer.Error("cannot read catalog " + f.db + ": " + scans.status().message());
    for (const ScanInfo& s : scans.value()) {
      if (s.repo != r.repo.value_or("") || s.sha != r.sha.value_or("") || s.location != r.location) continue;
      if (s.source == r.source || s.files <= r.stats.files_scanned) continue;
      return printer.Error("not stored: " + f.db + " holds " + ScanKeyText(r) + " scanned from " + s.source + " (" +
                           std::to_string(s.files) + " files, " + std::to_string(s.sites) + " records); this scan of " +
                           r.source + " read " + std::to_string(r.stats.files_scanned) +
                           " files and would delete the records of the others. Scan the same tree, or pass --replace");
    }
  }

  if (f.verbose) {
    for (const Diagnostic& d : r.diagnostics) {
      const std::string path = Printable(d.path), message = Printable(d.message);  // a repository's file names
      if (d.line > 0) std::fprintf(stderr, "%s:%d:%d: %s\n", path.c_str(), d.line, d.column, message.c_str());
      else std::fprintf(stderr, "%s: %s\n", path.c_str(), message.c_str());
    }
  }
  const size_t soft = r.diagnostics.size() + static_cast<size_t>(r.stats.files_skipped);
  if (f.strict && soft > 0)
    return printer.Error(std::to_string(r.diagnostics.size()) + " soft error(s) and " +
                         std::to_string(r.stats.files_skipped) + " skipped file(s) with --strict; nothing written" +
                         (f.verbose ? "" : " (--verbose lists them)"));

  auto tw = Clock::now();
  if (to_stdout) {
    if (!WriteLines(stdout, r)) return StdoutWriteFailed(errno, 0);  // a closed pipe (| head) is not an error
  } else if (!f.output.empty()) {
    if (!WriteLines(out_file->file(), r)) return printer.Error("cannot write " + f.output + ": " + std::strerror(errno));
    if (Status st = out_file->Commit(); !st.ok()) return printer.Error(st.message());
  }
  long long scan_id = -1;
  if (store) {
    auto id = StoreScan(*store, r);
    if (!id.ok()) return printer.Error("cannot store the scan in " + f.db + ": " + id.status().message());
    scan_id = id.value();
  }
  double write_seconds = std::chrono::duration<double>(Clock::now() - tw).count();
  double total_seconds = std::chrono::duration<double>(Clock::now() - t0).count();

  if (!r.repo || !r.sha) {
    if (!f.quiet)
      printer.Warning(std::string("no ") + (!r.repo ? "--repo" : "--sha") +
                      " (not found in git): githubUrl is null in every record");
  }
  if (!f.quiet) {
    std::string line = SummaryText(r, total_seconds);
    if (!r.diagnostics.empty())
      line += "; " + std::to_string(r.diagnostics.size()) + " diagnostic(s)" + (f.verbose ? "" : " (--verbose lists them)");
    if (store) line += "; stored in " + f.db + " as " + ScanKeyText(r);
    std::fprintf(stderr, "errdex: %s\n", Printable(line).c_str());
    std::string limits = LimitsText(r, f);
    if (!limits.empty()) std::fprintf(stderr, "errdex: %s\n", limits.c_str());
  }
  if (f.json) {
    std::string js = SummaryJson(r, f, write_seconds, total_seconds, scan_id) + "\n";
    std::fputs(js.c_str(), to_stdout ? stderr : stdout);
    std::fflush(to_stdout ? stderr : stdout);
  }
  return 0;
}

}  // namespace

void RegisterScanCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<ScanFlags>();
  CLI::App* sub = app.add_subcommand("scan", "Scan a repository (directory, work tree or git repository) into an error catalog");
  sub->add_option("PATH", f->path, "directory, git work tree, or git repository (bare or not)")->required();
  f->rev_opt = sub->add_option("--rev", f->rev, "read the tree of this commit (tag, branch, sha) from git, no checkout");
  f->repo_opt = sub->add_option("--repo", f->repo, "OWNER/NAME (default: the origin remote's GitHub owner/name)");
  f->sha_opt = sub->add_option("--sha", f->sha, "commit recorded in the records (default: the commit scanned)");
  sub->add_option("-o,--output", f->output, "write JSON Lines to FILE ('-' = stdout; default stdout without --db)");
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
