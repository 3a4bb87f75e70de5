// document/brace_context.cc: see brace_context.h. Tested by brace_context_test.cc.
#include "document/brace_context.h"

#include <algorithm>
#include <cctype>

#include "document/text.h"

namespace errdex::doc {
namespace {

bool IdentStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '$'; }
bool IdentChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$'; }

// The identifiers of `s`, in order (strings and chars skipped).
std::vector<std::string> Identifiers(std::string_view s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '"' || c == '\'' || c == '`') {
      size_t e = i + 1;
      while (e < s.size() && s[e] != c) e += s[e] == '\\' ? 2 : 1;
      i = e + 1;
      continue;
    }
    if (IdentStart(c)) {
      size_t e = i;
      while (e < s.size() && IdentChar(s[e])) ++e;
      out.emplace_back(s.substr(i, e - i));
      i = e;
      continue;
    }
    ++i;
  }
  return out;
}

// Splits at top-level commas (brackets and <> of templates/generics nest).
std::vector<std::string_view> SplitParams(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t b = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      size_t e = i + 1;
      while (e < s.size() && s[e] != c) e += s[e] == '\\' ? 2 : 1;
      i = e;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || (c == '>' && i > 0 && s[i - 1] != '-' && s[i - 1] != '=')) depth = std::max(0, depth - 1);
    else if (c == ',' && depth == 0) {
      out.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  }
  out.push_back(s.substr(b));
  return out;
}

bool IsKeyword(std::string_view w) {
  static const char* const kWords[] = {"if", "for", "while", "switch", "return", "catch", "sizeof", "alignof", "decltype",
                                       "static_assert", "new", "delete", "throw", "typeof", "await", "function", "else",
                                       "do", "try", "case", "defined", "elif", "match", "loop"};
  for (const char* k : kWords)
    if (w == k) return true;
  return false;
}

// `self`, `&self`, `&mut self`, `&'a self`, `mut self`, `self: Arc<Self>` first in a Rust
// parameter list.
bool TakesSelf(std::string_view params) {
  size_t i = 0;
  auto skip_space = [&] {
    while (i < params.size() && std::isspace((unsigned char)params[i])) ++i;
  };
  skip_space();
  if (i < params.size() && params[i] == '&') {
    ++i;
    skip_space();
    if (i < params.size() && params[i] == '\'') {  // a lifetime
      while (i < params.size() && !std::isspace((unsigned char)params[i])) ++i;
      skip_space();
    }
  }
  if (params.substr(i, 4) == "mut " || params.substr(i, 4) == "mut\t") i += 4, skip_space();
  if (params.substr(i, 4) != "self") return false;
  return i + 4 >= params.size() || !IsWordChar(params[i + 4]);
}

}  // namespace

