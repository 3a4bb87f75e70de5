// document/documenter.cc: DocumentRecord -- facts (facts.h), then one writer
// per field (writers.h). Every sentence is built from something found in the
// code: a guard, an assignment, a flag definition, a sibling branch, a caller,
// the message itself. A field with no supporting fact stays null.
// Tested by documenter_test.cc, tests/prose/ and tests/document_e2e_test.cc.
#include "document/documenter.h"

#include <nlohmann/json.hpp>

#include "document/facts.h"
#include "document/knowledge.h"
#include "document/text.h"
#include "document/writers.h"

namespace errdex {
namespace {

// commonSituations items that triggerScenarios already says are dropped.
std::optional<std::string> WithoutRepeats(std::optional<std::string> situations, const std::string& triggers) {
  if (!situations) return situations;
  auto line = [](std::string_view s) { return " " + doc::SpacedWords(s); };
  std::string trig = line(triggers);
  std::string kept;
  const std::string& cs = *situations;
  size_t b = 0;
  for (size_t i = 0; i <= cs.size(); ++i) {
    if (i < cs.size() && cs[i] != ';') continue;
    std::string item = doc::Trim(cs.substr(b, i - b));
    b = i + 1;
    if (!item.empty() && item.back() == '.') item.pop_back();
    std::string w = line(item);
    if (item.empty() || (w.size() > 8 && trig.find(w) != std::string::npos)) continue;
    kept += (kept.empty() ? "" : "; ") + item;
  }
  if (kept.empty()) return std::nullopt;
  return kept + ".";
}

}  // namespace

namespace {

// Other languages' conditions in the form the parser reads (guards.h NormalizeGuard).
Site Normalized(const Site& site_in) {
  Site s = site_in;
  auto norm = [&](const std::string& g) {
    return doc::NormalizeGuard(g.size() > 20000 ? std::string_view(g).substr(0, 20000) : std::string_view(g), site_in.language);
  };
  for (auto& g : s.guards) g = norm(g);
  if (s.assert_condition) s.assert_condition = norm(*s.assert_condition);
  return s;
}

// Each `code span` of `text` replaced by f(span); the words around them stay.
template <typename F>
void MapCodeSpans(std::string* text, const F& f) {
  std::string out;
  size_t i = 0;
  while (i < text->size()) {
    size_t b = text->find('`', i);
    size_t e = b == std::string::npos ? std::string::npos : text->find('`', b + 1);
    if (e == std::string::npos) break;
    out.append(*text, i, b + 1 - i);
    out += f(std::string_view(*text).substr(b + 1, e - b - 1));
    out += '`';
    i = e + 1;
  }
  if (i == 0) return;
  out.append(*text, i, std::string::npos);
  *text = std::move(out);
}

// The same over the fields a user reads as prose. `documentation` only when
// `with_documentation`: its "(in the code: ...)" quotes the code as written.
template <typename F>
void MapProseCodeSpans(Record* r, bool with_documentation, const F& f) {
  if (with_documentation && r->documentation) MapCodeSpans(&*r->documentation, f);
  for (std::optional<std::string>* field : {&r->trigger_scenarios, &r->common_situations})
    if (*field) MapCodeSpans(&**field, f);
  for (std::optional<std::vector<std::string>>* field : {&r->solutions, &r->prevention_tips})
    if (*field)
      for (std::string& s : **field) MapCodeSpans(&s, f);
}

const char* KindName(doc::SubjectKind k) {
  switch (k) {
    case doc::SubjectKind::kFlag: return "flag";
    case doc::SubjectKind::kField: return "field";
    case doc::SubjectKind::kEnv: return "env";
    case doc::SubjectKind::kParam: return "argument";
    case doc::SubjectKind::kMissingAttr: return "missing-attribute";
    case doc::SubjectKind::kMissingModule: return "missing-module";
    case doc::SubjectKind::kHardware: return "hardware";
    case doc::SubjectKind::kVersion: return "version";
    case doc::SubjectKind::kType: return "type";
    case doc::SubjectKind::kShape: return "shape";
    case doc::SubjectKind::kTensor: return "tensor";
    case doc::SubjectKind::kSelfState: return "state";
    case doc::SubjectKind::kRequest: return "request";
    default: return "code";
  }
}

}  // namespace

std::string DocumentFactsJson(const Site& site_in, const SiteContext& context, const RepoKnowledge& repo) {
  using nlohmann::ordered_json;
  Site foreign;
  const Site* site = &site_in;
  if (site_in.language != "python") {
    foreign = Normalized(site_in);
    site = &foreign;
  }
  doc::SiteFacts sf = doc::BuildSiteFacts(*site, context, doc::AsIndex(repo), nullptr);
  ordered_json conds = ordered_json::array();
  for (const auto& f : sf.facts)
    conds.push_back({{"kind", f.disjunction ? "code" : KindName(f.subj.kind)},
                     {"code", f.code},
                     {"user", doc::UserTerm(sf, f)},
                     {"earlierBranch", f.from_else}});
  ordered_json j = {{"conditions", std::move(conds)},
                    {"messageAdvice", sf.hints.sentences},
                    {"messageAllowed", sf.hints.allowed},
                    {"notes", sf.sibling_notes},
                    {"backgroundTag", sf.background_tag}};
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

void DocumentRecord(const Site& site_in, const SiteContext& context, const RepoKnowledge& repo, Record* r, DocDeps* deps) {
  const doc::KnowledgeIndex* k = doc::AsIndex(repo);
  const Site* site = &site_in;
  Site foreign;
  if (site_in.language != "python") {
    // Other languages' conditions are read through the same parser in their Python form.
    foreign = Normalized(site_in);
    site = &foreign;
  }
  doc::SiteFacts sf = doc::BuildSiteFacts(*site, context, k, deps);
  r->background_tag = sf.background_tag;
  r->severity = doc::SeverityFor(sf.evidence, sf.background_tag);
  r->error_type = doc::ErrorTypeFor(sf.evidence);
  r->handling_strategy = doc::HandlingStrategyFor(sf.evidence, sf.background_tag);
  r->documentation = doc::WriteDocumentation(sf);
  r->trigger_scenarios = doc::WriteTriggers(sf);
  r->common_situations = WithoutRepeats(doc::WriteSituations(sf), *r->trigger_scenarios);
  r->solutions = doc::WriteSolutions(sf);
  r->example_fix = doc::WriteExampleFix(sf);
  r->validation_code = doc::WriteValidation(sf);
  r->type_guard = doc::WriteTypeGuard(sf);
  r->try_catch_pattern = doc::WriteTryCatch(sf);
  r->prevention_tips = doc::WritePreventionTips(sf, r->solutions ? *r->solutions : std::vector<std::string>{}, r->validation_code.has_value());
  r->tags = doc::WriteTags(sf);
  if (site_in.language != "python") {
    // Code spans in the site's own language (`err != nil`, not the Python form the
    // parser read, `err is not None`).
    MapProseCodeSpans(r, true, [&](std::string_view code) { return doc::ForeignCode(code, site_in.language); });
  } else {
    // Flags read through their settings object as the flag the user types
    // ("`--nheads % --ngroups != 0`"); exampleFix and the other code fields keep
    // `args.nheads`: there it is the code the user edits.
    MapProseCodeSpans(r, false, [&](std::string_view code) { return doc::FlagsAsOptions(sf, code, deps); });
  }
}

}  // namespace errdex
