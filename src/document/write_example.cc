// document/write_example.cc: exampleFix -- `# before` / `# after` in the form the
// user types: the command line (flags, env vars), pip, a call with other arguments
// (a value, a converted tensor), a request with the missing field, the method to
// call first, the override a subclass needs. The first form that the facts support
// wins (settings, installed packages, the message's own hint, the call, the
// request, the object's state, an abstract method); null when none does. Before
// and after always differ. This file: the forms outside a call, and the order;
// the call's forms are write_example_call.cc, write_example_ints.cc and
// write_example_presence.cc, the message's and pip's write_example_hint.cc, the
// calls of Go, Rust and C/C++ functions write_example_brace.cc.
// Tested by documenter_test.cc and tests/prose/.
#include "document/write_example.h"

#include <algorithm>
#include <set>

#include "document/text.h"
#include "document/values.h"
#include "document/writers.h"

namespace errdex::doc {

std::string BeforeAfter(const std::string& before, const std::string& after) {
  if (Trim(before) == Trim(after) || Trim(after).empty()) return "";
  return "# before\n" + before + "\n# after\n" + after;
}

namespace {

// A settings field that takes a value (not a bool) of a type with a sample, and
// whose type is not what the site tests (`elif not isinstance(self.x, int)` after
// `if self.x is None`: the type example says it).
bool ValueField(const SiteFacts& sf, const Subject& s) {
  return s.kind == SubjectKind::kField && !IsBoolField(s) && !FieldSample(*s.field).empty() &&
         !TypeTestedArgument(sf, s.field->name);
}

// Command line (or config constructor) before/after for the setting facts.
std::optional<std::string> SettingsFix(const SiteFacts& sf) {
  std::vector<const Fact*> settings;
  for (const auto& f : sf.facts)
    if (f.subj.IsSetting() && !f.disjunction) settings.push_back(&f);
  if (settings.empty()) return std::nullopt;
  // A missing package inside is what the fix is about (pip), not the settings around it.
  const Subject& inner = sf.facts.back().subj;
  if (inner.kind == SubjectKind::kMissingAttr || inner.kind == SubjectKind::kMissingModule || inner.kind == SubjectKind::kVersion)
    return std::nullopt;
  // The setting to change: the innermost one with a known good value.
  const Fact* flip = nullptr;
  std::string flip_to;
  bool drop = false;
  // The flag the message itself says what to pass for ("or use `--gpu_ids='all'`") first.
  for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
    const Fact* f = *it;
    if (f->subj.kind != SubjectKind::kFlag) continue;
    auto hv = sf.hints.flag_values.find(f->subj.flag->Primary());
    if (hv == sf.hints.flag_values.end() || hv->second.empty()) continue;
    std::string v = FixValue(sf, *f);
    if (!v.empty()) flip = f, flip_to = v;
  }
  for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
    const Fact* f = *it;
    std::string v = FixValue(sf, *f);
    bool given_test = (f->subj.kind == SubjectKind::kFlag || ValueField(sf, f->subj)) &&
                      (f->atom.op.empty() || Trim(f->atom.rhs) == "None");
    if (!v.empty() || (f->atom.op.empty() && (IsBoolFlag(f->subj) || IsBoolField(f->subj) || f->subj.kind == SubjectKind::kEnv)) ||
        given_test) {
      flip = f;
      flip_to = v;
    }
  }
  if (!flip) {
    // `--quantization nvfp4_online` on the wrong GPU: an optional flag can be left out.
    for (auto it = settings.rbegin(); it != settings.rend() && !flip; ++it) {
      const Fact* f = *it;
      auto def = DefaultOf(f->subj);
      if (f->subj.kind == SubjectKind::kFlag && (f->atom.op == "==" || f->atom.op == "in") && f->atom.rhs_strings &&
          (!def || *def == "None" || def->empty()))
        flip = f, drop = true;
    }
  }
  if (!flip) return std::nullopt;
  // A config class's fields are one call and flags one command line: the example shows
  // the flip's kind only (a field and a flag of the same name elsewhere do not mix).
  const bool fields = flip->subj.kind == SubjectKind::kField;
  settings.erase(std::remove_if(settings.begin(), settings.end(),
                                [&](const Fact* f) { return (f->subj.kind == SubjectKind::kField) != fields; }),
                 settings.end());
  std::vector<std::string> before, after;
  std::string tail;  // a comment after the "before" line
  std::set<std::string> seen;
  for (const auto* f : settings) {
    std::string key = f->subj.Key();
    if (seen.count(key)) continue;
    const Fact* use = f;
    for (const auto* g : settings)
      if (g->subj.Key() == key && !g->from_else) use = g;
    seen.insert(key);
    const Subject& us = use->subj;
    const Atom& ua = use->atom;
    bool is_flip = flip->subj.Key() == key;
    std::string bform, aform;
    const bool given_test = ua.op.empty() || Trim(ua.rhs) == "None";
    const bool value_flag = us.kind == SubjectKind::kFlag && !IsBoolFlag(us) && !us.flag->IsTrueFalseProperty();
    if (given_test && (value_flag || ValueField(sf, us))) {
      // A setting that takes a value, tested for being given (`if args.x:` / `x is not None`):
      // a flag with argparse's metavar, a field with a value of its type.
      bool given_fails = ua.op.empty() ? !ua.falsy : ua.op == "is not";
      std::string with = value_flag ? us.flag->With(Upper(us.flag->dest)) : us.field->name + "=" + FieldSample(*us.field);
      bform = given_fails ? with : "";
      aform = given_fails ? "" : with;
    } else {
      std::string b = TriggerValue(sf, *use);
      if (b.empty() && is_flip && ua.rhs_strings && (ua.op == "not in" || ua.op == "!=")) {
        // No known choice that fails: the flag with argparse's metavar (a value elsewhere),
        // and what it must not be.
        b = us.kind != SubjectKind::kFlag ? "..." : us.flag->IsProperty() ? "other" : Upper(us.flag->dest);
        tail = "  # not " + JoinSome(ua.values, "or", 6);
      }
      if (b.empty() && !ua.op.empty()) continue;
      bform = SettingForm(us, b, ua);
      if (bform.empty() && !(is_flip && ua.op.empty())) continue;
      aform = ua.op.empty() ? NegatedForm(us, ua) : SettingForm(us, flip_to, ua);
    }
    if (!bform.empty()) before.push_back(bform);
    if (is_flip) {
      if (!drop && !aform.empty()) after.push_back(aform);
    } else if (!bform.empty()) {
      after.push_back(bform);
    }
  }
  // Env vars go first on a command line (X=1 cmd ...); fields are Python; `unset X`
  // is a command of its own, on the line before.
  std::string sep = fields ? ", " : " ";
  auto join = [&](const std::vector<std::string>& xs) {
    std::string o, unsets;
    for (auto& x : xs) {
      if (StartsWith(x, "unset ")) unsets += x + "\n";
      else o += (o.empty() ? "" : sep) + x;
    }
    if (!unsets.empty() && o.empty()) unsets.pop_back();
    return unsets + o;
  };
  std::string b = join(before), a = join(after);
  if (fields) {
    // The first field's class: a subclass's own fields come before its base's.
    // The class the user builds (a subclass checking a base's field) else the field's.
    std::string cls = BuiltClass(sf, *settings[0]->subj.field);
    if (cls.empty()) cls = settings[0]->subj.field->class_name;
    b = cls + "(" + b + ")";
    a = cls + "(" + a + ")";
  }
  std::string left_out = SettingRef(flip->subj);
  if (b.empty()) b = "# (without " + left_out + ")";
  else b += tail;
  if (Trim(a).empty() || a == "()" || EndsWith(a, "()")) a = fields ? a : "# (without " + left_out + ")";
  std::string fx = BeforeAfter(b, a);
  if (fx.empty()) return std::nullopt;
  return fx;
}

