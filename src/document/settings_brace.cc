// document/settings_brace.cc: the settings map of Rust, Go and Java files (see
// settings.h for Python's): the flags a program defines and the environment
// variables it reads, so a guard on `args.workers` (Rust clap) or `*workers` (Go's
// flag package) is described as `--workers`, as the user types it.
//
//   Rust clap     `#[arg(long, short, env = "X", default_value = "v" | default_value_t = v,
//                 help = "...")]` (also `#[clap(...)]`, `#[structopt(...)]`) on a struct field:
//                 --kebab-field (or long = "name"), the field's type (Option<T> -> T; bool
//                 takes no value), help from the attribute or the field's `///` comments, and
//                 choices from a `ValueEnum` enum of the same file (kebab-case variants)
//   Go flag       flag.Int("name", d, "usage") and the other typed definers, their Var forms
//                 (flag.IntVar(&cfg.N, "name", ...)), pflag/cobra's P forms on a `Flags()`
//                 receiver (--name, -s); the destination is the variable the definer's pointer
//                 is bound to, or the last component of the Var form's `&x`
//   Java picocli  @Option(names = {"-w", "--workers"}, defaultValue = "4", description = "...") on a
//                 field (its initializer is the default otherwise)
//   Java property System.getProperty("app.mode", "fast"), Integer.getInteger("app.threads", 4),
//                 Long.getLong, Boolean.getBoolean("app.strict"): a JVM system property the user
//                 sets with -Dapp.threads=8 (a Flag of origin "jvm-property")
//   Java Spring   `@Value("${server.port:8080}") private int port;` and the instance fields of a
//                 `@ConfigurationProperties(prefix = "app")` class (`maxBatch` -> app.max-batch): a
//                 property set in application.properties, as -Dserver.port=... or --server.port=...
//                 (origin "spring-property", options {"server.port", "--server.port",
//                 "-Dserver.port"}, dest the field, so a guard on `port` / `this.port` names it)
//   environment   Rust std::env::var / var_os, Go os.Getenv / os.LookupEnv, Java System.getenv
//
// A hand scanner over the text (no parser): comments are skipped, string literals
// read; every pattern is matched in code only. Bounded: at most kMaxSettings entries.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "document/settings.h"
#include "document/text.h"

namespace errdex::doc {
namespace {

constexpr size_t kMaxSettings = 4096;
constexpr size_t kMaxArgs = 4096;  // bytes of a call's or an attribute's argument text

// Which bytes are code (not comment, not inside a string or char literal).
std::vector<bool> CodeMask(std::string_view t, std::string_view lang) {
  std::vector<bool> code(t.size(), true);
  size_t i = 0;
  while (i < t.size()) {
    char c = t[i];
    if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      while (i < t.size() && t[i] != '\n') code[i++] = false;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      size_t e = t.find("*/", i + 2);
      e = e == std::string_view::npos ? t.size() : e + 2;
      while (i < e) code[i++] = false;
    } else if (c == '"' || (c == '`' && lang == "go")) {
      size_t j = i + 1;
      while (j < t.size() && t[j] != c) j += (t[j] == '\\' && c == '"') ? 2 : 1;
      j = std::min(j + 1, t.size());
      for (size_t k = i + 1; k + 1 < j; ++k) code[k] = false;  // the quotes stay code: a literal's bounds
      i = j;
    } else if (c == '\'' ) {
      // a char literal ('a', '\n'); in Rust a lone ' is a lifetime
      size_t j = i + 1;
      if (j < t.size() && t[j] == '\\') j += 2; else ++j;
      if (j < t.size() && t[j] == '\'') {
        for (size_t k = i + 1; k < j; ++k) code[k] = false;
        i = j + 1;
      } else {
        ++i;
      }
    } else {
      ++i;
    }
  }
  return code;
}

// The value of the string literal at t[b] ('"' or '`'), escapes of \" \\ \n kept simple; false when none.
bool StringAt(std::string_view t, size_t b, std::string* out) {
  b = t.find_first_not_of(" \t\r\n", b);
  if (b == std::string_view::npos || (t[b] != '"' && t[b] != '`')) return false;
  char q = t[b];
  out->clear();
  for (size_t i = b + 1; i < t.size(); ++i) {
    if (t[i] == q) return true;
    if (t[i] == '\\' && q == '"' && i + 1 < t.size()) {
      char n = t[++i];
      out->push_back(n == 'n' ? '\n' : n == 't' ? '\t' : n);
    } else {
      out->push_back(t[i]);
    }
    if (out->size() > kMaxArgs) return false;
  }
  return false;
}

// The offset of the bracket closing the one at `open`, in code; npos when none.
size_t Close(std::string_view t, const std::vector<bool>& code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size() && i < open + kMaxArgs; ++i) {
    if (!code[i]) continue;
    char c = t[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}')
      if (--depth == 0) return i;
  }
  return std::string_view::npos;
}

