// document/write_example_brace.cc: exampleFix for Go, Rust and C/C++ functions whose
// innermost guard tests one of their own parameters -- the call as the caller writes it,
// by position, with the value that fails the check and one that passes it, in the
// language's own literals (nil, None/Some(x), nullptr, NULL, true/false, `[]T{}`):
//
//   agentModelOptions(ctx, nil)        ->  agentModelOptions(ctx, client)
//   SetInstalledFromDesktop(false)     ->  SetInstalledFromDesktop(true)
//   ImgBytes("")                       ->  ImgBytes(path)  // a non-empty path
//
// A passing value is a literal the guard reads (true/false) or the caller's own variable,
// named as the parameter (a pointer that is set, a non-empty string, a slice with items);
// nothing is made up. Python's calls are write_example.cc's (by keyword, with samples of
// their annotations). Tested by brace_documenter_test.cc.
#include <algorithm>
#include <cctype>

#include "document/text.h"
#include "document/values.h"
#include "document/write_example.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

bool IsBraceLanguage(const std::string& l) {
  return l == "go" || l == "rust" || l == "c" || l == "cpp" || l == "cuda" || l == "java";
}

// `LlavaProcessor` -> `llava_processor`: a Rust value of the type, as its code names one.
std::string SnakeCase(const std::string& type) {
  std::string o;
  for (size_t i = 0; i < type.size(); ++i) {
    char ch = type[i];
    if (std::isupper((unsigned char)ch)) {
      // A word starts at a capital after a small letter or digit, or at the last capital of
      // a run a small letter follows: `QwenVLProcessor` -> qwen_vl_processor.
      bool after_small = i > 0 && !std::isupper((unsigned char)type[i - 1]) && type[i - 1] != '_';
      bool run_ends = i > 0 && std::isupper((unsigned char)type[i - 1]) && i + 1 < type.size() &&
                      std::islower((unsigned char)type[i + 1]);
      if (after_small || run_ends) o += '_';
      o += (char)std::tolower((unsigned char)ch);
    } else {
      o += ch;
    }
  }
  return o;
}

// How a caller names the function: `f`; Go's `recv.f` (the receiver's type with a
// lower-case first letter: `browser.displayPage`); Rust's `value.f` for a method that
// takes self (`llava_processor.preprocess`), `Type::f` for an associated fn. Empty when
// the language's form is not known (a C++ method).
std::string CalleeOf(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  const std::string& lang = sf.site->language;
  if (c.class_name.empty()) return c.def_name;
  if (lang == "go") {
    std::string recv = c.class_name;
    recv[0] = (char)std::tolower((unsigned char)recv[0]);
    if (recv == c.class_name) recv = "obj";  // an unexported type: its value has no name to borrow
    return recv + "." + c.def_name;
  }
  if (lang == "rust") return c.Decorated("self") ? SnakeCase(c.class_name) + "." + c.def_name : c.class_name + "::" + c.def_name;
  if (lang == "java") {
    if (c.Decorated("constructor")) return "new " + c.class_name;
    if (c.Decorated("static")) return c.class_name + "." + c.def_name;
    return InstanceName(sf) + "." + c.def_name;  // a value of the class, as its type names it
  }
  return "";
}

// The call with every parameter passed as the caller's variable of the same name and
// `param` as `value`; `f(..., value, ...)` past five parameters.
std::string CallLine(const SiteFacts& sf, const std::string& callee, const std::string& param, const std::string& value,
                     const std::string& note) {
  const auto& ps = sf.ctx->params;
  std::string args;
  // Go's blank `_` parameters have no name a caller's variable could borrow.
  bool blank = std::any_of(ps.begin(), ps.end(), [&](const ParamInfo& p) { return p.name == "_" && p.name != param; });
  if (ps.size() > 5 || blank) {
    args = "..., " + value + ", ...";
  } else {
    for (const auto& p : ps) args += (args.empty() ? "" : ", ") + (p.name == param ? value : p.name);
  }
  std::string comment = sf.site->language == "python" ? "  # " : "  // ";
  return callee + "(" + args + ")" + (note.empty() ? "" : comment + note);
}

// A slice, array or vector parameter's value with `n` items, in its language: `[]string{x1,
// x2}`, `&[x1, x2]`, `vec![x1, x2]`; empty when the type is none of these.
std::string SequenceOf(const std::string& lang, const std::string& type, long n) {
  std::string t = Trim(type), items;
  for (long i = 0; i < n; ++i) items += (i ? ", x" : "x") + std::to_string(i + 1);
  if (lang == "go" && StartsWith(t, "[]")) return t + "{" + items + "}";
  if (lang == "rust" && (StartsWith(t, "&[") || StartsWith(t, "&mut ["))) return "&[" + items + "]";
  if (lang == "rust" && StartsWith(t, "Vec<")) return "vec![" + items + "]";
  if (lang == "java" && EndsWith(t, "[]") && IsDotted(t.substr(0, t.size() - 2))) return "new " + t + "{" + items + "}";
  if (lang == "java" && (StartsWith(t, "List<") || StartsWith(t, "Collection<"))) return "List.of(" + items + ")";
  return "";
}

std::string ItemsNote(long n) { return n == 0 ? "no items" : std::to_string(n) + (n == 1 ? " item" : " items"); }

