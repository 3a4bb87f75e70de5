// check/scan_hook.cc: see scan_hook.h.
#include "check/scan_hook.h"

#include "check/section.h"
#include "document/knowledge.h"

namespace errdex::check {

namespace {
bool EndsWith(std::string_view s, std::string_view suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}
}  // namespace

// Non-test Python files in a slot of the scan; no launch runs test code.
bool ScanHook::Takes(size_t slot, std::string_view path) const {
  return slot < files_.size() && EndsWith(path, ".py") && !IsTestPath(path);
}

void ScanHook::AddFile(size_t slot, std::string_view path, std::string_view text, const std::vector<CatalogLine>& lines) {
  if (!Takes(slot, path)) return;
  std::vector<SiteRef> sites;
  sites.reserve(lines.size());
  for (const CatalogLine& l : lines) {
    if (!l.facts) continue;
    sites.push_back({l.record.id, l.facts->line, SiteKindName(l.facts->kind), l.facts->error_class.value_or("")});
  }
  AddFile(slot, path, text, std::move(sites));
}

void ScanHook::AddFile(size_t slot, std::string_view path, std::string_view text, std::vector<SiteRef> sites) {
  if (!Takes(slot, path)) return;
  files_[slot] = StoreFile(path, text, std::move(sites));
  if (IsPackagingFile(path)) file_scripts_[slot] = ConsoleScripts(path, text);
}

void ScanHook::AddEntry(size_t slot, std::string_view path, std::string_view entry) {
  if (!Takes(slot, path)) return;
  StoredFile f;
  f.path = std::string(path);
  f.entry = std::string(entry);
  files_[slot] = std::move(f);
}

void ScanHook::AddPackagingFile(std::string_view path, std::string_view text) {
  auto s = ConsoleScripts(path, text);
  scripts_.insert(scripts_.end(), s.begin(), s.end());
}

std::string ScanHook::Finish(std::string_view knowledge, const RepoKnowledge* repo) {
  return WithCheckSection(knowledge, Section(repo));
}

std::string ScanHook::Section(const RepoKnowledge* repo) {
  CheckFacts facts;
  for (StoredFile& f : files_)
    if (!f.path.empty()) facts.files.push_back(std::move(f));
  facts.scripts = std::move(scripts_);
  for (auto& s : file_scripts_) facts.scripts.insert(facts.scripts.end(), s.begin(), s.end());
  const doc::KnowledgeIndex* k = repo ? doc::AsIndex(*repo) : nullptr;
  std::string section = BuildSection(facts, k ? &k->data() : nullptr);
  facts = CheckFacts();  // the sources are in `section` now
  std::vector<StoredFile>().swap(files_);
  return section;
}

}  // namespace errdex::check