// Top-level comma-separated pieces of t[b, e) (strings and brackets respected).
std::vector<std::string_view> Split(std::string_view t, const std::vector<bool>& code, size_t b, size_t e) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t s = b;
  for (size_t i = b; i < e; ++i) {
    if (!code[i]) continue;
    char c = t[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || (c == '>' && i > 0 && t[i - 1] != '-' && t[i - 1] != '=')) depth = std::max(0, depth - 1);
    else if (c == ',' && depth == 0) out.push_back(t.substr(s, i - s)), s = i + 1;
  }
  if (TrimView(t.substr(s, e - s)).size()) out.push_back(t.substr(s, e - s));
  return out;
}

// 1-based line of byte offset `off` (line starts computed once per file).
class LineIndex {
 public:
  explicit LineIndex(std::string_view t) {
    starts_.push_back(0);
    for (size_t i = 0; i < t.size(); ++i)
      if (t[i] == '\n') starts_.push_back(i + 1);
  }
  int operator()(size_t off) const {
    return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), off) - starts_.begin());
  }

 private:
  std::vector<size_t> starts_;
};

bool WordAt(std::string_view t, size_t at, std::string_view w) {
  return t.compare(at, w.size(), w) == 0 && (at == 0 || !IsWordChar(t[at - 1])) &&
         (at + w.size() >= t.size() || !IsWordChar(t[at + w.size()]));
}

// ----- Rust clap ----------------------------------------------------------------------------

// `enum Policy { RoundRobin, Random }` with ValueEnum in its derive: each variant and the
// kebab-case value the user types (round-robin).
std::vector<std::pair<std::string, std::string>> ValueEnumMembers(std::string_view t, const std::vector<bool>& code, std::string_view name) {
  std::string head = "enum " + std::string(name);
  for (size_t p = t.find(head); p != std::string_view::npos; p = t.find(head, p + 1)) {
    if (!code[p] || !WordAt(t, p + 5, name)) continue;
    size_t derive = t.rfind("#[derive(", p);
    if (derive == std::string_view::npos || p - derive > 300 || t.substr(derive, p - derive).find("ValueEnum") == std::string_view::npos)
      return {};
    size_t open = t.find('{', p);
    if (open == std::string_view::npos) return {};
    size_t close = Close(t, code, open);
    if (close == std::string_view::npos) return {};
    std::vector<std::pair<std::string, std::string>> out;
    for (std::string_view v : Split(t, code, open + 1, close)) {
      std::string s = Trim(v);
      while (StartsWith(s, "#[")) {  // #[value(name = "x")] renames: not followed, skip the variant's attribute
        size_t e = s.find(']');
        s = e == std::string::npos ? "" : Trim(s.substr(e + 1));
      }
      if (!IsIdent(s)) return {};  // a variant with data: no simple value
      out.emplace_back(s, Kebab(s));
    }
    return out;
  }
  return {};
}

