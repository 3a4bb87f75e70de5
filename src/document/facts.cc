// document/facts.cc: see facts.h. What each atom tests is read by facts_subjects.cc.
// Tested by documenter_test.cc, prose_terms_test.cc and the seed tests.
#include "document/facts.h"
#include "document/facts_subjects.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "document/text.h"
#include "document/values.h"

namespace errdex::doc {
namespace {

std::string JoinCode(const std::vector<Atom>& atoms) {
  std::string o;
  for (const auto& a : atoms) o += (o.empty() ? "" : " or ") + OneLine(a.Code());
  return o;
}

}  // namespace

SiteFacts BuildSiteFacts(const Site& site, const SiteContext& ctx, const KnowledgeIndex* k, DocDeps* deps) {
  SiteFacts sf;
  sf.site = &site;
  sf.ctx = &ctx;
  sf.k = k;
  sf.func = LastComponent(site.function);
  if (sf.func == "<init>" && !ctx.class_name.empty()) sf.func = ctx.class_name;  // Java's constructor: `Range(...)`
  sf.where = BT(Clip(site.function, 120)) + " (" + site.file_path + ":" + std::to_string(site.line) + ")";
  SubjectResolver res(site, ctx, k, deps);

  size_t first = site.guards.size() > kMaxGuards ? site.guards.size() - kMaxGuards : 0;
  sf.guards_omitted = (int)first;
  std::vector<Clause> clauses;
  for (size_t i = first; i < site.guards.size(); ++i) {
    const std::string& g = site.guards[i];
    if (g.size() > 20000) {
      // An input-sized guard: one opaque atom, never parsed or shown whole.
      Clause c;
      c.guard = (int)i;
      Atom a;
      a.lhs = g.substr(0, 200);
      c.any_of.push_back(a);
      clauses.push_back(std::move(c));
      continue;
    }
    ParseGuard(g, (int)i, &clauses);
  }
  // Earlier exiting ifs of the site's block: each test is false here (an else-fact).
  int next_guard = (int)site.guards.size();
  sf.exit_branches.reserve(ctx.exits.size());
  for (const auto& [line, test] : ctx.exits) {
    if (test.size() > 4096) continue;
    BranchInfo b;
    b.guard = next_guard++;
    b.line = line;
    b.test = test;
    b.returns = true;
    sf.exit_branches.push_back(b);
    ParseGuard("not (" + test + ")", b.guard, &clauses);
  }
  // A condition that must hold (assert, TORCH_CHECK, CHECK, ensure!): its negation is the innermost fact.
  if (site.assert_condition && !site.assert_condition->empty() && site.assert_condition->size() <= 4096) {
    size_t before = clauses.size();
    ParseCondition(*site.assert_condition, true, next_guard++, &clauses);
    sf.checked_condition = clauses.size() > before;
  }
  std::vector<Fact> facts;
  facts.reserve(clauses.size());
  for (auto& c : clauses) {
    Fact f;
    f.guard = c.guard;
    f.from_else = c.from_else;
    if (c.any_of.size() == 1) {
      f.atom = c.any_of[0];
      if ((f.atom.op.empty() && IsConstantExpr(f.atom.lhs)) ||
          (!f.atom.op.empty() && IsConstantExpr(f.atom.lhs) && IsConstantExpr(f.atom.rhs)) ||
          (Trim(f.atom.lhs) == "__name__" && f.atom.op == "==")) {  // run as a script: no condition a user meets
        if (Trim(f.atom.lhs) == "__name__") sf.as_script = true;
        else sf.constant_guard = true;  // `while True`, `if 1`: no condition at all
        continue;
      }
      if (k && !f.atom.rhs_strings && (f.atom.op == "==" || f.atom.op == "!=" || f.atom.op == "is" || f.atom.op == "is not")) {
        // `mode == Quantization.gptq`: the Enum member's value, as the user writes it.
        std::string r = Trim(f.atom.rhs);
        size_t dot = r.rfind('.');
        if (IsDotted(r) && dot != std::string::npos) {
          auto en = k->data().enums.find(LastComponent(r.substr(0, dot)));
          if (en != k->data().enums.end())
            for (const auto& [m, v] : en->second)
              if (m == r.substr(dot + 1)) {
                f.atom.values = {v};
                f.atom.rhs_strings = true;
                if (f.atom.op == "is") f.atom.op = "==";
                if (f.atom.op == "is not") f.atom.op = "!=";
              }
        }
      }
      if (k && !f.atom.rhs_strings && (f.atom.op == "in" || f.atom.op == "not in")) {
        // `x not in SUPPORTED` / `x not in MODES.keys()`: the constant's values.
        std::string r = Trim(f.atom.rhs);
        if (EndsWith(r, ".keys()")) r = r.substr(0, r.size() - 7);
        if (EndsWith(r, ".__members__")) {
          // `x not in Mode.__members__`: the Enum's member names.
          auto en = k->data().enums.find(LastComponent(r.substr(0, r.size() - 12)));
          if (en != k->data().enums.end() && !en->second.empty()) {
            f.atom.values.clear();
            for (const auto& [m, v] : en->second) f.atom.values.push_back(m);
            f.atom.rhs_strings = true;
            f.atom_constant = r;
          }
        } else if (IsDotted(r)) {
          auto it = k->data().list_constants.find(LastComponent(r));
          if (it != k->data().list_constants.end() && !it->second.empty()) {
            f.atom.values = it->second;
            f.atom.rhs_strings = true;
            f.atom_constant = r;
          }
        }
      }
      if (!f.atom.rhs_strings && (f.atom.op == "in" || f.atom.op == "not in")) {
        // `x not in qtype_map` with `qtype_map = {"fp4": ..., "int4": ...}` (or a list, tuple or
        // set of string or integer literals) assigned on the path or at module level: its keys
        // (items) are the values, as if written in the test.
        std::string r = Trim(f.atom.rhs);
        if (EndsWith(r, ".keys()")) r = r.substr(0, r.size() - 7);
        if (IsIdent(r) && !res.Param(r))
          if (const std::string* v = res.Assigned(r)) {
            std::vector<std::string> items;
            if (LiteralContainerItems(*v, &items, /*qualified_names=*/true) && !items.empty()) {
              std::string list;
              for (const auto& it : items) list += (list.empty() ? "" : ", ") + it;
              std::vector<Clause> parsed;
              ParseGuard("_ in (" + list + (items.size() == 1 ? ",)" : ")"), 0, &parsed);
              if (parsed.size() == 1 && parsed[0].any_of.size() == 1 && parsed[0].any_of[0].rhs_strings &&
                  parsed[0].any_of[0].values.size() == items.size()) {
                f.atom.values = parsed[0].any_of[0].values;
                f.atom.rhs_strings = true;
                f.atom.rhs_numbers = parsed[0].any_of[0].rhs_numbers;
                f.atom_constant = r;
              } else if (parsed.size() == 1 && parsed[0].any_of.size() == 1 &&
                         parsed[0].any_of[0].constants.size() == items.size()) {
                // `_SUPPORTED = (torch.float16, torch.bfloat16)`: names a caller types.
                f.atom.constants = parsed[0].any_of[0].constants;
                f.atom_constant = r;
              }
            }
          }
      }
      f.subj = res.Resolve(f.atom);
      f.code = Clip(OneLine(f.atom.Code()), kMaxExpr);
    } else {
      f.disjunction = true;
      f.any_of = c.any_of;
      f.code = Clip(JoinCode(c.any_of), kMaxExpr);
      f.atom.lhs = "(" + f.code + ")";
    }
    if (f.from_else) {
      for (const auto& b : ctx.branches)
        if (!b.own && b.guard == f.guard) f.branch = &b;
      for (const auto& b : sf.exit_branches)
        if (b.guard == f.guard) f.branch = &b;
    }
    facts.push_back(std::move(f));
  }
  // The same test twice (nested ifs) is one fact.
  {
    std::vector<Fact> uniq;
    uniq.reserve(facts.size());
    std::set<std::string> seen;
    for (auto& f : facts)
      if (seen.insert(f.code + "|" + f.subj.via + "|" + (f.from_else ? "e" : "")).second) uniq.push_back(std::move(f));
    facts = std::move(uniq);
  }
  // Else-facts of one subject ("!= a", "!= b", "not in [c]") are one "none of" fact.
  {
    std::vector<Fact> merged;
    merged.reserve(facts.size());
    std::map<std::string, size_t> at;
    for (auto& f : facts) {
      bool mergeable = f.from_else && !f.disjunction && f.atom.rhs_strings && (f.atom.op == "!=" || f.atom.op == "not in") &&
                       f.subj.kind != SubjectKind::kCode;
      if (!mergeable) {
        merged.push_back(std::move(f));
        continue;
      }
      auto it = at.find(f.subj.Key());
      if (it == at.end()) {
        at[f.subj.Key()] = merged.size();
        if (f.branch) f.merged_lines.push_back(f.branch->line);
        merged.push_back(std::move(f));
        continue;
      }
      Fact& m = merged[it->second];
      m.atom.op = "not in";
      for (auto& v : f.atom.values)
        if (std::find(m.atom.values.begin(), m.atom.values.end(), v) == m.atom.values.end() && m.atom.values.size() < 64)
          m.atom.values.push_back(v);
      if (f.branch) m.merged_lines.push_back(f.branch->line);
      std::vector<std::string> q;
      for (auto& v : m.atom.values) q.push_back(PyQuote(v));
      m.atom.rhs = "[" + JoinSome(q, ",", 8) + "]";
      m.code = Clip(OneLine(Trim(m.atom.lhs) + " not in " + m.atom.rhs), kMaxExpr);
    }
    facts = std::move(merged);
  }
  // An else-clause is implied when a positive test pins the same subject.
  for (auto& f : facts) {
    if (!f.from_else || f.disjunction) continue;
    for (auto& g : facts)
      if (&g != &f && !g.from_else && !g.disjunction && g.subj.Key() == f.subj.Key() && (g.atom.op == "==" || g.atom.op == "is") &&
          (f.atom.op == "!=" || f.atom.op == "not in" || f.atom.op == "is not"))
        f.implied = true;
  }
  sf.facts.reserve(facts.size());
  for (auto& f : facts)
    if (!f.implied) sf.facts.push_back(f);
  for (const auto& f : sf.facts)
    if (f.subj.kind != SubjectKind::kCode && f.subj.kind != SubjectKind::kShape && f.subj.kind != SubjectKind::kSelfState)
      sf.any_user_subject = true;

  sf.hints = ReadHints(site, k, deps);

  // Earlier exiting ifs of the site's own block: one sentence for them all.
  {
    std::vector<std::string> tests;
    for (const auto& b : sf.exit_branches) {
      if (tests.size() >= 4) break;
      // In the user's terms when the exit tests one setting/argument.
      std::string term = BT(Clip(b.test, kMaxExpr));
      int atoms = 0;
      const Fact* only = nullptr;
      for (const auto& f : facts)
        if (f.guard == b.guard) ++atoms, only = &f;
      if (atoms == 1 && !only->disjunction && only->subj.kind != SubjectKind::kCode && only->subj.kind != SubjectKind::kShape &&
          only->merged_lines.size() <= 1)
        term = UserTermOf(sf, Positive(*only)).When();
      tests.push_back(term + " (line " + std::to_string(b.line) + ")");
    }
    if (!tests.empty())
      sf.sibling_notes.push_back("Earlier checks in " + BT(Clip(site.function, 120)) + " leave first when " + JoinSome(tests, "or", 4) +
                                 (sf.exit_branches.size() > 4 ? " (and " + std::to_string(sf.exit_branches.size() - 4) + " more)" : "") +
                                 "; only what none of them catches reaches this " + KindWord(site) + ".");
  }
  // Earlier branches: what they do and which values they take away.
  std::set<int> noted;
  for (const auto& f : facts) {
    if (!f.from_else || !f.branch || noted.count(f.guard)) continue;
    if (f.guard >= (int)site.guards.size()) continue;  // an exit: said above
    noted.insert(f.guard);
    const BranchInfo& b = *f.branch;
    std::vector<std::string> does;
    std::string name = f.subj.kind == SubjectKind::kCode ? LastComponent(f.subj.via.empty() ? Trim(f.atom.lhs) : f.subj.via) : f.subj.SettingName();
    std::string to;
    for (const auto& [n, v] : b.sets)
      if (n == name || n == f.subj.via || n == LastComponent(f.subj.expr)) {
        does.push_back("sets " + n + " to " + BT(v));
        if (to.empty()) to = v;
      }
    if (b.warns) does.push_back("logs a warning");
    if (!b.raises.empty()) does.push_back("raises " + b.raises + " instead");
    if (b.returns && b.raises.empty()) does.push_back("returns early");
    Fact pos = Positive(f);
    std::string from = (pos.atom.op == "==" && pos.atom.rhs_strings && pos.atom.values.size() == 1) ? pos.atom.values[0] : "";
    if (sf.sibling_notes.size() >= 3) continue;
    if (f.merged_lines.size() >= 2) {
      // An else-chain over one subject: one sentence for all its branches.
      std::vector<std::string> lines;
      for (int l : f.merged_lines) lines.push_back(std::to_string(l));
      sf.sibling_notes.push_back("Earlier branches (lines " + JoinSome(lines, "and", 6) + ") handle " +
                                 JoinSome(Ticked(f.atom.values), "and", 8) + " first; only other values of " +
                                 SettingRef(f.subj) + " reach this " + KindWord(site) + ".");
      continue;
    }
    std::string who = f.subj.IsSetting() && !f.disjunction ? UserTerm(sf, pos) : BT(Clip(b.test, kMaxExpr));
    if (does.empty() && from.empty()) continue;  // a branch that only takes other inputs says nothing new
    std::string s = "The earlier branch " + BT("if " + Clip(b.test, kMaxExpr) + ":") + " (line " + std::to_string(b.line) +
                    ") handles " + who + " first";
    if (!does.empty()) s += ": it " + JoinWords(does, "and");
    const Fact* pinned = nullptr;
    for (const auto& g : sf.facts)
      if (!g.from_else && g.subj.Key() == f.subj.Key() && g.atom.op == "==" && g.atom.rhs_strings) pinned = &g;
    if (pinned && !from.empty() && f.subj.IsSetting())
      s += ", so " + UserTerm(sf, pos) + " never reaches this " + KindWord(site) + "; only an explicit " + UserTerm(sf, *pinned) + " does.";
    else if (!from.empty() && f.subj.kind != SubjectKind::kCode)
      s += ", so " + BT(SettingValue(f.subj, from)) + " never reaches this " + KindWord(site) + ".";
    else
      s += ".";
    sf.sibling_notes.push_back(s);
    if (!from.empty() && !to.empty()) sf.rewrites[f.subj.Key()] = {from, to, b.line};
  }
  // What the site's own branch sets a tested setting to.
  for (const auto& f : sf.facts) {
    if (f.from_else || f.disjunction || !f.subj.IsSetting()) continue;
    for (const auto& b : ctx.branches) {
      if (!b.own || b.guard != f.guard) continue;
      for (const auto& [n, v] : b.sets)
        if ((n == f.subj.SettingName() || n == f.subj.via) && !Triggers(f, v)) sf.own_sets[f.subj.Key()] = v;
    }
  }

  // Evidence for the taxonomy.
  Evidence& ev = sf.evidence;
  ev.kind = site.kind;
  ev.error_class = site.error_class.value_or("");
  if (k && !ev.error_class.empty()) ev.base_class = k->ExternalBase(LastComponent(ev.error_class), site.file_path, deps);
  ev.log_level = site.log_level.value_or("");
  ev.http_status = site.http_status;
  ev.message = site.error_message ? site.error_message->substr(0, kMaxHintBytes) : "";
  ev.except_context = site.except_context.value_or("");
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if (s.kind == SubjectKind::kHardware) ev.hardware_guard = true;
    if (s.kind == SubjectKind::kMissingAttr && s.missing) {
      bool dtype = false;
      std::string l = Lower(s.attr);
      for (const char* w : {"float", "int8", "int4", "int16", "int32", "int64", "dtype", "bfloat", "fp8", "fp4", "fp16", "uint", "complex", "bool_"})
        if (Has(l, w)) dtype = true;
      if (l.size() >= 4)
        for (size_t i = 0; i + 3 < l.size(); ++i)
          if (l[i] == 'e' && std::isdigit((unsigned char)l[i + 1]) && l[i + 2] == 'm' && std::isdigit((unsigned char)l[i + 3])) dtype = true;
      if (dtype) ev.dtype_missing = true;
      else ev.module_missing = true;
    }
    if (s.kind == SubjectKind::kMissingModule && s.missing) ev.module_missing = true;
    if (s.kind == SubjectKind::kVersion) ev.module_missing = true;
    if (s.kind == SubjectKind::kType) ev.isinstance_guard = true;
    if (s.kind == SubjectKind::kShape) ev.shape_guard = true;
    if (s.IsSetting()) ++ev.setting_guards;
  }
  sf.background_tag = BackgroundTagFor(ev);
  if (deps) {
    std::sort(deps->used.begin(), deps->used.end());
    deps->used.erase(std::unique(deps->used.begin(), deps->used.end()), deps->used.end());
  }
  return sf;
}

}  // namespace errdex::doc
