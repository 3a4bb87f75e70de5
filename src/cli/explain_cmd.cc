// cli/explain_cmd.cc: `errdex explain` (a pasted error, a traceback, a log or a
// pipe -> the catalog entries behind it) and `errdex run` (runs a command, passes
// its output through unchanged, explains a failure). Exit codes: explain 0 when
// something matched, 1 when nothing did, 2 on error; run exits with the child's
// status (128+N when killed by signal N).
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/explain_json.h"
#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "cli/terminal.h"
#include "model/utf8.h"

namespace errdex::cli {

namespace {

// A limit on time, not memory (the input is read in windows): a runaway pipe ends.
constexpr uint64_t kDefaultMaxInput = uint64_t{1} << 30;

struct ExplainFlags {
  std::string db;
  std::vector<std::string> catalogs;
  std::string repo;
  bool json = false;
  size_t top = 3;
  std::string color = "auto";
  std::vector<std::string> inputs;  // files ('-' = stdin); none = stdin
  uint64_t max_input = kDefaultMaxInput;
  bool no_fuzzy = false;
  bool rebuild = false;
  bool quiet = false;
  // run
  std::vector<std::string> command;
  size_t tail = 1024 * 1024;
};

// Messages quote catalog records and patterns: never raw terminal controls.
void PrintError(const std::string& msg) { std::fprintf(stderr, "errdex: error: %s\n", Printable(msg).c_str()); }
void PrintWarning(const std::string& msg) { std::fprintf(stderr, "errdex: warning: %s\n", Printable(msg).c_str()); }

Result<std::unique_ptr<Catalog>> OpenCatalog(const ExplainFlags& f) {
  CatalogOptions opts;
  opts.use_cache = !f.rebuild;
  // Only heard from when the matcher is compiled.
  CompileProgress progress(f.quiet, /*cached=*/!f.db.empty() && !f.rebuild);
  opts.matcher.on_progress = [&progress](const BuildProgress& p) { progress(p); };
  if (!f.db.empty() && !f.catalogs.empty()) return Status::InvalidArgument("give --db or --catalog, not both");
  if (!f.db.empty()) return Catalog::OpenStore(f.db, opts);
  if (!f.catalogs.empty()) return Catalog::FromJsonLines(f.catalogs, opts);
  return Status::InvalidArgument("no catalog: pass --db CATALOG.db or --catalog FILE.jsonl");
}

std::string ShortSha(const std::string& s) { return s.size() > 12 ? s.substr(0, 12) : s; }

// Turns hits into output (JSON Lines or text for people) on one fd.
class HitPrinter {
 public:
  HitPrinter(Catalog& catalog, const ExplainFlags& f, int fd, bool color)
      : catalog_(catalog), json_(f.json), fd_(fd) {
    p_.on = color && !f.json;
  }
  bool ok() const { return write_error_ == 0; }
  int write_error() const { return write_error_; }  // errno of the failed write, 0 if none

