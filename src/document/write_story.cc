// document/write_story.cc: documentation (what it means, where it comes from),
// triggerScenarios (the exact condition, how a run gets there) and
// commonSituations (the typical context, never the condition again).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "document/text.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

// `warnings.warn(msg, DeprecationWarning)`: a warning of that category, which the
// warnings filters show once, hide, or turn into an error -- not a logger's line.
bool IsPythonWarning(const Site& s) {
  return s.kind == SiteKind::kLog && s.language == "python" && s.log_level == "warn" && s.error_class &&
         EndsWith(*s.error_class, "Warning");
}

std::string Subjectless(const Site& s) {
  std::string o;
  if (IsPythonWarning(s)) o = "A " + BT(*s.error_class);
  else if (s.kind == SiteKind::kLog) o = "A log message";
  else if (s.error_class) o = BT(*s.error_class);
  else if (s.error_class_expr) o = "The error " + BT(Clip(*s.error_class_expr, 80));
  else o = "An error";
  if (s.http_status) o += " (HTTP " + std::to_string(*s.http_status) + ")";
  if (s.error_code) o += " with code " + BT(Clip(*s.error_code, 80));
  return o;
}

std::string Verb(const Site& s) {
  switch (s.kind) {
    case SiteKind::kAssert: return "fails in an assert";
    case SiteKind::kLog:
      return IsPythonWarning(s) ? "issued with `warnings.warn`" : "logged at " + s.log_level.value_or("warning") + " level";
    case SiteKind::kHttpResponse: return "returned to the HTTP client";
    default: return "raised";
  }
}

std::string CategorySentence(const SiteFacts& sf) {
  const std::string& tag = sf.background_tag;
  std::vector<std::string> settings;
  const Fact* cap = nullptr;
  for (const auto& f : sf.facts) {
    if (f.subj.IsSetting()) {
      std::string r = SettingRef(f.subj);
      if (std::find(settings.begin(), settings.end(), r) == settings.end()) settings.push_back(r);
    }
    if (f.subj.IsCapability()) cap = &f;
  }
  if (tag == "unsupported-configuration-combo")
    return settings.size() >= 2 ? "The combination of " + JoinWords(settings, "and") + " is rejected as unsupported."
                                : "This setting is rejected in combination with the configuration the message names.";
  if (tag == "missing-dtype-support" && cap)
    return "The installed " + BT(FirstComponent(cap->subj.module)) + " does not define " + BT(cap->subj.module + "." + cap->subj.attr) +
           ", which this code path needs; it fails here, before any work that would use it.";
  if ((tag == "missing-dependency" || tag == "unsupported-hardware") && cap)
    return "The environment lacks what this code path needs: " + UserTerm(sf, *cap) + ".";
  if (tag == "missing-dependency") return "A package or module this code needs could not be imported or found.";
  if (tag == "invalid-argument-value" && !settings.empty()) return "The value of " + JoinWords(settings, "or") + " is rejected here.";
  if (tag == "not-implemented") {
    if (AbstractMethod(sf))
      return BT(sf.ctx->def_name) + " is not implemented by " + BT(sf.ctx->class_name) + " itself: a subclass must provide it.";
    return "This case is not implemented in this code path.";
  }
  if (tag == "type-error") return "A value of an unexpected type reached this check.";
  if (tag == "key-not-found") return "A lookup (key, index or attribute) found nothing.";
  if (tag == "assertion-failure") return "An internal invariant checked by the assert does not hold.";
  if (tag == "shape-mismatch") return "Sizes or shapes of the inputs do not agree.";
  if (tag == "resource-exhausted") return "A size or resource limit was exceeded.";
  if (tag == "io-error") return "A file-system or I/O operation failed.";
  if (tag == "network-error") return "A network operation failed or timed out.";
  if (tag == "http-client-error") return "The request is rejected as a client error.";
  if (tag == "http-server-error") return "The server reports a failure on its side.";
  if (tag == "deprecated-usage") return "A deprecated usage was detected.";
  if (tag == "invalid-state") return "The object or process is not in the state this operation requires.";
  if (tag == "runtime-warning")
    return IsPythonWarning(*sf.site) ? "The program goes on after it, unless the warnings filters turn it into an error "
                                       "(`python -W error`, `warnings.simplefilter(\"error\")`)."
                                     : "The program goes on after logging it.";
  return "";
}

bool IsParamLike(const Fact& f) { return !f.subj.param.empty(); }

