// lint_docs_cmd.cc: `errdex lint-docs` -- checks the prose of a whole catalog
// (document/prose_lint.h) and prints each check's count, the share of records a
// user can act on that carry an exampleFix, and how many of the messages' own
// imperatives the solutions carry. Exit codes (a linter's): 0 no finding, 1
// findings, 2 error. Tested by tests/prose/lint_docs_e2e_test.cc.
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/commands.h"
#include "cli/terminal.h"
#include "document/knowledge.h"
#include "document/prose_lint.h"
#include "store/catalog_store.h"

namespace errdex::cli {
namespace {

struct LintArgs {
  std::string db;
  std::vector<std::string> jsonl;
  std::string repo, sha;
  bool json = false;
  bool list = false;
  std::string color = "auto";
};

int Fail(const std::string& msg) {
  std::fprintf(stderr, "errdex: error: %s\n", msg.c_str());
  return 2;
}

std::string Pct(int a, int b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", b ? 100.0 * a / b : 0.0);
  return buf;
}

int Run(const LintArgs& a) {
  if (a.db.empty() == a.jsonl.empty()) return Fail("give either --db CATALOG or --jsonl FILE...");
  std::vector<CatalogLine> lines;
  std::map<std::string, std::vector<std::string>> flag_files;  // dest -> the files defining it
  if (!a.db.empty()) {
    auto store = CatalogStore::Open(a.db, /*create=*/false);
    if (!store.ok()) return Fail(store.status().ToString());
    ScanFilter f;
    f.repo = a.repo;
    f.sha = a.sha;
    auto loaded = store.value()->LoadLines(f);
    if (!loaded.ok()) return Fail(loaded.status().ToString());
    auto scans = store.value()->ListScans();
    if (!scans.ok()) return Fail(scans.status().ToString());
    std::set<int64_t> used;
    for (const auto& l : loaded.value()) used.insert(l.scan_id);
    for (const auto& s : scans.value()) {
      if (!used.count(s.scan_id)) continue;
      auto blob = store.value()->GetBlob(KnowledgeBlobKey(s));
      if (!blob.ok() || !blob.value()) continue;
      auto k = RepoKnowledge::Deserialize(*blob.value());
      if (const doc::KnowledgeIndex* idx = doc::AsIndex(*k))
        for (const auto& fl : idx->data().flags) {
          // As the documenter reads them (KnowledgeIndex::FindFlagFrom): a flag only
          // scripts define names the library's code too unless the library has such a field.
          bool everywhere = doc::InScriptTree(fl.file) && !idx->LibraryField(fl.dest);
          flag_files[fl.dest].push_back(everywhere ? std::string() : fl.file);
        }
    }
    for (auto& l : loaded.value()) lines.push_back(std::move(l.line));
  } else {
    for (const std::string& path : a.jsonl) {
      std::ifstream in(path, std::ios::binary);
      if (!in) return Fail(path + ": cannot open");
      std::string line;
      int n = 0;
      while (std::getline(in, line)) {
        ++n;
        if (line.empty()) continue;
        auto cl = ParseCatalogLine(line);
        if (!cl.ok()) return Fail(path + ":" + std::to_string(n) + ": " + cl.status().message());
        lines.push_back(std::move(cl.value()));
      }
    }
  }
  if (lines.empty()) {
    std::fprintf(stderr, "errdex: no records to check\n");
    return 1;
  }
  doc::ProseLinter linter(std::move(flag_files));
  for (const auto& l : lines) linter.Check(l.record, l.facts ? &*l.facts : nullptr);
  linter.Finish();
  const doc::LintStats& s = linter.stats();
  int total = 0;
  for (const auto& [k, v] : s.by_check) total += v;
  if (a.json) {
    // {"type", "data"} in that order (the CLI contract for --json).
    using ojson = nlohmann::ordered_json;
    for (const auto& f : linter.findings()) {
      ojson j = {{"type", "finding"},
                 {"data", {{"id", f.record_id}, {"at", f.file}, {"check", f.check}, {"field", f.field}, {"text", f.text}}}};
      std::printf("%s\n", j.dump(-1, ' ', false, ojson::error_handler_t::replace).c_str());
    }
    ojson d = {{"records", s.records},
                        {"userRecords", s.user_records},
                        {"userWithExampleFix", s.user_with_example_fix},
                        {"userWithSolutions", s.user_with_solutions},
                        {"imperatives", s.imperatives},
                        {"imperativesCarried", s.imperatives_carried},
                        {"sharedDocumentation", s.shared_documentation},
                        {"findings", total},
                        {"checks", s.by_check}};
    std::printf("%s\n", ojson({{"type", "summary"}, {"data", d}}).dump(-1, ' ', false, ojson::error_handler_t::replace).c_str());
  } else {
    Palette p{UseColor(a.color, 1)};
    if (a.list)
      for (const auto& f : linter.findings())
        std::printf("%s: %s: %s: %s\n", Printable(f.file).c_str(), p.Mark(f.check).c_str(), f.field.c_str(),
                    Printable(f.text).c_str());
    std::printf("%s\n", p.Heading("prose check of " + std::to_string(s.records) + " records").c_str());
    for (const auto& name : doc::ProseLinter::CheckNames())
      std::printf("  %-22s %d\n", name.c_str(), s.by_check.at(name));
    std::printf("  %-22s %d of %d (%s)\n", "imperatives carried", s.imperatives_carried, s.imperatives,
                Pct(s.imperatives_carried, s.imperatives).c_str());
    std::printf("  %-22s %d of %d non-assert records outside tests (%s)\n", "exampleFix", s.user_with_example_fix,
                s.user_records, Pct(s.user_with_example_fix, s.user_records).c_str());
    std::printf("  %-22s %d of %d (%s)\n", "solutions", s.user_with_solutions, s.user_records,
                Pct(s.user_with_solutions, s.user_records).c_str());
    std::printf("  %-22s %d\n", "shared documentation", s.shared_documentation);
  }
  return total ? 1 : 0;
}

}  // namespace

void RegisterLintDocsCommands(CLI::App& app, CommandTable& table) {
  auto args = std::make_shared<LintArgs>();
  CLI::App* sub = app.add_subcommand(
      "lint-docs",
      "Check the prose of a catalog: restated or constant guards, repeated fields, unfilled placeholders, truncated\n"
      "hints, identical before/after, message imperatives the solutions drop, flags named as attributes.\n"
      "Exit 0 when nothing is flagged, 1 when something is, 2 on error.\n"
      "  errdex lint-docs --db catalog.db            counts per check\n"
      "  errdex lint-docs --db catalog.db --list     every finding as file:line: check: field: text\n"
      "  errdex lint-docs --jsonl scan.jsonl --json  findings and the summary as JSON Lines");
  sub->add_option("--db", args->db, "Catalog file");
  sub->add_option("--jsonl", args->jsonl, "Catalog JSON Lines file(s) instead of --db (facts used when present)");
  sub->add_option("--repo", args->repo, "Only this repository (with --db)");
  sub->add_option("--sha", args->sha, "Only this commit (with --db)");
  sub->add_flag("--list", args->list, "Print every finding");
  sub->add_flag("--json", args->json, "Findings and summary as {\"type\",\"data\"} JSON Lines");
  sub->add_option("--color", args->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  table.emplace_back(sub, [args] { return Run(*args); });
}

}  // namespace errdex::cli