void RustClap(std::string_view path, std::string_view t, const std::vector<bool>& code, const LineIndex& line_at,
              SettingsData* out) {
  std::set<std::string> enums_read;  // field types looked up as a ValueEnum (found or not), once each
  for (std::string_view attr : {"#[arg(", "#[clap(", "#[structopt("}) {
    for (size_t p = t.find(attr); p != std::string_view::npos && out->flags.size() < kMaxSettings; p = t.find(attr, p + 1)) {
      if (!code[p]) continue;
      size_t open = p + attr.size() - 1, close = Close(t, code, open);
      if (close == std::string_view::npos) continue;
      bool has_long = false, has_short = false;
      std::string long_name, short_name, env, def, help, action;
      for (std::string_view item : Split(t, code, open + 1, close)) {
        std::string it = Trim(item);
        size_t eq = it.find('=');
        std::string key = Trim(it.substr(0, eq)), val = eq == std::string::npos ? "" : Trim(it.substr(eq + 1));
        std::string sv;
        bool is_str = !val.empty() && StringAt(val, 0, &sv);
        if (key == "long") has_long = true, long_name = is_str ? sv : "";
        else if (key == "short") has_short = true, short_name = val.size() == 3 && val[0] == '\'' ? val.substr(1, 1) : "";
        else if (key == "env" && is_str) env = sv;
        else if (key == "default_value" && is_str) def = sv;
        else if (key == "default_value_t" && !val.empty()) def = val;
        else if (key == "help" && is_str) help = sv;
        else if (key == "action") action = LastComponent(val);
      }
      if (!has_long && !has_short) continue;  // a positional argument
      // The field: past `)]`, more attributes and doc comments, `pub`.
      size_t i = close + 1;
      if (i < t.size() && t[i] == ']') ++i;
      while (true) {
        i = t.find_first_not_of(" \t\r\n", i);
        if (i == std::string_view::npos) break;
        if (t.compare(i, 2, "#[") == 0) {
          size_t c = Close(t, code, i + 1);
          if (c == std::string_view::npos) break;
          i = c + 1;
        } else if (t.compare(i, 2, "//") == 0) {
          i = t.find('\n', i);
        } else {
          break;
        }
      }
      if (i == std::string_view::npos) continue;
      if (WordAt(t, i, "pub")) {
        i += 3;
        if (i < t.size() && t[i] == '(') {  // pub(crate)
          size_t c = Close(t, code, i);
          if (c == std::string_view::npos) continue;
          i = c + 1;
        }
        i = t.find_first_not_of(" \t", i);
        if (i == std::string_view::npos) continue;
      }
      size_t ne = i;
      while (ne < t.size() && IsWordChar(t[ne])) ++ne;
      std::string field(t.substr(i, ne - i));
      size_t colon = t.find_first_not_of(" \t", ne);
      if (!IsIdent(field) || colon == std::string_view::npos || t[colon] != ':') continue;
      size_t te = colon + 1;
      int depth = 0;
      while (te < t.size() && te < colon + 200 && !(depth == 0 && (t[te] == ',' || t[te] == '}' || t[te] == '\n'))) {
        depth += t[te] == '<' ? 1 : t[te] == '>' ? -1 : 0;
        ++te;
      }
      std::string type = Trim(t.substr(colon + 1, te - colon - 1));
      bool optional = StartsWith(type, "Option<") && EndsWith(type, ">");
      if (optional) type = Trim(type.substr(7, type.size() - 8));
      if (help.empty()) {  // `///` lines right above the attribute
        size_t ls = t.rfind('\n', p == 0 ? 0 : p - 1);
        std::vector<std::string> lines;
        while (ls != std::string_view::npos && ls > 0 && lines.size() < 8) {
          size_t prev = t.rfind('\n', ls - 1);
          std::string line = Trim(t.substr(prev == std::string_view::npos ? 0 : prev + 1, ls - (prev == std::string_view::npos ? 0 : prev + 1)));
          if (!StartsWith(line, "///")) break;
          lines.insert(lines.begin(), Trim(line.substr(3)));
          if (prev == std::string_view::npos) break;
          ls = prev;
        }
        for (const auto& l : lines) help += (help.empty() ? "" : " ") + l;
      }
      Flag f;
      if (has_long) f.options.push_back("--" + (long_name.empty() ? Kebab(field) : long_name));
      if (has_short) f.options.push_back("-" + (short_name.empty() ? field.substr(0, 1) : short_name));
      f.dest = field;
      f.type = type == "bool" ? "bool"
               : (type == "usize" || type == "u8" || type == "u16" || type == "u32" || type == "u64" || type == "i32" ||
                  type == "i64" || type == "isize")
                   ? "int"
               : (type == "f32" || type == "f64") ? "float"
               : (type == "String" || type == "PathBuf" || type == "&str") ? "str"
                                                                         : type;
      if (!def.empty()) f.default_value = def, f.default_is_literal = true;
      if (action == "SetTrue" || (f.type == "bool" && action.empty())) f.action = "store_true";
      else if (action == "SetFalse") f.action = "store_false";
      else if (action == "Count") f.action = "count";
      else if (action == "Append") f.action = "append";
      if (IsIdent(type) && std::isupper((unsigned char)type[0])) {
        // The settings map's Enum table (as for Python's Enum classes): the facts turn
        // `args.policy == Policy::CacheAware` into `--policy cache-aware` through it.
        if (enums_read.insert(type).second)
          if (auto members = ValueEnumMembers(t, code, type); !members.empty()) out->enums[type] = std::move(members);
        if (auto en = out->enums.find(type); en != out->enums.end()) {
          for (const auto& [member, value] : en->second) {
            f.choices.push_back(value);
            if (def == type + "::" + member) f.default_value = value;  // default_value_t = Policy::CacheAware
          }
          f.choices_from = "ValueEnum";
        }
      }
      f.help = Clip(help, 400);
      f.origin = "clap";
      f.env = env;
      f.file = std::string(path);
      f.line = line_at(p);
      if (!env.empty() && out->envs.size() < kMaxSettings)
        out->envs.push_back({env, f.type, f.default_value, f.choices, "clap", f.file, f.line});
      out->flags.push_back(std::move(f));
    }
  }
}

