// Fuzz target: the document stage on one file, through the scan pipeline as
// `errdex scan` runs it (scan/scanner.h on an in-memory tree of one file):
// extraction, records, file facts and site contexts, repository knowledge, the
// prose writers, JSON Lines; then what `errdex document` does with the stored
// facts: the knowledge blob read back (RepoKnowledge::Deserialize) and each
// record documented again from it. The first byte picks the file's language
// (.py most often).
// Properties: every output line parses back; the knowledge blob round-trips.
#include "document/documenter.h"
#include "extract/common/file_source.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/limits_check.h"
#include "model/record.h"
#include "scan/scanner.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  static const char* const kPaths[] = {"pkg/mod.py", "pkg/mod.py", "pkg/mod.py", "pkg/settings.py",
                                       "src/app.js", "src/app.ts", "csrc/kernel.cu", "src/lib.cc",
                                       "pkg/mod.py", "pkg/cli.py", "pkg/mod.py", "pkg/envs.py",
                                       "src/cli.rs", "cmd/main.go", "src/Main.java", "src/main.rs"};
  MemoryFileSource source;
  source.Add(kPaths[selector & 15], std::string(text));
  ScanOptions o;
  o.path = "<memory>";
  o.source = &source;
  o.repo = "o/n";
  o.sha = std::string(40, 'a');
  o.jobs = 1;
  o.limits = fuzz::LimitsFor(selector >> 3);
  o.json_lines = ScanOptions::JsonLines::kRecordsWithFacts;
  auto r = Scan(o);
  if (!r.ok()) return 0;  // nothing a front end reads (cannot happen for these paths) is an error
  std::string jsonl;
  for (const std::string& c : r->jsonl_chunks) jsonl += c;
  size_t pos = 0, n = 0;
  while (pos < jsonl.size()) {
    size_t nl = jsonl.find('\n', pos);
    fuzz::Check(nl != std::string::npos, "every line ends in a newline");
    fuzz::Check(ParseCatalogLine(std::string_view(jsonl).substr(pos, nl - pos)).ok(), "every output line parses");
    pos = nl + 1;
    ++n;
  }
  fuzz::Check(n == r->lines.size(), "one JSON line per record");

  // `errdex document`: the same records, from the stored knowledge and facts.
  std::unique_ptr<RepoKnowledge> k = RepoKnowledge::Deserialize(r->knowledge);
  if (!r->knowledge.empty()) {
    std::vector<std::pair<std::string, const SiteContext*>> contexts;
    for (const CatalogLine& l : r->lines) contexts.emplace_back(l.record.id, k->StoredContext(l.record.id));
    std::string again = k->Serialize(contexts);
    std::unique_ptr<RepoKnowledge> k2 = RepoKnowledge::Deserialize(again);
    std::vector<std::pair<std::string, const SiteContext*>> contexts2;
    for (const CatalogLine& l : r->lines) contexts2.emplace_back(l.record.id, k2->StoredContext(l.record.id));
    fuzz::Check(k2->Serialize(contexts2) == again, "a knowledge blob read back is written the same");
  }
  for (const CatalogLine& l : r->lines) {
    if (!l.facts) continue;
    const SiteContext* ctx = k->StoredContext(l.record.id);
    SiteContext empty;
    Record rec = l.record;
    DocumentRecord(*l.facts, ctx ? *ctx : empty, *k, &rec);
  }
  return 0;
}