std::vector<ParamInfo> BraceParams(std::string_view params, std::string_view language) {
  std::vector<ParamInfo> out;
  const bool go = language == "go";
  std::vector<std::string_view> parts = SplitParams(params);
  for (std::string_view raw : parts) {
    std::string p = Trim(raw);
    if (p.empty() || out.size() >= 32) continue;
    ParamInfo info;
    size_t eq = std::string::npos;
    int depth = 0;
    for (size_t i = 0; i < p.size(); ++i) {
      char c = p[i];
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      else if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      else if (c == '=' && depth == 0 && (i + 1 >= p.size() || p[i + 1] != '=') && (i == 0 || (p[i - 1] != '!' && p[i - 1] != '<' && p[i - 1] != '>'))) {
        eq = i;
        break;
      }
    }
    if (eq != std::string::npos) {
      info.default_value = Clip(Trim(p.substr(eq + 1)), 120);
      p = Trim(p.substr(0, eq));
    }
    if (StartsWith(p, "...")) info.star = true, p = Trim(p.substr(3));
    if (p == "self" || p == "&self" || p == "&mut self" || p == "this") continue;
    // `name: Type` (Rust, TypeScript, Kotlin, Swift): the identifier before the single ':'.
    size_t colon = std::string::npos;
    for (size_t i = 0; i < p.size(); ++i)
      if (p[i] == ':' && (i + 1 >= p.size() || p[i + 1] != ':') && (i == 0 || p[i - 1] != ':')) {
        colon = i;
        break;
      }
    std::vector<std::string> ids;
    if (colon != std::string::npos) {
      ids = Identifiers(p.substr(0, colon));
      info.annotation = Clip(Trim(p.substr(colon + 1)), 120);
      if (!ids.empty() && (ids.back() == "mut" || ids.back() == "readonly")) ids.pop_back();
      if (!ids.empty()) info.name = ids.back();  // `public readonly name: T` -> name
    } else {
      ids = Identifiers(p);
      if (ids.empty()) continue;
      if (go) {
        info.name = ids.front();
        if (ids.size() > 1) info.annotation = Clip(Trim(p.substr(p.find(ids.front()) + ids.front().size())), 120);
      } else {
        info.name = ids.back();  // `const at::Tensor& x`, `int n`, `String[] args`
        size_t at = p.rfind(info.name);
        if (at != std::string::npos && at > 0) info.annotation = Clip(Trim(p.substr(0, at)), 120);
        // Java's `final` and `@Nullable` say nothing of the type: `final String[] parts` is a String[].
        for (bool more = true; more;) {
          std::string& t = info.annotation;
          more = false;
          if (StartsWith(t, "final ")) t = Trim(t.substr(6)), more = true;
          else if (StartsWith(t, "@") && t.find(' ') != std::string::npos) t = Trim(t.substr(t.find(' ') + 1)), more = true;
        }
      }
    }
    if (info.name.empty() || !IdentStart(info.name[0])) continue;
    if (p.find("...") != std::string::npos) info.star = true;
    out.push_back(std::move(info));
  }
  // Go: `a, b int` -- the names without a type take the next one's.
  if (go)
    for (size_t i = out.size(); i-- > 1;)
      if (out[i - 1].annotation.empty()) out[i - 1].annotation = out[i].annotation;
  return out;
}

BraceFile::BraceFile(std::string_view text, std::string_view language) : text_(text), language_(language) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

std::string_view BraceFile::Line(int line) const {
  if (line < 1 || line > (int)starts_.size()) return {};
  size_t b = starts_[line - 1];
  size_t e = line < (int)starts_.size() ? starts_[line] - 1 : text_.size();
  return text_.substr(b, e - b);
}

int BraceFile::LineOf(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return (int)(it - starts_.begin());
}

bool BraceFile::FindDefinition(std::string_view name, int line, size_t* pb, size_t* pe, int* def_line) const {
  if (name.empty() || line < 1 || line > (int)starts_.size()) return false;
  for (int l = line, n = 0; l >= 1 && n < kMaxLookBack; --l, ++n) {
    std::string_view t = Line(l);
    for (size_t p = t.find(name); p != std::string_view::npos; p = t.find(name, p + 1)) {
      if (p > 0 && IdentChar(t[p - 1])) continue;
      size_t q = p + name.size();
      if (q < t.size() && IdentChar(t[q])) continue;
      // name<T>( / name (  / name = function( / name: (
      size_t off = starts_[l - 1] + q;
      size_t open = off;
      int skip = 0;
      while (open < text_.size() && skip < 200 && text_[open] != '(' && text_[open] != ';' && text_[open] != '{' && text_[open] != '\n') ++open, ++skip;
      if (open >= text_.size() || text_[open] != '(') continue;
      std::string_view between = text_.substr(off, open - off);
      bool generic = !between.empty() && Trim(between).front() == '<';
      if (!Trim(between).empty() && !generic && !Has(between, "function") && Trim(between) != "=" && Trim(between) != ":" &&
          !StartsWith(Trim(between), "= async") && !StartsWith(Trim(between), "= function"))
        continue;
      // The matching ')' (bounded), then a body: `{` (or `=>`) before any `;`.
      int depth = 0;
      size_t close = open;
      for (size_t k = open; k < text_.size() && k < open + 8192; ++k) {
        char c = text_[k];
        if (c == '(') ++depth;
        else if (c == ')' && --depth == 0) {
          close = k;
          break;
        }
      }
      if (close == open) continue;
      size_t k = close + 1;
      bool body = false;
      int parens = 0;  // Rust's `-> Result<(), String> {`: a return type may hold brackets
      for (int steps = 0; k < text_.size() && steps < 300; ++k, ++steps) {
        char c = text_[k];
        if (c == '(') {
          ++parens;
          continue;
        }
        if (c == ')') {
          if (parens-- == 0) break;
          continue;
        }
        if (parens == 0 && (c == '{' || (c == '=' && k + 1 < text_.size() && text_[k + 1] == '>'))) {
          body = true;
          break;
        }
        if (c == ';' || c == '}') break;
      }
      if (!body) continue;
      if (std::string_view before = TrimView(t.substr(0, p)); !before.empty()) {
        // `return f(x) {` is no definition; `foo.f(x)` neither.
        std::vector<std::string> ids = Identifiers(before);
        if (!ids.empty() && IsKeyword(ids.back()) && ids.back() != "function") continue;
        if (before.back() == '.') continue;
      }
      *pb = open + 1;
      *pe = close;
      *def_line = l;
      return true;
    }
  }
  return false;
}