// A Go type switch's case (`switch v := value.(type) { case float64:`), which the
// extractor writes as `value.(type) is float64`: "`value` is a `float64`", "`value`
// is an `int` or an `int64`", "`value` is nil". Empty for any other fact.
std::string GoTypeCase(const Fact& f) {
  const std::string code = Trim(f.code);
  const std::string mark = ".(type) is ";
  size_t p = code.find(mark);
  if (f.disjunction || p == std::string::npos || f.subj.via.size() || p == 0) return "";
  std::string value = code.substr(0, p);
  bool negated = StartsWith(value, "not ");
  if (negated) value = Trim(value.substr(4));
  if (value.empty() || value.find(' ') != std::string::npos) return "";
  std::vector<std::string> types;
  std::string rest = code.substr(p + mark.size());
  for (size_t b = 0; b <= rest.size();) {
    size_t e = b;
    int depth = 0;
    while (e < rest.size() && (depth > 0 || rest[e] != ',')) {
      if (rest[e] == '(' || rest[e] == '[' || rest[e] == '{') ++depth;
      if (rest[e] == ')' || rest[e] == ']' || rest[e] == '}') --depth;
      ++e;
    }
    std::string t = Trim(rest.substr(b, e - b));
    if (t.empty()) return "";
    if (t == "nil") types.push_back("nil");
    else types.push_back(std::string(std::strchr("aeiouAEIOU", t[0]) ? "an " : "a ") + BT(t));
    b = e + 1;
  }
  if (types.empty() || types.size() > 6) return "";
  return BT(value) + (negated ? " is not " : " is ") + JoinWords(types, "or");
}

// The condition of a code fact, in words where the code allows.
std::string CodeCondition(const Fact& f) {
  const Atom& a = f.atom;
  std::string lhs = Trim(a.lhs);
  // A JavaScript `switch (x)` default branch.
  if (!f.disjunction && a.op.empty() && StartsWith(lhs, "switch (") && EndsWith(lhs, "): default"))
    return BT(lhs.substr(8, lhs.size() - 18)) + " matched none of the `case`s of its `switch`";
  // Go's `switch` default branch (and Java's): no case above it matched. "`default` is
  // true" names a keyword, not a condition.
  if (!f.disjunction && a.op.empty() && lhs == "default")
    return a.falsy ? "one of the `case`s of its `switch` matched" : "none of the `case`s of its `switch` matched";
  if (!f.disjunction && a.op.empty()) return BT(Clip(OneLine(lhs), 160)) + (a.falsy ? " is false or empty" : " is true");
  if (std::string t = GoTypeCase(f); !t.empty()) return t;
  return CodeTerm(f);
}

// The fact as a clause after "when".
std::string WhenClause(const SiteFacts& sf, const Fact& f) {
  if (f.subj.kind == SubjectKind::kCode || f.subj.kind == SubjectKind::kShape) return CodeCondition(f);
  return UserTermOf(sf, f).When();
}

// An assert on a constant: `assert 1` always holds; `assert 0`, `assert False` and
// C's `assert(false && "why")` fail whenever reached (a path the code does not support).
enum class ConstantAssert { kNone, kHolds, kFails };
ConstantAssert ConstantAssertOf(const Site& site, std::string* shown) {
  // An assert, or a checked raise (TVM_FFI_ICHECK(false) in a dispatch's default:, Rust's
  // assert!(false)): C's and Java's `false`/`true` are Python's.
  if (!site.assert_condition) return ConstantAssert::kNone;
  std::string c = Trim(OneLine(*site.assert_condition));
  if (c == "false" || c == "(false)") c = "False";
  else if (c == "true" || c == "(true)") c = "True";
  while (c.size() >= 2 && c.front() == '(' && c.back() == ')') c = Trim(c.substr(1, c.size() - 2));
  bool negated = StartsWith(c, "not ");
  std::string v = negated ? Trim(c.substr(4)) : c;
  for (const char* lead : {"False and ", "0 and ", "None and "})
    if (!negated && StartsWith(v, lead)) v = Trim(v.substr(0, v.find(' ')));
  if (v.empty() || !IsConstantExpr(v) || v == "__debug__" || v == "...") return ConstantAssert::kNone;
  double num = 0;
  bool zero = (std::isdigit((unsigned char)v[0]) || v[0] == '-' || v[0] == '+') && std::sscanf(v.c_str(), "%lf", &num) == 1 && num == 0;
  bool falsy = v == "False" || v == "None" || v == "\"\"" || v == "''" || zero;
  *shown = Clip(c, 80);
  return falsy != negated ? ConstantAssert::kFails : ConstantAssert::kHolds;
}

}  // namespace

