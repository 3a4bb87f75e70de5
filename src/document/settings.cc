// document/settings.cc: collection and merge of the settings map (settings.h).
// Token scans over the front end's tokens; no regular expressions, no recursion.
// Tested by settings_test.cc and the flag-idiom fixtures in tests/prose/.
#include "document/settings.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "document/facts_subjects.h"
#include "document/py_tokens.h"
#include "document/settings_idioms.h"
#include "document/text.h"

namespace errdex::doc {

using py::TokenKind;

std::string Flag::Primary() const {
  if (IsSpringProperty() && !options.empty()) return options[0];
  for (const auto& o : options)
    if (StartsWith(o, "--")) return o;
  return options.empty() ? std::string() : options[0];
}

std::string Flag::With(std::string_view v) const {
  if (IsProperty()) return Primary() + "=" + std::string(v);
  return Primary() + " " + std::string(v);
}

std::string_view Flag::Language() const {
  if (origin == "clap") return "rust";
  if (origin == "go-flag" || origin == "pflag") return "go";
  if (origin == "picocli" || IsProperty()) return "java";
  return "";
}

// A property is never a switch (IsTrueFalseProperty).
bool Flag::IsBool() const {
  if (IsProperty()) return false;
  return action == "store_true" || action == "store_false" || action == "BooleanOptionalAction" ||
         action == "store_const" || action == "count" || (type == "bool" && origin != "argparse");
}


namespace {

// The help text of an Annotated[T, "help"] type or field(metadata={"help": ...}).
std::string HelpOf(const Toks& t, size_t b, size_t e) {
  for (size_t j = b; j < e; ++j) {
    if (t.IsName(j, "Annotated") && t.IsOp1(j + 1, '[')) {
      size_t close = t.MatchBracket(j + 1);
      auto parts = t.SplitTopLevel(j + 2, close);
      for (size_t p = parts.size(); p-- > 1;) {
        std::string v;
        if (t.StringValue(parts[p].first, parts[p].second, &v)) return v;
      }
    }
    std::string key;
    if (t.StringAt(j, &key) && (key == "help" || key == "description") && t.IsOp1(j + 1, ':')) {
      size_t k = j + 2, end = k;
      while (end < e && !(t.depth(end) <= t.depth(j) && (t.IsOp1(end, ',') || t.IsOp1(end, '}')))) ++end;
      std::string v;
      if (t.StringValue(k, end, &v)) return v;
    }
    if ((t.IsName(j, "description") || t.IsName(j, "help")) && t.IsOp1(j + 1, '=')) {
      size_t k = j + 2, end = k;
      while (end < e && !(t.depth(end) <= t.depth(j) && (t.IsOp1(end, ',') || t.IsOp1(end, ')')))) ++end;
      std::string v;
      if (t.StringValue(k, end, &v)) return v;
    }
  }
  return "";
}

// `Annotated[T, meta...]` (or any alias: sglang's `A[T, ...]`): a bare string is the
// help; a call's help=/description=/choices=/aliases=/cli_name=/action=/no_cli= keywords
// are the flag's metadata (sglang's Arg(...), pydantic's Field(...)). Anything else
// (Dict[str, int], NS("x") alone) is no metadata.
void ReadAnnotation(const Toks& t, size_t b, size_t e, ConfigField* f) {
  if (e < b + 4 || !t.IsKind(b, TokenKind::kName)) return;
  size_t open = b + 1;
  while (open + 1 < e && t.IsOp1(open, '.') && t.IsKind(open + 1, TokenKind::kName)) open += 2;
  if (!t.IsOp1(open, '[') || t.MatchBracket(open) != e - 1) return;
  // Literal["auto", "normal"] lists values, Tuple/Union/Dict list types: none is Annotated.
  static const std::set<std::string_view> kGenerics = {"Literal", "Union",   "Optional", "Tuple", "tuple", "Dict",
                                                       "dict",    "List",    "list",     "Set",   "set",   "Callable",
                                                       "Mapping", "Sequence", "Type",    "type"};
  if (kGenerics.count(t.Text(open - 1))) return;
  auto parts = t.SplitTopLevel(open + 1, e - 1);
  if (parts.size() < 2 || parts[0].first >= parts[0].second) return;
  bool meta = false;
  for (size_t p = 1; p < parts.size(); ++p) {
    auto [pb, pe] = parts[p];
    if (pb >= pe) continue;
    std::string v;
    if (t.StringValue(pb, pe, &v)) {
      if (f->help.empty()) f->help = v;
      meta = true;
      continue;
    }
    size_t q = pb;
    while (q + 2 < pe && t.IsKind(q, TokenKind::kName) && t.IsOp1(q + 1, '.')) q += 2;
    if (!t.IsKind(q, TokenKind::kName) || !t.IsOp1(q + 1, '(') || t.MatchBracket(q + 1) != pe - 1) continue;
    Call c = ParseCall(t, q + 1);
    for (const char* hk : {"help", "description"})
      if (auto* k = c.Kw(hk); k && f->help.empty() && t.StringValue(k->first, k->second, &f->help)) meta = true;
    if (auto* k = c.Kw("choices")) {
      meta = true;
      if (t.StringList(k->first, k->second, &f->choices)) f->choices_from = "choices";
      else f->choices_expr = SpanStr(t, *k);
    }
    if (auto* k = c.Kw("aliases")) meta = true, t.StringList(k->first, k->second, &f->aliases);
    if (auto* k = c.Kw("cli_name")) meta = true, t.StringValue(k->first, k->second, &f->cli_name);
    if (auto* k = c.Kw("action")) {
      meta = true;
      if (!t.StringValue(k->first, k->second, &f->action)) f->action = LastComponent(SpanStr(t, *k));
    }
    if (auto* k = c.Kw("no_cli"); k && t.Text(k->first) == "True") meta = true, f->no_cli = true;
  }
  if (!meta) return;
  f->has_meta = true;
  f->inner_type = OneLine(t.Span(parts[0].first, parts[0].second));
}

// {"a": x, "b": y} at `open`: its string keys (all keys must be strings; at most 64).
bool DictKeys(const Toks& t, size_t open, std::vector<std::string>* out) {
  size_t close = t.MatchBracket(open);
  std::vector<std::string> keys;
  for (auto [pb, pe] : t.SplitTopLevel(open + 1, close)) {
    if (pb >= pe) continue;
    std::string k;
    if (pe < pb + 3 || !t.StringAt(pb, &k) || !t.IsOp1(pb + 1, ':') || keys.size() >= 64) return false;
    keys.push_back(std::move(k));
  }
  if (keys.empty()) return false;
  *out = std::move(keys);
  return true;
}

// The call opened at `open` passes a bare capitalized name among its first arguments
// (`f(parser, ServerArgs)`): a cheap look at a few tokens.
bool PassesClass(const Toks& t, size_t open) {
  int depth = t.depth(open) + 1;
  for (size_t j = open + 1, n = 0; j < t.size() && n < 8; ++j, ++n) {
    if (t.IsOp1(j, ')') && t.depth(j) < depth) return false;
    if (t.depth(j) == depth && t.IsKind(j, TokenKind::kName) && std::isupper((unsigned char)t.Text(j)[0]) &&
        (t.IsOp1(j + 1, ',') || t.IsOp1(j + 1, ')')) && (t.IsOp1(j - 1, '(') || t.IsOp1(j - 1, ',')))
      return true;
  }
  return false;
}

// The value type of an annotation: Optional[X] / X | None / Annotated[X, ...] -> X.
std::string BareType(std::string ty) {
  ty = Trim(OneLine(ty));
  for (int n = 0; n < 4; ++n) {
    if (StartsWith(ty, "Optional[") && EndsWith(ty, "]")) ty = Trim(ty.substr(9, ty.size() - 10));
    else if (EndsWith(ty, "| None")) ty = Trim(ty.substr(0, ty.size() - 6));
    else if (StartsWith(ty, "None |")) ty = Trim(ty.substr(6));
    else if (StartsWith(ty, "Annotated[") && ty.find(',') != std::string::npos) ty = Trim(ty.substr(10, ty.find(',') - 10));
    else break;
  }
  return ty;
}

struct Scope {
  int indent = 0;
  bool is_class = false;
  std::string name;
  bool dataclass = false, enum_class = false, pydantic = false, settings_class = false, env_registry = false;
  int body_indent = -1;
  size_t first_tok = 0;  // def: the first token of the header line
  bool typer_command = false;
};

}  // namespace

std::vector<std::string> ChoicesOfType(std::string_view type, const SettingsData& data, std::string* from) {
  std::vector<std::string> out;
  if (type.empty() || type.size() > 4000) return out;
  Toks t = Toks::Expression(type);
  for (size_t j = 0; j + 1 < t.size(); ++j) {
    if (t.IsName(j, "Literal") && t.IsOp1(j + 1, '[')) {
      size_t close = t.MatchBracket(j + 1);
      std::vector<std::string> vals;
      if (t.StringList(j + 2, close, &vals)) {
        if (from) *from = "Literal";
        return vals;
      }
    }
  }
  for (size_t j = 0; j < t.size(); ++j) {
    if (!t.IsKind(j, TokenKind::kName)) continue;
    std::string n(t.Text(j));
    if (auto it = data.literal_aliases.find(n); it != data.literal_aliases.end()) {
      if (from) *from = "Literal";
      return it->second;
    }
    if (auto it = data.enums.find(n); it != data.enums.end()) {
      for (auto& [m, v] : it->second) out.push_back(v);
      if (from) *from = "Enum:" + n;
      return out;
    }
  }
  return out;
}

namespace {

// What a called name can be, read in one pass (it runs for every call in every file).
// kEnvReader: a cheap gate, could `w` be an env reader (get_*env* / env_* / os)?
// kFieldHelper: Has(w, "arg") || Has(w, "cli") || Has(w, "field") || Has(w, "parser") ||
// Has(w, "dataclass").
enum : unsigned { kEnvReader = 1, kFieldHelper = 2 };
unsigned CalleeWords(std::string_view w) {
  if (Toks::Same(w, "os")) return kEnvReader;
  const char* p = w.data();
  const size_t n = w.size();
  auto at = [&](size_t k, std::string_view lit) { return n - k >= lit.size() && std::memcmp(p + k, lit.data(), lit.size()) == 0; };
  unsigned found = 0;
  for (size_t k = 0; k + 3 <= n; ++k) {
    switch (p[k]) {
      case 'E':
      case 'e':
        if ((p[k + 1] | 0x20) == 'n' && (p[k + 2] | 0x20) == 'v') return kEnvReader;  // decides: env readers are tested first
        break;
      case 'a': if (at(k, "arg")) found = kFieldHelper; break;
      case 'c': if (at(k, "cli")) found = kFieldHelper; break;
      case 'f': if (at(k, "field")) found = kFieldHelper; break;
      case 'p': if (at(k, "parser")) found = kFieldHelper; break;
      case 'd': if (at(k, "dataclass")) found = kFieldHelper; break;
      default: break;
    }
  }
  return found;
}

}  // namespace

namespace {

// What the token pass learns about the file as a whole.
struct TokenPass {
  bool has_typer = false, has_click = false, saw_add_argument = false, saw_dash_name = false;
};

// One pass over the tokens: calls anywhere (add_argument, env reads,
// HfArgumentParser, classes passed to helpers, flags named in strings), and what
// the file can hold (each collector of the line pass needs its word) -- no scan of
// the whole text. A function of its own: in CollectSettings' body the loop's
// variables lived on the stack.
[[gnu::noinline]] void ScanTokens(std::string_view path, const Toks& t, SettingsData* d, TokenPass* out) {
  const std::string_view text = t.text();
  // This loop sees every token of every file: it reads the token array directly
  // (no bounds-checked accessors) and tests the cheapest conditions first.
  const py::Token* tk = t.tokens().data();
  const size_t n = t.size();
  const char* src = text.data();
  auto word = [&](size_t j) { return std::string_view(src + tk[j].begin, tk[j].end - tk[j].begin); };
  for (size_t i = 0; i < n; ++i) {
    // Most tokens are operators, numbers, newlines: skip them in a loop of their own
    // (the body below holds calls, which cost the loop its registers).
    while (i < n && tk[i].kind != TokenKind::kString && tk[i].kind != TokenKind::kName) ++i;
    if (i >= n) break;
    const py::Token& tok = tk[i];
    if (tok.kind == TokenKind::kString) {
      if (i + 1 < n && tk[i + 1].kind == TokenKind::kName && Toks::Same(word(i + 1), "in")) CollectEnvAt(path, t, i, d);  // "X" in os.environ
      std::string_view s = word(i);
      size_t p = s.find("--");
      if (p == std::string_view::npos) continue;
      // A "--" name built from a field: "--" + name, f"--{name}", "--%s" % name, "--{}".format(name).
      if (s == "\"--\"" || s == "'--'" || StartsWith(s, "f\"--") || StartsWith(s, "f'--") || StartsWith(s, "\"--%s") ||
          StartsWith(s, "\"--{}"))
        out->saw_dash_name = true;
      for (; p != std::string_view::npos; p = s.find("--", p + 2)) {
        if (p > 0 && (IsWordChar(s[p - 1]) || s[p - 1] == '-')) continue;
        size_t q = p + 2;
        while (q < s.size() && (std::islower((unsigned char)s[q]) || std::isdigit((unsigned char)s[q]) || s[q] == '-' || s[q] == '_')) ++q;
        if (q - p >= 5 && std::islower((unsigned char)s[p + 2]) && s[q - 1] != '-')
          d->mentioned_flags.emplace_back(std::string(s.substr(p, q - p)), tok.line);
        p = q - 2;
      }
      continue;
    }
    if (tok.kind != TokenKind::kName) continue;
    std::string_view w = word(i);
    if (Toks::Same(w, "typer")) out->has_typer = true;
    else if (Toks::Same(w, "click")) out->has_click = true;
    if (!(i + 1 < n && tk[i + 1].kind == TokenKind::kOp && tk[i + 1].end == tk[i + 1].begin + 1 && src[tk[i + 1].begin] == '(')) {
      if (Toks::Same(w, "os")) CollectEnvAt(path, t, i, d);  // os.environ[...] / os.environ.get / os.getenv
      continue;
    }
    if (Toks::Same(w, "add_argument")) {
      out->saw_add_argument = true;
      CollectArgparse(path, t, i, d);
    } else if (Toks::Same(w, "HfArgumentParser")) {
      FieldWalker hw;
      hw.file = std::string(path);
      hw.kebab = false;
      hw.underscore_alias = true;
      hw.origin = "hf";
      size_t close = t.MatchBracket(i + 1);
      for (size_t j = i + 2; j < close; ++j)
        if (t.IsKind(j, TokenKind::kName) && std::isupper((unsigned char)t.Text(j)[0]) && !t.IsOp1(j + 1, '.'))
          hw.classes.emplace_back(t.Text(j));
      if (!hw.classes.empty()) d->walkers.push_back(std::move(hw));
      continue;
    }
    unsigned kinds = CalleeWords(w);
    if (kinds & kEnvReader) {
      CollectEnvAt(path, t, i, d);
    } else if ((kinds & kFieldHelper) && d->class_calls.size() < 64 && std::islower((unsigned char)w[0]) && PassesClass(t, i + 1)) {
      // add_cli_args_from_dataclass(parser, ServerArgs): which classes a field walker is given.
      Call c = ParseCall(t, i + 1);
      for (auto [pb, pe] : c.positional)
        if (pe == pb + 1 && t.IsKind(pb, TokenKind::kName) && std::isupper((unsigned char)t.Text(pb)[0]))
          d->class_calls.emplace_back(std::string(w), std::string(t.Text(pb)));
    }
  }
}

}  // namespace

void CollectSettings(std::string_view path, const Toks& t, SettingsData* d) {
  const std::string_view text = t.text();
  TokenPass pass;
  ScanTokens(path, t, d, &pass);
  bool has_typer = pass.has_typer, has_click = pass.has_click;
  const bool saw_add_argument = pass.saw_add_argument, saw_dash_name = pass.saw_dash_name;
  has_click = has_click || has_typer;
  // A field walker needs add_argument and a "--" name built from a field name.
  bool file_walks = saw_add_argument && saw_dash_name;
  bool file_kebab = file_walks && (Has(text, "replace(\"_\", \"-\")") || Has(text, "replace('_', '-')"));
  std::vector<Scope> stack;
  std::string pending_decorators;
  const auto& lines = t.lines();
  auto close_to = [&](int indent, size_t next_tok) {
    while (!stack.empty() && stack.back().indent >= indent) {
      Scope s = std::move(stack.back());
      stack.pop_back();
      if (!s.is_class && s.first_tok < next_tok && file_walks) {
        // A field walker: a function that walks dataclass fields and adds the
        // flags they name (the "--" name may be built by another function of the file).
        std::string_view body = text.substr(t[s.first_tok].begin, t[std::min(next_tok, t.size() - 1)].begin - t[s.first_tok].begin);
        bool walks = Has(body, "fields(") || Has(body, "__dataclass_fields__") || Has(body, "model_fields");
        if (walks && Has(body, "add_argument")) {
          FieldWalker w;
          w.file = std::string(path);
          w.kebab = file_kebab || Has(body, "kebab");
          w.boolean_optional = Has(body, "BooleanOptionalAction");
          // fields(ClassName) names the class; fields(cls/self) the enclosing class; fields(x)
          // of a parameter: the classes the repository passes to this function.
          for (size_t j = s.first_tok; j + 3 < next_tok && j + 3 < t.size(); ++j) {
            if (!(t.IsKind(j, TokenKind::kName) && EndsWith(t.Text(j), "fields") && t.IsOp1(j + 1, '(') &&
                  t.IsKind(j + 2, TokenKind::kName) && t.IsOp1(j + 3, ')')))
              continue;
            std::string c(t.Text(j + 2));
            if (c == "cls" || c == "self") {
              // A method's class (a module-level function's `cls` is a parameter).
              for (auto it = stack.rbegin(); it != stack.rend(); ++it)
                if (it->is_class) {
                  c = it->name;
                  break;
                }
            }
            if (std::isupper((unsigned char)c[0])) w.classes.push_back(c);
            else w.function = s.name;
          }
          d->walkers.push_back(std::move(w));
        }
      }
    }
  };
  for (size_t li = 0; li < lines.size(); ++li) {
    const py::LogicalLine& L = lines[li];
    size_t b = L.first, e = L.last;
    if (b >= e) continue;
    close_to(L.indent, b);
    Scope* cls = nullptr;
    if (!stack.empty() && stack.back().is_class) {
      Scope& s = stack.back();
      if (s.body_indent < 0) s.body_indent = L.indent;
      if (s.body_indent == L.indent) cls = &s;
    }
    if (t.IsOp1(b, '@')) {
      pending_decorators += std::string(t.Span(b, e)) + "\n";
      // @click.option(...) / @app.command()
      for (size_t j = b; j + 1 < e; ++j)
        if (has_click && (t.IsName(j, "option") || t.IsName(j, "Option")) && t.IsOp1(j + 1, '(') && j > b && t.IsOp1(j - 1, '.')) {
          // The decorated function's name is read when it comes; click flags carry the file's line.
          CollectClickOption(path, t, j, d, "");
          break;
        }
      continue;
    }
    size_t k = b;
    if (t.IsName(k, "async")) ++k;
    if (t.IsName(k, "class") && t.IsKind(k + 1, TokenKind::kName)) {
      Scope s;
      s.indent = L.indent;
      s.is_class = true;
      s.name = std::string(t.Text(k + 1));
      s.first_tok = b;
      std::string bases;
      if (t.IsOp1(k + 2, '(')) {
        size_t close = t.MatchBracket(k + 2);
        bases = std::string(t.Span(k + 3, close));
        // The first base's last dotted component.
        std::string first;
        for (size_t j = k + 3; j < close; ++j) {
          if (t.IsKind(j, TokenKind::kName) && (t.IsOp1(j + 1, '.') || t.IsOp1(j + 1, ',') || j + 1 == close)) {
            first = std::string(t.Text(j));
            if (!t.IsOp1(j + 1, '.')) break;
            ++j;
            continue;
          }
          break;
        }
        if (!first.empty() && first != s.name) d->class_bases.emplace(s.name, first);
        // Every base (a dataclass composed of field classes: `class ServerArgs(Parallel, Model)`).
        for (auto [pb, pe] : t.SplitTopLevel(k + 3, close)) {
          size_t q = pb;
          while (q + 2 < pe && t.IsKind(q, TokenKind::kName) && t.IsOp1(q + 1, '.')) q += 2;
          if (q + 1 == pe && t.IsKind(q, TokenKind::kName) && t.Text(q) != s.name && d->all_bases[s.name].size() < 16)
            d->all_bases[s.name].emplace_back(t.Text(q));
        }
      }
      s.dataclass = Has(pending_decorators, "dataclass") || Has(pending_decorators, "attr.s") ||
                    Has(pending_decorators, "define") || Has(pending_decorators, "attrs") || HasWord(bases, "Struct");
      s.enum_class = Has(bases, "Enum") || Has(bases, "IntFlag") || (HasWord(bases, "Flag") && Has(text, "enum"));
      s.settings_class = Has(bases, "BaseSettings");
      s.pydantic = s.settings_class || Has(bases, "BaseModel");
      if (s.settings_class) d->settings_classes.push_back(s.name);
      pending_decorators.clear();
      stack.push_back(std::move(s));
      continue;
    }
    if (t.IsName(k, "def") && t.IsKind(k + 1, TokenKind::kName)) {
      Scope s;
      s.indent = L.indent;
      s.name = std::string(t.Text(k + 1));
      s.first_tok = b;
      bool typer_command = has_typer && (Has(pending_decorators, ".command(") || Has(pending_decorators, ".callback("));
      pending_decorators.clear();
      if (has_typer && t.IsOp1(k + 2, '(')) {
        size_t close = t.MatchBracket(k + 2);
        bool any_option = false;
        for (size_t j = k + 3; j < close; ++j)
          if (t.IsName(j, "Option") && t.IsOp1(j + 1, '(')) any_option = true;
        if (typer_command || any_option)
          for (auto [pb, pe] : t.SplitTopLevel(k + 3, close))
            CollectTyperParam(path, t, pb, pe, typer_command, s.name, *d, d);
      }
      stack.push_back(std::move(s));
      continue;
    }
    pending_decorators.clear();
    // Class-body statements.
    if (cls && t.IsKind(b, TokenKind::kName)) {
      std::string name(t.Text(b));
      if ((cls->dataclass || cls->pydantic) && t.IsOp1(b + 1, ':')) {
        ConfigField f;
        f.class_name = cls->name;
        f.name = name;
        size_t j = b + 2;
        while (j < e && !(t.IsOp1(j, '=') && t.depth(j) == t.depth(b))) ++j;
        f.type = std::string(t.Span(b + 2, j));
        ReadAnnotation(t, b + 2, j, &f);
        if (j < e) {
          std::string dv = std::string(t.Span(j + 1, e));
          // field(default=..., metadata={"help": ...}) / Field(default, description=...)
          if ((t.IsName(j + 1, "field") || t.IsName(j + 1, "Field") || (t.IsName(j + 1, "dataclasses") && t.IsName(j + 3, "field"))) ) {
            size_t open = j + 2;
            while (open < e && !t.IsOp1(open, '(')) ++open;
            if (open < e) {
              Call c = ParseCall(t, open);
              if (auto* kd = c.Kw("default")) f.default_value = SpanStr(t, *kd);
              else if (!c.positional.empty() && t.IsName(j + 1, "Field") && t.Text(c.positional[0].first) != "...")
                f.default_value = SpanStr(t, c.positional[0]);
              if (auto* ke = c.Kw("env")) {
                std::string env;
                if (t.StringValue(ke->first, ke->second, &env))
                  AddEnv(path, t, env, "pydantic:" + cls->name + "." + name, "", f.default_value, t.line(b), d);
              }
            }
          } else {
            f.default_value = dv;
          }
        }
        if (f.help.empty()) f.help = HelpOf(t, b + 2, e);
        if (f.choices.empty() && f.choices_expr.empty()) {
          std::string from;
          f.choices = ChoicesOfType(f.has_meta ? f.inner_type : f.type, *d, &from);
          f.choices_from = from;
        }
        f.file = std::string(path);
        f.line = t.line(b);
        d->fields.push_back(std::move(f));
        continue;
      }
      if (cls->enum_class && t.IsOp1(b + 1, '=') && e == b + 3) {
        std::string v;
        if (t.StringAt(b + 2, &v)) d->enums[cls->name].emplace_back(name, v);
        else if (t.IsKind(b + 2, TokenKind::kNumber)) d->enums[cls->name].emplace_back(name, std::string(t.Text(b + 2)));
        continue;
      }
      // X = EnvBool(default): an environment registry class (sglang's envs.py).
      if (IsUpperName(name) && t.IsOp1(b + 1, '=') && t.IsKind(b + 2, TokenKind::kName) && StartsWith(t.Text(b + 2), "Env") &&
          t.IsOp1(b + 3, '(')) {
        Call c = ParseCall(t, b + 3);
        std::optional<std::string> def;
        if (!c.positional.empty()) def = SpanStr(t, c.positional[0]);
        else if (auto* kd = c.Kw("default")) def = SpanStr(t, *kd);
        AddEnv(path, t, name, "registry", TypeFromGetter(t.Text(b + 2)), def, t.line(b), d);
        continue;
      }
      if (name == "model_config" || name == "env_prefix") {
        for (size_t j = b; j + 2 < e; ++j) {
          std::string v;
          if ((t.IsName(j, "env_prefix") && t.IsOp1(j + 1, '=') && t.StringAt(j + 2, &v)) ||
              (j == b && name == "env_prefix" && t.IsOp1(b + 1, '=') && t.StringAt(b + 2, &v))) {
            // class Config: env_prefix = "X" sits in a nested class: it belongs to the outer one.
            std::string owner = cls->name;
            if (owner == "Config" && stack.size() >= 2) owner = stack[stack.size() - 2].name;
            d->env_prefixes[owner] = v;
            break;
          }
        }
      }
    }
    // Constants of the module (and UPPER_CASE ones of class bodies): NAME = ["a", "b"],
    // NAME = Literal["a", "b"], NAME = {"a": ..., "b": ...} (its keys).
    bool module_level = stack.empty() && L.indent == 0;
    if ((module_level || (cls && IsUpperName(t.Text(b)))) && t.IsKind(b, TokenKind::kName)) {
      size_t eq = b + 1;
      if (t.IsOp1(eq, ':')) {  // NAME: TypeAlias = ...
        while (eq < e && !t.IsOp1(eq, '=')) ++eq;
      }
      if (t.IsOp1(eq, '=') && eq + 1 < e) {
        std::vector<std::string> vals;
        if ((t.IsOp1(eq + 1, '[') || t.IsOp1(eq + 1, '(') || t.IsOp1(eq + 1, '{')) && t.MatchBracket(eq + 1) == e - 1 &&
            t.StringList(eq + 1, e, &vals))
          d->list_constants.emplace(std::string(t.Text(b)), std::move(vals));
        else if (t.IsName(eq + 1, "Literal") && t.IsOp1(eq + 2, '[') && t.StringList(eq + 3, t.MatchBracket(eq + 2), &vals))
          d->literal_aliases.emplace(std::string(t.Text(b)), std::move(vals));
        else if (t.IsOp1(eq + 1, '{') && t.MatchBracket(eq + 1) == e - 1 && DictKeys(t, eq + 1, &vals))
          d->list_constants.emplace(std::string(t.Text(b)), std::move(vals));
        else if (std::string req = module_level && t.IsKind(eq + 1, TokenKind::kName) ? RequirementOfCall(OneLine(t.Span(eq + 1, e))) : "";
                 !req.empty())
          d->requirement_constants.emplace(std::string(t.Text(b)), std::move(req));
      }
    }
  }
  close_to(-1, t.size() - 1);
}

namespace {

// choices=NAME, list(Mode), [m.value for m in Mode], get_args(Alias): the first name that resolves.
void ResolveChoicesExpr(const std::string& expr, const SettingsData& all, std::vector<std::string>* choices,
                        std::string* from) {
  if (!choices->empty() || expr.empty() || expr.size() > 4000) return;
  Toks t = Toks::Expression(expr);
  for (size_t j = 0; j < t.size(); ++j) {
    if (!t.IsKind(j, TokenKind::kName)) continue;
    std::string n(t.Text(j));
    if (auto it = all.list_constants.find(n); it != all.list_constants.end()) {
      *choices = it->second;
      *from = "choices";
      return;
    }
    if (auto it = all.literal_aliases.find(n); it != all.literal_aliases.end()) {
      *choices = it->second;
      *from = "Literal";
      return;
    }
    if (auto it = all.enums.find(n); it != all.enums.end()) {
      for (auto& [m, v] : it->second) choices->push_back(v);
      *from = "Enum:" + n;
      return;
    }
  }
}

void ResolveChoices(Flag* f, const SettingsData& all) { ResolveChoicesExpr(f->choices_expr, all, &f->choices, &f->choices_from); }

std::string BoolText(const std::optional<std::string>& d) { return d ? Trim(*d) : ""; }

}  // namespace

SettingsData MergeSettings(std::vector<SettingsData*> files) {
  SettingsData all;
  auto take = [](auto& into, auto& from) {
    into.insert(into.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  for (SettingsData* f : files) {
    if (!f) continue;
    take(all.flags, f->flags);
    take(all.fields, f->fields);
    take(all.envs, f->envs);
    take(all.walkers, f->walkers);
    // The first file's entry of a name wins (emplace keeps what is there).
    for (auto& [k, v] : f->list_constants) all.list_constants.emplace(k, std::move(v));
    for (auto& [k, v] : f->requirement_constants) all.requirement_constants.emplace(k, std::move(v));
    for (auto& [k, v] : f->literal_aliases) all.literal_aliases.emplace(k, std::move(v));
    for (auto& [k, v] : f->enums) all.enums.emplace(k, std::move(v));
    for (auto& [k, v] : f->env_prefixes) all.env_prefixes.emplace(k, std::move(v));
    for (auto& [k, v] : f->class_bases) all.class_bases.emplace(k, std::move(v));
    take(all.settings_classes, f->settings_classes);
    take(all.mentioned_flags, f->mentioned_flags);
    for (auto& [k, v] : f->all_bases) all.all_bases.emplace(k, std::move(v));
    take(all.class_calls, f->class_calls);
  }
  // Field choices that name a constant, an alias or an Enum of another file.
  for (auto& fd : all.fields) {
    ResolveChoicesExpr(fd.choices_expr, all, &fd.choices, &fd.choices_from);
    if (fd.choices.empty()) fd.choices = ChoicesOfType(fd.has_meta ? fd.inner_type : fd.type, all, &fd.choices_from);
  }
  // Defaults written as another class's field (`x: int = ParallelConfig.x`): that field's default.
  {
    std::map<std::pair<std::string, std::string>, const ConfigField*> by_class;
    for (const auto& fd : all.fields) by_class.emplace(std::make_pair(fd.class_name, fd.name), &fd);
    for (auto& fd : all.fields) {
      for (int depth = 0; depth < 4 && fd.default_value; ++depth) {
        std::string dv = Trim(*fd.default_value);
        size_t dot = dv.rfind('.');
        if (!IsDotted(dv) || dot == std::string::npos) break;
        auto it = by_class.find({LastComponent(dv.substr(0, dot)), dv.substr(dot + 1)});
        if (it == by_class.end() || it->second == &fd || !it->second->default_value) break;
        fd.default_value = it->second->default_value;
      }
    }
  }
  // What Python's idioms define: a Rust router's --policy (settings_brace.cc) neither
  // hides a Python dataclass field nor a flag the Python code mentions.
  std::set<std::string> dests;
  for (const auto& f : all.flags)
    if (f.Language().empty()) dests.insert(f.dest);
  // Field walkers: the fields of their classes (and of those classes' bases) become flags.
  std::set<std::string> options_defined;
  for (const auto& f : all.flags)
    if (f.Language().empty())
      for (const auto& o : f.options) options_defined.insert(o);
  std::map<std::string, std::vector<std::string>> passed;  // walker function -> classes given to it
  for (const auto& [fn, cls] : all.class_calls) passed[fn].push_back(cls);
  std::set<std::string> field_classes;
  std::map<std::string, bool> class_has_meta;
  for (const ConfigField& fd : all.fields) {
    field_classes.insert(fd.class_name);
    if (fd.has_meta) class_has_meta[fd.class_name] = true;
  }
  for (const FieldWalker& w : all.walkers) {
    std::set<std::string> classes(w.classes.begin(), w.classes.end());
    if (!w.function.empty())
      if (auto it = passed.find(w.function); it != passed.end()) classes.insert(it->second.begin(), it->second.end());
    bool by_file = classes.empty() && w.function.empty();
    if (classes.empty() && !by_file) continue;  // a helper nobody calls with a class
    std::vector<std::string> queue(classes.begin(), classes.end());
    for (size_t qi = 0; qi < queue.size() && qi < 256; ++qi)
      if (auto it = all.all_bases.find(queue[qi]); it != all.all_bases.end())
        for (const auto& b : it->second)
          if (field_classes.count(b) && classes.insert(b).second) queue.push_back(b);
    for (const ConfigField& fd : all.fields) {
      bool mine = by_file ? fd.file == w.file : classes.count(fd.class_name) > 0;
      if (!mine || dests.count(fd.name) || StartsWith(fd.name, "_") || fd.no_cli) continue;
      if (StartsWith(Trim(fd.type), "ClassVar")) continue;
      if (class_has_meta.count(fd.class_name) && !fd.has_meta) continue;  // the helper skips fields without metadata
      Flag f;
      f.origin = w.origin;
      f.dest = fd.name;
      f.class_name = fd.class_name;
      std::string kebab = fd.name;
      std::replace(kebab.begin(), kebab.end(), '_', '-');
      if (!fd.cli_name.empty()) f.options.push_back(fd.cli_name);
      else if (w.kebab) f.options.push_back("--" + kebab);
      else f.options.push_back("--" + fd.name);
      if (w.underscore_alias && kebab != fd.name) f.options.push_back("--" + kebab);
      for (const auto& a : fd.aliases)
        if (StartsWith(a, "-") && std::find(f.options.begin(), f.options.end(), a) == f.options.end()) f.options.push_back(a);
      f.choices = fd.choices;
      f.choices_from = fd.choices_from;
      f.help = fd.help;
      std::string ty = BareType(fd.has_meta ? fd.inner_type : fd.type);
      if (!fd.action.empty()) {
        f.action = fd.action;
        if (fd.action == "BooleanOptionalAction") {
          f.type = "bool";
          f.negative = "--no-" + f.options[0].substr(f.options[0].find_first_not_of('-'));
        } else if (fd.action == "store_true" || fd.action == "store_false") {
          f.type = "bool";
        }
      } else if (ty == "bool") {
        f.type = "bool";
        if (w.boolean_optional) {
          f.action = "BooleanOptionalAction";
          f.negative = "--no-" + f.options[0].substr(2);
        } else {
          f.action = !fd.has_meta && BoolText(fd.default_value) == "True" ? "store_false" : "store_true";
        }
      } else {
        f.type = ty;
      }
      if (fd.default_value) {
        f.default_value = Unquote(*fd.default_value);
        f.default_is_literal = LiteralText(*fd.default_value);
      }
      f.file = fd.file;
      f.line = fd.line;
      dests.insert(f.dest);
      for (const auto& o : f.options) options_defined.insert(o);
      all.flags.push_back(std::move(f));
    }
  }
  // Field lookups for flags: **kwargs flags, default=Class.field, missing choices.
  std::map<std::string, const ConfigField*> field_by_name;
  for (const auto& fd : all.fields) {
    auto [it, inserted] = field_by_name.emplace(fd.name, &fd);
    if (!inserted && !it->second->default_value && fd.default_value) it->second = &fd;
  }
  for (auto& f : all.flags) {
    ResolveChoices(&f, all);
    const ConfigField* fd = nullptr;
    if (auto it = field_by_name.find(f.dest); it != field_by_name.end()) fd = it->second;
    if (f.default_value && !f.default_is_literal) {
      const std::string& dv = *f.default_value;
      std::string last = LastComponent(dv);
      auto it = field_by_name.find(last);
      if (IsDotted(dv) && it != field_by_name.end() && it->second->default_value) {
        f.default_value = Unquote(*it->second->default_value);
        f.default_is_literal = LiteralText(*it->second->default_value);
      } else if (IsDotted(dv) && dv.find('.') != std::string::npos) {
        // Mode.NORMAL -> the member's value
        auto en = all.enums.find(LastComponent(dv.substr(0, dv.rfind('.'))));
        if (en != all.enums.end())
          for (auto& [m, v] : en->second)
            if (m == last) f.default_value = v, f.default_is_literal = true;
      }
    }
    if (fd && (f.kwargs || f.choices.empty() || !f.default_value)) {
      if (f.choices.empty() && !fd->choices.empty()) f.choices = fd->choices, f.choices_from = fd->choices_from;
      if (!f.default_value && fd->default_value && (f.kwargs || f.origin == "argparse")) {
        f.default_value = Unquote(*fd->default_value);
        f.default_is_literal = LiteralText(*fd->default_value);
      }
      if (f.help.empty()) f.help = fd->help;
      if (f.type.empty() && f.kwargs) f.type = OneLine(fd->type);
    }
  }
  // BaseSettings fields: PREFIX_NAME environment variables.
  std::set<std::string> settings(all.settings_classes.begin(), all.settings_classes.end());
  for (const auto& fd : all.fields) {
    if (!settings.count(fd.class_name)) continue;
    std::string prefix;
    if (auto it = all.env_prefixes.find(fd.class_name); it != all.env_prefixes.end()) prefix = it->second;
    std::string name = prefix + fd.name;
    for (char& c : name) c = (char)std::toupper((unsigned char)c);
    EnvVar e;
    e.name = name;
    e.reader = "pydantic:" + fd.class_name + "." + fd.name;
    std::string ty = OneLine(fd.type);
    e.type = ty == "bool" ? "bool" : ty == "int" ? "int" : ty == "float" ? "float" : ty == "str" ? "str" : "";
    e.default_value = fd.default_value;
    e.choices = fd.choices;
    e.file = fd.file;
    e.line = fd.line;
    all.envs.push_back(std::move(e));
  }
  // Flags the repository's strings name without defining them.
  for (const auto& [opt, line] : all.mentioned_flags) {
    std::string dest = opt.substr(2);
    std::replace(dest.begin(), dest.end(), '-', '_');
    if (dest.size() < 3 || dests.count(dest) || options_defined.count(opt)) continue;
    if (StartsWith(dest, "no_")) continue;
    Flag f;
    f.origin = "mentioned";
    f.options = {opt};
    f.dest = dest;
    f.line = line;
    dests.insert(dest);
    all.flags.push_back(std::move(f));
  }
  all.mentioned_flags.clear();
  all.class_calls.clear();
  all.all_bases.clear();
  return all;
}

}  // namespace errdex::doc
