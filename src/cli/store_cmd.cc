// store_cmd.cc: the catalog subcommands -- import, export, show, scans.
// Exit codes: 0 ok, 1 nothing found (show), 2 error; errors go to stderr as
// "errdex: error: <what>". Tested by tests/store_e2e_test.cc.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/terminal.h"
#include "match/pattern_db.h"
#include "model/record.h"
#include "store/catalog_store.h"
#include "store/import.h"

namespace errdex::cli {
namespace {

int Fail(const std::string& msg) {
  // Messages quote imported records and paths: never raw terminal controls.
  std::fprintf(stderr, "errdex: error: %s\n", Printable(msg).c_str());
  return 2;
}
int Fail(const Status& st) { return Fail(st.message()); }

// Writes all of `text` to stdout. A closed pipe (EPIPE) is not an error (exit 0).
int WriteStdout(const std::string& text) {
  int err = WriteFd(STDOUT_FILENO, text);
  return err ? StdoutWriteFailed(err, 0) : 0;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  if (path == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::NotFound(path + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return Status::InvalidArgument(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError(path + ": cannot open: " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::IoError(path + ": read error");
  return ss.str();
}

// Export's output, streamed: "-" is stdout (written in large pieces through
// WriteFd; a failed write keeps its errno for StdoutWriteFailed), else an
// OutputFile (output_file.h: a temporary file renamed into place by Commit,
// never over the catalog itself).
class ExportOutput {
 public:
  Status Open(const std::string& requested, const std::string& db) {
    if (requested == "-") return Status::Ok();
    auto file = OutputFile::Open(requested, {db});  // never over the catalog (M4)
    if (!file.ok()) return file.status();
    file_ = std::move(file).value();
    return Status::Ok();
  }
  // Buffers; writes in large pieces.
  Status Write(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= (size_t{1} << 20)) return Drain();
    return Status::Ok();
  }
  Status Commit() {
    if (Status st = Drain(); !st.ok()) return st;
    return file_ ? file_->Commit() : Status::Ok();
  }
  // The errno of a failed write to stdout, 0 when none failed.
  int stdout_errno() const { return stdout_errno_; }

 private:
  Status Drain() {
    std::string pending;
    pending.swap(buffer_);
    if (file_) return file_->Write(pending);
    if (int err = WriteFd(STDOUT_FILENO, pending); err != 0) {
      stdout_errno_ = err;
      return Status::IoError(std::string("cannot write to stdout: ") + std::strerror(err));
    }
    return Status::Ok();
  }
  std::unique_ptr<OutputFile> file_;
  std::string buffer_;
  int stdout_errno_ = 0;
};

std::string JsonStr(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

std::string ShortSha(const std::string& sha) { return sha.size() > 12 ? sha.substr(0, 12) : sha; }

std::string ScanLabel(const ScanInfo& s) {
  std::string repo = s.repo.empty() ? "(no repo)" : s.repo;
  return s.sha.empty() ? repo : repo + "@" + ShortSha(s.sha);
}

// ---------------------------------------------------------------- colour

void MakePrintable(std::string* s) { *s = Printable(*s); }
void MakePrintable(std::optional<std::string>* s) {
  if (*s) MakePrintable(&**s);
}
void MakePrintable(std::optional<std::vector<std::string>>* v) {
  if (*v)
    for (std::string& s : **v) MakePrintable(&s);
}
Record PrintableRecord(Record r) {
  for (std::string* f : {&r.id, &r.file_path, &r.source_code}) MakePrintable(f);
  for (std::optional<std::string>* f :
       {&r.repo, &r.slug, &r.error_code, &r.error_message, &r.message_pattern, &r.error_type, &r.error_class,
        &r.severity, &r.github_url, &r.documentation, &r.trigger_scenarios, &r.common_situations, &r.example_fix,
        &r.handling_strategy, &r.validation_code, &r.type_guard, &r.try_catch_pattern, &r.background_tag,
        &r.analyzed_sha, &r.analyzed_at})
    MakePrintable(f);
  MakePrintable(&r.solutions);
  MakePrintable(&r.prevention_tips);
  MakePrintable(&r.tags);
  return r;
}

// ---------------------------------------------------------------- import

struct ImportOptions {
  std::vector<std::string> files;
  std::string db;
  std::string repo;
  std::string sha;
  bool json = false;
};

int RunImport(const ImportOptions& o) {
  JsonLinesImport import(o.repo, o.sha);
  import.set_pattern_check([](std::string_view p) { return CheckPattern(p); });
  for (const std::string& f : o.files) {
    auto text = ReadWholeFile(f);
    if (!text.ok()) return Fail(text.status());
    if (Status st = import.AddFile(f, *text); !st.ok()) return Fail(st);
  }
  int64_t lines = import.line_count();
  const int64_t unmatchable = import.unmatchable_patterns();
  const std::string first_unmatchable = import.first_unmatchable();
  std::vector<ScanBatch> batches = import.TakeBatches();
  std::vector<int64_t> ids;
  if (!batches.empty()) {
    auto store = CatalogStore::Open(o.db, /*create=*/true);
    if (!store.ok()) return Fail(store.status());
    auto put = PutScans(**store, batches);
    if (!put.ok()) return Fail(put.status());
    ids = std::move(put.value());
  }
  std::string out;
  if (o.json) {
    out = "{\"type\":\"summary\",\"data\":{\"catalog\":" + JsonStr(o.db) +
          ",\"files\":" + std::to_string(o.files.size()) + ",\"lines\":" + std::to_string(lines) + ",\"scans\":[";
    for (size_t i = 0; i < batches.size(); ++i) {
      if (i) out += ",";
      out += "{\"scanId\":" + std::to_string(ids[i]) + ",\"repo\":" + JsonStr(batches[i].info.repo) +
             ",\"sha\":" + JsonStr(batches[i].info.sha) + ",\"lines\":" + std::to_string(batches[i].lines.size()) +
             "}";
    }
    out += "],\"unmatchablePatterns\":" + std::to_string(unmatchable) + "}}\n";
  } else {
    out = "imported " + std::to_string(lines) + (lines == 1 ? " line" : " lines") + " from " +
          std::to_string(o.files.size()) + (o.files.size() == 1 ? " file" : " files") + " into " +
          std::to_string(batches.size()) + (batches.size() == 1 ? " scan" : " scans");
    if (!batches.empty()) {
      out += " (";
      for (size_t i = 0; i < batches.size(); ++i) {
        if (i) out += ", ";
        out += ScanLabel(batches[i].info);
      }
      out += ")";
    }
    out += " in " + o.db + "\n";
    // Not an error (bare asserts have such patterns), but explain will not match these by message.
    if (unmatchable > 0)
      std::fprintf(stderr, "errdex: note: %lld record(s) have a messagePattern explain does not match by (%s%s)\n",
                   static_cast<long long>(unmatchable), Printable(first_unmatchable).c_str(),
                   unmatchable > 1 ? ", ..." : "");
  }
  return WriteStdout(out);
}

// ---------------------------------------------------------------- export

struct ExportOptions {
  std::string db;
  std::string repo;
  std::string sha;
  bool facts = false;
  std::string output = "-";
};

int RunExport(const ExportOptions& o) {
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status());
  ExportOutput out;
  if (Status st = out.Open(o.output, o.db); !st.ok()) return Fail(st);
  ScanFilter filter;
  filter.repo = o.repo;
  filter.sha = o.sha;
  int64_t lines = 0;
  std::string text;
  Status st = (*store)->ForEachLine(filter, [&](StoredLine&& sl) {
    if (!o.facts) sl.line.facts.reset();
    text = CatalogLineToJson(sl.line);
    text += '\n';
    ++lines;
    return out.Write(text);
  });
  if (st.ok()) st = out.Commit();
  if (!st.ok()) {
    if (out.stdout_errno()) return StdoutWriteFailed(out.stdout_errno(), 0);  // a closed pipe (| head) is exit 0
    return Fail(st);
  }
  if (lines == 0 && (!o.repo.empty() || !o.sha.empty()))
    std::fprintf(stderr, "errdex: warning: no stored lines match%s%s%s%s\n", o.repo.empty() ? "" : " --repo ",
                 o.repo.c_str(), o.sha.empty() ? "" : " --sha ", o.sha.c_str());
  return 0;
}

// ---------------------------------------------------------------- show

struct ShowOptions {
  std::string key;
  std::string db;
  bool json = false;
  std::string color = "auto";
};

void AppendField(std::string& out, const Palette& p, const char* label, const std::string& value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "  %-10s", label);
  out += p.Label(buf) + value + "\n";
}

void AppendProse(std::string& out, const Palette& p, const char* heading, const std::optional<std::string>& text) {
  if (!text || text->empty()) return;
  out += "\n" + p.Heading(heading) + "\n";
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) out += "  " + line + "\n";
}

void AppendList(std::string& out, const Palette& p, const char* heading,
                const std::optional<std::vector<std::string>>& items) {
  if (!items || items->empty()) return;
  out += "\n" + p.Heading(heading) + "\n";
  for (const std::string& item : *items) out += "  - " + item + "\n";
}

// The source window with line numbers; the raise line is marked with '>'.
void AppendSource(std::string& out, const Palette& p, const Record& r) {
  if (r.source_code.empty()) return;
  out += "\n";
  std::istringstream in(r.source_code);
  std::string line;
  int n = r.source_code_start > 0 ? r.source_code_start : 1;
  int width = static_cast<int>(std::to_string(std::max(n, r.source_code_end)).size());
  while (std::getline(in, line)) {
    char num[32];
    std::snprintf(num, sizeof num, "%*d", width, n);
    if (n == r.line_number) out += p.Mark("> " + std::string(num) + " | " + line) + "\n";
    else out += "  " + p.Dim(std::string(num) + " |") + " " + line + "\n";
    ++n;
  }
}

std::string Describe(const Record& r, const std::string& dataset_version, const Palette& p) {
  std::string out;
  std::string cls = r.error_class.value_or("error");
  out += p.Error(cls) + ": " + p.Bold(r.error_message.value_or("(no message)")) + "\n";
  AppendField(out, p, "id", r.id + (r.slug ? "  (" + *r.slug + ")" : ""));
  AppendField(out, p, "where", r.file_path + ":" + std::to_string(r.line_number));
  std::string repo = r.repo.value_or("(no repo)");
  if (r.analyzed_sha) repo += " @ " + *r.analyzed_sha;
  AppendField(out, p, "repo", repo);
  std::string kind;
  if (r.error_type) kind += *r.error_type;
  if (r.severity) kind += (kind.empty() ? "" : ", ") + std::string("severity ") + *r.severity;
  if (r.http_status) kind += (kind.empty() ? "" : ", ") + std::string("HTTP ") + std::to_string(*r.http_status);
  if (r.error_code) kind += (kind.empty() ? "" : ", ") + std::string("code ") + *r.error_code;
  if (!kind.empty()) AppendField(out, p, "kind", kind);
  if (r.github_url) AppendField(out, p, "link", *r.github_url);
  if (r.message_pattern) AppendField(out, p, "pattern", *r.message_pattern);
  std::string when = r.analyzed_at ? "analyzed " + *r.analyzed_at + ", " : "";
  AppendField(out, p, "version", when + "dataset " + dataset_version);
  AppendSource(out, p, r);
  AppendProse(out, p, "Documentation", r.documentation);
  AppendProse(out, p, "When it happens", r.trigger_scenarios);
  AppendProse(out, p, "Common situations", r.common_situations);
  AppendList(out, p, "Solutions", r.solutions);
  AppendProse(out, p, "Example fix", r.example_fix);
  AppendProse(out, p, "Handling strategy", r.handling_strategy);
  AppendProse(out, p, "Validation", r.validation_code);
  AppendProse(out, p, "Type guard", r.type_guard);
  AppendProse(out, p, "try/except", r.try_catch_pattern);
  AppendList(out, p, "Prevention", r.prevention_tips);
  if (r.tags && !r.tags->empty()) {
    std::string tags;
    for (const std::string& t : *r.tags) tags += (tags.empty() ? "" : ", ") + t;
    out += "\n" + p.Label("tags: ") + tags + "\n";
  }
  if (r.background_tag) out += p.Label("background: ") + *r.background_tag + "\n";
  return out;
}

int RunShow(const ShowOptions& o) {
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status());
  auto found = (*store)->FindRecord(o.key);
  if (!found.ok()) return Fail(found.status());
  if (found->empty()) {
    std::fprintf(stderr, "errdex: no record with id or slug \"%s\" in %s\n", o.key.c_str(), o.db.c_str());
    return 1;
  }
  std::string out;
  if (o.json) {
    for (const StoredLine& sl : *found) out += CatalogLineToJson(sl.line) + "\n";
    return WriteStdout(out);
  }
  Palette p;
  p.on = UseColor(o.color, STDOUT_FILENO);
  if (found->size() > 1) {
    out += p.Bold(std::to_string(found->size()) + " stored versions of \"" + o.key + "\", newest first:") + "\n";
    for (const StoredLine& sl : *found) {
      const Record r = PrintableRecord(sl.line.record);
      std::string repo = r.repo.value_or("(no repo)");
      if (r.analyzed_sha) repo += "@" + ShortSha(*r.analyzed_sha);
      out += "  " + r.id + "  " + repo + "  " + r.file_path + ":" + std::to_string(r.line_number) + "  " +
             p.Dim(Printable(sl.line.dataset_version)) + "\n";
    }
    out += "\n" + p.Dim("the newest:") + "\n";
  }
  out += Describe(PrintableRecord(found->front().line.record), Printable(found->front().line.dataset_version), p);
  return WriteStdout(out);
}

// ---------------------------------------------------------------- scans

struct ScansOptions {
  std::string db;
  bool json = false;
  std::string remove;  // --delete REPO@SHA
};

// scans --delete REPO@SHA: the scans of that commit go (their units stay until gc).
int RunDeleteScans(const ScansOptions& o) {
  size_t at = o.remove.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == o.remove.size())
    return Fail("--delete takes REPO@SHA (the sha may be a prefix of 4+ characters), got '" + o.remove + "'");
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status());
  auto n = (*store)->DeleteScans(o.remove.substr(0, at), o.remove.substr(at + 1));
  if (!n.ok()) return Fail(n.status());
  std::string out = o.json ? "{\"type\":\"summary\",\"data\":{\"deleted\":" + std::to_string(*n) + "}}\n"
                           : "deleted " + std::to_string(*n) + (*n == 1 ? " scan" : " scans") + " of " +
                                 Printable(o.remove) + " from " + o.db +
                                 (*n > 0 ? " (errdex gc gives the space back)\n" : "\n");
  int rc = WriteStdout(out);
  return rc != 0 ? rc : (*n == 0 ? 1 : 0);
}