// The request with the missing (or bad) field, and with the field a good value.
std::optional<std::string> RequestFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    std::string where, field;
    if (s.kind == SubjectKind::kRequest) {
      where = s.module, field = s.attr;
    } else if (s.kind == SubjectKind::kParam && !c.route.empty()) {
      // A parameter of a route function: a path parameter when the route names it, else a query parameter.
      field = s.param;
      where = Has(c.route, "{" + field + "}") || Has(c.route, "{" + field + ":") ? "path" : "query";
    } else {
      if (s.kind == SubjectKind::kCode || s.kind == SubjectKind::kSelfState) return std::nullopt;
      continue;
    }
    bool missing = (a.op.empty() && a.falsy) || (a.op == "is" && Trim(a.rhs) == "None");
    std::string bad_v, good_v;
    long b, g;
    if (missing) good_v = "...";
    else if (a.rhs_strings && !a.values.empty() && (a.op == "not in" || a.op == "!=")) bad_v = "other", good_v = a.values[0];
    else if (IntBound(a, &b, &g)) bad_v = std::to_string(b), good_v = std::to_string(g);
    else continue;
    std::string method = c.route_method.empty() ? (where == "body" || where == "form" ? "POST" : "GET") : c.route_method;
    std::string path = c.route.empty() ? "/..." : c.route;
    auto line = [&](const std::string& v, bool present) {
      if (where == "body" || where == "form") {
        std::string body = present ? "{\"" + field + "\": " + (v == "..." || !IntLiteral(v, &b) ? "\"" + v + "\"" : v) + "}" : "{}";
        return method + " " + path + "  " + body;
      }
      if (where == "query") return method + " " + path + (present ? "?" + field + "=" + v : "");
      if (where == "header") return method + " " + path + (present ? "  " + field + ": " + v : "  (no " + field + " header)");
      if (where == "cookie") return method + " " + path + (present ? "  Cookie: " + field + "=" + v : "  (no " + field + " cookie)");
      // path parameter
      std::string p = path;
      size_t at = p.find("{" + field);
      if (at != std::string::npos) p = p.substr(0, at) + v + p.substr(p.find('}', at) + 1);
      else p += "/" + v;
      return method + " " + p;
    };
    std::string fx = missing ? BeforeAfter(line("", false), line(good_v, true)) : BeforeAfter(line(bad_v, true), line(good_v, true));
    if (!fx.empty()) return fx;
  }
  return std::nullopt;
}