// ----- Go flag / pflag ------------------------------------------------------------------------

void GoFlags(std::string_view path, std::string_view t, const std::vector<bool>& code, const LineIndex& line_at,
             SettingsData* out) {
  static const char* const kKinds[] = {"Bool", "Int", "Int64", "Uint", "Uint64", "String", "Float64", "Float32",
                                       "Duration", "StringSlice", "StringArray", "IntSlice", "Count"};
  for (size_t p = t.find('.'); p != std::string_view::npos && out->flags.size() < kMaxSettings; p = t.find('.', p + 1)) {
    if (!code[p]) continue;
    size_t me = p + 1;
    while (me < t.size() && IsWordChar(t[me])) ++me;
    if (me >= t.size() || t[me] != '(') continue;
    std::string method(t.substr(p + 1, me - p - 1));
    bool var = false, pform = false;
    std::string kind = method;
    if (EndsWith(kind, "P") && kind != "P") pform = true, kind.pop_back();
    if (EndsWith(kind, "Var")) var = true, kind.resize(kind.size() - 3);
    bool known = false;
    for (const char* k : kKinds) known |= kind == k;
    if (!known) continue;
    // the receiver: `flag`, `pflag`, `fs`, `*.Flags()`, `*.PersistentFlags()`, a name with "flag" in it
    size_t rb = p;
    while (rb > 0 && p - rb < 200 && (IsWordChar(t[rb - 1]) || t[rb - 1] == '.' || t[rb - 1] == '(' || t[rb - 1] == ')')) --rb;
    std::string recv(t.substr(rb, p - rb));
    bool stdlib = recv == "flag";
    if (!(stdlib || recv == "pflag" || recv == "fs" || EndsWith(recv, "Flags()") || Has(Lower(LastComponent(recv)), "flag")))
      continue;
    size_t close = Close(t, code, me);
    if (close == std::string_view::npos) continue;
    std::vector<std::string_view> args = Split(t, code, me + 1, close);
    size_t k = 0;
    std::string dest;
    if (var) {
      if (args.empty()) continue;
      std::string a0 = Trim(args[k++]);
      if (!StartsWith(a0, "&")) continue;
      dest = LastComponent(Trim(a0.substr(1)));
    } else {
      // `workers := flag.Int(...)`, `workers = ...`, `var workers = ...`
      size_t q = rb;
      while (q > 0 && (t[q - 1] == ' ' || t[q - 1] == '\t')) --q;
      if (q >= 2 && t[q - 1] == '=' && t[q - 2] == ':') q -= 2;
      else if (q >= 1 && t[q - 1] == '=' && (q < 2 || (t[q - 2] != '=' && t[q - 2] != '!'))) q -= 1;
      else continue;
      while (q > 0 && (t[q - 1] == ' ' || t[q - 1] == '\t')) --q;
      size_t nb = q;
      while (nb > 0 && IsWordChar(t[nb - 1])) --nb;
      dest = std::string(t.substr(nb, q - nb));
    }
    std::string name, shorthand, usage;
    if (k >= args.size() || !StringAt(args[k++], 0, &name) || name.empty()) continue;
    if (pform && (k >= args.size() || !StringAt(args[k++], 0, &shorthand))) continue;
    std::string def = k < args.size() ? Trim(args[k++]) : "";
    if (k < args.size()) StringAt(args[k], 0, &usage);
    if (!IsIdent(dest)) continue;
    Flag f;
    f.options.push_back((stdlib ? "-" : "--") + name);
    if (!shorthand.empty()) f.options.push_back("-" + shorthand);
    f.dest = dest;
    f.type = kind == "Bool" ? "bool" : kind == "String" ? "str" : StartsWith(kind, "Float") ? "float"
             : kind == "Duration" ? "duration" : Has(kind, "Slice") || Has(kind, "Array") ? "list" : "int";
    std::string sv;
    if (StringAt(def, 0, &sv)) f.default_value = sv, f.default_is_literal = true;
    else if (!def.empty() && IsConstantExpr(def)) f.default_value = def, f.default_is_literal = true;
    else if (def == "true" || def == "false") f.default_value = def, f.default_is_literal = true;
    if (f.type == "bool") f.action = "store_true";
    f.help = Clip(usage, 400);
    f.origin = stdlib ? "go-flag" : "pflag";
    f.file = std::string(path);
    f.line = line_at(rb);
    out->flags.push_back(std::move(f));
  }
}