namespace {

// `.post("/users"` / `@Post('users')` at `p` (the verb's first letter) of `t`: the method and path.
// `decorator`: NestJS's `@Get('users')` takes a path without its leading `/`; a call
// (`app.get("/users", ...)`) names one with it -- `this.get('X-Forwarded-Proto')` reads a
// header, it registers no route.
bool RouteAt(std::string_view t, size_t p, bool decorator, std::string* method, std::string* path) {
  static const char* const kVerbs[] = {"get", "post", "put", "delete", "patch"};
  for (const char* v : kVerbs) {
    size_t n = std::char_traits<char>::length(v);
    if (t.size() < p + n + 2) continue;
    bool lower = t.compare(p, n, v) == 0;
    bool upper = std::toupper((unsigned char)t[p]) == std::toupper((unsigned char)v[0]) && t.compare(p + 1, n - 1, v + 1) == 0 &&
                 std::isupper((unsigned char)t[p]);
    if (!lower && !upper) continue;
    size_t q = p + n;
    if (q >= t.size() || t[q] != '(') continue;
    ++q;
    while (q < t.size() && t[q] == ' ') ++q;
    if (q >= t.size() || (t[q] != '"' && t[q] != '\'' && t[q] != '`')) continue;
    size_t e = t.find(t[q], q + 1);
    if (e == std::string_view::npos) continue;
    std::string r(t.substr(q + 1, e - q - 1));
    if (r.find(' ') != std::string::npos || r.size() > 200) continue;
    if (!decorator && (r.empty() || (r[0] != '/' && r != "*"))) continue;
    *method = Upper(v);
    *path = r.empty() || r[0] != '/' ? "/" + r : r;
    return true;
  }
  return false;
}

}  // namespace

void BraceFile::Route(std::string_view def, int def_line, int site_line, SiteContext* c) const {
  std::string method, path;
  // NestJS: a decorator on the lines right above the definition.
  for (int l = def_line - 1; l >= 1 && l >= def_line - 4 && def_line > 0; --l) {
    std::string_view t = TrimView(Line(l));
    if (!StartsWith(t, "@")) break;
    if (RouteAt(t, 1, true, &method, &path)) {
      c->route_method = method, c->route = path;
      return;
    }
  }
  // express: app.post("/users", createUser) anywhere in the file.
  if (!def.empty())
    for (size_t p = text_.find(def); p != std::string_view::npos; p = text_.find(def, p + 1)) {
      if (p == 0 || p + def.size() >= text_.size() || IdentChar(text_[p + def.size()]) || IdentChar(text_[p - 1])) continue;
      std::string_view t = Line(LineOf(p));
      for (size_t d = t.find('.'); d != std::string_view::npos; d = t.find('.', d + 1))
        if (RouteAt(t, d + 1, false, &method, &path)) {
          c->route_method = method, c->route = path;
          return;
        }
    }
  // An anonymous handler: the nearest route call above the site.
  if (def.empty())
    for (int l = site_line; l >= 1 && l > site_line - 60; --l) {
      std::string_view t = Line(l);
      for (size_t d = t.find('.'); d != std::string_view::npos; d = t.find('.', d + 1))
        if (RouteAt(t, d + 1, false, &method, &path)) {
          c->route_method = method, c->route = path;
          return;
        }
    }
}

