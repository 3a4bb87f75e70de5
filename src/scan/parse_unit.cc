// scan/parse_unit.cc: see parse_unit.h.
#include "scan/parse_unit.h"

#include <algorithm>
#include <exception>
#include <unordered_map>

#include "document/documenter.h"
#include "extract/common/binary.h"

namespace errdex {
namespace {

bool SiteOrder(const Site& a, const Site& b) {
  if (a.line != b.line) return a.line < b.line;
  return a.column < b.column;
}

bool HasNonAscii(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0x80) return true;
  return false;
}
bool HasNonAscii(const std::optional<std::string>& s) { return s && HasNonAscii(*s); }
bool HasNonAscii(const std::vector<std::string>& v) {
  for (const std::string& s : v)
    if (HasNonAscii(s)) return true;
  return false;
}

// A line as it reads back from the catalog: the JSON mapping repairs invalid
// UTF-8 (model/record.h), so a site or record holding non-ASCII text goes
// through it once here, and every later step (the prose, the index) sees what
// a reader of the stored unit sees. The facts' `truncated` is kept sorted, as
// it reads back.
void Canonicalize(CatalogLine& line) {
  Site& s = *line.facts;
  std::sort(s.truncated.begin(), s.truncated.end());
  bool site_text = HasNonAscii(s.file_path) || HasNonAscii(s.language) || HasNonAscii(s.function) ||
                   HasNonAscii(s.guards) || HasNonAscii(s.except_context) || HasNonAscii(s.error_class) ||
                   HasNonAscii(s.error_class_expr) || HasNonAscii(s.error_code) || HasNonAscii(s.log_level) ||
                   HasNonAscii(s.error_message) || HasNonAscii(s.message_pattern) || HasNonAscii(s.message_expr) ||
                   HasNonAscii(s.message_alternatives) || HasNonAscii(s.interpolations) ||
                   HasNonAscii(s.message_resolution) || HasNonAscii(s.cause) || HasNonAscii(s.assert_condition);
  if (site_text) {
    auto back = SiteFromJson(SiteToJson(s));
    if (back.ok()) s = std::move(back).value();
  }
  const Record& r = line.record;
  if (site_text || HasNonAscii(r.source_code) || HasNonAscii(r.slug) || HasNonAscii(r.file_path)) {
    auto back = RecordFromJson(RecordToJson(r));
    if (back.ok()) line.record = std::move(back).value();
  }
}

}  // namespace

ParsedFile ParseUnit(const Extractor& extractor, const std::string& path, std::string_view text, const std::string& unit_key,
                     const std::optional<std::string>& repo, const ExtractLimits& limits, bool document,
                     bool context_json) {
  auto unit = std::make_shared<Unit>();
  unit->kind = UnitKind::kDerived;
  unit->key = unit_key;
  unit->repo = repo.value_or("");
  unit->path = path;
  UnitStats& stats = unit->stats;
  stats.sites_by_kind.assign(kSiteKindCount, 0);
  stats.bytes = text.size();
  auto note = [&](int line, int column, std::string message) {
    stats.diagnostics.push_back(UnitStats::Note{path, line, column, std::move(message)});
  };
  if (std::optional<std::string> why = BinaryReason(text)) {
    note(0, 0, "not source text, skipped: " + *why);
    stats.skipped = true;
    return {std::move(unit), false};
  }
  ExtractOutput out;
  try {
    out = extractor(path, text);
  } catch (const std::exception& e) {
    out = ExtractOutput{};
    out.failed = true;
    out.diagnostics.push_back({path, 0, 0, std::string("internal error in the front end: ") + e.what()});
  }
  for (Diagnostic& d : out.diagnostics)
    stats.diagnostics.push_back(UnitStats::Note{d.path.empty() ? path : d.path, d.line, d.column, std::move(d.message)});
  stats.skipped = out.failed;
  std::stable_sort(out.sites.begin(), out.sites.end(), SiteOrder);
  if (out.sites.size() > limits.max_sites) {  // a front end that does not cut itself
    out.sites_left_out += out.sites.size() - limits.max_sites;
    out.sites.resize(limits.max_sites);
  }
  stats.sites_left_out = static_cast<int64_t>(out.sites_left_out);
  if (out.sites_left_out > 0)
    note(0, 0, std::to_string(out.sites_left_out) + " sites left out: the file has more than " +
                   std::to_string(limits.max_sites) + " (--max-sites-per-file)");
  if (!out.sites.empty()) {
    std::vector<std::string_view> lines = SplitSourceLines(text);
    std::unordered_map<std::string, int> seen;  // id key -> occurrences so far
    unit->records.reserve(out.sites.size());
    for (Site& s : out.sites) {
      if (s.file_path.empty()) s.file_path = path;
      CapSite(s, limits);  // before the id key: ids come from what is kept
      std::string key = std::string(SiteKindName(s.kind)) + '\0' + s.error_class.value_or("") + '\0' +
                        std::string(IdMessageKey(s));
      int occurrence = seen[key]++;
      SourceWindow window = CutSourceWindow(lines, s.line, s.column, limits.max_excerpt_bytes);
      if (window.cut) NoteTruncated(s, "sourceCode", window.uncut_bytes);
      UnitRecord ur;
      ur.line.record = BuildRecord(s, window, repo, std::nullopt, std::string(), occurrence);
      ClearCommitFields(&ur.line);
      ur.line.facts = std::move(s);
      Canonicalize(ur.line);
      const Site& f = *ur.line.facts;
      ++stats.sites_by_kind[static_cast<int>(f.kind)];
      bool excerpt = false, guards = false;
      for (const auto& cut : f.truncated) (cut.first == "guards" || cut.first == "guardBytes" ? guards : excerpt) = true;
      stats.excerpts_cut += excerpt;
      stats.guards_cut += guards;
      unit->records.push_back(std::move(ur));
    }
  }
  if (document) {
    // The document stage reads the file here, while it is in memory: its
    // knowledge and the context of each site (one tokenization for both).
    try {
      std::vector<const Site*> file_sites;
      file_sites.reserve(unit->records.size());
      for (const UnitRecord& r : unit->records) file_sites.push_back(&*r.line.facts);
      FileFacts ff = CollectFileFacts(path, text, file_sites, out.python_tokens.get());
      if (ff.knowledge) unit->knowledge = SerializeFileKnowledge(*ff.knowledge);
      for (size_t k = 0; k < unit->records.size() && k < ff.contexts.size(); ++k)
        if (ff.contexts[k].known) {
          if (context_json) unit->records[k].context = SiteContextToJson(ff.contexts[k]);
          unit->records[k].gathered_context = std::make_shared<const SiteContext>(std::move(ff.contexts[k]));
        }
    } catch (const std::exception& e) {
      note(0, 0, std::string("internal error in the document stage: ") + e.what());
    }
  }
  return {std::move(unit), true};
}

}  // namespace errdex