// ----- Java picocli ----------------------------------------------------------------------------

// The field of an annotation that ends at t[close]: past more annotations, modifiers and
// the type, the name before `;` or `=`.
struct JavaField {
  std::string name;
  std::string type;  // bool, int, float, str, or the Java type as written
  std::string init;  // a literal initializer's value (`int workers = 4;`), else ""
  size_t end = 0;    // the `;` or `=` after the name
};

bool JavaFieldAfter(std::string_view t, size_t close, JavaField* out) {
  size_t e = t.find_first_of(";=", close + 1);
  if (e == std::string_view::npos || e - close > 400) return false;
  size_t ne = e;
  while (ne > close && (t[ne - 1] == ' ' || t[ne - 1] == '\t' || t[ne - 1] == '\n' || t[ne - 1] == '\r')) --ne;
  size_t nb = ne;
  while (nb > close && IsWordChar(t[nb - 1])) --nb;
  if (nb <= close + 1) return false;  // no type before the name
  std::string name(t.substr(nb, ne - nb));
  std::string before = Trim(t.substr(close + 1, nb - close - 1));
  std::string type = before.empty() ? "" : LastComponent(before.substr(before.find_last_of(" \t\n") == std::string::npos ? 0 : before.find_last_of(" \t\n") + 1));
  if (!IsIdent(name)) return false;
  out->init.clear();
  if (t[e] == '=') {
    size_t semi = t.find(';', e);
    if (semi != std::string_view::npos && semi - e < 80) {
      std::string v = Trim(t.substr(e + 1, semi - e - 1));
      std::string sv;
      if (StringAt(v, 0, &sv)) out->init = sv;
      else if (IsConstantExpr(v) || v == "true" || v == "false") out->init = v;
    }
  }
  out->name = std::move(name);
  out->type = type == "boolean" || type == "Boolean" ? "bool"
              : type == "int" || type == "long" || type == "Integer" || type == "Long" || type == "short" ? "int"
              : type == "double" || type == "float" || type == "Double" || type == "Float" ? "float"
              : type == "String" ? "str" : type;
  out->end = e;
  return true;
}

