// serve/queries.cc: see queries.h. Tested by queries_test.cc and end to end by
// tests/serve/serve_e2e_test.cc (the same answers as explain --json and show).
#include "serve/queries.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "catalog/explain_json.h"

namespace errdex::serve {

namespace {

std::string Hex(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

bool Unhex(std::string_view hex, std::string* out) {
  if (hex.size() % 2) return false;
  auto val = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    int a = val(hex[i]), b = val(hex[i + 1]);
    if (a < 0 || b < 0) return false;
    out->push_back(static_cast<char>(a * 16 + b));
  }
  return true;
}

// A cursor is the last hit of a page: its rank's bits and its record id, in hex
// (opaque to clients, safe in a URL).
std::string EncodeCursor(double rank, std::string_view id) {
  uint64_t bits;
  std::memcpy(&bits, &rank, sizeof bits);
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(bits));
  return std::string(b) + Hex(id);
}

bool DecodeCursor(std::string_view c, double* rank, std::string* id) {
  if (c.size() < 16 || c.size() > 16 + 2 * 256) return false;
  std::string bits_bytes;
  if (!Unhex(c.substr(0, 16), &bits_bytes)) return false;
  uint64_t bits = std::stoull(std::string(c.substr(0, 16)), nullptr, 16);
  std::memcpy(rank, &bits, sizeof bits);
  return Unhex(c.substr(16), id) && !id->empty();
}

}  // namespace

std::string DumpJson(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// ---------------------------------------------------------------- explain

namespace {

// The fuzzy fallback asks the store. It does so over a pooled connection of the
// request's own, taken on first use (most pastes match exactly and never ask),
// rather than the snapshot's shared connection and its lock.
FuzzySearch RequestFuzzy(CatalogService& service, const CatalogSnapshot& snap) {
  FuzzySearch shared = snap.Fuzzy();
  if (!shared) return nullptr;
  struct State {
    std::optional<CatalogService::StoreLease> lease;
    FuzzySearch own;
    bool tried = false;
  };
  auto state = std::make_shared<State>();
  return [state, shared, &service, &snap](std::string_view text, int limit) {
    if (!state->tried) {
      state->tried = true;
      auto lease = service.Store();
      if (lease.ok()) {
        state->lease.emplace(std::move(lease).value());
        state->own = snap.catalog().Fuzzy(**state->lease);
      }
    }
    return state->own ? state->own(text, limit) : shared(text, limit);
  };
}

}  // namespace

Result<ExplainAnswer> Explain(CatalogService& service, const CatalogSnapshot& snap, const ExplainRequest& req) {
  ExplainOptions o;
  o.top_k = req.top == 0 ? 1 : req.top;
  o.fuzzy = req.fuzzy;
  if (!req.repo.empty()) {
    const Catalog* c = &snap.catalog();
    std::string repo = req.repo;
    o.accept = [c, repo](uint32_t e) { return c->repo(e) == repo; };
  }
  ExplainAnswer answer;
  ExplainSession session(snap.catalog().matcher(), o, RequestFuzzy(service, snap));
  HitSink sink = [&](const ExplainHit& h) { answer.hits.push_back(h); };
  Status s = session.Feed(req.text, sink);
  if (s.ok()) s = session.Finish(sink);
  if (!s.ok()) return s;
  for (const ExplainHit& h : answer.hits) {
    auto d = snap.Details(h.entry);
    answer.details.push_back(d.ok() ? *d : nullptr);
  }
  return answer;
}

nlohmann::json ExplainAnswerJson(const CatalogSnapshot& snap, const ExplainAnswer& answer) {
  nlohmann::json hits = nlohmann::json::array();
  for (size_t i = 0; i < answer.hits.size(); ++i)
    hits.push_back(ExplainHitJson(snap.catalog(), answer.hits[i], answer.details[i].get()));
  return hits;
}

std::vector<TextPart> HitMessageParts(const ExplainHit& h) {
  std::string_view m = h.message;
  size_t b = std::min(h.message_offset, m.size());
  size_t e = std::min(m.size(), b + h.message_length);
  if (h.kind != ExplainHit::Kind::kPattern) {
    b = 0;
    e = m.size();
  }
  std::vector<TextPart> parts;
  size_t pos = b;
  for (const ExplainCapture& c : h.captures) {
    if (c.message_begin < pos || c.message_end > e) continue;
    if (c.message_begin > pos) parts.push_back({std::string(m.substr(pos, c.message_begin - pos)), false});
    if (c.message_end > c.message_begin)
      parts.push_back({std::string(m.substr(c.message_begin, c.message_end - c.message_begin)), true});
    pos = c.message_end;
  }
  if (e > pos) parts.push_back({std::string(m.substr(pos, e - pos)), false});
  return parts;
}

// ---------------------------------------------------------------- records

std::string RecordJson(const EntryDetails& d) {
  std::string out = "{\"record\":" + RecordToJson(d.record);
  out += ",\"versions\":" + DumpJson(RecordVersionsJson(d.versions));
  out += ",\"onlyInOlderVersions\":";
  out += d.only_in_older ? "true" : "false";
  out += "}";
  return out;
}

nlohmann::json RecordJsonValue(const EntryDetails& d) {
  return nlohmann::json::parse(RecordJson(d), nullptr, /*allow_exceptions=*/false);
}

Result<std::shared_ptr<const EntryDetails>> RecordById(const CatalogSnapshot& snap, std::string_view id) {
  int64_t entry = snap.EntryOfId(id);
  if (entry < 0) return Status::NotFound("no record with id '" + std::string(id) + "'");
  return snap.Details(static_cast<uint32_t>(entry));
}

namespace {

Result<std::vector<std::shared_ptr<const EntryDetails>>> RecordsOf(CatalogService& service,
                                                                   const CatalogSnapshot& snap,
                                                                   std::string_view repo, std::string_view slug) {
  auto store = service.Store();
  if (!store.ok()) return store.status();
  auto lines = (*store)->FindRecord(std::string(slug));
  if (!lines.ok()) return lines.status();
  std::set<std::string> ids;
  for (const StoredLine& l : *lines)
    if (l.line.record.slug && *l.line.record.slug == slug && (repo.empty() || l.line.record.repo.value_or("") == repo))
      ids.insert(l.line.record.id);
  std::vector<std::shared_ptr<const EntryDetails>> out;
  for (const std::string& id : ids) {
    auto d = RecordById(snap, id);
    if (d.ok()) out.push_back(*d);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(a->record.file_path, a->record.line_number, a->record.id) <
           std::tie(b->record.file_path, b->record.line_number, b->record.id);
  });
  if (out.empty()) return Status::NotFound("no record with slug '" + std::string(slug) + "'" +
                                           (repo.empty() ? "" : " in " + std::string(repo)));
  return out;
}

}  // namespace

