// store/catalog_diff.cc: see catalog_diff.h. Tested by catalog_diff_test.cc
// and tests/store_revisions_e2e_test.cc.
#include "store/catalog_diff.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace errdex {

namespace {

constexpr double kRewordedAtLeast = 0.6;
constexpr double kSameFunctionBonus = 0.25;
constexpr size_t kCompareBytes = 256;

const ScanInfo* FindScan(const std::vector<ScanInfo>& scans, int64_t id) {
  for (const ScanInfo& s : scans)
    if (s.scan_id == id) return &s;
  return nullptr;
}

// The lines of a scan's units not in `skip`, by record id (in tree order).
Status LinesOf(CatalogStore& store, const ScanInfo& scan, const std::vector<StoredUnit>& units,
               const std::unordered_set<int64_t>& skip, std::vector<CatalogLine>* out) {
  CommitFields commit;
  if (!scan.sha.empty()) commit.sha = scan.sha;
  commit.dataset_version = scan.dataset_version;
  for (const StoredUnit& u : units) {
    if (skip.count(u.unit_id)) continue;
    auto unit = store.LoadUnit(u.unit_id);
    if (!unit.ok()) return unit.status();
    for (const UnitRecord& r : unit->records) out->push_back(Materialize(unit->kind, r, commit));
  }
  return Status::Ok();
}

bool SameProse(const Record& a, const Record& b) {
  return a.documentation == b.documentation && a.trigger_scenarios == b.trigger_scenarios &&
         a.common_situations == b.common_situations && a.solutions == b.solutions && a.example_fix == b.example_fix &&
         a.handling_strategy == b.handling_strategy && a.validation_code == b.validation_code &&
         a.type_guard == b.type_guard && a.try_catch_pattern == b.try_catch_pattern &&
         a.prevention_tips == b.prevention_tips && a.tags == b.tags && a.background_tag == b.background_tag &&
         a.error_type == b.error_type;
}

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty() || from == to) return;
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}
void ReplaceAll(std::optional<std::string>& s, const std::string& from, const std::string& to) {
  if (s) ReplaceAll(*s, from, to);
}

// `r`'s prose as it would read at `to`'s place: the prose names the file and
// line ("raised by f (pkg/a.py:17)"), which a move changes and nothing else.
Record AtPlaceOf(Record r, const Record& to) {
  const std::string from_at = r.file_path + ":" + std::to_string(r.line_number);
  const std::string to_at = to.file_path + ":" + std::to_string(to.line_number);
  for (auto* f : {&r.documentation, &r.trigger_scenarios, &r.common_situations, &r.example_fix, &r.handling_strategy,
                  &r.validation_code, &r.type_guard, &r.try_catch_pattern}) {
    ReplaceAll(*f, from_at, to_at);
    ReplaceAll(*f, r.file_path, to.file_path);
  }
  for (auto* list : {&r.solutions, &r.prevention_tips})
    if (*list)
      for (std::string& s : **list) {
        ReplaceAll(s, from_at, to_at);
        ReplaceAll(s, r.file_path, to.file_path);
      }
  // A tag named after the file ("old_name.py" -> "old-name").
  auto stem_tag = [](const std::string& path) {
    std::string stem = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    stem = stem.substr(0, stem.find('.'));
    for (char& c : stem) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return stem;
  };
  if (r.tags)
    for (std::string& t : *r.tags)
      if (t == stem_tag(r.file_path)) t = stem_tag(to.file_path);
  return r;
}

// The change from `a` to `b` (the same record, or a pair made by message).
RecordChange Compare(const CatalogLine& a, const CatalogLine& b) {
  RecordChange c;
  const Record& x = a.record;
  const Record& y = b.record;
  if (x.error_message != y.error_message) c.changed.push_back("message");
  if (x.error_class != y.error_class) c.changed.push_back("class");
  std::vector<std::string> ga = a.facts ? a.facts->guards : std::vector<std::string>{};
  std::vector<std::string> gb = b.facts ? b.facts->guards : std::vector<std::string>{};
  if (ga != gb) c.changed.push_back("guards");
  if (!SameProse(AtPlaceOf(x, y), y)) c.changed.push_back("prose");
  if (x.message_pattern != y.message_pattern) c.changed.push_back("pattern");
  if (x.severity != y.severity) c.changed.push_back("severity");
  c.moved = x.file_path != y.file_path || x.line_number != y.line_number;
  c.kind = c.changed.empty() ? RecordChange::Kind::kMoved : RecordChange::Kind::kChanged;
  c.before = a;
  c.after = b;
  return c;
}