// `@Option(names = {"-w", "--workers"}, defaultValue = "4", description = "...") int workers;`
void JavaPicocli(std::string_view path, std::string_view t, const std::vector<bool>& code, const LineIndex& line_at,
                 SettingsData* out) {
  for (size_t p = t.find("@Option("); p != std::string_view::npos && out->flags.size() < kMaxSettings; p = t.find("@Option(", p + 1)) {
    if (!code[p]) continue;
    size_t open = p + 7, close = Close(t, code, open);
    if (close == std::string_view::npos) continue;
    Flag f;
    std::string def, help;
    for (std::string_view item : Split(t, code, open + 1, close)) {
      std::string it = Trim(item);
      size_t eq = it.find('=');
      if (eq == std::string::npos) continue;
      std::string key = Trim(it.substr(0, eq)), val = Trim(it.substr(eq + 1));
      std::string sv;
      if (key == "names") {
        // "--x" or {"-x", "--x"}
        for (size_t q = val.find('"'); q != std::string::npos; q = val.find('"', q + 1)) {
          if (!StringAt(val, q, &sv)) break;
          if (StartsWith(sv, "-") && f.options.size() < 8) f.options.push_back(sv);
          q = val.find('"', q + 1);
          if (q == std::string::npos) break;
        }
      } else if (key == "defaultValue" && StringAt(val, 0, &sv)) {
        def = sv;
      } else if (key == "description" && StringAt(val, 0, &sv)) {
        help = sv;
      }
    }
    if (f.options.empty()) continue;
    JavaField field;
    if (!JavaFieldAfter(t, close, &field)) continue;
    if (def.empty()) def = field.init;
    f.dest = field.name;
    f.type = field.type;
    if (!def.empty()) f.default_value = def, f.default_is_literal = true;
    if (f.type == "bool") f.action = "store_true";
    f.help = Clip(help, 400);
    f.origin = "picocli";
    f.file = std::string(path);
    f.line = line_at(p);
    out->flags.push_back(std::move(f));
  }
}

// ----- Spring properties -----------------------------------------------------------------------

// `${server.port:8080}`: the property's name and its default (none without a `:`); false for
// anything else (SpEL `#{...}`, text around the placeholder, nested placeholders).
bool SpringPlaceholder(std::string_view v, std::string* name, std::optional<std::string>* def) {
  if (!StartsWith(v, "${") || !EndsWith(v, "}")) return false;
  std::string_view inner = v.substr(2, v.size() - 3);
  if (inner.find_first_of("${}#") != std::string_view::npos) return false;
  size_t colon = inner.find(':');
  *name = Trim(inner.substr(0, colon));
  if (colon != std::string_view::npos) *def = std::string(inner.substr(colon + 1));
  return !name->empty() && name->find_first_of(" \t\n") == std::string::npos;
}

// The field `field` bound to Spring property `property`: the user sets it in
// application.properties (`server.port=8080`), as -Dserver.port=8080 or --server.port=8080.
void AddSpringProperty(std::string_view path, std::string property, const JavaField& field, std::optional<std::string> def,
                       int line, SettingsData* out) {
  Flag f;
  f.options = {property, "--" + property, "-D" + property};
  f.dest = field.name;
  f.type = field.type;
  if (def) f.default_value = std::move(def), f.default_is_literal = true;
  f.origin = "spring-property";
  f.file = std::string(path);
  f.line = line;
  out->flags.push_back(std::move(f));
}

// `@Value("${server.port:8080}") private int port;` (a field: a constructor's or a setter's
// parameter is not followed).
void SpringValues(std::string_view path, std::string_view t, const std::vector<bool>& code, const LineIndex& line_at,
                  SettingsData* out) {
  for (size_t p = t.find("@Value("); p != std::string_view::npos && out->flags.size() < kMaxSettings; p = t.find("@Value(", p + 1)) {
    if (!code[p] || (p > 0 && IsWordChar(t[p - 1]))) continue;
    size_t open = p + 6, close = Close(t, code, open);
    if (close == std::string_view::npos) continue;
    std::string v = Trim(t.substr(open + 1, close - open - 1));
    if (StartsWith(v, "value")) v = Trim(v.substr(v.find('=') == std::string::npos ? 0 : v.find('=') + 1));
    std::string literal, property;
    std::optional<std::string> def;
    if (!StringAt(v, 0, &literal) || v.size() != literal.size() + 2 || !SpringPlaceholder(literal, &property, &def)) continue;
    JavaField field;
    // A parameter's annotation: a bracket or a comma before the `;` or `=` found.
    if (!JavaFieldAfter(t, close, &field) || t.substr(close + 1, field.end - close - 1).find_first_of("(){},") != std::string_view::npos)
      continue;
    AddSpringProperty(path, std::move(property), field, std::move(def), line_at(p), out);
  }
}