std::string CodeTerm(const Fact& f) {
  std::string c = BT(f.code);
  if (!f.subj.via.empty()) c += " (" + BT(f.subj.via) + " = " + BT(f.subj.expr) + ")";
  return c;
}

// thiserror's `#[error("...")]` on a variant defines how an error displays; the code
// that fails is wherever the variant is built. `Enum::Variant` when the enum is known.
bool IsErrorDefinition(const Site& s) { return s.error_class_expr && *s.error_class_expr == "#[error]" && s.error_class; }
std::string DefinedError(const SiteFacts& sf) {
  const std::string& v = *sf.site->error_class;
  return sf.ctx->class_name.empty() || sf.ctx->class_name == v ? v : sf.ctx->class_name + "::" + v;
}

std::string WriteDocumentation(const SiteFacts& sf) {
  const Site& site = *sf.site;
  std::string doc = Subjectless(site) + " " + Verb(site) + " by " + sf.where;
  if (IsErrorDefinition(site))
    doc = BT(DefinedError(sf)) + " (" + site.file_path + ":" + std::to_string(site.line) +
          ") is an error type this code defines; its `#[error]` attribute says how it displays, wherever the code returns it";
  std::vector<std::string> conds;
  for (const auto& f : sf.facts) conds.push_back(WhenClause(sf, f));
  if (!conds.empty()) {
    doc += " when " + JoinSome(conds, "and", 6);
    if (sf.guards_omitted > 0) doc += " (inside " + std::to_string(sf.guards_omitted) + " more enclosing conditions)";
  } else if (std::string k; ConstantAssertOf(site, &k) == ConstantAssert::kHolds) {
    doc += "; its condition is the constant " + BT(k) + ", which always holds, so it does not fail as written";
  } else if (ConstantAssertOf(site, &k) == ConstantAssert::kFails) {
    doc += " whenever that line is reached: its condition is the constant " + BT(k) + ", so it marks a path the code does not support";
  } else if (site.kind == SiteKind::kAssert && site.assert_condition) {
    doc += " when " + BT(Clip(OneLine(*site.assert_condition), 160)) + " is false";
  } else if (sf.constant_guard) {
    doc += ", on every pass of its `while True` loop that gets to this line";
  } else if (sf.as_script) {
    doc += ", when the file is run as a script (" + BT("python " + site.file_path) + "), not when it is imported";
  } else if (!IsErrorDefinition(site)) {
    doc += ", unconditionally once that line is reached";
  }
  if (site.except_context) doc += ", while handling " + BT(Clip(*site.except_context, 120));
  // Where the user's terms stand for code, the code too.
  std::vector<std::string> code;
  for (size_t i = 0; i < sf.facts.size(); ++i) {
    const Fact& f = sf.facts[i];
    if (f.subj.kind == SubjectKind::kCode || f.subj.kind == SubjectKind::kShape || code.size() >= 4) continue;
    // A term that already quotes its code as written (`self._backend != X`) is not
    // quoted twice.
    if (i < conds.size() && conds[i].find(BT(f.code)) != std::string::npos) continue;
    code.push_back(CodeTerm(f));
  }
  if (!code.empty()) doc += " (in the code: " + JoinWords(code, "and") + ")";
  doc += ".";
  if (site.error_message) {
    std::string msg = Clip(*site.error_message, 400);
    doc += " Message: \"" + msg + "\"";
    if (!msg.empty() && !std::ispunct((unsigned char)msg.back())) doc += ".";
  }
  if (!site.interpolations.empty()) {
    std::vector<std::string> ip;
    for (size_t i = 0; i < site.interpolations.size() && i < 6; ++i) ip.push_back(BT(Clip(site.interpolations[i], 80)));
    if (site.interpolations.size() > 6) ip.push_back(std::to_string(site.interpolations.size() - 6) + " more");
    doc += " It shows " + JoinWords(ip, "and") + ".";
  }
  std::string cat = CategorySentence(sf);
  if (!cat.empty()) doc += " " + cat;
  // A Spring property is set in a file as often as on the command line: say where.
  std::vector<std::string> spring;
  for (const auto& f : sf.facts)
    if (f.subj.kind == SubjectKind::kFlag && f.subj.flag->IsSpringProperty() && spring.size() < 3 &&
        std::find(spring.begin(), spring.end(), f.subj.flag->Primary()) == spring.end())
      spring.push_back(f.subj.flag->Primary());
  if (spring.size() == 1)
    doc += " " + BT(spring[0]) + " is a Spring property: set it in application.properties (or application.yml), as " +
           BT("-D" + spring[0] + "=...") + " on the java command line, or as " + BT("--" + spring[0] + "=...") + " after the jar.";
  else if (!spring.empty())
    doc += " " + JoinWords(Ticked(spring), "and") +
           " are Spring properties: set them in application.properties (or application.yml), as `-Dname=...` on the "
           "java command line, or as `--name=...` after the jar.";
  for (const auto& [key, rw] : sf.rewrites)
    doc += " The branch at line " + std::to_string(rw.line) + " rewrites " + BT(rw.from) + " to " + BT(rw.to) + " before this check.";
  if (site.cause && !site.cause->empty()) doc += " The original error is chained (" + BT("from " + Clip(*site.cause, 60)) + ").";
  return Trim(doc);
}