int RunScans(const ScansOptions& o) {
  if (!o.remove.empty()) return RunDeleteScans(o);
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status());
  auto scans = (*store)->ListScans();
  if (!scans.ok()) return Fail(scans.status());
  std::string out;
  if (o.json) {
    for (const ScanInfo& s : *scans) {
      out += "{\"type\":\"scan\",\"data\":{\"scanId\":" + std::to_string(s.scan_id) + ",\"repo\":" + JsonStr(s.repo) +
             ",\"sha\":" + JsonStr(s.sha) + ",\"datasetVersion\":" + JsonStr(s.dataset_version) +
             ",\"source\":" + JsonStr(s.source) + ",\"files\":" + std::to_string(s.files) +
             ",\"sites\":" + std::to_string(s.sites) + ",\"commitTime\":" + JsonStr(s.commit_time) + "}}\n";
    }
    return WriteStdout(out);
  }
  if (scans->empty()) return WriteStdout("no scans in " + o.db + "\n");
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-5s %-32s %-12s %7s %6s  %-24s %s\n", "ID", "REPO", "SHA", "LINES", "FILES",
                "DATASET VERSION", "SOURCE");
  out += buf;
  for (ScanInfo s : *scans) {
    for (std::string* f : {&s.repo, &s.sha, &s.dataset_version, &s.source}) MakePrintable(f);
    std::snprintf(buf, sizeof buf, "%-5lld %-32s %-12s %7lld %6lld  %-24s ", static_cast<long long>(s.scan_id),
                  s.repo.empty() ? "-" : s.repo.c_str(), s.sha.empty() ? "-" : ShortSha(s.sha).c_str(),
                  static_cast<long long>(s.sites), static_cast<long long>(s.files), s.dataset_version.c_str());
    out += buf + s.source + "\n";
  }
  return WriteStdout(out);
}

}  // namespace