// `@ConfigurationProperties(prefix = "app") class C { private int maxBatch = 512; }`: each
// instance field is property `app.max-batch` (Spring's kebab-case form), its initializer the default.
void SpringConfigurationProperties(std::string_view path, std::string_view t, const std::vector<bool>& code,
                                   const LineIndex& line_at, SettingsData* out) {
  const std::string_view kAnn = "@ConfigurationProperties(";
  for (size_t p = t.find(kAnn); p != std::string_view::npos && out->flags.size() < kMaxSettings; p = t.find(kAnn, p + 1)) {
    if (!code[p]) continue;
    size_t open = p + kAnn.size() - 1, close = Close(t, code, open);
    if (close == std::string_view::npos) continue;
    std::vector<std::string_view> args = Split(t, code, open + 1, close);
    std::string prefix;
    for (std::string_view a : args) {
      std::string it = Trim(a);
      size_t eq = it.find('=');
      std::string key = eq == std::string::npos ? "value" : Trim(it.substr(0, eq));
      std::string val = eq == std::string::npos ? it : Trim(it.substr(eq + 1));
      if ((key == "prefix" || key == "value") && StringAt(val, 0, &prefix)) break;
    }
    // The class it annotates: its body's fields at the top level (methods' bodies skipped).
    size_t cls = t.find("class ", close);
    size_t body = cls == std::string_view::npos ? cls : t.find('{', cls);
    if (prefix.empty() || body == std::string_view::npos || body - close > 400) continue;
    // A body longer than Close's reach: its first kMaxArgs bytes, where fields are declared.
    size_t end = Close(t, code, body);
    if (end == std::string_view::npos) end = std::min(t.size(), body + kMaxArgs);
    int depth = 0;
    size_t start = body + 1;
    bool plain = true;  // no bracket in the statement's code so far: a field, not a method
    for (size_t i = body + 1; i < end && out->flags.size() < kMaxSettings; ++i) {
      if (!code[i]) continue;
      char c = t[i];
      if (c == '{' || c == '(') {
        if (depth++ == 0) plain = false;
      } else if ((c == '}' || c == ')') && --depth < 0) {
        break;
      }
      if (depth != 0 || (c != ';' && c != '}')) continue;
      size_t from = start;
      start = i + 1;
      bool field_decl = plain && c == ';';
      plain = true;
      // Past the comments before it (a javadoc may be long, and hold `;` or `=`).
      while (from < i && (!code[from] || std::isspace(static_cast<unsigned char>(t[from])))) ++from;
      if (!field_decl || from == 0 || from >= i || Has(t.substr(from, i - from), "static ")) continue;
      JavaField field;
      if (!JavaFieldAfter(t, from - 1, &field) || field.end > i) continue;
      std::optional<std::string> def;
      if (!field.init.empty()) def = field.init;
      AddSpringProperty(path, prefix + "." + Kebab(field.name), field, std::move(def), line_at(from), out);
    }
  }
}

// ----- JVM system properties ------------------------------------------------------------------

void JvmProperties(std::string_view path, std::string_view t, const std::vector<bool>& code, const LineIndex& line_at,
                   SettingsData* out) {
  for (const JvmPropertyReader& r : kJvmPropertyReaders)
    for (size_t p = t.find(r.call); p != std::string_view::npos && out->flags.size() < kMaxSettings;
         p = t.find(r.call, p + 1)) {
      if (!code[p] || (p > 0 && (IsWordChar(t[p - 1]) || t[p - 1] == '.'))) continue;
      size_t open = p + r.call.size() - 1, close = Close(t, code, open);
      if (close == std::string_view::npos) continue;
      std::vector<std::string_view> args = Split(t, code, open + 1, close);
      std::string name;
      // Only a literal name ("app.threads"): the user types it after -D.
      if (args.empty() || args.size() > 2 || !StringAt(args[0], 0, &name) || name.empty() || name.size() > 200 ||
          Trim(args[0]).size() != name.size() + 2)
        continue;
      bool seen = false;
      for (const Flag& f : out->flags) seen |= f.IsJvmProperty() && f.dest == name;
      if (seen) continue;
      Flag f;
      f.options = {"-D" + name};
      f.dest = name;
      f.type = std::string(r.type);
      std::string d;
      if (args.size() == 2) {
        std::string v = Trim(args[1]);
        long n;
        if (StringAt(v, 0, &d) && v.size() == d.size() + 2) f.default_value = d, f.default_is_literal = true;
        else if (r.type == "int" && IntLiteral(v, &n)) f.default_value = v, f.default_is_literal = true;
      } else if (r.type == "bool") {
        f.default_value = "false", f.default_is_literal = true;
      }
      f.origin = "jvm-property";
      f.file = std::string(path);
      f.line = line_at(p);
      out->flags.push_back(std::move(f));
    }
}