namespace {

// The right-hand side up to the end of its statement: Go's `if err := f(); err != nil {`
// assigns `f()`, a header's opening `{` is no part of the value.
std::string_view StatementEnd(std::string_view rhs) {
  if (size_t semi = TopLevelChar(rhs, ';'); semi != std::string_view::npos) rhs = rhs.substr(0, semi);
  rhs = TrimView(rhs);
  // `if x := f() {` / `match v {`: the opening brace of the block, not of the value
  if (!rhs.empty() && rhs.back() == '{' && std::count(rhs.begin(), rhs.end(), '{') > std::count(rhs.begin(), rhs.end(), '}'))
    rhs = TrimView(rhs.substr(0, rhs.size() - 1));
  return rhs;
}

}  // namespace

bool BraceFile::InsideBlockFrom(int line, int site_line) const {
  // Braces opened from `line` (its statement's `{`) to the start of `site_line`, minus
  // those closed: still open means the site is inside. Strings and comments are not
  // told apart: a brace in one is rare on these few lines.
  int depth = 0;
  bool opened = false;
  for (int l = line; l < site_line; ++l)
    for (char ch : Line(l)) {
      if (ch == '{') ++depth, opened = true;
      else if (ch == '}') --depth;
    }
  return opened && depth > 0;
}

