// cli/check_cmd.cc: `errdex check` -- the errors a command line will (or may)
// raise, predicted from the catalog before it runs (docs/check.md). Exit 1 when
// at least one error will be raised (argparse's usage errors included), 0 when
// none will, 2 on error (no catalog, a program the catalog does not hold, a bad
// --set or --env-file).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "check/check.h"
#include "check/section.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "store/catalog_store.h"

extern char** environ;

namespace errdex::cli {

namespace {

struct CheckFlags {
  std::string db;
  std::string repo;
  std::string sha;
  bool json = false;
  bool all = false;
  std::string color = "auto";
  std::string env_file;
  bool no_environ = false;
  std::vector<std::string> set;
  std::vector<std::string> assume;
  std::vector<std::string> command;
};

void PrintError(const std::string& msg) { std::fprintf(stderr, "errdex: error: %s\n", msg.c_str()); }

bool WriteAll(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    s.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string ShortSha(const std::string& s) { return s.size() > 12 ? s.substr(0, 12) : s; }

// KEY=VALUE lines; blank lines, # comments and `export ` prefixes allowed; quotes stripped.
Result<std::vector<std::pair<std::string, std::string>>> ReadEnvFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("--env-file " + path + ": " + std::strerror(errno));
  std::vector<std::pair<std::string, std::string>> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    line = line.substr(b);
    if (line.compare(0, 7, "export ") == 0) line = line.substr(7);
    size_t eq = line.find('=');
    std::string key = eq == std::string::npos ? "" : line.substr(0, eq);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    bool ok = !key.empty() && !std::isdigit((unsigned char)key[0]);
    for (char c : key) ok = ok && (std::isalnum((unsigned char)c) || c == '_');
    if (!ok) return Status::InvalidArgument(path + ":" + std::to_string(n) + ": expected NAME=VALUE");
    std::string v = line.substr(eq + 1);
    size_t vb = v.find_first_not_of(" \t");
    v = vb == std::string::npos ? "" : v.substr(vb);
    if (v.size() >= 2 && (v[0] == '"' || v[0] == '\'') && v.back() == v[0]) v = v.substr(1, v.size() - 2);
    out.emplace_back(key, v);
  }
  return out;
}

struct Picked {
  ScanInfo scan;
  check::Section section;
};

// The scan whose check section holds the command's entry (latest first).
Result<Picked> PickScan(CatalogStore& store, const CheckFlags& f, const check::Command& cmd) {
  auto scans = store.ListScans();
  if (!scans.ok()) return scans.status();
  std::vector<ScanInfo> candidates;
  for (const ScanInfo& s : *scans) {
    if (!f.repo.empty() && s.repo != f.repo) continue;
    if (!f.sha.empty() && s.sha.compare(0, f.sha.size(), f.sha) != 0) continue;
    candidates.push_back(s);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const ScanInfo& a, const ScanInfo& b) { return a.scan_id > b.scan_id; });
  if (candidates.empty()) {
    if (!f.repo.empty() || !f.sha.empty())
      return Status::NotFound("the catalog has no scan of " + (f.repo.empty() ? std::string("that repository") : f.repo) +
                              (f.sha.empty() ? "" : "@" + f.sha));
    return Status::NotFound("the catalog holds no scans");
  }
  int without = 0, tried = 0;
  std::string last_error;
  for (const ScanInfo& s : candidates) {
    auto blob = store.GetBlob(KnowledgeBlobKey(s));
    if (!blob.ok()) return blob.status();
    if (!blob->has_value() || (*blob)->empty()) {  // empty: scanned with --no-docs
      ++without;
      continue;
    }
    auto section = check::ReadSection(**blob);
    if (!section.ok()) {
      if (section.status().code() == Status::Code::kNotFound) ++without;
      else last_error = section.status().message();
      continue;
    }
    ++tried;
    if (check::HoldsEntry(*section, cmd)) return Picked{s, std::move(section.value())};
  }
  std::string what = cmd.kind == check::Command::Kind::kModule  ? "module `" + cmd.target + "`"
                     : cmd.kind == check::Command::Kind::kScript ? "script `" + cmd.target + "`"
                                                                  : "console script `" + cmd.target + "`";
  std::string msg = "no scan in the catalog holds the " + what + " (`" + cmd.display + "`)";
  msg += ": looked in " + std::to_string(tried) + " scan" + (tried == 1 ? "" : "s");
  if (without) msg += "; " + std::to_string(without) + " without check facts (scanned with --no-docs or by an older errdex: scan again)";
  if (!last_error.empty()) msg += "; " + last_error;
  return Status::NotFound(msg);
}

struct RecordInfo {
  std::string message;
  std::string error_class;
  std::string function;
  std::vector<std::string> solutions;
  std::string example_fix;
  bool found = false;
};

