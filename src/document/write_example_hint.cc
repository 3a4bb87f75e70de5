// document/write_example_hint.cc: the exampleFix forms that come from outside the call:
// pip for a missing module, attribute or version, and what the message itself says to
// run, pass or set (`--flag value`, a switch of this repository, `export X=1`, the call
// to make first). write_example.cc tries them after the settings' command line.
// Tested by documenter_test.cc and tests/prose/.
#include <algorithm>

#include "document/text.h"
#include "document/values.h"
#include "document/write_example.h"
#include "document/writers.h"

namespace errdex::doc {

// pip for a missing module/attribute/version.
std::optional<std::string> PackageFix(const SiteFacts& sf) {
  const Hints& h = sf.hints;
  for (const auto& f : sf.facts) {
    const Subject& s = f.subj;
    if (s.kind == SubjectKind::kMissingAttr && s.missing && !IsStdlibModule(FirstComponent(s.module))) {
      std::string pkg = FirstComponent(s.module);
      std::string ver = (!h.package.empty() && FirstComponent(h.package) == pkg) ? h.version_op + h.version : "";
      return "# before\npython -c \"import " + pkg + "; print(hasattr(" + s.module + ", '" + s.attr + "'))\"  # False\n# after\npip install -U \"" +
             PipName(pkg) + ver + "\"\npython -c \"import " + pkg + "; assert hasattr(" + s.module + ", '" + s.attr + "')\"";
    }
    if (s.kind == SubjectKind::kMissingModule && s.missing && !IsStdlibModule(s.module))
      return "# before\npython -c \"import " + s.module + "\"  # fails\n# after\npip install " + PipName(s.module) +
             "\npython -c \"import " + s.module + "\"";
    if (s.kind == SubjectKind::kVersion && !s.attr.empty() && !IsStdlibModule(s.module))
      return "# before\npip show " + PipName(s.module) + "  # a version outside " + s.attr + "\n# after\npip install \"" + ReqName(s.attr) + "\"";
  }
  return std::nullopt;
}

// What the message itself says to run or pass.
std::optional<std::string> HintFix(const SiteFacts& sf) {
  const Hints& h = sf.hints;
  if (!h.package.empty())
    return "# before\npip show " + PipName(h.package) + "  # older than " + h.version + "\n# after\npip install -U \"" + PipName(h.package) +
           h.version_op + h.version + "\"";
  if (!h.upgrade.empty()) return "# before\npip show " + PipName(h.upgrade) + "  # too old\n# after\npip install -U " + PipName(h.upgrade);
  if (!h.pip.empty()) return "# before\n# " + h.pip + " not installed\n# after\npip install " + h.pip;
  for (const auto& [flag, vals] : h.flag_values)
    if (!vals.empty()) {
      bool tested = false;
      for (const auto& f : sf.facts)
        if (f.subj.kind == SubjectKind::kFlag && f.subj.flag->Primary() == flag) tested = true;
      if (!tested) return "# before\n# (launched without " + flag + ")\n# after\n" + flag + " " + vals[0];
    }
  // "Consider adding -H/--hidden": the switch the message names, given.
  for (const auto& flag : h.switches) {
    bool tested = false;
    for (const auto& f : sf.facts)
      if (f.subj.kind == SubjectKind::kFlag && f.subj.flag->Primary() == flag) tested = true;
    if (!tested) return "# before\n# (launched without " + flag + ")\n# after\n" + flag;
  }
  for (const auto& e : h.env_sets) return "# before\n# (" + e.substr(0, e.find('=')) + " not set)\n# after\nexport " + e;
  for (const auto& e : h.env_names) {
    bool tested = false;  // the settings fix names a variable the guards test
    for (const auto& f : sf.facts)
      if (f.subj.kind == SubjectKind::kEnv) tested = true;
    if (!tested) return "# before\n# (" + e + " not set)\n# after\nexport " + e + "=<value>";
  }
  // "--quantization nvfp4_online supports only --moe-runner-backend a or b": the flags
  // the message names, then the allowed flag at its first value.
  if (!h.allowed_flag.empty() && !h.allowed.empty() && StartsWith(h.allowed_flag, "--")) {
    std::string context;
    for (const auto& [flag, value] : h.named_flags)
      if (flag != h.allowed_flag) context += flag + " " + value + " ";
    std::string bad;
    if (sf.k)
      if (const Flag* fl = sf.k->FindFlag(h.allowed_flag))
        for (const auto& c : fl->choices)
          if (std::find(h.allowed.begin(), h.allowed.end(), c) == h.allowed.end() && c != "auto") {
            bad = c;
            break;
          }
    std::string before = context + (bad.empty() ? "" : h.allowed_flag + " " + bad);
    if (Trim(before).empty()) before = "# (launched without " + h.allowed_flag + ")";
    std::string fx = BeforeAfter(Trim(before), context + h.allowed_flag + " " + h.allowed[0]);
    if (!fx.empty()) return fx;
  }
  // "try using `use_cftime=True`" of an argument of this function: the call with it.
  if (sf.site->language == "python" && sf.ctx->known)
    for (const auto& [name, value] : h.kwargs)
      for (const auto& p : sf.ctx->params) {
        if (p.name != name || p.star || p.default_value == value) continue;
        std::string call = PublicCallName(sf, name);
        if (StartsWith(LastComponent(call), "_")) break;  // a private helper: not what the user calls
        std::string fx = BeforeAfter(call + "(...)", CallWith(sf, name, value, ""));
        if (!fx.empty()) return fx;
      }
  if (!h.replacement.empty() && !h.replaced.empty() && h.replaced != h.replacement) {
    // The function that warns is the one retired ("reset_encoding is deprecated, use
    // `drop_encoding` instead" inside reset_encoding): its call, then the new one's.
    if (sf.site->language == "python" && IsIdent(h.replaced) && IsIdent(h.replacement) && h.replaced == sf.ctx->def_name) {
      std::string call = CallName(sf);
      // A property reads as an attribute; its setter (`@filename.setter`: file_index keeps a
      // decorator's last component) as an assignment.
      const SiteContext& c = *sf.ctx;
      std::string args = c.Decorated("setter")                                           ? " = value"
                         : c.Decorated("property") || c.Decorated("cached_property") ? ""
                                                                                         : "(...)";
      if (EndsWith(call, h.replaced))
        return "# before\n" + call + args + "\n# after\n" + call.substr(0, call.size() - h.replaced.size()) + h.replacement + args;
    }
    // A retired keyword of the function that warns ("`regex` has been deprecated, please
    // use `pattern` instead" in Body(..., regex=None, pattern=None)): the call with each.
    auto is_param = [&](const std::string& n) {
      return std::any_of(sf.ctx->params.begin(), sf.ctx->params.end(), [&](const ParamInfo& p) { return p.name == n && !p.star; });
    };
    if (sf.site->language == "python" && IsIdent(h.replaced) && IsIdent(h.replacement) && is_param(h.replaced) &&
        is_param(h.replacement)) {
      std::string call = PublicCallName(sf, h.replaced);
      if (!StartsWith(LastComponent(call), "_"))
        return "# before\n" + call + "(..., " + h.replaced + "=...)\n# after\n" + call + "(..., " + h.replacement + "=...)";
    }
    // "The `'keep_end'` mode is deprecated. Use `truncation_mode='keep_start'` instead":
    // the old value in the same keyword.
    size_t eq = h.replacement.find('=');
    if (eq != std::string::npos && eq > 0 && IsIdent(h.replacement.substr(0, eq)) && h.replacement.compare(eq, 2, "==") != 0 &&
        h.replaced.find('=') == std::string::npos && !IsIdent(h.replaced))
      return "# before\n" + h.replacement.substr(0, eq + 1) + h.replaced + "\n# after\n" + h.replacement;
    return "# before\n" + h.replaced + "\n# after\n" + h.replacement;
  }
  // "register_pool must be called first": that call before this one.
  if (!h.call_first.empty() && !sf.ctx->def_name.empty() && LastComponent(h.call_first) != sf.ctx->def_name) {
    bool method = !sf.ctx->class_name.empty() && !sf.ctx->params.empty() && sf.ctx->params[0].name == "self";
    std::string first = (method && h.call_first.find('.') == std::string::npos ? "obj." : "") + h.call_first + "(...)";
    std::string me = CallName(sf) + "(...)";
    return "# before\n" + me + "\n# after\n" + first + "\n" + me;
  }
  return std::nullopt;
}

}  // namespace errdex::doc