SiteContext BraceFile::Gather(const Site& site) const {
  SiteContext c;
  c.known = true;
  // Class.method / Class::method / pkg.Type.method: the last component is the function.
  std::string fn = site.function;
  for (size_t p = fn.find("::"); p != std::string::npos; p = fn.find("::", p)) fn.replace(p, 2, ".");
  std::string def = LastComponent(fn);
  if (fn.find('.') != std::string::npos) c.class_name = LastComponent(fn.substr(0, fn.rfind('.')));
  bool web = language_ == "javascript" || language_ == "typescript";
  // A thiserror variant (`#[error("...")] Variant`): the enum it belongs to, the nearest
  // `enum Name` above it.
  if (language_ == "rust" && site.error_class_expr && *site.error_class_expr == "#[error]") {
    for (int l = site.line - 1; l >= 1 && l > site.line - 2000; --l) {
      std::string_view t = TrimView(Line(l));
      size_t at = t.find("enum ");
      if (at == std::string_view::npos || (at > 0 && IdentChar(t[at - 1]))) continue;
      std::string_view rest = t.substr(at + 5);
      size_t e = 0;
      while (e < rest.size() && IdentChar(rest[e])) ++e;
      if (e > 0 && IdentStart(rest[0])) c.class_name = std::string(rest.substr(0, e));
      break;
    }
  }
  // A Java constructor is `Class.<init>`: its definition is named as the class.
  bool constructor = language_ == "java" && def == "<init>" && !c.class_name.empty();
  if (constructor) def = c.class_name;
  if (def.empty() || def == "<module>" || def == "<anonymous>" || !IdentStart(def[0])) {
    if (web) Route("", 0, site.line, &c);
    return c;
  }
  size_t pb = 0, pe = 0;
  int def_line = 0;
  if (!FindDefinition(def, site.line, &pb, &pe, &def_line)) return c;
  if (web) Route(def, def_line, site.line, &c);
  c.def_name = def;
  c.def_line = def_line;
  auto cached = params_.find(def_line);
  if (cached == params_.end()) cached = params_.emplace(def_line, BraceParams(text_.substr(pb, pe - pb), language_)).first;
  c.params = cached->second;
  // A Rust fn of an impl that takes `self` is a method (`value.f(...)`); one without is
  // associated (`Type::f(...)`). BraceParams leaves the receiver out, so it is noted here.
  if (language_ == "rust" && !c.class_name.empty() && TakesSelf(text_.substr(pb, pe - pb))) c.decorators.push_back("self");
  // Java: `new Range(...)` for a constructor, `Pairs.of(...)` for a static method, a
  // value's `pair.and(...)` for any other.
  if (constructor) c.decorators.push_back("constructor");
  else if (language_ == "java" && HasWord(std::string(Line(def_line)), "static")) c.decorators.push_back("static");
  if (language_ == "java" && !c.class_name.empty()) ClassState(c, def_line, &c.writes);
  // Locals the guards and the checked condition test: `auto x = ...;` `int x = ...;`
  // `let x = ...;` `x := ...` between the definition and the site.
  std::vector<std::string> names;
  auto want = [&](std::string_view s) {
    for (const auto& id : Identifiers(s))
      if (names.size() < 12 && std::find(names.begin(), names.end(), id) == names.end() && !IsKeyword(id)) names.push_back(id);
  };
  for (const auto& g : site.guards) want(g.substr(0, 2000));
  if (site.assert_condition) want(site.assert_condition->substr(0, 2000));
  for (const std::string& n : names) {
    if (std::any_of(c.params.begin(), c.params.end(), [&](const ParamInfo& p) { return p.name == n; })) continue;
    for (int l = site.line - 1; l > def_line && l > site.line - kMaxLookBack; --l) {
      std::string_view t = Line(l);
      size_t p = t.find(n);
      while (p != std::string_view::npos && ((p > 0 && IdentChar(t[p - 1])) || (p + n.size() < t.size() && IdentChar(t[p + n.size()]))))
        p = t.find(n, p + 1);
      if (p == std::string_view::npos) continue;
      size_t q = p + n.size();
      while (q < t.size() && t[q] == ' ') ++q;
      bool walrus = q + 1 < t.size() && t[q] == ':' && t[q + 1] == '=';
      if (q >= t.size() || !((t[q] == '=' && (q + 1 >= t.size() || t[q + 1] != '=')) || walrus)) continue;
      std::string_view before = TrimView(t.substr(0, p));
      // Go's `r, err := zip.OpenReader(b)`: err is one of the call's results.
      while (!before.empty() && before.back() == ',') {
        before = TrimView(before.substr(0, before.size() - 1));
        while (!before.empty() && (IdentChar(before.back()) || before.back() == '.')) before.remove_suffix(1);
        before = TrimView(before);
      }
      // A declaration (`auto x =`, `const int x =`, `let x =`) or a plain assignment at the line start.
      if (!before.empty() && !IdentChar(before.back()) && before.back() != '&' && before.back() != '*' && before.back() != '>') continue;
      // `if err := f(); err != nil {` (Go) declares err for that block only: a site
      // after the block's end does not see it.
      if ((before == "if" || before == "switch" || before == "for") && !InsideBlockFrom(l, site.line)) continue;
      std::string rhs = Trim(StatementEnd(t.substr(q + (walrus ? 2 : 1))));
      // A value that goes on on the next line (`var v = Array.isArray(val)` / `  ? a : b`,
      // a method chain, a trailing operator) is not known from this line: no value.
      if (!rhs.empty() && rhs.back() != ';' && rhs.back() != '{' &&
          std::count(rhs.begin(), rhs.end(), '(') == std::count(rhs.begin(), rhs.end(), ')')) {
        std::string_view next = l + 1 < site.line ? TrimView(Line(l + 1)) : std::string_view();
        char last = rhs.back();
        bool open_end = last == '+' || last == '-' || last == '*' || last == '/' || last == '%' || last == '&' || last == '|' ||
                        last == '?' || last == ':' || last == '=' || last == '.';
        bool next_goes_on = !next.empty() && (next[0] == '?' || next[0] == ':' || next[0] == '.' || next[0] == '+' ||
                                              StartsWith(next, "||") || StartsWith(next, "&&"));
        if (open_end || next_goes_on) break;
      }
      while (!rhs.empty() && (rhs.back() == ';' || rhs.back() == ',')) rhs.pop_back();
      // A call whose arguments go on past this line: its name, `f(...)`, not a cut text.
      if (std::count(rhs.begin(), rhs.end(), '(') > std::count(rhs.begin(), rhs.end(), ')'))
        rhs = rhs.substr(0, rhs.find('(')) + "(...)";
      if (!rhs.empty() && rhs.size() <= kMaxContextText) c.assigned.emplace_back(n, rhs);
      break;
    }
  }
  return c;
}

