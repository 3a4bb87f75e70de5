// document/write_example_presence.cc: exampleFix for an argument that must be given
// or left out. See write_example.h.
#include <algorithm>

#include "document/text.h"
#include "document/values.h"
#include "document/write_example.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

// A parameter tested for being passed at all: +1 when the atom fires on a given value
// (`x is not None`, `if x:` with a None default), -1 on a missing one (`x is None`,
// `not x` with a None default), 0 otherwise (a bool parameter is CallFix's: its values
// are known). Only parameters of this very function (a Python call by keyword).
int Presence(const SiteFacts& sf, const std::string& lhs, const Atom& a, const ParamInfo** info) {
  std::string x = Trim(lhs);
  const ParamInfo* p = nullptr;
  for (const auto& q : sf.ctx->params)
    if (q.name == x && !q.star && q.name != "self" && q.name != "cls") p = &q;
  if (!p) return 0;
  // Reassigned on the way (`char = source.get()`): the test is of the local, not the argument.
  for (const auto& [name, rhs] : sf.ctx->assigned)
    if (name == x) return 0;
  *info = p;
  bool none_default = Trim(p->default_value) == "None";
  if (a.op == "is not" && Trim(a.rhs) == "None") return 1;
  if (a.op == "is" && Trim(a.rhs) == "None") return -1;
  if (a.op.empty() && none_default) return a.falsy ? -1 : 1;
  return 0;
}

}  // namespace

std::optional<std::string> PresenceFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  if (!c.known || sf.site->language != "python" || c.def_name.empty()) return std::nullopt;
  // Inside `except`: what failed is the call the try made, not the argument's presence.
  if (sf.site->except_context) return std::nullopt;
  // __exit__, __get__, ...: the language calls them, not the user.
  if (StartsWith(c.def_name, "__") && c.def_name != "__init__" && c.def_name != "__new__" && c.def_name != "__call__")
    return std::nullopt;
  // The tests of earlier `if T: return` statements (T false here) are where the site is
  // reached from, not a condition to flip.
  const int exits_from = (int)sf.site->guards.size(), exits_to = exits_from + (int)sf.exit_branches.size();
  struct Arg {
    const ParamInfo* p;
    int before, after;  // +1 passed, -1 left out
  };
  std::vector<Arg> args;
  bool flipped = false;
  auto add = [&](const ParamInfo* p, int before, int after) {
    for (const auto& a : args)
      if (a.p == p) return a.before == before;  // the same parameter twice: only when consistent
    args.push_back({p, before, after});
    return true;
  };
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    if (f.subj.IsSetting() || f.subj.IsCapability() || (f.guard >= exits_from && f.guard < exits_to)) continue;
    if (f.disjunction) {
      if (flipped) return std::nullopt;  // an outer condition of several parts: no single call shows it
      int sign = 0;
      std::vector<const ParamInfo*> ps;
      for (const Atom& a : f.any_of) {
        const ParamInfo* p = nullptr;
        int s = Presence(sf, a.lhs, a, &p);
        if (s == 0 || (sign != 0 && s != sign)) return std::nullopt;
        sign = s;
        ps.push_back(p);
      }
      for (size_t i = 0; i < ps.size(); ++i) {
        // -1: one left out fails, all given pass; +1: one given fails, none given passes.
        int before = sign < 0 ? (i == 0 ? -1 : 1) : (i == 0 ? 1 : -1);
        int after = sign < 0 ? 1 : -1;
        if (!add(ps[i], before, after)) return std::nullopt;
      }
      flipped = true;
      continue;
    }
    const ParamInfo* p = nullptr;
    int s = Presence(sf, f.atom.lhs, f.atom, &p);
    if (s == 0) {
      if (!flipped) return std::nullopt;  // the innermost condition is no presence test: CallFix's or none
      continue;                           // an outer condition of the code: context
    }
    if (!add(p, s, flipped ? s : -s)) return std::nullopt;
    flipped = true;
  }
  if (!flipped || args.empty()) return std::nullopt;
  // "Cannot specify both `filename' and `source'. Use `source'.": of two passed parameters
  // the one the message says to use stays, the other is left out.
  const std::string msg = sf.site->error_message.value_or("");
  auto told_to_use = [&](const std::string& name) {
    for (const char* verb : {"Use ", "use "})
      for (size_t at = msg.find(verb); at != std::string::npos; at = msg.find(verb, at + 1)) {
        size_t b = at + 4;
        while (b < msg.size() && (msg[b] == '`' || msg[b] == '\'' || msg[b] == '"')) ++b;
        if (msg.compare(b, name.size(), name) == 0 && (b + name.size() == msg.size() || !IsWordChar(msg[b + name.size()])))
          return true;
      }
    return false;
  };
  if (args[0].before > 0 && args[0].after < 0 && told_to_use(args[0].p->name))
    for (size_t i = 1; i < args.size(); ++i)
      if (args[i].before > 0 && args[i].after > 0 && !told_to_use(args[i].p->name)) {
        std::swap(args[0].after, args[i].after);
        break;
      }
  const std::string flip_name = args[0].p->name;  // the innermost test's parameter: the one a public caller passes
  // The call lists its arguments in the function's order.
  auto pos = [&](const ParamInfo* p) { return p - c.params.data(); };
  std::sort(args.begin(), args.end(), [&](const Arg& x, const Arg& y) { return pos(x.p) < pos(y.p); });
  std::string call = sf.func == "__init__" ? c.class_name : PublicCallName(sf, flip_name);
  if (call.empty()) return std::nullopt;
  // The function's other required parameters are "...": the presence tests are the point.
  bool others = false;
  for (const auto& q : c.params) {
    if (q.star || q.name == "self" || q.name == "cls" || !q.default_value.empty()) continue;
    bool shown = false;
    for (const auto& a : args) shown = shown || a.p == &q;
    others = others || !shown;
  }
  auto line = [&](bool after) {
    std::vector<std::string> parts;
    if (others) parts.push_back("...");
    for (const auto& a : args) {
      int state = after ? a.after : a.before;
      if (state > 0) {
        std::string v = SampleOf(a.p->annotation);
        if (v.empty() || v == "True") v = a.p->name;
        parts.push_back(a.p->name + "=" + v);
      } else if (a.p->default_value.empty()) {
        parts.push_back(a.p->name + "=None");  // a required parameter can only be passed as None
      }
    }
    std::string o;
    for (const auto& x : parts) o += (o.empty() ? "" : ", ") + x;
    return call + "(" + o + ")";
  };
  std::string fx = BeforeAfter(line(false), line(true));
  if (fx.empty()) return std::nullopt;
  return fx;
}

}  // namespace errdex::doc