void RegisterStoreCommands(CLI::App& app, CommandTable& table) {
  {
    auto o = std::make_shared<ImportOptions>();
    CLI::App* sub = app.add_subcommand(
        "import",
        "Add seed-format JSON Lines records to a catalog, all or nothing. Records go to the scan of their "
        "repo@analyzedSha (created when missing); one whose id that scan already holds replaces it in place; "
        "every other record of the scan stays: import never deletes");
    sub->add_option("files", o->files, "JSON Lines files ('-' for stdin)")->required();
    sub->add_option("--db", o->db, "catalog file (created if missing)")->required();
    sub->add_option("--repo", o->repo, "repository for records whose repo is null");
    sub->add_option("--sha", o->sha, "commit for records whose analyzedSha is null");
    sub->add_flag("--json", o->json, "print the summary as JSON");
    table.emplace_back(sub, [o] { return RunImport(*o); });
  }
  {
    auto o = std::make_shared<ExportOptions>();
    CLI::App* sub = app.add_subcommand("export", "Write stored lines as JSON Lines, one record per line");
    sub->add_option("--db", o->db, "catalog file")->required();
    sub->add_option("--repo", o->repo, "only this repository (owner/name)");
    sub->add_option("--sha", o->sha, "only this commit (full sha or a prefix of 4+ characters)");
    sub->add_flag("--facts", o->facts, "add the \"facts\" object the scanner found");
    sub->add_option("-o,--output", o->output, "output file, written atomically ('-' = stdout, the default)");
    table.emplace_back(sub, [o] { return RunExport(*o); });
  }
  {
    auto o = std::make_shared<ShowOptions>();
    CLI::App* sub = app.add_subcommand("show", "Show one stored record by id or slug");
    sub->add_option("id", o->key, "record id (16 hex) or slug")->required();
    sub->add_option("--db", o->db, "catalog file")->required();
    sub->add_flag("--json", o->json, "print the catalog line(s) instead");
    sub->add_option("--color", o->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
    table.emplace_back(sub, [o] { return RunShow(*o); });
  }
  {
    auto o = std::make_shared<ScansOptions>();
    CLI::App* sub = app.add_subcommand("scans", "List the scans stored in a catalog");
    sub->add_option("--db", o->db, "catalog file")->required();
    sub->add_flag("--json", o->json, "JSON Lines: {\"type\":\"scan\",\"data\":{...}}");
    sub->add_option("--delete", o->remove,
                    "delete the scan(s) of REPO@SHA (exit 1 when none matches); errdex gc then gives the space back");
    table.emplace_back(sub, [o] { return RunScans(*o); });
  }
}

}  // namespace errdex::cli
