// document/facts_terms.cc: a fact in the user's own words -- the setting it names
// (`--deepep-mode normal`, `X=1`, an argument, a request field), the values that
// make it true, how a caller spells the call. The facts themselves are built by
// facts.cc. Tested by facts_test.cc and tests/prose/.
#include "document/facts.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "document/text.h"
#include "document/values.h"

namespace errdex::doc {

std::string Show(std::string_view s) { return Clip(OneLine(s), kMaxExpr); }

std::string Subject::Key() const {
  switch (kind) {
    case SubjectKind::kFlag: return "flag:" + flag->dest;
    case SubjectKind::kField: return "field:" + field->name;
    case SubjectKind::kEnv: return "env:" + env;
    case SubjectKind::kParam: return "param:" + param;
    case SubjectKind::kRequest: return "req:" + module + ":" + attr;
    case SubjectKind::kTensor: return "tensor:" + tensor + ":" + pred;
    default: return "expr:" + expr;
  }
}

std::string Subject::SettingName() const {
  if (kind == SubjectKind::kFlag) return flag->dest;
  if (kind == SubjectKind::kField) return field->name;
  if (kind == SubjectKind::kParam) return param;
  return LastComponent(expr);
}

bool IsBoolFlag(const Subject& s) {
  if (s.kind != SubjectKind::kFlag) return false;
  if (s.flag->IsBool()) return true;
  // A flag only named in messages: --enable-x / --disable-x / --use-x / --no-x take no value.
  const std::string& d = s.flag->dest;
  return s.flag->origin == "mentioned" &&
         (StartsWith(d, "enable_") || StartsWith(d, "disable_") || StartsWith(d, "use_") || StartsWith(d, "no_"));
}

bool IsBoolField(const Subject& s) {
  if (s.kind != SubjectKind::kField) return false;
  const ConfigField& f = *s.field;
  if (f.type == "bool" || f.inner_type == "bool" || f.type == "Optional[bool]" || f.type == "bool | None") return true;
  return f.type.empty() && f.default_value && (*f.default_value == "True" || *f.default_value == "False");
}

bool TypeTestedArgument(const SiteFacts& sf, const std::string& name) {
  return std::any_of(sf.facts.begin(), sf.facts.end(),
                     [&](const Fact& g) { return g.subj.kind == SubjectKind::kType && g.subj.ctor && g.subj.param == name; });
}

std::string BuiltClass(const SiteFacts& sf, const ConfigField& f) {
  if (!sf.ctx || sf.ctx->class_name.empty() || !sf.site) return "";
  if (!EndsWith(sf.site->function, ".__post_init__") && !EndsWith(sf.site->function, ".__init__")) return "";
  if (f.class_name == sf.ctx->class_name) return sf.ctx->class_name;
  if (sf.k)
    for (const std::string& base : sf.k->Bases(sf.ctx->class_name))
      if (base == f.class_name) return sf.ctx->class_name;
  return "";
}

std::string SettingRef(const Subject& s) {
  if (s.kind == SubjectKind::kFlag) return BT(s.flag->Primary());
  if (s.kind == SubjectKind::kField) return "the " + BT(s.field->name) + " setting of " + BT(s.field->class_name);
  if (s.kind == SubjectKind::kEnv) return "environment variable " + BT(s.env);
  if (s.kind == SubjectKind::kParam && s.ctor) return "the " + BT(s.param) + " the object was built with";
  if (s.kind == SubjectKind::kParam) return "argument " + BT(s.param);
  return BT(s.expr);
}

std::string SettingValue(const Subject& s, const std::string& v) {
  if (s.kind == SubjectKind::kFlag) return s.flag->With(v);
  if (s.kind == SubjectKind::kField) return s.field->name + "=" + QuoteIfText(v);
  if (s.kind == SubjectKind::kEnv) return s.env + "=" + v;
  if (s.kind == SubjectKind::kParam) return s.param + "=" + QuoteIfText(v);
  return s.expr + " == " + PyQuote(v);
}

bool Triggers(const Fact& f, const std::string& v) {
  const auto& vals = f.atom.values;
  bool in = std::find(vals.begin(), vals.end(), v) != vals.end();
  const std::string& op = f.atom.op;
  if (op == "==" || op == "in" || op == "is") return in;
  if (op == "!=" || op == "not in" || op == "is not") return !in;
  return true;
}

Fact Positive(const Fact& f) {
  Fact p = f;
  p.atom.op = FlipOp(f.atom.op);
  if (p.atom.op.empty()) p.atom.falsy = !f.atom.falsy;
  if (!p.disjunction) p.code = Clip(OneLine(p.atom.Code()), kMaxExpr);
  return p;
}

void StateMethods(const SiteFacts& sf, const Fact& f, std::vector<std::string>* setters, std::vector<std::string>* resetters) {
  if (f.subj.kind != SubjectKind::kSelfState || f.disjunction) return;
  const Atom& a = f.atom;
  std::string rhs = Trim(a.rhs);
  auto truthy = [](const std::string& v) {
    return !(v == "None" || v == "False" || v == "0" || v == "\"\"" || v == "''" || v == "[]" || v == "{}" || v == "()");
  };
  // Does the atom hold when self.<attr> is `v` ("" = some object)?
  auto holds = [&](const std::string& v, bool* known) {
    *known = true;
    if (a.op.empty()) return a.falsy ? !truthy(v) : truthy(v);
    if ((a.op == "is" || a.op == "==") && rhs == "None") return v == "None";
    if ((a.op == "is not" || a.op == "!=") && rhs == "None") return v != "None";
    if ((a.op == "is" || a.op == "==") && (rhs == "True" || rhs == "False")) return !v.empty() && v == rhs;
    if ((a.op == "is not" || a.op == "!=") && (rhs == "True" || rhs == "False")) return v.empty() || v != rhs;
    // An enum state (Java's `runningState != State.RUNNING`): a write of another constant.
    if ((a.op == "==" || a.op == "!=") && IsDotted(rhs) && IsDotted(Trim(v)) && rhs.find('.') != std::string::npos &&
        Trim(v).find('.') != std::string::npos)
      return (Trim(v) == rhs) == (a.op == "==");
    *known = false;
    return false;
  };
  for (const auto& w : sf.ctx->writes) {
    // A declaration, the constructor's argument, or the checking method itself (it runs
    // the check before its own writes).
    if (w.attr != f.subj.attr || w.method.empty() || w.method == "__init__" || w.method == sf.ctx->def_name) continue;
    bool known;
    bool fails = holds(w.value, &known);
    if (!known) return;
    auto& dst = fails ? *resetters : *setters;
    if (std::find(dst.begin(), dst.end(), w.method) == dst.end()) dst.push_back(w.method);
  }
  // The message names the one to call ("Stopwatch must be reset before being restarted",
  // "must be suspended to resume"): a setter whose name starts a word of it is the answer,
  // the others (which leave the state by other paths) are noise.
  if (setters->size() > 1 && sf.site->error_message) {
    std::vector<std::string> named;
    const std::string msg = Lower(*sf.site->error_message);
    for (const auto& m : *setters) {
      std::string lm = Lower(m);
      if (lm.empty()) continue;
      for (size_t at = msg.find(lm); at != std::string::npos; at = msg.find(lm, at + 1)) {
        if (at > 0 && IsWordChar(msg[at - 1])) continue;
        size_t e = at + lm.size();
        while (e < msg.size() && IsWordChar(msg[e])) ++e;
        // The name itself or an inflection of it (reset, started, stopped, suspending), not
        // a longer word it begins ("stopwatch").
        std::string tail = msg.substr(at + lm.size(), e - at - lm.size());
        if (tail.empty() || tail == "s" || tail == "d" || tail == "ed" || tail == "ing" ||
            tail == std::string(1, lm.back()) + "ed" || tail == std::string(1, lm.back()) + "ing") {
          named.push_back(m);
          break;
        }
      }
    }
    if (!named.empty()) *setters = std::move(named);
  }
}

bool DevicePair(const SiteFacts& sf, std::string* first, std::string* second) {
  if (sf.facts.empty() || !sf.facts.back().subj.via.empty()) return false;
  const Fact& f = sf.facts.back();
  const Atom& a = f.atom;
  if (f.disjunction || a.op != "!=") return false;
  auto tensor_of = [](const std::string& side, std::string* rest) -> std::string {
    std::string x = Trim(side);
    for (const char* suf : {".device().device_type", ".device().device_id"})
      if (EndsWith(x, suf)) {
        std::string t = x.substr(0, x.size() - std::char_traits<char>::length(suf));
        *rest = suf;
        return IsIdent(t) ? t : "";
      }
    return "";
  };
  std::string ra, rb;
  *first = tensor_of(a.lhs, &ra);
  *second = tensor_of(a.rhs, &rb);
  return !first->empty() && !second->empty() && *first != *second && ra == rb;
}

bool TensorPairOther(const Atom& a, const std::string& pred, std::string* other) {
  if (a.op != "!=" || a.rhs_strings || (pred != "dtype" && pred != "device")) return false;
  std::string r = Trim(a.rhs);
  if (pred == "dtype" && !TorchDtype(r).empty()) return false;  // `fp32_dtype`: a dtype, no other tensor's
  // C++'s `k.dtype()` / `k.device()`: the other tensor's property as Python (the caller's side) spells it.
  if (EndsWith(r, "." + pred + "()")) r.resize(r.size() - 2);
  if (IsIdent(r) && (r == pred || EndsWith(r, "_" + pred))) {
    *other = r;  // a parameter or local named for a device or dtype (`x.dtype != dtype`)
    return true;
  }
  if (!EndsWith(r, "." + pred) || r.size() <= pred.size() + 1) return false;
  std::string base = r.substr(0, r.size() - pred.size() - 1);
  if (!IsDotted(base)) return false;
  *other = r;
  return true;
}

std::vector<std::string> AcceptedConstants(const SiteFacts& sf, const Fact& f) {
  auto typable = [&](const std::string& c) {
    size_t dot = c.find('.');
    if (dot == std::string::npos || c.front() == '"' || c.front() == '\'' || c.front() == '(' ||
        std::isdigit((unsigned char)c.front()) || c.front() == '-')
      return true;  // a literal (the guard parser admits nothing else without a dot)
    std::string head = c.substr(0, dot);
    return std::isupper((unsigned char)head.front()) || !TorchDtype(c).empty() ||
           std::find(sf.ctx->modules.begin(), sf.ctx->modules.end(), head) != sf.ctx->modules.end();
  };
  std::vector<std::string> out;
  for (const Fact& g : sf.facts) {
    if (&g != &f && (g.disjunction || g.subj.kind != f.subj.kind || g.subj.param != f.subj.param ||
                     Trim(g.atom.lhs) != Trim(f.atom.lhs)))
      continue;
    if (g.atom.constants.empty() || (g.atom.op != "!=" && g.atom.op != "not in" && g.atom.op != "is not")) continue;
    for (const auto& c : g.atom.constants) {
      if (!typable(c)) return {};
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    }
  }
  return out;
}

bool AbstractMethod(const SiteFacts& sf) {
  const Site& site = *sf.site;
  const SiteContext& c = *sf.ctx;
  if (!sf.facts.empty() || site.error_class.value_or("") != "NotImplementedError" || c.class_name.empty() || c.def_name.empty())
    return false;
  if (StartsWith(c.def_name, "__") && c.def_name != "__call__") return false;
  if (c.Decorated("abstractmethod")) return true;
  for (const auto& b : c.class_bases)
    if (HasWord(b, "ABC") || HasWord(b, "Protocol") || Has(b, "ABCMeta")) return true;
  for (const char* w : {"Base", "Abstract", "Interface", "Mixin", "Protocol"})
    if (Has(c.class_name, w)) return true;
  std::string msg = Lower(site.error_message.value_or(""));
  if (msg.empty()) return true;
  return Has(msg, "subclass") || Has(msg, "overrid") || Has(msg, "must implement") || Has(msg, "should implement") ||
         Has(msg, "must be implemented") || Has(msg, "should be implemented") || Has(msg, "abstract");
}

std::string KindWord(const Site& s) {
  switch (s.kind) {
    case SiteKind::kAssert: return "assert";
    case SiteKind::kLog: return "log call";
    case SiteKind::kHttpResponse: return "error response";
    default: return "raise";
  }
}

std::string NullWord(const std::string& language) {
  if (language == "go") return "nil";
  if (language == "cpp" || language == "cuda") return "nullptr";
  if (language == "c") return "NULL";
  if (language == "java" || language == "javascript" || language == "typescript" || language == "kotlin") return "null";
  return "None";
}

namespace {

// The call of the site's function, an instance method's receiver written `instance`.
std::string CallSpelled(const SiteFacts& sf, const std::string& instance) {
  const SiteContext& c = *sf.ctx;
  if (sf.site->language == "java" && !c.class_name.empty()) {
    // A constructor by its class, a static method by its class, any other on a value.
    if (sf.func == "<init>" || c.Decorated("constructor")) return c.class_name;
    return (c.Decorated("static") ? c.class_name : instance) + "." + sf.func;
  }
  bool method = !c.params.empty() && (c.params[0].name == "self" || c.params[0].name == "cls") && !c.class_name.empty();
  if (sf.func == "__init__" && !c.class_name.empty()) return c.class_name;
  if (!method) {
    if (c.Decorated("staticmethod") && !c.class_name.empty()) return c.class_name + "." + sf.func;
    return sf.func;
  }
  return (c.params[0].name == "cls" ? c.class_name : instance) + "." + sf.func;
}

}  // namespace

// A call example writes `obj.f(...)`; a sentence names the method by its class
// (`DeviceInfo.get_running_npus`).
std::string CallName(const SiteFacts& sf) { return CallSpelled(sf, InstanceName(sf)); }
std::string InstanceName(const SiteFacts& sf) {
  std::string v = sf.ctx->class_name;
  if (sf.site->language != "java" || v.empty()) return "obj";
  v[0] = (char)std::tolower((unsigned char)v[0]);
  return v == sf.ctx->class_name ? "obj" : v;
}
std::string CalleeName(const SiteFacts& sf) { return CallSpelled(sf, sf.ctx->class_name); }

std::string DunderOperation(const SiteFacts& sf) {
  const std::string& f = sf.ctx->def_name;
  if (sf.site->language != "python" || !StartsWith(f, "__") || !EndsWith(f, "__") || f == "__init__" || f == "__post_init__" ||
      f == "__new__")
    return "";
  static const std::map<std::string, std::string> kOps = {
      {"__getattr__", "Reading `obj.<name>`"},      {"__getattribute__", "Reading `obj.<name>`"},
      {"__setattr__", "Setting `obj.<name> = value`"}, {"__delattr__", "Deleting `obj.<name>`"},
      {"__getitem__", "Reading `obj[key]`"},        {"__setitem__", "Setting `obj[key] = value`"},
      {"__delitem__", "Deleting `obj[key]`"},       {"__call__", "Calling `obj(...)`"},
      {"__iter__", "Iterating over `obj`"},         {"__next__", "Calling `next(obj)`"},
      {"__len__", "Taking `len(obj)`"},             {"__contains__", "Testing `x in obj`"},
      {"__enter__", "Entering `with obj:`"},        {"__exit__", "Leaving `with obj:`"},
      {"__aenter__", "Entering `async with obj:`"}, {"__aexit__", "Leaving `async with obj:`"},
      {"__hash__", "Hashing `obj`"},                {"__bool__", "Testing `bool(obj)`"},
      {"__round__", "Rounding `round(obj)`"},       {"__int__", "Converting `int(obj)`"},
      {"__float__", "Converting `float(obj)`"},     {"__index__", "Using `obj` as an index"},
      {"__str__", "Formatting `str(obj)`"},         {"__repr__", "Formatting `repr(obj)`"},
      {"__format__", "Formatting `format(obj, spec)`"}};
  static const std::map<std::string, std::string> kBinary = {
      {"add", "+"}, {"sub", "-"},  {"mul", "*"},  {"truediv", "/"}, {"floordiv", "//"}, {"mod", "%"},  {"pow", "**"},
      {"and", "&"}, {"or", "|"},   {"xor", "^"},  {"lshift", "<<"}, {"rshift", ">>"},   {"matmul", "@"}, {"eq", "=="},
      {"ne", "!="}, {"lt", "<"},   {"le", "<="},  {"gt", ">"},      {"ge", ">="}};
  std::string op;
  if (auto it = kOps.find(f); it != kOps.end()) {
    op = it->second;
  } else {
    std::string core = f.substr(2, f.size() - 4);
    bool reflected = core.size() > 1 && core[0] == 'r' && kBinary.count(core.substr(1));
    bool in_place = core.size() > 1 && core[0] == 'i' && kBinary.count(core.substr(1));
    std::string base = reflected || in_place ? core.substr(1) : core;
    auto b = kBinary.find(base);
    if (b == kBinary.end()) return "";
    op = reflected ? "Using `other " + b->second + " obj`" : in_place ? "Using `obj " + b->second + "= other`" : "Using `obj " + b->second + " other`";
  }
  if (const std::string& cls = sf.ctx->class_name; !cls.empty()) {
    const char* article = std::strchr("AEIOUaeiou", cls[0]) ? "an " : "a ";
    if (f == "__call__") return "Calling " + std::string(article) + BT(cls) + " object (`obj(...)`)";
    return op + " on " + article + BT(cls);
  }
  // A module's own __getattr__ (PEP 562): `module.<name>`.
  if (f == "__getattr__") {
    std::string mod = sf.site->file_path;
    if (EndsWith(mod, ".py")) mod.resize(mod.size() - 3);
    if (EndsWith(mod, "/__init__")) mod.resize(mod.size() - 9);
    std::replace(mod.begin(), mod.end(), '/', '.');
    return "Reading `" + LastComponent(mod) + ".<name>` of the module " + BT(mod);
  }
  return "";
}

std::string TypePhrase(const SiteFacts& sf, const std::string& type) {
  const std::string& lang = sf.site->language;
  if (lang == "javascript" || lang == "typescript") {
    // typeof / instanceof / Array.isArray, said in JavaScript's words.
    if (type == "str") return "a string";
    if (type == "(int, float)") return "a number";
    if (type == "bool") return "a boolean";
    if (type == "list") return "an array";
    if (type == "dict") return "an object";
    if (type == "Callable") return "a function";
    if (type == "int") return "an integer";
  }
  if (type == "Callable" || type == "typing.Callable" || type == "collections.abc.Callable") return "a callable";
  return "an instance of " + BT(type);
}

std::string UserTermParts::With() const {
  switch (join) {
    case Join::kWhole: return predicate;
    case Join::kState: return subject + " " + predicate;
    case Join::kComparison: return subject + " " + relation + " " + predicate;
    case Join::kSwitch: return predicate == "given" ? subject : "without " + subject;
    case Join::kInstalled: return "an " + subject + " that " + predicate;
  }
  return predicate;
}

std::string UserTermParts::When() const {
  switch (join) {
    case Join::kState:
    case Join::kSwitch: return subject + " is " + predicate;
    case Join::kComparison:
      if (relation == "in" || relation == "not in") return subject + " is " + relation + " " + predicate;
      return With();
    case Join::kInstalled: return "the " + subject + " " + predicate;
    default: return With();
  }
}

UserTermParts UserTermOf(const SiteFacts& sf, const Fact& f) {
  using Join = UserTermParts::Join;
  auto whole = [](std::string predicate) { return UserTermParts{Join::kWhole, "", "", std::move(predicate)}; };
  auto joined = [](Join join, std::string subject, std::string predicate) {
    return UserTermParts{join, std::move(subject), "", std::move(predicate)};
  };
  // A clause about a value, and how it reads after "with": "S is P" / "S that is P".
  auto clause = [](const std::string& subject, const std::string& verb, const std::string& predicate) {
    return UserTermParts{Join::kWhole, "", "", subject + " " + verb + " " + predicate, subject + " that " + verb + " " + predicate};
  };
  const Subject& s = f.subj;
  const Atom& a = f.atom;
  if (f.disjunction) return whole(BT(f.code));
  const std::vector<std::string>& vals = a.values;
  switch (s.kind) {
    case SubjectKind::kFlag:
    case SubjectKind::kField:
    case SubjectKind::kEnv:
    case SubjectKind::kParam: {
      std::string ref = SettingRef(s);
      if (StartsWith(s.pred, "multiple:"))
        return joined(Join::kState, ref, (a.op == "!=" ? "not a multiple of " : "a multiple of ") + s.pred.substr(9));
      if (a.op.empty()) {
        if (s.kind == SubjectKind::kEnv && s.pred == "present") return joined(Join::kState, BT(s.env), a.falsy ? "unset" : "set (to any value)");
        if (s.kind == SubjectKind::kEnv) return a.falsy ? joined(Join::kState, BT(s.env), "unset or false") : whole(BT(s.env + "=1") + " (any true value)");
        if (IsBoolFlag(s)) return joined(Join::kSwitch, ref, (a.falsy != (s.flag->action == "store_false")) ? "not given" : "given");
        if (s.kind == SubjectKind::kParam) {
          // A typed language's `bool` parameter is true or false, nothing else (Go `!restart`).
          if (s.param_info && sf.site->language != "python" &&
              (Trim(s.param_info->annotation) == "bool" || Trim(s.param_info->annotation) == "boolean"))
            return joined(Join::kState, ref, a.falsy ? "false" : "true");
          if (sf.site->language == "python") return joined(Join::kState, ref, a.falsy ? "false, empty or None" : "true or non-empty");
          // A typed string or sequence (Rust's `name.is_empty()` on a `&str`): empty, never
          // false, and never null in Rust or for a Go string.
          if (s.param_info) {
            const std::string& t = s.param_info->annotation;
            const std::string& lang = sf.site->language;
            if ((lang == "rust" || lang == "go" || lang == "java") && (IsStringType(lang, t) || IsSequenceType(lang, t)))
              return joined(Join::kState, ref, a.falsy ? "empty" : "non-empty");
          }
          return joined(Join::kState, ref, a.falsy ? "false, empty or " + NullWord(sf.site->language) : "true or non-empty");
        }
        if (IsBoolField(s)) return joined(Join::kState, ref, a.falsy ? "set to `False`" : "set to `True`");
        return joined(Join::kState, ref, a.falsy ? "unset or empty" : "set");
      }
      // os.Getenv("X") == "": the variable is not set (or set empty), not "X=" set on purpose.
      if (s.kind == SubjectKind::kEnv && a.op == "==" && a.rhs_strings && vals.size() == 1 && vals[0].empty())
        return joined(Join::kState, BT(s.env), "unset or empty");
      // `x == ""` / `x != ""`: empty or not, not "set to ``".
      if ((a.op == "==" || a.op == "!=") && a.rhs_strings && vals.size() == 1 && vals[0].empty())
        return joined(Join::kState, ref, a.op == "==" ? "empty" : "non-empty");
      if ((a.op == "==" || a.op == "is") && a.rhs_strings && vals.size() == 1) return whole(BT(SettingValue(s, vals[0])));
      if (a.op == "!=" && a.rhs_strings && vals.size() == 1) return joined(Join::kState, ref, "set to something other than " + BT(vals[0]));
      if (a.op == "in" && a.rhs_strings) return joined(Join::kState, ref, "set to " + JoinSome(Ticked(vals), "or", 8));
      if (a.op == "not in" && a.rhs_strings) return joined(Join::kState, ref, "set to a value other than " + JoinSome(Ticked(vals), "or", 8));
      if (a.op == "is" && Trim(a.rhs) == "None")
        return joined(Join::kState, ref, s.kind == SubjectKind::kParam ? "left as " + NullWord(sf.site->language) : "not given");
      if (a.op == "is not" && Trim(a.rhs) == "None") return joined(Join::kState, ref, "given");
      return UserTermParts{Join::kComparison, ref, a.op, BT(Show(a.rhs))};
    }
    case SubjectKind::kMissingAttr:
      return whole(s.missing ? "the installed " + BT(s.module) + " has no attribute " + BT(s.attr)
                             : "the installed " + BT(s.module) + " has the attribute " + BT(s.attr));
    case SubjectKind::kMissingModule:
      return whole(s.missing ? "the package " + BT(s.module) + " is not installed" : "the package " + BT(s.module) + " is installed");
    case SubjectKind::kHardware:
      return whole(s.missing ? BT(s.pred) + " is False on this machine" : BT(s.pred) + " is True on this machine");
    case SubjectKind::kVersion:
      if (!s.attr.empty()) return joined(Join::kInstalled, "installed " + BT(s.module), "does not satisfy " + BT(s.attr));
      return whole("installed versions for which " + BT(s.pred) + " holds");
    case SubjectKind::kType: {
      if (s.flag) return whole(BT(s.flag->Primary()) + (s.missing ? " given a value that is not " : " given ") + "a " + BT(s.pred));
      return clause(BT(s.expr), s.missing ? "is not" : "is", TypePhrase(sf, s.pred));
    }
    case SubjectKind::kTensor: {
      std::string x = BT(s.tensor);
      if (s.pred == "contiguous") return clause(x, s.missing ? "is not" : "is", "contiguous");
      if (s.pred == "cuda") return clause(x, s.missing ? "is not" : "is", "on a CUDA device");
      if (s.pred == "cpu") return clause(x, s.missing ? "is not" : "is", "on the CPU");
      if (s.pred == "dim") {
        std::string n = Trim(a.rhs) + " dimensions";
        if (a.op == "!=") return clause(x, "does not have", n);
        const char* how = a.op == "<" ? "fewer than " : a.op == "<=" ? "at most " : a.op == ">" ? "more than " : a.op == ">=" ? "at least " : "";
        if (*how || a.op == "==") return clause(x, "has", how + n);
        return whole(BT(f.code));
      }
      if (s.pred == "device" && a.rhs_strings && !a.values.empty())
        return clause(x, a.op == "!=" || a.op == "not in" ? "is not" : "is", "on the " + Upper(a.values[0]) + " device");
      // "the dtype of `x` is not `float16`", and after "with" "`x` whose dtype is not `float16`".
      std::string property = s.pred == "dtype" ? "dtype" : "device";
      std::string named = s.pred == "dtype" && !TorchDtype(a.rhs).empty() ? TorchDtype(a.rhs) : Show(a.rhs);
      std::string is;
      if (a.op == "!=") is = "is not " + BT(named);
      else if (a.op == "==") is = "is " + BT(named);
      else if (a.op == "not in") is = "is none of " + BT(Show(a.rhs));
      else if (a.op == "in") is = "is one of " + BT(Show(a.rhs));
      if (!is.empty()) return UserTermParts{Join::kWhole, "", "", "the " + property + " of " + x + " " + is, x + " whose " + property + " " + is};
      return whole(BT(f.code));
    }
    case SubjectKind::kSelfState: {
      const bool java = sf.site->language == "java";
      std::string x = BT((java ? "this." : "self.") + s.attr);
      if ((a.op == "is" && Trim(a.rhs) == "None") || (a.op.empty() && a.falsy))
        return whole(x + " is not set yet" + (a.op.empty() ? " (false or empty)" : " (" + NullWord(sf.site->language) + ")"));
      return whole(BT(f.code));
    }
    case SubjectKind::kRequest: {
      std::string where = s.module == "body" ? "the request body" : s.module == "query" ? "the query string"
                          : s.module == "header" ? "the request headers" : s.module == "form" ? "the submitted form"
                          : s.module == "cookie" ? "the request cookies" : "the URL path";
      if ((a.op == "is" && Trim(a.rhs) == "None") || (a.op.empty() && a.falsy)) return whole(where + " has no " + BT(s.attr));
      if (a.op.empty()) return whole(where + " has " + BT(s.attr));
      if (a.rhs_strings && (a.op == "not in" || a.op == "!="))
        return whole(BT(s.attr) + " in " + where + " is not " + JoinSome(Ticked(a.values), "or", 8));
      if (a.rhs_strings && (a.op == "in" || a.op == "==")) return whole(BT(s.attr) + " in " + where + " is " + JoinSome(Ticked(a.values), "or", 8));
      return whole(BT(s.attr) + " in " + where + " " + a.op + " " + BT(Show(a.rhs)));
    }
    default:
      return whole(BT(f.code));
  }
}

std::string UserTerm(const SiteFacts& sf, const Fact& f) { return UserTermOf(sf, f).With(); }

std::string FlagsAsOptions(const SiteFacts& sf, std::string_view code, DocDeps* deps) {
  if (!sf.k || !sf.ctx) return std::string(code);
  auto word = [](char c) { return IsAsciiAlnum(c) || c == '_'; };
  std::string out;
  out.reserve(code.size());
  char quote = 0;
  for (size_t i = 0; i < code.size();) {
    char c = code[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < code.size()) out += code[++i];
      else if (c == quote) quote = 0;
      ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      out += c;
      ++i;
      continue;
    }
    // A dotted name starts here: not inside a longer name or after a dot, nor a number.
    bool starts = (std::isalpha(static_cast<unsigned char>(c)) || c == '_') && (i == 0 || (!word(code[i - 1]) && code[i - 1] != '.'));
    if (!starts) {
      out += c;
      ++i;
      continue;
    }
    size_t e = i;
    while (e < code.size() && (word(code[e]) || (code[e] == '.' && e + 1 < code.size() && word(code[e + 1])))) ++e;
    std::string_view name = code.substr(i, e - i);
    size_t dot = name.rfind('.');
    const Flag* flag = nullptr;
    if (dot != std::string_view::npos && (e >= code.size() || code[e] != '(') &&
        SettingsHolder(std::string(name.substr(0, dot)), *sf.ctx))
      flag = sf.k->FindFlagFrom("python", name.substr(dot + 1), sf.site ? std::string_view(sf.site->file_path) : std::string_view(), deps);
    if (flag) out += flag->Primary();
    else out.append(name);
    i = e;
  }
  return out;
}

}  // namespace errdex::doc
