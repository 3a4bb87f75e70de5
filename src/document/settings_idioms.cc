// document/settings_idioms.cc: how each library declares a setting, read from tokens --
// argparse add_argument, click.option, typer parameters and the environment readers
// (os.environ / os.getenv / get_*_env_var). settings.cc drives them over a file.
// Tested by settings_test.cc and the flag-idiom fixtures in tests/prose/.
#include "document/settings_idioms.h"

#include <algorithm>
#include <cctype>

#include "document/text.h"

namespace errdex::doc {

using py::TokenKind;


// Unquotes a string literal's source text ("auto" -> auto); other text unchanged.
std::string Unquote(const std::string& s) {
  std::string t = Trim(s);
  if (t.size() >= 2 && (t[0] == '"' || t[0] == '\'') && t.back() == t[0] && t.find(t[0], 1) == t.size() - 1)
    return t.substr(1, t.size() - 2);
  return t;
}

bool LiteralText(const std::string& s) {
  std::string t = Trim(s);
  if (t.empty()) return false;
  if (t == "None" || t == "True" || t == "False") return true;
  if (std::isdigit((unsigned char)t[0]) || ((t[0] == '-' || t[0] == '+') && t.size() > 1 && std::isdigit((unsigned char)t[1])))
    return true;
  return (t[0] == '"' || t[0] == '\'') && t.back() == t[0];
}

Call ParseCall(const Toks& t, size_t open) {
  Call c;
  c.open = open;
  c.close = t.MatchBracket(open);
  for (auto [b, e] : t.SplitTopLevel(open + 1, c.close)) {
    if (b >= e) continue;
    if (t.IsOp(b, "**")) {
      c.star_kwargs = true;
      continue;
    }
    if (e - b >= 2 && t.IsKind(b, TokenKind::kName) && t.IsOp1(b + 1, '='))
      c.keywords.emplace_back(std::string(t.Text(b)), std::make_pair(b + 2, e));
    else
      c.positional.emplace_back(b, e);
  }
  return c;
}

std::string SpanStr(const Toks& t, std::pair<size_t, size_t> r) { return std::string(t.Span(r.first, r.second)); }

namespace {

// The bool(int(...)) / int(...) wrapper of an env read at token `at`: the type it gives.
std::string WrapperType(const Toks& t, size_t at) {
  // Walk back over `(` and names: bool(int(os.getenv(...)))
  std::string type;
  size_t i = at;
  for (int n = 0; n < 4 && i >= 2 && t.IsOp1(i - 1, '(') && t.IsKind(i - 2, TokenKind::kName); ++n) {
    std::string_view w = t.Text(i - 2);
    if (w == "bool" || w == "int" || w == "float" || w == "str") {
      if (type.empty() || w == "bool") type = std::string(w);
    }
    i -= 2;
  }
  return type;
}

}  // namespace

void AddEnv(std::string_view path, const Toks& t, std::string name, std::string reader, std::string type,
            std::optional<std::string> def, int line, SettingsData* d) {
  if (name.empty() || name.size() > 100 || !IsIdent(name)) return;
  EnvVar e;
  e.name = std::move(name);
  e.reader = std::move(reader);
  e.type = std::move(type);
  e.default_value = std::move(def);
  e.file = std::string(path);
  e.line = line;
  d->envs.push_back(std::move(e));
}

std::string TypeFromGetter(std::string_view fn) {
  std::string l = Lower(fn);
  if (Has(l, "bool")) return "bool";
  if (Has(l, "int")) return "int";
  if (Has(l, "float")) return "float";
  if (Has(l, "str")) return "str";
  return "";
}

void CollectEnvAt(std::string_view path, const Toks& t, size_t i, SettingsData* d) {
  auto str_arg = [&](const Call& c, std::string* name) {
    return !c.positional.empty() && c.positional[0].second == c.positional[0].first + 1 &&
           t.StringAt(c.positional[0].first, name);
  };
  if (t.IsName(i, "os") && t.IsOp1(i + 1, '.')) {
    std::string name;
    if (t.IsName(i + 2, "environ") && t.IsOp1(i + 3, '[') && t.StringAt(i + 4, &name) && t.IsOp1(i + 5, ']')) {
      AddEnv(path, t, name, "os.environ", WrapperType(t, i), std::nullopt, t.line(i), d);
      return;
    }
    size_t call = 0;
    std::string reader;
    if (t.IsName(i + 2, "environ") && t.IsOp1(i + 3, '.') && (t.IsName(i + 4, "get") || t.IsName(i + 4, "setdefault")) &&
        t.IsOp1(i + 5, '(')) {
      call = i + 5;
      reader = "os.environ";
    } else if (t.IsName(i + 2, "getenv") && t.IsOp1(i + 3, '(')) {
      call = i + 3;
      reader = "os.getenv";
    }
    if (call) {
      Call c = ParseCall(t, call);
      if (str_arg(c, &name)) {
        std::optional<std::string> def;
        if (c.positional.size() > 1) def = SpanStr(t, c.positional[1]);
        else if (auto* k = c.Kw("default")) def = SpanStr(t, *k);
        AddEnv(path, t, name, reader, WrapperType(t, i), def, t.line(i), d);
      }
    }
    return;
  }
  // "X" in os.environ
  if (t.IsString(i) && t.IsName(i + 1, "in") && t.IsName(i + 2, "os") && t.IsOp1(i + 3, '.') && t.IsName(i + 4, "environ")) {
    std::string name;
    if (t.StringAt(i, &name)) AddEnv(path, t, name, "os.environ", "", std::nullopt, t.line(i), d);
    return;
  }
  // get_bool_env_var("X", default), getenv_bool(...), env_int(...)
  if (t.IsKind(i, TokenKind::kName) && t.IsOp1(i + 1, '(') && !(i > 0 && t.IsOp1(i - 1, '.'))) {
    std::string_view fn = t.Text(i);
    // get_bool_env_var / getenv_int / env_flag: a name with "env" starting get/_get/env (any case).
    auto ci_starts = [&](std::string_view p, size_t at) {
      if (fn.size() < at + p.size()) return false;
      for (size_t k = 0; k < p.size(); ++k)
        if (std::tolower((unsigned char)fn[at + k]) != p[k]) return false;
      return true;
    };
    bool lead = ci_starts("get", 0) || ci_starts("_get", 0) || ci_starts("env", 0);
    bool env = false;
    for (size_t k = 0; lead && !env && k + 3 <= fn.size(); ++k) env = ci_starts("env", k);
    if (env && fn != "getenv") {
      std::string l = Lower(fn);
      Call c = ParseCall(t, i + 1);
      std::string name;
      if (str_arg(c, &name)) {
        std::optional<std::string> def;
        if (c.positional.size() > 1) def = SpanStr(t, c.positional[1]);
        else if (auto* k = c.Kw("default")) def = SpanStr(t, *k);
        std::string type = TypeFromGetter(fn);
        if (type.empty()) type = WrapperType(t, i);
        AddEnv(path, t, name, std::string(fn), type, def, t.line(i), d);
      }
    }
  }
}

// add_argument("--x", ...) at token i (the name add_argument).
void CollectArgparse(std::string_view path, const Toks& t, size_t i, SettingsData* d) {
  Call c = ParseCall(t, i + 1);
  Flag f;
  f.origin = "argparse";
  for (auto [b, e] : c.positional) {
    std::string v;
    if (t.StringValue(b, e, &v) && !v.empty() && v[0] == '-') f.options.push_back(v);
  }
  if (f.options.empty()) return;  // a positional argument (or a generated name): not a flag
  std::string v;
  if (auto* k = c.Kw("dest"); k && t.StringValue(k->first, k->second, &v)) {
    f.dest = v;
  } else {
    std::string opt = f.Primary();
    size_t p = opt.find_first_not_of('-');
    f.dest = p == std::string::npos ? opt : opt.substr(p);
    std::replace(f.dest.begin(), f.dest.end(), '-', '_');
  }
  if (auto* k = c.Kw("choices")) {
    if (t.StringList(k->first, k->second, &f.choices)) f.choices_from = "choices";
    else f.choices_expr = SpanStr(t, *k);
  }
  if (auto* k = c.Kw("default")) {
    if (t.StringValue(k->first, k->second, &v)) {
      f.default_value = v;
      f.default_is_literal = true;
    } else {
      f.default_value = SpanStr(t, *k);
      f.default_is_literal = LiteralText(*f.default_value);
    }
  }
  if (auto* k = c.Kw("help")) t.StringValue(k->first, k->second, &f.help);
  if (auto* k = c.Kw("type")) f.type = SpanStr(t, *k);
  if (auto* k = c.Kw("nargs")) f.nargs = Unquote(SpanStr(t, *k));
  if (auto* k = c.Kw("action")) {
    if (!t.StringValue(k->first, k->second, &f.action)) {
      std::string a = SpanStr(t, *k);
      f.action = LastComponent(a);
    }
  }
  if (f.action == "BooleanOptionalAction") {
    std::string p = f.Primary();
    if (StartsWith(p, "--")) f.negative = "--no-" + p.substr(2);
  }
  if (f.action == "store_true" || f.action == "store_false" || f.action == "BooleanOptionalAction") f.type = "bool";
  f.kwargs = c.star_kwargs;
  f.file = std::string(path);
  f.line = t.line(i);
  d->flags.push_back(std::move(f));
}

// @click.option("--x/--no-x", "-x", "name", type=click.Choice([...]), default=, is_flag=, envvar=, help=)
void CollectClickOption(std::string_view path, const Toks& t, size_t i, SettingsData* d, const std::string& function) {
  Call c = ParseCall(t, i + 1);
  Flag f;
  f.origin = "click";
  f.class_name = function;
  std::string explicit_dest;
  for (auto [b, e] : c.positional) {
    std::string v;
    if (!t.StringValue(b, e, &v)) continue;
    if (v.empty()) continue;
    if (v[0] != '-') {
      explicit_dest = v;
      continue;
    }
    size_t slash = v.find('/');
    if (slash != std::string::npos) {
      f.options.push_back(Trim(v.substr(0, slash)));
      f.negative = Trim(v.substr(slash + 1));
      f.type = "bool";
    } else {
      f.options.push_back(v);
    }
  }
  if (f.options.empty()) return;
  std::string p = f.Primary();
  size_t k0 = p.find_first_not_of('-');
  f.dest = explicit_dest.empty() ? (k0 == std::string::npos ? p : p.substr(k0)) : explicit_dest;
  std::replace(f.dest.begin(), f.dest.end(), '-', '_');
  std::string v;
  if (auto* k = c.Kw("type")) {
    std::string ty = SpanStr(t, *k);
    // click.Choice(["a", "b"]) / Choice([...])
    for (size_t j = k->first; j + 1 < k->second; ++j)
      if (t.IsName(j, "Choice") && t.IsOp1(j + 1, '(')) {
        Call ch = ParseCall(t, j + 1);
        if (!ch.positional.empty() && t.StringList(ch.positional[0].first, ch.positional[0].second, &f.choices))
          f.choices_from = "click.Choice";
        else if (!ch.positional.empty())
          f.choices_expr = SpanStr(t, ch.positional[0]);
      }
    if (f.choices.empty() && f.choices_expr.empty()) f.type = ty;
    else f.type = "str";
  }
  if (auto* k = c.Kw("is_flag"); k && t.Text(k->first) == "True") f.type = "bool", f.action = "store_true";
  if (f.type == "bool" && f.action.empty()) f.action = f.negative.empty() ? "store_true" : "BooleanOptionalAction";
  if (auto* k = c.Kw("default")) {
    if (t.StringValue(k->first, k->second, &v)) f.default_value = v, f.default_is_literal = true;
    else f.default_value = SpanStr(t, *k), f.default_is_literal = LiteralText(*f.default_value);
  }
  if (auto* k = c.Kw("help")) t.StringValue(k->first, k->second, &f.help);
  if (auto* k = c.Kw("envvar")) t.StringValue(k->first, k->second, &f.env);
  if (auto* k = c.Kw("multiple"); k && t.Text(k->first) == "True") f.action = "append";
  f.file = std::string(path);
  f.line = t.line(i);
  if (!f.env.empty()) AddEnv(path, t, f.env, "click:" + f.Primary(), f.type, f.default_value, f.line, d);
  d->flags.push_back(std::move(f));
}

// One parameter of a typer command: `name: T = typer.Option(default, "--opt", help=...)`,
// `name: Annotated[T, typer.Option(...)] = default`, or (command_params) `name: T = default`.
void CollectTyperParam(std::string_view path, const Toks& t, size_t b, size_t e, bool command_params,
                       const std::string& function, const SettingsData& here, SettingsData* d) {
  if (b >= e || !t.IsKind(b, TokenKind::kName)) return;
  std::string name(t.Text(b));
  if (name == "self" || name == "cls" || name == "ctx") return;
  size_t colon = 0, eq = 0;
  for (size_t j = b + 1; j < e; ++j) {
    if (t.depth(j) != t.depth(b)) continue;
    if (!colon && !eq && t.IsOp1(j, ':')) colon = j;
    if (!eq && t.IsOp1(j, '=')) eq = j;
  }
  std::string type = colon ? std::string(t.Span(colon + 1, eq ? eq : e)) : "";
  std::string def = eq ? std::string(t.Span(eq + 1, e)) : "";
  // Find typer.Option( / Option( in the annotation or the default.
  size_t opt = 0;
  for (size_t j = b; j + 1 < e; ++j)
    if (t.IsName(j, "Option") && t.IsOp1(j + 1, '(')) opt = j;
  if (!opt && !(command_params && eq)) return;
  Flag f;
  f.origin = "typer";
  f.class_name = function;
  f.dest = name;
  std::string default_src = def;
  if (opt) {
    Call c = ParseCall(t, opt + 1);
    bool in_default = eq && opt > eq;
    size_t first_opt = 0;
    if (in_default && !c.positional.empty()) {
      default_src = SpanStr(t, c.positional[0]);
      first_opt = 1;
    }
    if (auto* k = c.Kw("default")) default_src = SpanStr(t, *k);
    for (size_t p = first_opt; p < c.positional.size(); ++p) {
      std::string v;
      if (!t.StringValue(c.positional[p].first, c.positional[p].second, &v) || v.empty() || v[0] != '-') continue;
      size_t slash = v.find('/');
      if (slash != std::string::npos) {
        f.options.push_back(Trim(v.substr(0, slash)));
        f.negative = Trim(v.substr(slash + 1));
      } else {
        f.options.push_back(v);
      }
    }
    if (auto* k = c.Kw("help")) t.StringValue(k->first, k->second, &f.help);
    if (auto* k = c.Kw("envvar")) t.StringValue(k->first, k->second, &f.env);
  }
  if (default_src == "..." || Trim(default_src).empty()) {
    if (!opt) return;  // a required positional argument
  }
  std::string base_type = OneLine(type);
  if (StartsWith(base_type, "Annotated[")) base_type = base_type.substr(10, base_type.find(',') == std::string::npos ? std::string::npos : base_type.find(',') - 10);
  if (StartsWith(base_type, "Optional[")) base_type = base_type.substr(9, base_type.size() > 10 ? base_type.size() - 10 : 0);
  if (Has(base_type, "| None")) base_type = Trim(base_type.substr(0, base_type.find("| None")));
  std::string from;
  f.choices = ChoicesOfType(type, here, &from);
  f.choices_from = from;
  if (f.choices.empty() && IsIdent(base_type) && !base_type.empty() && std::isupper((unsigned char)base_type[0]))
    f.choices_expr = base_type;  // an Enum from another file: resolved when merged
  f.type = base_type == "bool" ? "bool" : base_type;
  if (f.options.empty()) f.options.push_back("--" + Kebab(name));
  if (f.type == "bool" && f.negative.empty() && StartsWith(f.options[0], "--")) f.negative = "--no-" + f.options[0].substr(2);
  if (f.type == "bool") f.action = "BooleanOptionalAction";
  if (!Trim(default_src).empty()) {
    f.default_value = Unquote(default_src);
    f.default_is_literal = LiteralText(default_src);
  }
  f.file = std::string(path);
  f.line = t.line(b);
  d->flags.push_back(std::move(f));
}


}  // namespace errdex::doc