Result<std::vector<std::shared_ptr<const EntryDetails>>> RecordsOfSlug(CatalogService& service,
                                                                       const CatalogSnapshot& snap,
                                                                       std::string_view repo, std::string_view slug) {
  return RecordsOf(service, snap, repo, slug);
}

Result<std::vector<std::shared_ptr<const EntryDetails>>> RecordsByIdOrSlug(CatalogService& service,
                                                                           const CatalogSnapshot& snap,
                                                                           std::string_view id_or_slug) {
  auto byid = RecordById(snap, id_or_slug);
  if (byid.ok()) return std::vector<std::shared_ptr<const EntryDetails>>{*byid};
  return RecordsOf(service, snap, "", id_or_slug);
}

std::vector<uint32_t> SameFunction(const CatalogSnapshot& snap, uint32_t entry) {
  const Matcher& m = snap.catalog().matcher();
  if (entry >= m.entries().size()) return {};
  const MatchEntry& me = m.entries()[entry];
  if (me.function.empty()) return {};
  std::vector<uint32_t> near;
  m.EntriesNearFrame(me.file_path, me.line, me.function, &near);
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  std::vector<uint32_t> out;
  std::string_view repo = snap.catalog().repo(entry);
  for (uint32_t e : near) {
    const MatchEntry& o = m.entries()[e];
    if (e != entry && o.file_path == me.file_path && o.function == me.function && snap.catalog().repo(e) == repo)
      out.push_back(e);
  }
  std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(m.entries()[a].line, a) < std::tie(m.entries()[b].line, b);
  });
  return out;
}