  void Print(const ExplainHit& h) {
    if (write_error_) return;
    const Result<EntryDetails>& details = DetailsOf(h.entry);
    std::string out = json_ ? Json(h, details) : Text(h, details);
    ++printed_;
    write_error_ = WriteFd(fd_, out);
  }
  uint64_t printed() const { return printed_; }
  // Around each input when several are given. false when the output is gone.
  bool Begin(const std::string& input) {
    using nlohmann::json;
    std::string out = json_ ? json{{"type", "begin"}, {"data", {{"input", input}}}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"
                            : p_.Wrap("1", "==> " + Printable(input) + " <==") + "\n";
    seen_.clear();  // "same entry as above" never points into another input's answer
    if (!write_error_) write_error_ = WriteFd(fd_, out);
    return ok();
  }
  bool End(const std::string& input, uint64_t hits) {
    using nlohmann::json;
    std::string out = json_ ? json{{"type", "end"}, {"data", {{"input", input}, {"hits", hits}}}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"
                            : std::string(hits == 0 ? "(no catalog entry matched)\n\n" : "");
    if (!write_error_ && !out.empty()) write_error_ = WriteFd(fd_, out);
    return ok();
  }

 private:
  // An entry's record and versions, read from the catalog once per entry (a log of
  // thousands of tracebacks hits the same few entries again and again: each hit
  // read and parsed the record anew, 0.5 MB/s). At most kMaxCached entries kept.
  const Result<EntryDetails>& DetailsOf(uint32_t entry) {
    static constexpr size_t kMaxCached = 4096;
    auto it = details_.find(entry);
    if (it != details_.end()) return it->second;
    if (details_.size() >= kMaxCached) details_.clear();
    return details_.emplace(entry, catalog_.Details(entry)).first->second;
  }

  std::string Json(const ExplainHit& h, const Result<EntryDetails>& d) {
    using nlohmann::json;
    json data = ExplainHitJson(catalog_, h, d.ok() ? &d.value() : nullptr);
    // The equal sites' lines in every version the catalog holds (the first few).
    for (size_t i = 0; i < h.equal_entries.size() && i < 8 && i < data["alsoAt"].size(); ++i) {
      auto ed = catalog_.Details(h.equal_entries[i]);
      if (!ed.ok()) continue;
      json lines = json::array();
      for (const RecordVersion& v : ed->versions) lines.push_back(v.line);
      data["alsoAt"][i]["versionLines"] = lines;
    }
    json line = {{"type", "hit"}, {"data", std::move(data)}};
    return line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  }

  std::string Highlighted(const ExplainHit& h) const {
    std::string_view m = h.message;
    size_t b = std::min(h.message_offset, m.size());
    size_t e = std::min(m.size(), b + h.message_length);
    if (h.kind != ExplainHit::Kind::kPattern) {
      b = 0;
      e = m.size();
    }
    // The pasted text is untrusted too (a log may carry escape sequences): each
    // piece is made Printable before it is highlighted, and cut before that.
    const bool cut = e > b + 2000;
    if (cut) e = b + Utf8CutPoint(m.substr(b), 2000);
    std::string out;
    size_t pos = b;
    for (const ExplainCapture& c : h.captures) {
      if (c.message_begin < pos || c.message_end > e) continue;
      out += Printable(m.substr(pos, c.message_begin - pos));
      out += p_.Wrap("1;33", Printable(m.substr(c.message_begin, c.message_end - c.message_begin)));
      pos = c.message_end;
    }
    out += Printable(m.substr(pos, e - pos));
    if (cut) out += "...";
    return out;
  }

  std::string Text(const ExplainHit& h, const Result<EntryDetails>& d) {
    std::string o;
    const std::string id(catalog_.record_id(h.entry));
    bool again = !seen_.insert(id).second;
    char score[32];
    std::snprintf(score, sizeof score, "%.1f", h.score);
    std::string label;
    switch (h.kind) {
      case ExplainHit::Kind::kPattern:
        label = h.approximate ? p_.Wrap("1;35", "APPROXIMATE (partial)") : p_.Wrap("1;32", h.full ? "EXACT" : "EXACT (partial)");
        break;
      case ExplainHit::Kind::kFrame:
        label = h.approximate ? p_.Wrap("1;35", "APPROXIMATE (frame)") : p_.Wrap("1;32", "EXACT (frame)");
        break;
      case ExplainHit::Kind::kNormalized: label = p_.Wrap("1;35", "NEAR-EXACT (case/spacing/markdown differ)"); break;
      case ExplainHit::Kind::kClass: label = p_.Wrap("1;35", "APPROXIMATE (class)"); break;
      case ExplainHit::Kind::kFuzzy: label = p_.Wrap("1;35", "APPROXIMATE (fuzzy)"); break;
    }
    if (!h.equal_entries.empty())
      label += " " + p_.Wrap("1;33", std::to_string(h.equal_entries.size() + 1) + " SITES MATCH EQUALLY");
    if (h.chain_len > 1)
      label += " " + p_.Wrap("2", h.chain_pos + 1 == h.chain_len ? "[final exception of a chain of " + std::to_string(h.chain_len) + "]"
                                                              : std::string(h.chain_direct_cause ? "[its cause, " : "[raised before it, ") +
                                                                    std::to_string(h.chain_pos + 1) + " of " + std::to_string(h.chain_len) + "]");
    if (!d.ok()) {
      o += label + " " + id + "  score " + score + "  (" + d.status().message() + ")\n";
      return o;
    }
    const Record& r = d->record;
    o += label + "  " + p_.Wrap("1;31", Printable(r.error_class.value_or("(no class)"))) + "  " +
         p_.Wrap("36", Printable(r.file_path) + ":" + std::to_string(r.line_number)) + "  " + p_.Wrap("2", "score " + std::string(score) + "  id " + id) +
         "  " + p_.Wrap("2", "input bytes " + std::to_string(h.begin) + "-" + std::to_string(h.end)) + "\n";
    if (again) {
      o += "  (same entry as above)\n\n";
      return o;
    }
    o += "  " + Highlighted(h) + "\n";
    if (h.kind == ExplainHit::Kind::kFuzzy && r.error_message) o += "  catalog message: " + Printable(*r.error_message) + "\n";
    if (r.github_url) o += "  " + p_.Wrap("4", Printable(*r.github_url)) + "\n";
    if (!h.equal_entries.empty()) {
      o += "  equally: ";
      const auto& entries = catalog_.matcher().entries();
      for (size_t i = 0; i < h.equal_entries.size() && i < 8; ++i) {
        const MatchEntry& e = entries[h.equal_entries[i]];
        if (i) o += ", ";
        o += Printable(std::string(e.file_path)) + ":" + std::to_string(e.line);
      }
      if (h.equal_entries.size() > 8) o += ", ... " + std::to_string(h.equal_entries.size() - 8) + " more";
      o += "\n";
    }
    if (!d->versions.empty()) {
      o += "  in: ";
      for (size_t i = 0; i < d->versions.size() && i < 8; ++i) {
        const RecordVersion& v = d->versions[i];
        if (i) o += ", ";
        o += (v.repo.empty() ? std::string("(no repo)") : v.repo) + (v.sha.empty() ? "" : "@" + ShortSha(v.sha)) +
             " line " + std::to_string(v.line) + (v.latest ? " (latest)" : "");
      }
      if (d->versions.size() > 8) o += ", ... " + std::to_string(d->versions.size() - 8) + " more";
      o += "\n";
      if (d->only_in_older) o += "  " + p_.Wrap("1;33", "only in older versions: the latest scan no longer has this error") + "\n";
    }
    if (r.documentation) o += "  " + p_.Wrap("1", "Why: ") + Printable(*r.documentation) + "\n";
    if (r.solutions && !r.solutions->empty()) {
      o += "  " + p_.Wrap("1", "Fixes:") + "\n";
      for (const std::string& s : *r.solutions) o += "    - " + Printable(s) + "\n";
    }
    o += "\n";
    return o;
  }

  Catalog& catalog_;
  bool json_;
  int fd_;
  Palette p_;
  int write_error_ = 0;
  uint64_t printed_ = 0;
  std::set<std::string> seen_;
  std::unordered_map<uint32_t, Result<EntryDetails>> details_;
};

ExplainOptions MakeOptions(const ExplainFlags& f, Catalog& c) {
  ExplainOptions o;
  o.top_k = f.top == 0 ? 1 : f.top;
  o.max_input_bytes = f.max_input;
  o.fuzzy = !f.no_fuzzy;
  if (!f.repo.empty()) {
    std::string repo = f.repo;
    Catalog* cp = &c;
    o.accept = [cp, repo](uint32_t e) { return cp->repo(e) == repo; };
  }
  return o;
}

// Patterns the matcher left out, said once: when the matcher is compiled (not on
// every explain that loads it from the catalog's cache), and not with -q.
void ReportRejected(const Catalog& c, bool quiet) {
  if (quiet || c.open_info().from_cache) return;
  const auto& rej = c.rejected();
  size_t shown = 0;
  for (const RejectedEntry& r : rej) {
    // Too-generic templates are expected in any real catalog: not worth a warning each.
    if (r.why.code() == Status::Code::kInvalidArgument && r.why.message().rfind("too generic", 0) == 0) continue;
    if (shown++ >= 5) continue;
    std::string pat = r.pattern.size() > 80 ? r.pattern.substr(0, 80) + "..." : r.pattern;
    PrintWarning("pattern of record " + (r.record_ids.empty() ? std::string("?") : r.record_ids.front()) +
                 " not used for matching: " + r.why.message() + " (pattern: " + pat + ")");
  }
  if (shown > 5) PrintWarning(std::to_string(shown - 5) + " more patterns not used for matching");
}

// Explains one input (fd) in its own session. 0 hits found, 1 none, 2 error; *closed
// when our stdout went away (not an error: stop quietly).
int ExplainInput(Catalog& c, const ExplainFlags& f, HitPrinter& printer, int in_fd, const std::string& name,
                 bool* closed) {
  ExplainSession session(c.matcher(), MakeOptions(f, c), c.Fuzzy());
  HitSink sink = [&](const ExplainHit& h) { printer.Print(h); };
  std::vector<char> buf(256 * 1024);
  int rc = 0;
  for (;;) {
    ssize_t n = ::read(in_fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      PrintError(name + ": " + std::strerror(errno));
      rc = 2;
      break;
    }
    if (n == 0) break;
    Status s = session.Feed(std::string_view(buf.data(), static_cast<size_t>(n)), sink);
    if (!printer.ok()) {
      *closed = true;
      return 0;
    }
    if (s.code() == Status::Code::kLimitExceeded) {  // what was read is still explained
      PrintWarning("limits hit: --max-input " + std::to_string(f.max_input) + ": only the first " +
                   std::to_string(f.max_input) + " bytes were read from " + name +
                   " (--max-input 0 reads everything)");
      break;
    }
    if (!s.ok()) {
      PrintError(s.message());
      return 2;
    }
  }
  Status s = session.Finish(sink);
  if (!printer.ok()) {
    *closed = true;
    return 0;
  }
  if (!s.ok()) {
    PrintError(s.message());
    return 2;
  }
  if (rc) return rc;
  return session.hit_count() > 0 ? 0 : 1;
}

int RunExplain(const ExplainFlags& f) {
  auto cat = OpenCatalog(f);
  if (!cat.ok()) {
    PrintError(cat.status().message());
    return 2;
  }
  Catalog& c = **cat;
  ReportRejected(c, f.quiet);
  std::vector<std::string> inputs = f.inputs.empty() ? std::vector<std::string>{"-"} : f.inputs;
  // Several inputs: each is explained on its own, between a begin and an end record
  // (JSON) or after a "==> name <==" header (people), as head(1) does.
  const bool several = inputs.size() > 1;
  HitPrinter printer(c, f, 1, UseColor(f.color, 1));
  bool found = false, error = false;
  for (const std::string& input : inputs) {
    const std::string name = input == "-" ? std::string("stdin") : input;
    int in_fd = 0;
    if (input != "-") {
      in_fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
      if (in_fd < 0) {
        PrintError(input + ": " + std::strerror(errno));
        error = true;
        continue;
      }
    }
    // Our stdout went away: a closed pipe is not an error, a full disk is.
    if (several && !printer.Begin(input)) return StdoutWriteFailed(printer.write_error(), 0);
    bool closed = false;
    uint64_t before = printer.printed();
    int rc = ExplainInput(c, f, printer, in_fd, name, &closed);
    if (in_fd > 0) ::close(in_fd);
    if (closed) return StdoutWriteFailed(printer.write_error(), 0);
    if (several && !printer.End(input, printer.printed() - before))
      return StdoutWriteFailed(printer.write_error(), 0);
    found = found || rc == 0;
    error = error || rc == 2;
  }
  if (error) return 2;
  return found ? 0 : 1;
}

// Keeps the last `cap` bytes written to it.
class Tail {
 public:
  explicit Tail(size_t cap) : cap_(cap) {}
  void Add(std::string_view s) {
    data_.append(s);
    if (data_.size() > 2 * cap_ + 4096) data_.erase(0, data_.size() - cap_);
  }
  std::string_view Get() const {
    std::string_view v = data_;
    if (v.size() > cap_) {
      v.remove_prefix(v.size() - cap_);
      size_t nl = v.find('\n');  // start at a line boundary
      if (nl != std::string_view::npos) v.remove_prefix(nl + 1);
    }
    return v;
  }

 private:
  size_t cap_;
  std::string data_;
};

int RunRun(const ExplainFlags& f) {
  if (f.command.empty()) {
    PrintError("run: no command given (errdex run --db CATALOG -- COMMAND ARGS...)");
    return 2;
  }
  if (f.db.empty() && f.catalogs.empty()) {
    PrintError("no catalog: pass --db CATALOG.db or --catalog FILE.jsonl");
    return 2;
  }
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    PrintError(std::string("pipe: ") + std::strerror(errno));
    return 2;
  }
  std::vector<char*> argv;
  for (const std::string& a : f.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    PrintError(std::string("fork: ") + std::strerror(errno));
    return 2;
  }
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    std::signal(SIGPIPE, SIG_DFL);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "errdex: error: %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  Tail tail(f.tail);
  struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  std::vector<char> buf(64 * 1024);
  int stdout_error = 0;  // errno of the first failed write of the child's output
  while (open_fds > 0) {
    int r = ::poll(fds, 2, -1);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[k].fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[k].fd);
        fds[k].fd = -1;
        --open_fds;
        continue;
      }
      std::string_view chunk(buf.data(), static_cast<size_t>(n));
      if (k == 0 && !stdout_error) stdout_error = WriteFd(1, chunk);  // keep reading even if our stdout closed
      if (k == 1) WriteFd(2, chunk);
      tail.Add(chunk);
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 2;
  // The child's output could not be passed through (a full disk, a closed stdout):
  // that is errdex failing, whatever the child did. A closed pipe is not.
  if (stdout_error && stdout_error != EPIPE) return StdoutWriteFailed(stdout_error, code);
  if (code == 0) return 0;
  auto cat = OpenCatalog(f);
  if (!cat.ok()) {
    PrintError(cat.status().message());
    return code;
  }
  Catalog& c = **cat;
  bool color = UseColor(f.color, 2);
  std::string header = "\n" + std::string(color ? "\x1b[1m" : "") + "errdex: `" + f.command[0] + "` exited with status " +
                       std::to_string(code) + "; what the catalog knows about its output:" + (color ? "\x1b[0m" : "") + "\n";
  if (!f.json) WriteFd(2, header);
  HitPrinter printer(c, f, 2, color);
  ExplainSession session(c.matcher(), MakeOptions(f, c), c.Fuzzy());
  HitSink sink = [&](const ExplainHit& h) { printer.Print(h); };
  Status s = session.Feed(tail.Get(), sink);
  if (s.ok()) s = session.Finish(sink);
  if (!s.ok()) PrintError(s.message());
  if (session.hit_count() == 0 && !f.json) WriteFd(2, "errdex: no catalog entry matched the output\n");
  return code;
}

void AddCatalogFlags(CLI::App* sub, ExplainFlags* f) {
  sub->add_option("--db", f->db, "catalog database (errdex scan/import --db)");
  // One file per --catalog (repeat it for more): a greedy list would swallow the input FILE.
  sub->add_option("--catalog", f->catalogs, "seed-format JSON Lines catalog file, compiled in memory (repeatable)")
      ->allow_extra_args(false)
      ->type_name("FILE");
  sub->add_option("--repo", f->repo, "only entries of this repository (owner/name)");
  sub->add_flag("--json", f->json, "JSON Lines: one {\"type\":\"hit\",\"data\":{...}} per hit");
  sub->add_option("--top", f->top, "hits per error (default 3)")->check(CLI::PositiveNumber);
  sub->add_option("--color", f->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  sub->add_flag("--no-fuzzy", f->no_fuzzy, "no approximate matches when nothing matched exactly");
  sub->add_flag("--rebuild", f->rebuild, "recompile the matcher instead of loading the one cached in the catalog");
  sub->add_flag("-q,--quiet", f->quiet,
                "no progress line while a catalog's matcher is compiled (first open), no warnings about its patterns");
}

}  // namespace

void RegisterExplainCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<ExplainFlags>();
  CLI::App* ex = app.add_subcommand("explain", "find the catalog entries behind a pasted error, traceback or log");
  AddCatalogFlags(ex, f.get());
  ex->add_option("--max-input", f->max_input,
                 "read at most BYTES of each input, say so when the rest is left (default 1073741824 = 1 GiB; 0 = no "
                 "limit)");
  ex->add_option("input", f->inputs, "files to read, each explained on its own ('-' = stdin, the default)");
  table.emplace_back(ex, [f] { return RunExplain(*f); });

  auto r = std::make_shared<ExplainFlags>();
  CLI::App* run = app.add_subcommand("run", "run a command, pass its output through, explain a failure");
  AddCatalogFlags(run, r.get());
  run->add_option("--tail", r->tail, "bytes of output kept for the explanation (default 1048576)");
  run->add_option("command", r->command, "COMMAND [ARGS...] (after --)")->required();
  run->prefix_command(false);
  table.emplace_back(run, [r] { return RunRun(*r); });
}

}  // namespace errdex::cli