// ----- environment variables ------------------------------------------------------------------

void EnvReads(std::string_view path, std::string_view t, const std::vector<bool>& code, const LineIndex& line_at,
              std::string_view lang, SettingsData* out) {
  std::vector<std::pair<std::string_view, std::string_view>> readers;  // pattern, reader name
  if (lang == "rust") readers = {{"env::var(", "std::env::var"}, {"env::var_os(", "std::env::var_os"}};
  if (lang == "go") readers = {{"os.Getenv(", "os.Getenv"}, {"os.LookupEnv(", "os.LookupEnv"}};
  if (lang == "java") readers = {{"System.getenv(", "System.getenv"}};
  for (auto [pat, reader] : readers)
    for (size_t p = t.find(pat); p != std::string_view::npos && out->envs.size() < kMaxSettings; p = t.find(pat, p + 1)) {
      if (!code[p] || (p > 0 && IsWordChar(t[p - 1]) && pat[0] != 'e')) continue;
      std::string name;
      if (!StringAt(t, p + pat.size(), &name) || !IsIdent(name)) continue;
      bool seen = false;
      for (const auto& e : out->envs) seen |= e.name == name && e.file == path;
      if (!seen) out->envs.push_back({name, "str", std::nullopt, {}, std::string(reader), std::string(path), line_at(p)});
    }
}

}  // namespace

std::string_view BraceSettingsLanguage(std::string_view path) {
  if (EndsWith(path, ".rs")) return "rust";
  if (EndsWith(path, ".go")) return "go";
  if (EndsWith(path, ".java")) return "java";
  return "";
}

void CollectBraceSettings(std::string_view path, std::string_view text, SettingsData* out) {
  std::string_view lang = BraceSettingsLanguage(path);
  if (lang.empty()) return;
  bool rust_flags = lang == "rust" && (Has(text, "#[arg(") || Has(text, "#[clap(") || Has(text, "#[structopt("));
  bool go_flags = lang == "go" && (Has(text, "flag") || Has(text, "Flags()"));
  bool java_flags = lang == "java" && Has(text, "@Option(");
  bool spring_values = lang == "java" && Has(text, "@Value(");
  bool spring_classes = lang == "java" && Has(text, "@ConfigurationProperties(");
  bool java_properties = false;
  for (const JvmPropertyReader& r : kJvmPropertyReaders) java_properties |= lang == "java" && Has(text, r.call);
  bool envs = Has(text, "env::var") || Has(text, "os.Getenv") || Has(text, "os.LookupEnv") || Has(text, "System.getenv");
  if (!rust_flags && !go_flags && !java_flags && !java_properties && !spring_values && !spring_classes && !envs) return;
  std::vector<bool> code = CodeMask(text, lang);
  LineIndex line_at(text);
  if (rust_flags) RustClap(path, text, code, line_at, out);
  if (go_flags) GoFlags(path, text, code, line_at, out);
  if (java_flags) JavaPicocli(path, text, code, line_at, out);
  if (spring_values) SpringValues(path, text, code, line_at, out);
  if (spring_classes) SpringConfigurationProperties(path, text, code, line_at, out);
  if (java_properties) JvmProperties(path, text, code, line_at, out);
  if (envs) EnvReads(path, text, code, line_at, lang, out);
}

}  // namespace errdex::doc