std::string MessageOf(const Record& r) { return r.error_message.value_or(r.message_pattern.value_or("")); }

}  // namespace

double MessageSimilarity(const std::string& a_in, const std::string& b_in) {
  std::string_view a(a_in), b(b_in);
  a = a.substr(0, kCompareBytes);
  b = b.substr(0, kCompareBytes);
  if (a.empty() && b.empty()) return 1;
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return 1.0 - static_cast<double>(prev[b.size()]) / static_cast<double>(std::max(a.size(), b.size()));
}

Result<CatalogDiff> DiffScans(CatalogStore& store, int64_t from, int64_t to) {
  auto scans = store.ListScans();
  if (!scans.ok()) return scans.status();
  const ScanInfo* a = FindScan(*scans, from);
  const ScanInfo* b = FindScan(*scans, to);
  if (!a || !b) return Status::NotFound("no scan " + std::to_string(!a ? from : to) + " in the catalog");
  CatalogDiff diff;
  diff.from = *a;
  diff.to = *b;
  auto ua = store.ScanUnits(from);
  if (!ua.ok()) return ua.status();
  auto ub = store.ScanUnits(to);
  if (!ub.ok()) return ub.status();
  std::unordered_set<int64_t> in_a, shared;
  for (const StoredUnit& u : *ua) in_a.insert(u.unit_id);
  for (const StoredUnit& u : *ub)
    if (in_a.count(u.unit_id) && shared.insert(u.unit_id).second) {
      ++diff.units_shared;
      diff.unchanged += u.records;
    }
  std::vector<CatalogLine> la, lb;
  if (Status st = LinesOf(store, *a, *ua, shared, &la); !st.ok()) return st;
  if (Status st = LinesOf(store, *b, *ub, shared, &lb); !st.ok()) return st;

  std::unordered_map<std::string, size_t> b_by_id;
  for (size_t j = 0; j < lb.size(); ++j) b_by_id.emplace(lb[j].record.id, j);
  std::vector<char> a_paired(la.size(), 0), b_paired(lb.size(), 0);
  auto keep = [&](RecordChange c) {
    switch (c.kind) {
      case RecordChange::Kind::kAdded: ++diff.added; break;
      case RecordChange::Kind::kRemoved: ++diff.removed; break;
      case RecordChange::Kind::kChanged: ++diff.changed; break;
      case RecordChange::Kind::kMoved: ++diff.moved; break;
    }
    diff.changes.push_back(std::move(c));
  };
  // 1. The same record (same id).
  for (size_t i = 0; i < la.size(); ++i) {
    auto it = b_by_id.find(la[i].record.id);
    if (it == b_by_id.end() || b_paired[it->second]) continue;
    a_paired[i] = b_paired[it->second] = 1;
    RecordChange c = Compare(la[i], lb[it->second]);
    if (c.kind == RecordChange::Kind::kMoved && !c.moved) ++diff.unchanged;
    else keep(std::move(c));
  }
  // 2. The same class and message elsewhere: a record that moved to another file.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> b_by_message;
  for (size_t j = 0; j < lb.size(); ++j)
    if (!b_paired[j]) b_by_message[{lb[j].record.error_class.value_or(""), MessageOf(lb[j].record)}].push_back(j);
  for (auto& [key, list] : b_by_message) std::reverse(list.begin(), list.end());  // pop_back takes the first
  for (size_t i = 0; i < la.size(); ++i) {
    if (a_paired[i] || MessageOf(la[i].record).empty()) continue;
    auto it = b_by_message.find({la[i].record.error_class.value_or(""), MessageOf(la[i].record)});
    if (it == b_by_message.end() || it->second.empty()) continue;
    size_t j = it->second.back();
    it->second.pop_back();
    a_paired[i] = b_paired[j] = 1;
    keep(Compare(la[i], lb[j]));
  }
  // 3. A similar message of the same class in the same file: a reworded error.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> b_by_file;
  for (size_t j = 0; j < lb.size(); ++j)
    if (!b_paired[j]) b_by_file[{lb[j].record.file_path, lb[j].record.error_class.value_or("")}].push_back(j);
  std::vector<std::tuple<double, size_t, size_t>> pairs;
  for (size_t i = 0; i < la.size(); ++i) {
    if (a_paired[i]) continue;
    auto it = b_by_file.find({la[i].record.file_path, la[i].record.error_class.value_or("")});
    if (it == b_by_file.end()) continue;
    for (size_t j : it->second) {
      double s = MessageSimilarity(MessageOf(la[i].record), MessageOf(lb[j].record));
      // Raised in the same function too: the same error, whatever its words now.
      bool same_function = la[i].facts && lb[j].facts && la[i].facts->function == lb[j].facts->function &&
                           la[i].facts->kind == lb[j].facts->kind;
      if (s + (same_function ? kSameFunctionBonus : 0) >= kRewordedAtLeast) pairs.emplace_back(s, i, j);
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return std::get<0>(x) > std::get<0>(y); });
  for (const auto& [s, i, j] : pairs) {
    if (a_paired[i] || b_paired[j]) continue;
    a_paired[i] = b_paired[j] = 1;
    RecordChange c = Compare(la[i], lb[j]);
    c.similarity = s;
    keep(std::move(c));
  }
  // 4. The rest.
  for (size_t i = 0; i < la.size(); ++i)
    if (!a_paired[i]) {
      RecordChange c;
      c.kind = RecordChange::Kind::kRemoved;
      c.before = la[i];
      keep(std::move(c));
    }
  for (size_t j = 0; j < lb.size(); ++j)
    if (!b_paired[j]) {
      RecordChange c;
      c.kind = RecordChange::Kind::kAdded;
      c.after = lb[j];
      keep(std::move(c));
    }
  auto where = [](const RecordChange& c) {
    const Record& r = c.after ? c.after->record : c.before->record;
    return std::tie(r.file_path, r.line_number, r.id);
  };
  std::stable_sort(diff.changes.begin(), diff.changes.end(),
                   [&](const RecordChange& x, const RecordChange& y) { return where(x) < where(y); });
  return diff;
}