std::string WriteTriggers(const SiteFacts& sf) {
  const Site& site = *sf.site;
  std::vector<std::string> launch, env, caps, params, built, request, other;
  for (const auto& f : sf.facts) {
    switch (f.subj.kind) {
      case SubjectKind::kField:
        if (TypeTestedArgument(sf, f.subj.field->name)) break;  // its type test says it
        // A config class checking its own fields as it is built: the user builds it.
        if (!BuiltClass(sf, *f.subj.field).empty()) {
          std::string t = UserTerm(sf, f);
          const std::string own = "the " + BT(f.subj.field->name) + " setting of " + BT(f.subj.field->class_name);
          if (StartsWith(t, own)) t = BT(f.subj.field->name) + t.substr(own.size());
          built.push_back(t);
          break;
        }
        launch.push_back(UserTerm(sf, f));
        break;
      case SubjectKind::kFlag: launch.push_back(UserTerm(sf, f)); break;
      case SubjectKind::kEnv: env.push_back(UserTerm(sf, f)); break;
      case SubjectKind::kMissingAttr:
      case SubjectKind::kMissingModule:
      case SubjectKind::kHardware:
      case SubjectKind::kVersion: caps.push_back(UserTerm(sf, f)); break;
      case SubjectKind::kParam: {
        UserTermParts t = UserTermOf(sf, f);
        if (f.subj.ctor) {
          // "Building `C` with `p` left as None": the constructor's argument by its name.
          if (!t.subject.empty()) t.subject = BT(f.subj.param);
          built.push_back(t.With());
          break;
        }
        // "with argument `fallback` set to `_UNSET`", not "... is `_UNSET`": an identity
        // test reads as the value passed.
        if (t.join == UserTermParts::Join::kComparison && t.relation == "is") t.relation = "set to";
        if (t.join == UserTermParts::Join::kComparison && t.relation == "is not") t.relation = "other than";
        params.push_back(t.With());
        break;
      }
      case SubjectKind::kType:
      case SubjectKind::kTensor:
        if (f.subj.ctor && !f.subj.param.empty()) {
          // "Building `C` with `x` that is not ...": the constructor's argument by its name.
          std::string t = UserTermOf(sf, f).Passed();
          const std::string own = BT(f.subj.expr);
          if (size_t at = t.find(own); at != std::string::npos) t.replace(at, own.size(), BT(f.subj.param));
          built.push_back(t);
        } else if (IsParamLike(f)) params.push_back(UserTermOf(sf, f).Passed());
        else other.push_back(UserTerm(sf, f));
        break;
      case SubjectKind::kRequest: request.push_back(UserTerm(sf, f)); break;
      case SubjectKind::kSelfState: other.push_back(UserTerm(sf, f)); break;
      default: other.push_back(CodeCondition(f));
    }
  }
  std::vector<std::string> trig;
  // "Launching without `--quiet`", not "Launching with without".
  if (!launch.empty()) trig.push_back((StartsWith(launch[0], "without ") ? "Launching " : "Launching with ") + JoinSome(launch, "and", 6) + ".");
  if (!env.empty()) trig.push_back("Running with " + JoinSome(env, "and", 6) + " in the environment.");
  if (!caps.empty()) trig.push_back("Running where " + JoinSome(caps, "and", 6) + ".");
  if (!params.empty()) {
    // Python calls a dunder method for an operation: the operation is what the user wrote.
    std::string op = DunderOperation(sf);
    trig.push_back((op.empty() ? "Calling " + BT(CallName(sf)) : op) + " with " + JoinSome(params, "and", 6) + ".");
  }
  if (!built.empty()) trig.push_back("Building " + BT(sf.ctx->class_name) + " with " + JoinSome(built, "and", 6) + ".");
  if (!request.empty())
    trig.push_back((sf.ctx->route.empty() ? std::string("A request where ") : "A " + sf.ctx->route_method + " " + BT(sf.ctx->route) + " request where ") +
                   JoinSome(request, "and", 6) + ".");
  if (!other.empty()) trig.push_back("Reaching " + BT(Clip(site.function, 120)) + " while " + JoinSome(other, "and", 6) + ".");
  if (sf.facts.empty()) {
    std::string k;
    ConstantAssert ca = ConstantAssertOf(site, &k);
    if (ca == ConstantAssert::kHolds)
      trig.push_back("None as written: the assert on the constant " + BT(k) + " always holds.");
    else if (ca == ConstantAssert::kFails)
      trig.push_back("Any call of " + BT(Clip(site.function, 120)) + " that reaches line " + std::to_string(site.line) + ".");
    else if (site.kind == SiteKind::kAssert && site.assert_condition)
      trig.push_back("Reaching " + BT(Clip(site.function, 120)) + " with " + BT(Clip(OneLine(*site.assert_condition), 160)) + " false.");
    else if (sf.constant_guard)
      trig.push_back("Every pass of the `while True` loop in " + BT(Clip(site.function, 120)) + " that gets to line " +
                     std::to_string(site.line) + (site.except_context ? " after " + BT(Clip(*site.except_context, 120)) + " caught an error" : "") + ".");
    else if (sf.as_script)
      trig.push_back("Running " + BT(site.file_path) + " as a script (" + BT("python " + site.file_path) + ").");
    else if (IsErrorDefinition(site))
      trig.push_back("Code that returns " + BT(DefinedError(sf)) + " (or passes it on with `?`): this is the text it displays.");
    else
      trig.push_back("Every call of " + BT(Clip(site.function, 120)) + " that reaches line " + std::to_string(site.line) +
                     (site.except_context ? " after " + BT(Clip(*site.except_context, 120)) + " caught an error" : "") + ".");
  }
  const SiteContext& c = *sf.ctx;
  if (!c.callers.empty()) {
    std::vector<std::string> who;
    for (const auto& k : c.callers)
      who.push_back((StartsWith(k.scope, "class ") ? "the body of " + BT(k.scope.substr(6)) + " class"
                     : k.scope == "<module>" ? std::string("module level")
                                             : BT(k.scope)) +
                    " (line " + std::to_string(k.line) + ")");
    int more = c.callers_total - (int)c.callers.size();
    if (more > 0) who.push_back(std::to_string(more) + " more");
    trig.push_back(BT(CalleeName(sf)) + " is called from " + JoinWords(who, "and") + " in this file.");
  }
  for (const auto& n : sf.sibling_notes) trig.push_back(n);
  std::string o;
  for (const auto& t : trig) o += (o.empty() ? "" : " ") + t;
  return o;
}