// ---------------------------------------------------------------- search

Result<SearchAnswer> Search(CatalogService& service, const CatalogSnapshot& snap, const SearchRequest& req) {
  if (req.limit < 1 || req.limit > 100) return Status::InvalidArgument("limit must be between 1 and 100");
  CatalogStore::RecordQuery q;
  q.text = req.q;
  q.repo = req.repo;
  q.error_class = req.error_class;
  q.severity = req.severity;
  q.tag = req.tag;
  q.limit = req.limit + 1;  // one more tells whether there is a next page
  if (!req.cursor.empty()) {
    if (!DecodeCursor(req.cursor, &q.cursor_rank, &q.cursor_record_id))
      return Status::InvalidArgument("cursor is not one this server gave");
    q.has_cursor = true;
  }
  auto store = service.Store();
  if (!store.ok()) return store.status();
  auto hits = (*store)->SearchRecords(q);
  if (!hits.ok()) return hits.status();
  SearchAnswer answer;
  bool more = hits->size() > static_cast<size_t>(req.limit);
  if (more) hits->resize(req.limit);
  for (const CatalogStore::RecordHit& h : *hits) {
    auto d = RecordById(snap, h.record_id);
    if (!d.ok()) continue;  // newer than this version: it appears once the new matcher is in
    SearchItem item;
    item.record_id = h.record_id;
    item.details = *d;
    item.snippet = HighlightWords((*d)->record.error_message.value_or(""), req.q);
    answer.items.push_back(std::move(item));
  }
  if (more && !hits->empty()) answer.next_cursor = EncodeCursor(hits->back().rank, hits->back().record_id);
  return answer;
}

nlohmann::json SearchAnswerJson(const SearchAnswer& a) {
  using nlohmann::json;
  json results = json::array();
  for (const SearchItem& it : a.items) {
    const Record& r = it.details->record;
    json snippet = json::array();
    for (const TextPart& p : it.snippet) snippet.push_back({{"text", p.text}, {"match", p.mark}});
    results.push_back({{"id", r.id},
                       {"repo", r.repo ? json(*r.repo) : json(nullptr)},
                       {"slug", r.slug ? json(*r.slug) : json(nullptr)},
                       {"errorClass", r.error_class ? json(*r.error_class) : json(nullptr)},
                       {"errorMessage", r.error_message ? json(*r.error_message) : json(nullptr)},
                       {"severity", r.severity ? json(*r.severity) : json(nullptr)},
                       {"filePath", r.file_path},
                       {"lineNumber", r.line_number},
                       {"snippet", snippet}});
  }
  return {{"results", results}, {"nextCursor", a.next_cursor.empty() ? json(nullptr) : json(a.next_cursor)}};
}

// ---------------------------------------------------------------- repos

std::vector<RepoSummary> Repos(const CatalogSnapshot& snap) {
  std::map<std::string, RepoSummary> by;
  for (const ScanInfo& s : snap.scans()) {
    RepoSummary& r = by[s.repo];
    r.repo = s.repo;
    r.scans.push_back(&s);
  }
  std::vector<RepoSummary> out;
  for (auto& [name, r] : by) {
    std::sort(r.scans.begin(), r.scans.end(), [](const ScanInfo* a, const ScanInfo* b) {
      return std::tie(a->dataset_version, a->scan_id) > std::tie(b->dataset_version, b->scan_id);
    });
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json ScanJson(const ScanInfo& s) {
  return {{"scanId", s.scan_id}, {"repo", s.repo}, {"sha", s.sha}, {"datasetVersion", s.dataset_version},
          {"files", s.files}, {"records", s.sites}};
}

nlohmann::json ReposJson(const std::vector<RepoSummary>& repos) {
  using nlohmann::json;
  json out = json::array();
  for (const RepoSummary& r : repos)
    out.push_back({{"repo", r.repo}, {"scans", r.scans.size()}, {"latest", ScanJson(*r.scans.front())}});
  return {{"repos", out}};
}

}  // namespace errdex::serve