Result<std::vector<RecordHistory>> HistoryOf(CatalogStore& store, const std::string& id_or_slug) {
  auto found = store.FindRecord(id_or_slug);
  if (!found.ok()) return found.status();
  auto scans = store.ListScans();
  if (!scans.ok()) return scans.status();
  std::map<int64_t, const ScanInfo*> scan_of;
  for (const ScanInfo& s : *scans) scan_of[s.scan_id] = &s;
  auto order = [](const ScanInfo& s) { return std::tie(s.commit_time, s.dataset_version, s.scan_id); };
  std::map<std::string, RecordHistory> by_id;
  for (const StoredLine& l : *found) {
    auto sc = scan_of.find(l.scan_id);
    if (sc == scan_of.end()) continue;
    RecordHistory& h = by_id[l.line.record.id];
    h.id = l.line.record.id;
    h.commits.push_back(RecordHistory::Seen{*sc->second, l.line.record.file_path, l.line.record.line_number,
                                            l.line.record.error_message});
    if (h.commits.size() == 1) h.newest = l.line.record;  // FindRecord gives the newest first
  }
  std::vector<RecordHistory> out;
  for (auto& [id, h] : by_id) {
    std::stable_sort(h.commits.begin(), h.commits.end(),
                     [&](const RecordHistory::Seen& x, const RecordHistory::Seen& y) { return order(x.scan) < order(y.scan); });
    std::set<int64_t> has;
    for (const auto& s : h.commits) has.insert(s.scan.scan_id);
    const ScanInfo& first = h.commits.front().scan;
    const ScanInfo& last = h.commits.back().scan;
    for (const ScanInfo& s : *scans) {
      if (s.repo != first.repo || has.count(s.scan_id)) continue;
      if (order(s) > order(first) && order(s) < order(last)) h.absent_from.push_back(s);
    }
    std::stable_sort(h.absent_from.begin(), h.absent_from.end(),
                     [&](const ScanInfo& x, const ScanInfo& y) { return order(x) < order(y); });
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace errdex
