// document_cmd.cc: `errdex document` -- (re)fills the prose fields of stored
// records (document/catalog_documenter.h), optionally polished by a language
// model. Exit codes: 0 documented, 1 no record matched, 2 error. A failing model
// is not an error: the deterministic text stays and the summary says so.
// Tested by tests/document_e2e_test.cc.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "document/catalog_documenter.h"
#include "scan/scanner.h"
#include "store/catalog_store.h"

namespace errdex::cli {
namespace {

struct DocumentArgs {
  std::string db;
  std::string repo, sha;
  std::string llm_url, llm_model;
  std::string llm_key_env = "ERRDEX_LLM_API_KEY";
  int llm_concurrency = 4;
  int llm_timeout_s = 120;
  int llm_attempts = 4;
  int jobs = 2;
  bool json = false;
};

bool IsDirectory(const std::string& path) {
  struct stat st;
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// A scan stored without its knowledge (scan --no-docs, a catalog from before the
// blob) is documented the way the scan documents: its source is read again
// (ScanInfo::source, "DIR" or "DIR@REV") with the document stage on, and the
// knowledge kept -- if that reading gives exactly the stored sites (same ids on
// the same lines): a source that changed since is not the scanned one. Returns
// how many scans were read again; `notes` gets one line per scan that could not be.
int ReadMissingKnowledge(CatalogStore& store, const DocumentArgs& a, std::vector<std::string>* notes) {
  auto scans = store.ListScans();
  if (!scans.ok()) return 0;
  int done = 0;
  for (const ScanInfo& info : scans.value()) {
    if ((!a.repo.empty() && info.repo != a.repo) || (!a.sha.empty() && info.sha != a.sha)) continue;
    auto blob = store.GetBlob(KnowledgeBlobKey(info));
    if (blob.ok() && blob.value() && !blob.value()->empty()) continue;
    ScanOptions o;
    if (IsDirectory(info.location)) {  // absolute; source may be relative to where the scan ran
      o.path = info.location;
    } else if (IsDirectory(info.source)) {
      o.path = info.source;
    } else if (size_t at = info.source.rfind('@'); at != std::string::npos && IsDirectory(info.source.substr(0, at))) {
      o.path = info.source.substr(0, at);
      o.rev = info.source.substr(at + 1);
    } else {
      if (info.source.rfind("import ", 0) != 0)  // an imported scan has no tree to read: nothing to say
        notes->push_back(info.source + ": not found; its records are documented from their stored excerpts");
      continue;
    }
    if (!info.repo.empty()) o.repo = info.repo;
    if (!info.sha.empty()) o.sha = info.sha;
    o.jobs = a.jobs;
    auto again = Scan(o);
    ScanFilter f;
    f.repo = info.repo;
    f.sha = info.sha;
    auto stored = store.LoadLines(f);
    if (!again.ok() || !stored.ok()) {
      notes->push_back(info.source + ": cannot be read again (" +
                       (again.ok() ? stored.status() : again.status()).ToString() + "); documented from the stored excerpts");
      continue;
    }
    std::multiset<std::pair<std::string, int>> want, got;
    for (const auto& l : stored.value())
      if (l.scan_id == info.scan_id) want.insert({l.line.record.id, l.line.record.line_number});
    for (const auto& l : again->lines) got.insert({l.record.id, l.record.line_number});
    if (want != got || again->knowledge.empty()) {
      notes->push_back(info.source + ": changed since it was scanned; its records are documented from their stored excerpts");
      continue;
    }
    if (store.PutBlob(KnowledgeBlobKey(info), again->knowledge).ok()) ++done;
  }
  return done;
}

int Run(const DocumentArgs& a) {
  if (a.llm_url.empty() != a.llm_model.empty()) {
    std::fprintf(stderr, "errdex: error: --llm-url and --llm-model go together\n");
    return 2;
  }
  auto store = CatalogStore::Open(a.db, /*create=*/false);
  if (!store.ok()) {
    std::fprintf(stderr, "errdex: error: %s\n", store.status().ToString().c_str());
    return 2;
  }
  std::vector<std::string> notes;
  const int read_again = ReadMissingKnowledge(*store.value(), a, &notes);
  for (const auto& n : notes) std::fprintf(stderr, "errdex: note: %s\n", n.c_str());
  DocumentCatalogOptions o;
  o.repo = a.repo;
  o.sha = a.sha;
  o.jobs = a.jobs;
  if (!a.llm_url.empty()) {
    LlmOptions l;
    l.url = a.llm_url;
    l.model = a.llm_model;
    if (const char* k = std::getenv(a.llm_key_env.c_str())) l.api_key = k;
    l.concurrency = a.llm_concurrency;
    l.timeout_ms = a.llm_timeout_s * 1000;
    l.max_attempts = a.llm_attempts;
    o.llm = l;
  }
  auto stats = DocumentCatalog(*store.value(), o);
  if (!stats.ok()) {
    if (stats.status().code() == Status::Code::kNotFound) {
      std::fprintf(stderr, "errdex: %s\n", stats.status().message().c_str());
      return 1;
    }
    std::fprintf(stderr, "errdex: error: %s\n", stats.status().ToString().c_str());
    return 2;
  }
  const DocumentCatalogStats& s = stats.value();
  if (a.json) {
    nlohmann::json d = {{"scans", s.scans}, {"records", s.records}, {"withKnowledge", s.with_knowledge}, {"withContext", s.with_context},
                        {"withoutFacts", s.without_facts}, {"sourcesReadAgain", read_again}};
    if (s.llm_used)
      d["llm"] = {{"requests", s.llm.requests}, {"retries", s.llm.retries}, {"cacheHits", s.llm.cache_hits},
                  {"polished", s.llm.polished}, {"fieldsKept", s.llm.fields_kept}, {"fallbacks", s.llm.fallbacks},
                  {"errors", s.llm.errors}};
    std::printf("%s\n", nlohmann::json({{"type", "summary"}, {"data", d}}).dump(-1, ' ', false,
                                                                              nlohmann::json::error_handler_t::replace).c_str());
  } else {
    std::printf("documented %d records in %d scans (%d with repository knowledge, %d with the scan's context, %d without stored facts)\n",
                s.records, s.scans, s.with_knowledge, s.with_context, s.without_facts);
    if (read_again) std::printf("read the source of %d scan(s) again: they were stored without the document stage's knowledge\n", read_again);
    if (s.llm_used) {
      std::printf("llm: %d polished, %d from cache, %d requests (%d retries), %d fields kept deterministic, %d fell back\n",
                  s.llm.polished, s.llm.cache_hits, s.llm.requests, s.llm.retries, s.llm.fields_kept, s.llm.fallbacks);
      for (const auto& e : s.llm.errors) std::fprintf(stderr, "errdex: warning: llm fallback: %s\n", e.c_str());
    }
  }
  return 0;
}

}  // namespace

void RegisterDocumentCommands(CLI::App& app, CommandTable& table) {
  auto args = std::make_shared<DocumentArgs>();
  CLI::App* sub = app.add_subcommand("document", "(Re)fill the prose fields of stored records from the code facts");
  sub->add_option("--db", args->db, "Catalog file")->required();
  sub->add_option("--repo", args->repo, "Only this repository (owner/name)");
  sub->add_option("--sha", args->sha, "Only this commit");
  sub->add_option("--llm-url", args->llm_url, "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (optional)");
  sub->add_option("--llm-model", args->llm_model, "Model name for --llm-url");
  sub->add_option("--llm-key-env", args->llm_key_env, "Environment variable holding the API key")->capture_default_str();
  sub->add_option("--llm-concurrency", args->llm_concurrency, "Requests in flight at most")->capture_default_str()->check(CLI::Range(1, 64));
  sub->add_option("--llm-timeout", args->llm_timeout_s, "Seconds per request attempt")->capture_default_str()->check(CLI::Range(1, 3600));
  sub->add_option("--llm-attempts", args->llm_attempts, "Attempts per record (429/5xx/timeouts retried with backoff)")
      ->capture_default_str()->check(CLI::Range(1, 10));
  sub->add_option("-j,--jobs", args->jobs, "Documenting threads")->capture_default_str()->check(CLI::Range(1, 256));
  sub->add_flag("--json", args->json, "Print the summary as a {\"type\",\"data\"} JSON line");
  table.emplace_back(sub, [args] { return Run(*args); });
}

}  // namespace errdex::cli