// `s == null || t == null` (Java's getLevenshteinDistance), `a == nil || b == nil`: every
// atom a parameter compared with null. The call with the first of them null, and with
// each passed.
std::optional<std::string> NullArgumentsFix(const SiteFacts& sf, const Fact& f, const std::string& callee) {
  if (f.any_of.size() < 2 || f.any_of.size() > 4 || sf.site->language == "rust") return std::nullopt;  // Rust: Option, not null
  std::vector<std::string> names;
  for (const Atom& a : f.any_of) {
    std::string x = Trim(a.lhs);
    if (a.op != "is" || Trim(a.rhs) != "None" || !IsParam(sf, x)) return std::nullopt;
    if (std::find(names.begin(), names.end(), x) != names.end()) return std::nullopt;
    names.push_back(x);
  }
  for (const auto& [name, rhs] : sf.ctx->assigned)
    if (std::find(names.begin(), names.end(), name) != names.end()) return std::nullopt;  // a local by then
  std::string fx = BeforeAfter(CallLine(sf, callee, names[0], NullWord(sf.site->language), ""),
                               CallLine(sf, callee, names[0], names[0], ""));
  if (fx.empty()) return std::nullopt;
  return fx;
}

}  // namespace

std::optional<std::string> BraceCallFix(const SiteFacts& sf) {
  const SiteContext& c = *sf.ctx;
  const std::string& lang = sf.site->language;
  if (!c.known || !IsBraceLanguage(lang) || c.def_name.empty()) return std::nullopt;
  const std::string callee = CalleeOf(sf);
  if (callee.empty()) return std::nullopt;
  // The tests of earlier `if T { return }` statements are where the site is reached from;
  // a checked condition (CHECK, TVM_FFI_ICHECK, ensure!) comes after them and is innermost.
  const int exits_from = (int)sf.site->guards.size(), exits_to = exits_from + (int)sf.exit_branches.size();
  for (auto it = sf.facts.rbegin(); it != sf.facts.rend(); ++it) {
    const Fact& f = *it;
    const Subject& s = f.subj;
    const Atom& a = f.atom;
    if (f.guard >= exits_from && f.guard < exits_to) continue;
    if (s.IsSetting() || s.IsCapability()) continue;
    if (f.disjunction) return NullArgumentsFix(sf, f, callee);
    // The innermost test is of something else (a returned err, the object's state): the
    // arguments are context, not what fails.
    if ( (s.kind != SubjectKind::kParam && s.kind != SubjectKind::kShape) || s.param.empty() || !s.via.empty() ||
        !s.param_info)
      return std::nullopt;
    const std::string& x = s.param;
    for (const auto& [name, rhs] : c.assigned)
      if (name == x) return std::nullopt;  // reassigned on the way: the test is of the local
    const std::string type = Trim(s.param_info->annotation);
    std::string bad, good;
    if (s.kind == SubjectKind::kShape) {
      // `len(models) == 0`, `len(parts) != 2`: the call with as many items as the guard
      // rejects and as many as it accepts.
      long b, g;
      std::string lhs = Trim(a.lhs);
      bool length = StartsWith(lhs, "len(") || (lang == "java" && (lhs == x + ".length" || lhs == x + ".size()"));
      if (!length || !IntBound(a, &b, &g) || b < 0 || g < 0 || b > 8 || g > 8) return std::nullopt;
      std::string bad_v = SequenceOf(lang, type, b), good_v = SequenceOf(lang, type, g);
      if (bad_v.empty() || good_v.empty()) return std::nullopt;
      bad = CallLine(sf, callee, x, bad_v, ItemsNote(b));
      good = CallLine(sf, callee, x, good_v, ItemsNote(g));
    } else if (a.op == "is" && Trim(a.rhs) == "None") {
      // `client == nil`: the call passes nil (None, nullptr); pass the caller's value.
      bool option = lang == "rust" && StartsWith(type, "Option<");
      if (lang == "rust" && !option) return std::nullopt;
      bad = CallLine(sf, callee, x, NullWord(lang), "");
      good = CallLine(sf, callee, x, option ? "Some(" + x + ")" : x, "");
    } else if (long b, g; lang == "java" && s.kind == SubjectKind::kParam && !a.op.empty() && IntBound(a, &b, &g)) {
      // `count < 0`: a value the check rejects and one it accepts.
      bad = CallLine(sf, callee, x, std::to_string(b), "");
      good = CallLine(sf, callee, x, std::to_string(g), "");
    } else if (a.op.empty() && (type == "bool" || (lang == "java" && type == "boolean"))) {
      bad = CallLine(sf, callee, x, a.falsy ? "false" : "true", "");
      good = CallLine(sf, callee, x, a.falsy ? "true" : "false", "");
    } else if (a.op == "!=" && a.rhs_strings && !a.rhs_numbers && a.values.size() == 1 && a.values[0].empty() &&
               IsStringType(lang, type)) {
      // `path != ""` rejected: the call with the caller's value, and with none.
      bad = CallLine(sf, callee, x, x, "a non-empty " + x);
      good = CallLine(sf, callee, x, "\"\"", "");
    } else if (((a.op == "==" && a.rhs_strings && !a.rhs_numbers && a.values.size() == 1 && a.values[0].empty()) ||
                (a.op.empty() && a.falsy)) &&
               IsStringType(lang, type)) {
      // `path == ""`, Rust's `source.is_empty()`: the caller's non-empty value.
      bad = CallLine(sf, callee, x, "\"\"", "");
      good = CallLine(sf, callee, x, x, "a non-empty " + x);
    } else if (a.op.empty() && a.falsy && !SequenceOf(lang, type, 0).empty()) {
      // Rust's `images.is_empty()`: the call with no items and with one.
      bad = CallLine(sf, callee, x, SequenceOf(lang, type, 0), ItemsNote(0));
      good = CallLine(sf, callee, x, SequenceOf(lang, type, 1), ItemsNote(1));
    } else {
      return std::nullopt;
    }
    std::string fx = BeforeAfter(bad, good);
    if (fx.empty()) return std::nullopt;
    return fx;
  }
  return std::nullopt;
}

}  // namespace errdex::doc