std::optional<std::string> WriteSituations(const SiteFacts& sf) {
  const Site& site = *sf.site;
  std::vector<std::string> out;
  std::vector<const Fact*> settings;
  for (const auto& f : sf.facts)
    if (f.subj.IsSetting() && !f.disjunction && !f.from_else) settings.push_back(&f);
  if (!settings.empty()) {
    const Fact* inner = settings.back();
    std::vector<std::string> ctx;
    for (size_t i = 0; i + 1 < settings.size(); ++i) ctx.push_back(UserTerm(sf, *settings[i]));
    if (inner->atom.op == "not in" || inner->atom.op == "!=") {
      // "A `--x` value", but "A value of the `x` setting of `Config`" (not "A the ...").
      const std::string ref = SettingRef(inner->subj);
      out.push_back((StartsWith(ref, "the ") ? "A value of " + ref : "A " + ref + " value") +
                    " chosen for another setup and kept in a launch script or config" +
                    (ctx.empty() ? "" : " when switching to " + JoinWords(ctx, "and")));
    } else if (!ctx.empty()) {
      out.push_back("Reusing a launch command or config that pins " + UserTerm(sf, *inner) + " from a setup without " + JoinWords(ctx, "or"));
      out.push_back("Explicitly pinning " + UserTerm(sf, *inner) + " while " + JoinWords(ctx, "and") + " is in use");
    } else if (inner->atom.op.empty() || Trim(inner->atom.rhs) == "None") {
      bool present = inner->atom.op.empty() ? !inner->atom.falsy : inner->atom.op == "is not";
      out.push_back(std::string(present ? "A launch script or config that sets " : "A launch script or config that leaves out ") +
                    SettingRef(inner->subj));
    } else {
      std::string d = inner->subj.kind == SubjectKind::kFlag && inner->subj.flag->default_value
                          ? " (the default is " + BT(*inner->subj.flag->default_value) + ")"
                          : "";
      out.push_back("Setting " + UserTerm(sf, *inner) + d + " explicitly in a launch script, config file or environment");
    }
  }
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if (s.kind == SubjectKind::kMissingAttr && s.missing && IsStdlibModule(FirstComponent(s.module)))
      out.push_back("Running on an OS or Python build whose " + BT(FirstComponent(s.module)) + " lacks " + BT(s.module + "." + s.attr));
    else if (s.kind == SubjectKind::kMissingAttr && s.missing)
      out.push_back("An older " + BT(FirstComponent(s.module)) + " that predates " + BT(s.module + "." + s.attr) +
                    ", pinned by another package or left in a stale container or CI image");
    if (s.kind == SubjectKind::kMissingModule && s.missing)
      out.push_back("A lean environment where the optional package " + BT(s.module) + " was never installed");
    if (s.kind == SubjectKind::kHardware)
      out.push_back(s.missing ? "A machine (or container without the device) older or different than this code path expects"
                              : "Moving a configuration from one platform to another");
    if (s.kind == SubjectKind::kEnv) out.push_back(BT(s.env) + " inherited from the shell, a container image or a launcher");
    if (s.kind == SubjectKind::kVersion) out.push_back("A dependency pinned to an older release by another package");
    if (s.kind == SubjectKind::kParam && f.atom.op == "is" && Trim(f.atom.rhs) == "None" && s.param_info &&
        s.param_info->default_value == "None")
      out.push_back("Relying on the default " + BT(s.param + "=None") + " of " + BT(CallName(sf)));
    if (s.kind == SubjectKind::kTensor && s.pred == "contiguous")
      out.push_back("Passing a view such as a transposed, permuted or strided slice of a tensor, which is not contiguous in memory");
    if (s.kind == SubjectKind::kTensor && (s.pred == "cuda" || s.pred == "device")) {
      bool wants_cpu = s.pred == "device" && !f.atom.values.empty() && f.atom.values[0] == "cpu";
      out.push_back(wants_cpu ? "A tensor left on the GPU when this CPU kernel is called"
                              : "A tensor created or loaded on the CPU and not moved to the GPU before the call");
    }
    if (s.kind == SubjectKind::kTensor && s.pred == "cpu")
      out.push_back("A tensor left on the GPU when this CPU kernel is called");
    if (s.kind == SubjectKind::kTensor && s.pred == "dtype")
      out.push_back("A tensor left in the dtype of the checkpoint or of an earlier step (e.g. float32) instead of the one this kernel takes");
    if (s.kind == SubjectKind::kRequest)
      out.push_back("A client, form or script that builds the request without " + BT(s.attr) + " or with an old value");
    if (s.kind == SubjectKind::kSelfState && !sf.ctx->def_name.empty()) {
      std::vector<std::string> set, reset;
      StateMethods(sf, f, &set, &reset);
      if (!set.empty()) out.push_back("Calling " + BT(sf.ctx->def_name) + " on a new object, before " + JoinWords(Ticked(set), "or") + " has run");
      if (!reset.empty()) out.push_back("Calling " + BT(sf.ctx->def_name) + " after " + JoinWords(Ticked(reset), "or") + ", e.g. on an object already closed or shut down");
    }
  }
  if (site.except_context && out.empty())
    out.push_back("An underlying error caught by " + BT(Clip(*site.except_context, 120)) + " in " + BT(Clip(site.function, 120)) +
                  (site.cause ? " and chained with " + BT("from " + Clip(*site.cause, 60)) : ""));
  if (out.empty() && AbstractMethod(sf))
    out.push_back("A subclass of " + BT(sf.ctx->class_name) + " that does not override " + BT(sf.ctx->def_name) +
                  ", or code that calls it on the base class itself");
  std::vector<std::string> uniq;
  for (auto& x : out)
    if (std::find(uniq.begin(), uniq.end(), x) == uniq.end()) uniq.push_back(x);
  if (uniq.empty()) return std::nullopt;
  std::string s;
  for (auto& x : uniq) s += (s.empty() ? "" : "; ") + x;
  return s + ".";
}

}  // namespace errdex::doc