void BraceFile::ClassState(const SiteContext& c, int def_line, std::vector<StateWrite>* writes) const {
  // The class's header: the nearest `class Name` above the method, searched once per
  // method (its sites share it).
  auto [known, inserted] = class_line_of_def_.try_emplace(def_line, 0);
  if (inserted) {
    const std::string header = "class " + c.class_name;
    for (int l = def_line; l >= 1 && l > def_line - 20000; --l) {
      std::string_view t = Line(l);
      size_t at = t.find(header);
      if (at == std::string_view::npos || (at > 0 && IdentChar(t[at - 1]))) continue;
      size_t end = at + header.size();
      if (end < t.size() && IdentChar(t[end])) continue;
      known->second = l;
      break;
    }
  }
  const int class_line = known->second;
  if (class_line == 0) return;
  auto cached = class_state_.find(class_line);
  if (cached != class_state_.end()) {
    *writes = cached->second;
    return;
  }
  std::vector<StateWrite>& out = class_state_[class_line];
  // One pass over the class body by brace depth (1: the body, 2: a method's body);
  // strings and comments are not told apart, as InsideBlockFrom does.
  std::vector<std::string> fields;
  std::string method;
  std::vector<ParamInfo> ctor_params;
  int depth = 0;
  bool opened = false;
  const int last = static_cast<int>(starts_.size());
  for (int l = class_line; l <= last && out.size() < 64; ++l) {
    std::string_view t = TrimView(Line(l));
    int at_start = depth;
    if (opened && at_start == 1 && !t.empty() && t.back() == ';' && t.find('(') == std::string_view::npos) {
      // A field: `private State runningState = State.UNSTARTED;` / `private long startTime;`
      std::string_view decl = t.substr(0, t.size() - 1);
      size_t eq = decl.find('=');
      std::string_view left = TrimView(decl.substr(0, eq));
      size_t e = left.size();
      size_t b = e;
      while (b > 0 && IdentChar(left[b - 1])) --b;
      if (b < e && b > 0 && IdentStart(left[b])) {
        std::string name(left.substr(b, e - b));
        fields.push_back(name);
        out.push_back({name, "", eq == std::string_view::npos ? "" : Trim(decl.substr(eq + 1))});
      }
    } else if (opened && at_start == 1 && t.find('(') != std::string_view::npos && !StartsWith(t, "@")) {
      // A method's (or constructor's) header: the identifier before its '('.
      std::string_view head = t.substr(0, t.find('('));
      size_t e = head.size();
      while (e > 0 && head[e - 1] == ' ') --e;
      size_t b = e;
      while (b > 0 && IdentChar(head[b - 1])) --b;
      method = std::string(head.substr(b, e - b));
      ctor_params.clear();
      if (method == c.class_name) {
        size_t open = starts_[l - 1] + (Line(l).find('('));
        size_t close = text_.find(')', open);
        if (close != std::string_view::npos) ctor_params = BraceParams(text_.substr(open + 1, close - open - 1), language_);
      }
    } else if (opened && at_start >= 2 && !method.empty()) {
      // `runningState = State.RUNNING;` / `this.startTime = System.nanoTime();`
      std::string_view st = t;
      if (StartsWith(st, "this.")) st.remove_prefix(5);
      size_t e = 0;
      while (e < st.size() && IdentChar(st[e])) ++e;
      std::string_view name = st.substr(0, e);
      std::string_view rest = TrimView(st.substr(e));
      if (e > 0 && StartsWith(rest, "=") && !StartsWith(rest, "==") && !rest.empty() && rest.back() == ';' &&
          std::find(fields.begin(), fields.end(), name) != fields.end()) {
        std::string value = Trim(rest.substr(1, rest.size() - 2));
        if (method == c.class_name) {
          // A constructor stores its argument: the field is that argument (a kParam of the
          // constructor); any other constructor write is the initial state, no method's.
          bool param = std::any_of(ctor_params.begin(), ctor_params.end(), [&](const ParamInfo& p) { return p.name == value; });
          if (param) out.push_back({std::string(name), "__init__", "param:" + value});
        } else if (!value.empty() && value.size() <= kMaxContextText) {
          StateWrite w{std::string(name), method, value};
          if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
        }
      }
    }
    for (char ch : Line(l)) {
      if (ch == '{') ++depth, opened = true;
      else if (ch == '}') --depth;
    }
    if (opened && depth <= 0) break;
  }
  *writes = out;
}

}  // namespace errdex::doc