// self.<attr> is in the failing state: call the method that sets it first, or call
// before the method that resets it.
std::optional<std::string> StateFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  if (sf.facts.empty() || c.def_name.empty() || c.class_name.empty() || c.def_name == "__init__") return std::nullopt;
  const Fact& f = sf.facts.back();
  std::vector<std::string> set, reset;
  StateMethods(sf, f, &set, &reset);
  // Python's `obj = C(...)`; Java's `C c = new C(...);` with statements ending in ';'.
  const bool java = sf.site->language == "java";
  const std::string o = InstanceName(sf), end = java ? ";" : "", note = java ? "  // " : "  # ";
  const std::string attr = (java ? "this." : "self.") + f.subj.attr;
  std::string obj = java ? c.class_name + " " + o + " = new " + c.class_name + "(...);\n" : "obj = " + c.class_name + "(...)\n";
  std::string me = o + "." + c.def_name + "(...)" + end;
  if (!set.empty())
    return "# before\n" + obj + me + note + attr + " not set yet\n# after\n" + obj + o + "." + set[0] + "(...)" + end + note +
           "sets " + attr + "\n" + me;
  if (!reset.empty())
    return "# before\n" + obj + o + "." + reset[0] + "()" + end + "\n" + me + note + "after " + reset[0] + "()\n# after\n" + obj + me +
           "\n" + o + "." + reset[0] + "()" + end;
  return std::nullopt;
}

// An abstract method (AbstractMethod): a subclass that overrides it.
std::optional<std::string> OverrideFix(const SiteFacts& sf) {
  if (!AbstractMethod(sf)) return std::nullopt;
  std::string params;
  for (const auto& p : sf.ctx->params) {
    if (p.name == "self" || p.name == "cls") continue;
    params += ", " + std::string(p.star ? "*" : "") + p.name;
    if (params.size() > 60) break;
  }
  std::string self = !sf.ctx->params.empty() && sf.ctx->params[0].name == "cls" ? "cls" : "self";
  return "# before\nclass My" + sf.ctx->class_name + "(" + sf.ctx->class_name + "):\n    ...  # no " + sf.ctx->def_name +
         "\n# after\nclass My" + sf.ctx->class_name + "(" + sf.ctx->class_name + "):\n    def " + sf.ctx->def_name + "(" + self +
         params + "):\n        ...";
}

}  // namespace

std::optional<std::string> WriteExampleFix(const SiteFacts& sf) {
  // A variable the guards test and the message gives values for: the message's value
  // (export SOC_VERSION="ascend910b1"), not a guessed one.
  for (const auto& f : sf.facts)
    if (f.subj.kind == SubjectKind::kEnv)
      for (const auto& e : sf.hints.env_sets)
        if (StartsWith(e, f.subj.env + "=")) return "# before\n# (" + f.subj.env + " not set)\n# after\nexport " + e;
  if (auto s = SettingsFix(sf)) return s;
  if (auto p = PackageFix(sf)) return p;
  if (auto h = HintFix(sf)) return h;
  // Go, Rust and Java have no tensor checks: their own call form (`Pairs.of(left, null)`,
  // `load(path, "")`) comes first.
  if (const std::string& l = sf.site->language; l == "java" || l == "go" || l == "rust")
    if (auto b = BraceCallFix(sf)) return b;
  if (auto c = CallFix(sf)) return c;  // first: its tensor conversions hold for C++ kernels too
  if (auto b = BraceCallFix(sf)) return b;
  if (auto p = PresenceFix(sf)) return p;
  if (auto d = DevicePairFix(sf)) return d;
  if (auto r = RequestFix(sf)) return r;
  if (auto s = StateFix(sf)) return s;
  return OverrideFix(sf);
}

}  // namespace errdex::doc
