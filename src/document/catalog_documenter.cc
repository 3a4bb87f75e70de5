// document/catalog_documenter.cc: see catalog_documenter.h. Tested end to end by
// tests/document_e2e_test.cc.
#include "document/catalog_documenter.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "document/documenter.h"
#include "document/knowledge.h"

namespace errdex {

std::optional<std::string> StoreLlmCache::Get(const std::string& key) {
  std::lock_guard<std::mutex> l(mu_);
  auto r = store_->GetCache(key);
  if (!r.ok()) return std::nullopt;
  return r.value();
}

void StoreLlmCache::Put(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> l(mu_);
  (void)store_->PutCache(key, value);  // a cache that cannot write only costs a request next time
}

Site SiteFromRecord(const Record& r) {
  Site s;
  const std::string t = r.error_type.value_or("");
  if (t == "assertion") s.kind = SiteKind::kAssert;
  else if (t == "http") s.kind = SiteKind::kHttp;
  else if (t == "warning" || t == "log") s.kind = SiteKind::kLog;
  if (s.kind == SiteKind::kLog) s.log_level = t == "warning" ? "warning" : "error";
  s.file_path = r.file_path;
  s.line = r.line_number;
  s.error_class = r.error_class;
  s.error_code = r.error_code;
  s.http_status = r.http_status;
  s.error_message = r.error_message;
  s.message_pattern = r.message_pattern;
  return s;
}

Result<DocumentCatalogStats> DocumentCatalog(CatalogStore& store, const DocumentCatalogOptions& options) {
  ScanFilter filter;
  filter.repo = options.repo;
  filter.sha = options.sha;
  auto lines = store.LoadLines(filter);
  if (!lines.ok()) return lines.status();
  if (lines->empty()) return Status::NotFound("no stored records match" + (options.repo.empty() ? std::string() : " --repo " + options.repo) +
                                              (options.sha.empty() ? std::string() : " --sha " + options.sha));
  auto scans = store.ListScans();
  if (!scans.ok()) return scans.status();
  std::map<int64_t, ScanInfo> scan_by_id;
  for (auto& s : scans.value()) scan_by_id[s.scan_id] = s;

  // Knowledge per scan (the blob the scanner stored, else empty).
  DocumentCatalogStats stats;
  std::map<int64_t, std::unique_ptr<RepoKnowledge>> knowledge;
  std::map<int64_t, bool> has_blob;
  for (const auto& l : lines.value()) {
    if (knowledge.count(l.scan_id)) continue;
    ++stats.scans;
    const ScanInfo& info = scan_by_id[l.scan_id];
    std::unique_ptr<RepoKnowledge> k;
    auto blob = store.GetBlob(KnowledgeBlobKey(info));
    if (blob.ok() && blob.value() && !blob.value()->empty()) k = RepoKnowledge::Deserialize(*blob.value());  // empty: --no-docs
    has_blob[l.scan_id] = k != nullptr;
    if (!k) k = RepoKnowledge::Build({});
    knowledge[l.scan_id] = std::move(k);
  }

  std::vector<StoredLine>& all = lines.value();
  std::vector<std::string> contexts_json(options.llm ? all.size() : 0);
  std::vector<std::string> user_facts_json(options.llm ? all.size() : 0);
  std::atomic<size_t> next{0};
  std::atomic<int> without_facts{0}, with_knowledge{0}, with_context{0};
  auto worker = [&] {
    for (size_t i = next++; i < all.size(); i = next++) {
      CatalogLine& cl = all[i].line;
      Record& r = cl.record;
      Site site = cl.facts ? *cl.facts : SiteFromRecord(r);
      if (!cl.facts) ++without_facts;
      if (has_blob[all[i].scan_id]) ++with_knowledge;
      const RepoKnowledge& k = *knowledge[all[i].scan_id];
      // The context the scan gathered from the whole file; without it (records
      // imported from elsewhere, an older catalog) the one the stored window gives.
      const SiteContext* stored = k.StoredContext(r.id);
      SiteContext from_window;
      if (stored) {
        ++with_context;
      } else {
        std::string text(r.source_code_start > 1 ? std::min(r.source_code_start - 1, 1 << 24) : 0, '\n');
        text += r.source_code;
        text += '\n';
        FileFacts ff = CollectFileFacts(r.file_path, text, {&site});
        from_window = std::move(ff.contexts[0]);
      }
      const SiteContext& ctx = stored ? *stored : from_window;
      DocDeps deps;
      DocumentRecord(site, ctx, k, &r, options.llm ? &deps : nullptr);
      if (options.llm) {
        const doc::KnowledgeIndex* idx = doc::AsIndex(k);
        contexts_json[i] = "{\"site\":" + SiteContextToJson(ctx) + ",\"settings\":" + (idx ? idx->ConsultedJson(deps) : "[]") + "}";
        user_facts_json[i] = DocumentFactsJson(site, ctx, k);
      }
    }
  };
  int n = std::max(1, std::min<int>(options.jobs, (int)all.size()));
  {
    std::vector<std::thread> pool;
    for (int i = 1; i < n; ++i) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
  }
  stats.records = (int)all.size();
  stats.without_facts = without_facts;
  stats.with_knowledge = with_knowledge;
  stats.with_context = with_context;

  if (options.llm) {
    StoreLlmCache cache(&store);
    std::vector<LlmItem> items;
    items.reserve(all.size());
    for (size_t i = 0; i < all.size(); ++i) {
      StoredLine& l = all[i];
      items.push_back({&l.line.record, l.line.facts ? SiteToJson(*l.line.facts) : std::string(), contexts_json[i], user_facts_json[i]});
    }
    stats.llm = PolishWithLlm(*options.llm, &cache, items);
    stats.llm_used = true;
  }
  Status st = store.UpdateRecords(all);
  if (!st.ok()) return st;
  return stats;
}

}  // namespace errdex
