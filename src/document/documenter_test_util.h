// Helpers shared by the document stage's tests (documenter_test.cc,
// brace_documenter_test.cc): a repository's knowledge from in-memory files, a raise
// site, DocumentRecord with the context a scan gathers, and substring checks.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "document/documenter.h"
#include "document/knowledge.h"
#include "model/record.h"

namespace errdex::doctest {


inline std::unique_ptr<RepoKnowledge> Knowledge(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<FileKnowledgePtr> fk;
  for (auto& [p, t] : files) fk.push_back(CollectFileKnowledge(p, t));
  return RepoKnowledge::Build(std::move(fk));
}


// A raise site with the fields most tests set.
inline Site RaiseSite(const std::string& path, int line, const std::string& cls, const std::string& msg,
               const std::string& function) {
  Site s;
  s.file_path = path;
  s.line = line;
  s.error_class = cls;
  s.error_message = msg;
  s.function = function;
  return s;
}


// DocumentRecord with the context the scan gathers from the whole file.
inline void Doc(const Site& site, const std::string& file, const RepoKnowledge& k, Record* r) {
  FileFacts ff = CollectFileFacts(site.file_path, file, {&site});
  DocumentRecord(site, ff.contexts[0], k, r);
}

// The record of a raise at `line` of `file` (alone in its repository) under `guards`.
inline Record DocumentCode(const std::string& path, const std::string& file, int line, const std::string& cls,
                           const std::string& msg, const std::string& function, std::vector<std::string> guards) {
  auto k = Knowledge({{path, file}});
  Site s = RaiseSite(path, line, cls, msg, function);
  s.guards = std::move(guards);
  Record r;
  Doc(s, file, *k, &r);
  return r;
}

inline bool Has(const std::optional<std::string>& s, const std::string& needle) { return s && s->find(needle) != std::string::npos; }
inline bool AnyHas(const std::optional<std::vector<std::string>>& v, const std::string& needle) {
  if (!v) return false;
  for (auto& s : *v)
    if (s.find(needle) != std::string::npos) return true;
  return false;
}
inline std::string Dump(const Record& r) {
  std::string j = RecordToJson(r);
  if (std::getenv("ERRDEX_DOC_DUMP")) std::fprintf(stderr, "%s\n", j.c_str());  // for reading the prose by eye
  return j;
}

}  // namespace errdex::doctest