RecordInfo LoadRecord(CatalogStore& store, const std::string& id, int64_t scan_id) {
  RecordInfo r;
  auto lines = store.FindRecord(id);
  if (!lines.ok()) return r;
  for (const StoredLine& l : *lines) {
    if (l.scan_id != scan_id && r.found) continue;
    const Record& rec = l.line.record;
    r.found = true;
    r.message = rec.error_message.value_or(rec.message_pattern.value_or(""));
    r.error_class = rec.error_class.value_or("");
    r.solutions = rec.solutions.value_or(std::vector<std::string>{});
    r.example_fix = rec.example_fix.value_or("");
    if (l.line.facts) r.function = l.line.facts->function;
    if (l.scan_id == scan_id) break;
  }
  return r;
}

nlohmann::json StepsJson(const std::vector<check::PathStep>& path) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : path) {
    if (p.text.rfind("calls ", 0) == 0 && p.truth == check::Tri::kTrue) {
      out.push_back({{"where", p.where}, {"call", p.text.substr(6)}});
      continue;
    }
    out.push_back({{"where", p.where}, {"test", p.text}, {"decided", p.truth == check::Tri::kTrue}});
  }
  return out;
}

int RunCheck(const CheckFlags& f) {
  if (f.command.empty()) {
    PrintError("check: no command given (errdex check --db CATALOG -- COMMAND ARGS...)");
    return 2;
  }
  if (f.db.empty()) {
    PrintError("check: no catalog: pass --db CATALOG");
    return 2;
  }
  auto cmd = check::ParseCommand(f.command);
  if (!cmd.ok()) {
    PrintError(cmd.status().message());
    return 2;
  }
  check::CheckOptions opts;
  if (!f.no_environ)
    for (char** e = environ; e && *e; ++e) {
      std::string kv = *e;
      size_t eq = kv.find('=');
      if (eq != std::string::npos && eq > 0) opts.env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  if (!f.env_file.empty()) {
    auto kv = ReadEnvFile(f.env_file);
    if (!kv.ok()) {
      PrintError(kv.status().message());
      return 2;
    }
    for (auto& [k, v] : *kv) opts.env[k] = v;
  }
  for (const std::string& s : f.set) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      PrintError("--set " + s + ": expected NAME=VALUE");
      return 2;
    }
    opts.set.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  for (const std::string& s : f.assume) {
    // EXPR=VALUE: the last '=' outside brackets and quotes that is not part of == != <= >=
    size_t split = std::string::npos;
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (quote) {
        if (c == '\\') ++i;
        else if (c == quote) quote = 0;
        continue;
      }
      if (c == '\'' || c == '"') quote = c;
      else if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') --depth;
      else if (c == '=' && depth == 0 && (i == 0 || std::string("=!<>").find(s[i - 1]) == std::string::npos) &&
               (i + 1 >= s.size() || s[i + 1] != '='))
        split = i;
    }
    if (split == std::string::npos || split == 0) {
      PrintError("--assume " + s + ": expected EXPR=VALUE");
      return 2;
    }
    opts.assume.emplace_back(s.substr(0, split), s.substr(split + 1));
  }
  auto store = CatalogStore::Open(f.db, /*create=*/false);
  if (!store.ok()) {
    PrintError(store.status().message());
    return 2;
  }
  auto picked = PickScan(**store, f, *cmd);
  if (!picked.ok()) {
    PrintError(picked.status().message());
    return 2;
  }
  auto report = check::Check(picked->section, *cmd, opts);
  if (!report.ok()) {
    PrintError(report.status().message());
    return 2;
  }
  const check::Report& r = *report;
  const ScanInfo& scan = picked->scan;
  int will = (int)r.usage_errors.size() > 0 ? 1 : 0;
  int may = 0;
  for (const auto& fd : r.findings) (fd.will ? will : may) += 1;
  int code = will > 0 ? 1 : 0;
  std::string out;
  if (f.json) {
    using nlohmann::json;
    auto line = [&](const char* type, json data) {
      out += json{{"type", type}, {"data", std::move(data)}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    };
    line("begin", {{"program", cmd->display}, {"repo", scan.repo}, {"sha", scan.sha}, {"entry", r.entry},
                   {"function", r.function}, {"flags", r.flags_known}, {"notes", r.notes}});
    for (size_t k = 0; k < r.usage_errors.size(); ++k)
      line("usage", {{"message", r.usage_errors[k]}, {"first", k == 0}, {"exitStatus", 2}});
    if (r.help) line("help", {{"message", "the program prints its help (or version) and exits 0"}});
    for (const auto& fd : r.findings) {
      RecordInfo rec = LoadRecord(**store, fd.record_id, scan.scan_id);
      json depends = json::array();
      for (const auto& d : fd.depends) depends.push_back({{"category", d.category}, {"expr", d.expr}});
      json data = {{"id", fd.record_id}, {"errorClass", rec.found ? rec.error_class : fd.error_class},
                   {"errorMessage", rec.message}, {"filePath", fd.file}, {"lineNumber", fd.line},
                   {"function", rec.function}, {"decidedBy", fd.decided_by}, {"dependsOn", depends},
                   {"path", StepsJson(fd.path)}, {"solutions", rec.solutions}, {"reachedFromEntry", !fd.detached}};
      if (!rec.example_fix.empty()) data["exampleFix"] = rec.example_fix;
      line(fd.will ? "will" : "may", std::move(data));
    }
    line("end", {{"will", will}, {"may", may}, {"exit", code}});  // a usage error counts as one WILL
  } else {
    Palette p;
    p.on = UseColor(f.color, 1);
    out += p.Bold("errdex check") + ": " + Printable(cmd->display) + " -> " + Printable(scan.repo.empty() ? scan.source : scan.repo) +
           (scan.sha.empty() ? "" : "@" + ShortSha(scan.sha)) + " (" + Printable(r.entry) +
           (r.function.empty() ? "" : ":" + r.function) + ", " + std::to_string(r.flags_known) + " argument definitions)\n";
    for (const auto& n : r.notes) out += p.Dim("note: " + n) + "\n";
    if (!r.usage_errors.empty()) {
      out += "\n" + p.Error("WILL") + "  argparse: " + Printable(r.usage_errors[0]) + "\n";
      out += "      " + p.Dim("the program prints its usage and exits 2 before anything else runs") + "\n";
      for (size_t k = 1; k < r.usage_errors.size(); ++k)
        out += "      " + p.Dim("then: ") + Printable(r.usage_errors[k]) + "\n";
    }
    if (r.help) out += "\n" + p.Label("note") + ": the command asks for help: the program prints it and exits 0\n";
    int shown_may = 0, shown_detached = 0, hidden = 0;
    bool detached_header = false;
    for (const auto& fd : r.findings) {
      int& shown = fd.detached ? shown_detached : shown_may;
      if (!fd.will && !f.all && shown >= (fd.detached ? 5 : 20)) {
        ++hidden;
        continue;
      }
      if (!fd.will) ++shown;
      if (fd.detached && !detached_header) {
        detached_header = true;
        out += "\n" + p.Dim("-- in functions this launch is not known to call (callbacks, other processes, other subcommands):") + "\n";
      }
      RecordInfo rec = LoadRecord(**store, fd.record_id, scan.scan_id);
      std::string cls = rec.found && !rec.error_class.empty() ? rec.error_class : fd.error_class;
      out += "\n" + (fd.will ? p.Error("WILL") : p.Mark("MAY ")) + "  " + p.Bold(Printable(cls)) +
             (rec.message.empty() ? "" : ": " + Printable(rec.message)) + "\n";
      out += "      " + p.Label(Printable(fd.file) + ":" + std::to_string(fd.line)) +
             (rec.function.empty() ? "" : " " + p.Dim("in " + Printable(rec.function))) + "\n";
      if (!fd.decided_by.empty()) {
        std::string d;
        for (const auto& s : fd.decided_by) d += (d.empty() ? "" : ", ") + s;
        out += "      decided by: " + Printable(d) + "\n";
      }
      if (!fd.will) {
        std::string d;
        for (const auto& u : fd.depends) d += (d.empty() ? "" : "; ") + u.category + (u.expr.empty() ? "" : ": " + u.expr);
        if (!d.empty()) out += "      depends on: " + Printable(d) + "\n";
      }
      if (fd.will && !rec.solutions.empty()) {
        out += "      fix:\n";
        for (const auto& s : rec.solutions) out += "        - " + Printable(s) + "\n";
      }
    }
    out += "\n";
    std::string summary = std::to_string(will) + (will == 1 ? " error will" : " errors will") + " be raised, " +
                          std::to_string(may) + " may be";
    if (hidden) summary += " (" + std::to_string(hidden) + " more MAY not shown: --all)";
    out += (will ? p.Error(summary) : p.Bold(summary)) + "\n";
  }
  if (!WriteAll(1, out)) {
    if (errno == EPIPE) return code;
    PrintError(std::string("writing the report: ") + std::strerror(errno));
    return 2;
  }
  return code;
}

}  // namespace

void RegisterCheckCommands(CLI::App& app, CommandTable& table) {
  auto f = std::make_shared<CheckFlags>();
  CLI::App* c = app.add_subcommand("check", "predict the errors a command line will raise, before it runs");
  c->add_option("--db", f->db, "catalog database (errdex scan --db)")->required();
  c->add_option("--repo", f->repo, "only scans of this repository (owner/name)");
  c->add_option("--sha", f->sha, "only the scan of this commit (a prefix is enough)");
  c->add_flag("--json", f->json, "JSON Lines: begin, usage, will, may, end");
  c->add_flag("--all", f->all, "show every MAY (default: the first 20)");
  c->add_option("--color", f->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  c->add_option("--env-file", f->env_file, "NAME=VALUE lines the program would get in its environment");
  c->add_flag("--no-environ", f->no_environ, "do not take errdex's own environment as the program's");
  c->add_option("--set", f->set, "NAME=VALUE: a flag (dest or option) or environment variable, as if given")
      ->allow_extra_args(false)
      ->type_name("NAME=VALUE");
  c->add_option("--assume", f->assume, "EXPR=VALUE: a run-time fact, e.g. 'is_sm100_supported()=True'")
      ->allow_extra_args(false)
      ->type_name("EXPR=VALUE");
  c->add_option("command", f->command, "COMMAND [ARGS...] (after --)")->required();
  c->prefix_command(false);
  table.emplace_back(c, [f] { return RunCheck(*f); });
}

}  // namespace errdex::cli
