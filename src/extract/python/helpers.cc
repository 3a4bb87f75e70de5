// extract/python/helpers.cc: messages the front end reads from elsewhere in the
// file -- the texts a raising helper's callers pass (`self.fail(msg)`), what a
// message helper returns (`self._formatMessage(...)`), a class attribute bound to a
// class (`failureException = AssertionError`), a class's message template
// (class_messages.h), an exception factory's class. See file_extractor.h.
#include "extract/python/file_extractor.h"

#include <algorithm>
#include <cstring>

namespace errdex::pyx {

// Remembers a call that may pass a raising helper its message (CallerMessages).
void FileExtractor::NoteHelperCall(uint32_t b, uint32_t name, uint32_t e, bool dotted) {
  const auto& T = toks_.tokens;
  if (helper_calls_.size() >= kMaxHelperCalls) return;
  uint32_t start = name;
  if (dotted) {
    // `self.f(` / `cls.f(`, or `x.f(` (CallerMessages takes those for a private helper
    // defined once in the file); the receiver not itself an attribute
    if (name < b + 2 || T[name - 2].kind != TokenKind::kName) return;
    std::string_view recv = py::TokenText(text_, T[name - 2]);
    if (name >= b + 3 && IsOp(text_, T[name - 3], '.')) return;
    start = name - 2;
    helper_calls_.push_back({py::TokenText(text_, T[name]), start, e, CurrentScope(), recv != "self" && recv != "cls"});
    return;
  }
  helper_calls_.push_back({py::TokenText(text_, T[name]), start, e, CurrentScope(), false});
}

std::optional<std::string> FileExtractor::ClassAttributeClass(const Node& fn, int scope) {
  if (fn.kind != NodeKind::kAttribute || fn.kids.empty()) return std::nullopt;
  const Node& base = parser_.node(fn.kids[0]);
  if (base.kind != NodeKind::kName || (base.str != "self" && base.str != "cls")) return std::nullopt;
  while (scope >= 0 && scopes_[static_cast<size_t>(scope)].kind != Scope::kClass)
    scope = scopes_[static_cast<size_t>(scope)].parent;
  if (scope < 0) return std::nullopt;
  const Assign* only = nullptr;
  for (const auto& [name, a] : scopes_[static_cast<size_t>(scope)].assigns) {
    if (name != fn.str) continue;
    if (only || a.aug || !a.has_value) return std::nullopt;  // bound twice: not one class
    only = &a;
  }
  if (!only) return std::nullopt;
  int v = ParseAssignValue(*only);
  if (v < 0) return std::nullopt;
  NodeKind k = parser_.node(v).kind;
  if (k != NodeKind::kName && k != NodeKind::kAttribute) return std::nullopt;
  std::string cls = parser_.node(v).str;
  if (!IsClasslike(cls)) return std::nullopt;
  return cls;
}

const std::vector<int>& FileExtractor::FunctionsNamed(std::string_view name) {
  static const std::vector<int> kNone;
  if (functions_by_name_.empty())
    for (const auto& [fname, sc] : functions_) functions_by_name_[fname].push_back(sc);
  auto it = functions_by_name_.find(name);
  return it == functions_by_name_.end() ? kNone : it->second;
}

int FileExtractor::LocalFunction(int f, bool other_receivers) {
  bool method = false;
  if (parser_.node(f).kind == NodeKind::kAttribute) {
    int base = parser_.node(f).kids[0];
    if (parser_.node(base).kind != NodeKind::kName ||
        (!other_receivers && parser_.node(base).str != "self" && parser_.node(base).str != "cls"))
      return -1;
    method = true;
  } else if (parser_.node(f).kind != NodeKind::kName) {
    return -1;
  }
  // The one function of that name (a method: of a class; else at module level).
  int callee = -1;
  for (int sc : FunctionsNamed(parser_.node(f).str)) {
    if (sc < 0) continue;
    const Scope& cs = scopes_[static_cast<size_t>(sc)];
    bool in_class = cs.parent >= 0 && scopes_[static_cast<size_t>(cs.parent)].kind == Scope::kClass;
    if (in_class != method) continue;
    if (callee >= 0) return -1;  // two of them: which one runs is not ours to say
    callee = sc;
  }
  return callee;
}

bool FileExtractor::BindArgs(const Scope& cs, bool method, int call, int scope, std::pair<int, int> pos,
                             std::vector<Binding>* bindings) {
  std::vector<int> args = Args(call);
  size_t first = method ? 1 : 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (parser_.node(args[i]).kind == NodeKind::kStarred) return false;
    if (first + i >= cs.params.size() || !cs.star_params.empty()) return false;
    bindings->push_back({cs.params[first + i], args[i], scope, pos});
  }
  for (int kw : Keywords(call)) {
    if (parser_.node(kw).str.empty()) return false;  // **kwargs
    for (std::string_view p : cs.params)
      if (p == parser_.node(kw).str) bindings->push_back({p, parser_.node(kw).kids[0], scope, pos});
  }
  return true;
}

MaybeSegs FileExtractor::EvReturns(Eval& ev, int call, int depth, std::pair<int, int> pos) {
  if (!whole_message_ || in_returns_ || following_callers_ || depth >= kMaxEvalDepth) return std::nullopt;
  const auto& T = toks_.tokens;
  const int f = parser_.node(call).kids[0];
  int callee = LocalFunction(f);
  if (callee < 0 || scopes_[static_cast<size_t>(callee)].returns.empty() ||
      scopes_[static_cast<size_t>(callee)].returns.size() > kMaxHelperReturns)
    return std::nullopt;
  const Scope& cs = scopes_[static_cast<size_t>(callee)];
  std::vector<Binding> bindings;
  if (!BindArgs(cs, parser_.node(f).kind == NodeKind::kAttribute, call, ev.scope, pos, &bindings))
    return std::nullopt;
  const std::vector<std::pair<uint32_t, uint32_t>> returns = cs.returns;  // (copy: parsing grows the arena)
  Seg alt;
  alt.type = Seg::kAlt;
  bool open = false;
  in_returns_ = true;
  for (auto [rb, re] : returns) {
    size_t at = rb;
    int r = parser_.ParseExpr(T, &at, re, true);
    Eval inner{callee, {T[rb].line, T[rb].col}};
    inner.bindings = &bindings;
    MaybeSegs m = r >= 0 && at == re ? Ev(inner, r, depth + 1, inner.pos) : std::nullopt;
    if (m) AddReadText(*m, &alt, &open, kMinReturnLiteral);
    else open = true;
  }
  in_returns_ = false;
  MaybeSegs out = ReadTexts(std::move(alt));
  if (out) ev.flags += open ? "+returns+open" : "+returns";
  return out;
}

std::optional<std::string> FileExtractor::FactoryInfo(const Scope& fs) {
  std::vector<std::string> classes;
  for (const auto& [vb, ve] : fs.returns) {
    const Token& t = toks_.tokens[vb];
    if (t.kind != TokenKind::kName) continue;  // cheap filter: a call starts with a name
    size_t pos = vb;
    int n = parser_.ParseExpr(toks_.tokens, &pos, ve, true);
    if (n < 0 || parser_.node(n).kind != NodeKind::kCall) continue;
    std::string last = LastName(parser_.node(n).kids[0]);
    if (!last.empty() && IsClasslike(last)) classes.push_back(last);
  }
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  if (classes.size() == 1) return classes[0];
  std::string ann;
  if (fs.ann_e > fs.ann_b) {
    size_t pos = fs.ann_b;
    int n = parser_.ParseExpr(toks_.tokens, &pos, fs.ann_e, false);
    if (n >= 0) {
      const Node& an = parser_.node(n);
      if (an.kind == NodeKind::kName || an.kind == NodeKind::kAttribute) ann = an.str;
      else if (an.kind == NodeKind::kStr) ann = an.str.substr(an.str.rfind('.') == std::string::npos ? 0 : an.str.rfind('.') + 1);
    }
  }
  auto ends = [&](const char* suf) {
    size_t n = std::strlen(suf);
    return ann.size() >= n && ann.compare(ann.size() - n, n, suf) == 0;
  };
  if (!ann.empty() && IsClasslike(ann) &&
      (!classes.empty() || ends("Error") || ends("Exception") || ends("Exit") || ends("Warning")))
    return ann;
  return std::nullopt;
}


// ---------------------------------------------------------------------------
// Class messages (class_messages.h).

void FileExtractor::NoteInitStatement(uint32_t b, uint32_t e) {
  int sc = CurrentScope();
  Scope& fs = scopes_[static_cast<size_t>(sc)];
  if (fs.kind != Scope::kFunction || fs.name != "__init__" || fs.parent < 0 ||
      scopes_[static_cast<size_t>(fs.parent)].kind != Scope::kClass)
    return;
  const auto& T = toks_.tokens;
  auto name_at = [&](uint32_t i, std::string_view n) { return i < e && IsName(text_, T[i], n); };
  auto op_at = [&](uint32_t i, char c) { return i < e && IsOp(text_, T[i], c); };
  // super().__init__(...)
  if (name_at(b, "super") && op_at(b + 1, '(') && op_at(b + 2, ')') && op_at(b + 3, '.') && name_at(b + 4, "__init__") &&
      op_at(b + 5, '(')) {
    fs.init_calls.emplace_back(b + 4, e);
    return;
  }
  // Base.__init__(self, ...)
  if (b < e && T[b].kind == TokenKind::kName && op_at(b + 1, '.') && name_at(b + 2, "__init__") && op_at(b + 3, '(') &&
      name_at(b + 4, "self")) {
    fs.init_calls.emplace_back(b + 2, e);
    return;
  }
  // self.x = <value>
  if (name_at(b, "self") && op_at(b + 1, '.') && b + 2 < e && T[b + 2].kind == TokenKind::kName && op_at(b + 3, '=') &&
      T[b + 3].end - T[b + 3].begin == 1 && b + 4 < e)
    fs.self_assigns.emplace_back(py::TokenText(text_, T[b + 2]), std::make_pair(b + 4, e));
}

MaybeSegs FileExtractor::EvInScope(int scope, int node, std::pair<int, int> pos) {
  Eval ev{scope, pos};
  return Ev(ev, node);
}

// A raising helper: `def fail(self, message, param=None): raise BadParameter(message)`
// called as `self.fail(_("{v!r} is not a valid integer.").format(v=v), param)`. The
// message a user sees is one of the texts the helper's callers in this file pass;
// they become the alternatives of the raise's message (past the oracle: tag
// "+callers", tolerated by tests/diff/diff_oracle.py). One level: a caller's own
// parameter is not followed. Callers whose argument has no literal text are left
// out; none with literal text leaves the message unknown, as before.
MaybeSegs FileExtractor::CallerMessages(int fscope, std::string_view param, int depth, bool* open) {
  const auto& T = toks_.tokens;
  const Scope& fs = scopes_[static_cast<size_t>(fscope)];
  if (fs.name.empty() || fs.name == "__init__") return std::nullopt;
  bool method = fs.parent >= 0 && scopes_[static_cast<size_t>(fs.parent)].kind == Scope::kClass;
  size_t index = 0;
  bool positional = true;
  // A *args parameter: a caller's one argument past the named ones; more print a tuple.
  bool star = std::find(fs.star_params.begin(), fs.star_params.end(), param) != fs.star_params.end();
  for (size_t k = 0; k < fs.params.size(); ++k) {
    if (fs.params[k] == param) {
      index = k;
      break;
    }
    if (std::find(fs.star_params.begin(), fs.star_params.end(), fs.params[k]) != fs.star_params.end())
      positional = false;
  }
  if (method) {
    if (index == 0) return std::nullopt;  // self / cls
    --index;
  }
  std::string key(param);
  auto cached = caller_messages_.find({fscope, key});
  if (cached != caller_messages_.end()) {
    *open = cached->second.second;
    return cached->second.first;
  }
  if (calls_by_name_.empty())
    for (uint32_t c = 0; c < helper_calls_.size(); ++c) calls_by_name_[helper_calls_[c].name].push_back(c);
  auto callers = calls_by_name_.find(fs.name);
  if (callers == calls_by_name_.end()) return std::nullopt;
  bool unique_private = false;
  if (method && fs.name.size() > 2 && fs.name[0] == '_' && fs.name[1] != '_') {
    size_t defs = 0;
    for (const Scope& s : scopes_) defs += s.kind != Scope::kClass && s.name == fs.name;
    unique_private = defs == 1;
  }
  *open = false;
  Seg alt;
  alt.type = Seg::kAlt;
  following_callers_ = true;
  for (size_t c = 0; c < callers->second.size(); ++c) {
    const HelperCall hc = helper_calls_[callers->second[c]];
    bool dotted = hc.start != hc.end && IsOp(text_, T[hc.start + 1], '.');
    if (dotted != method) continue;
    // `context._raise_error(...)`: another object's call of a private helper the file
    // defines once (decimal's Context._raise_error, called from Decimal's methods).
    if (hc.other_receiver && !unique_private) continue;
    if (alt.options.size() >= py::kMaxReadAlternatives) {
      *open = true;
      break;
    }
    uint32_t lparen = dotted ? hc.start + 3 : hc.start + 1;
    size_t pos = hc.start;
    int func = parser_.ParseExpr(T, &pos, lparen, false);
    int arg = -1;
    if (func >= 0 && pos == lparen) {
      int call = parser_.NewNode(NodeKind::kCall, parser_.node(func).b, parser_.node(func).e);
      parser_.node(call).kids.push_back(func);
      pos = lparen + 1;
      if (parser_.ParseCallArgs(T, &pos, hc.end, call)) {
        std::vector<int> args = Args(call);
        if (positional && index < args.size() && (!star || args.size() == index + 1)) arg = args[index];
        for (int kw : Keywords(call))
          if (parser_.node(kw).str == key) arg = parser_.node(kw).kids[0];
        if (arg >= 0 && parser_.node(arg).kind == NodeKind::kStarred) arg = -1;
      }
    }
    Eval ev{hc.scope, {T[hc.start].line, T[hc.start].col}};
    MaybeSegs m = arg >= 0 ? Ev(ev, arg, depth + 1, ev.pos) : std::nullopt;
    if (m) AddReadText(*m, &alt, open);
    else *open = true;  // a text we cannot read: the message may be anything
  }
  following_callers_ = false;
  MaybeSegs out = ReadTexts(std::move(alt));
  caller_messages_[{fscope, key}] = {out, *open};
  return out;
}

namespace {

// "404", not "0x1F", "1_000", "1.5" or "1e3": printed as written.
bool IsDecimalInt(std::string_view t) {
  if (t.empty() || t.size() > 19 || (t.size() > 1 && t[0] == '0')) return false;
  return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Renames holes "self.x..." to "p..." where __init__ did self.x = p.
void RenameSelfHoles(py::Segs& segs, const std::map<std::string, std::string>& self_param) {
  for (py::Seg& s : segs) {
    if (s.type == py::Seg::kAlt) {
      for (py::Segs& o : s.options) RenameSelfHoles(o, self_param);
      continue;
    }
    if (s.type != py::Seg::kHole || s.text.compare(0, 5, "self.") != 0) continue;
    size_t end = s.text.find_first_of("!:.[(", 5);
    std::string attr = s.text.substr(5, end == std::string::npos ? std::string::npos : end - 5);
    auto it = self_param.find(attr);
    if (it != self_param.end()) s.text = it->second + (end == std::string::npos ? std::string() : s.text.substr(end));
  }
}

}  // namespace

std::vector<py::ClassMessage> FileExtractor::CollectClasses() {
  std::vector<py::ClassMessage> out;
  const auto& T = toks_.tokens;
  for (size_t ci = 0; ci < scopes_.size(); ++ci) {
    const Scope& cs = scopes_[ci];
    if (cs.kind != Scope::kClass || cs.name.empty()) continue;
    py::ClassMessage cm;
    cm.file = std::string(path_);
    cm.name = std::string(cs.name);
    // Bases: the last dotted name of each top-level comma-separated part.
    int depth = 0;
    std::string last;
    for (uint32_t i = cs.bases_b; i < cs.bases_e; ++i) {
      const Token& t = T[i];
      if (t.kind == TokenKind::kOp && t.end - t.begin == 1) {
        char c = text_[t.begin];
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') --depth;
        else if (c == ',' && depth == 0) {
          if (!last.empty()) cm.bases.push_back(last);
          last.clear();
        } else if (c == '=' && depth == 0) {
          last.clear();  // metaclass=..., keyword
        }
        continue;
      }
      if (depth == 0 && t.kind == TokenKind::kName) last = std::string(py::TokenText(text_, t));
    }
    if (!last.empty()) cm.bases.push_back(last);
    // Class attributes bound to a string.
    for (const auto& [name, a] : cs.assigns) {
      if (!a.has_value || a.aug) continue;
      int v = ParseAssignValue(a);
      const py::Node* n = v >= 0 ? &parser_.node(v) : nullptr;
      if (n && n->kind == NodeKind::kStr)
        cm.attr_strings[std::string(name)] = n->str;
      else if (n && n->kind == NodeKind::kNumber && IsDecimalInt(text_.substr(n->b, n->e - n->b)))
        cm.attr_ints[std::string(name)] = std::string(text_.substr(n->b, n->e - n->b));
      else
        cm.attr_ints[std::string(name)] = "";  // defined here, value unknown: hides a base's
    }
    // Its methods.
    int init = -1, str = -1;
    for (const auto& [fname, sc] : functions_) {
      if (scopes_[static_cast<size_t>(sc)].parent != static_cast<int>(ci)) continue;
      if (fname == "__init__") init = sc;
      if (fname == "__str__") str = sc;
    }
    std::map<std::string, std::string> self_param;
    if (init >= 0) {
      const Scope& is = scopes_[static_cast<size_t>(init)];
      for (size_t k = 0; k < is.params.size(); ++k) {
        if (k == 0 && is.params[k] == "self") continue;
        if (std::find(is.star_params.begin(), is.star_params.end(), is.params[k]) != is.star_params.end()) continue;
        cm.params.emplace_back(is.params[k]);
      }
      for (const auto& [param, range] : is.param_defaults) {
        size_t pos = range.first;
        int n = parser_.ParseExpr(T, &pos, range.second, true);
        if (n >= 0 && pos == range.second && parser_.node(n).kind == NodeKind::kStr)
          cm.param_defaults[std::string(param)] = parser_.node(n).str;
      }
      for (const auto& [attr, range] : is.self_assigns) {
        cm.init_attrs.emplace_back(attr);
        if (range.second != range.first + 1 || T[range.first].kind != TokenKind::kName) continue;
        std::string_view v = py::TokenText(text_, T[range.first]);
        if (is.HasParam(v)) {
          self_param[std::string(attr)] = std::string(v);
          cm.param_attrs[std::string(v)] = std::string(attr);
        }
      }
      if (!is.init_calls.empty()) {
        auto [cb, ce] = is.init_calls.front();  // tokens from "__init__" on
        int call = parser_.NewNode(NodeKind::kCall, T[cb].begin, T[ce - 1].end);
        int callee = parser_.NewNode(NodeKind::kName, T[cb].begin, T[cb].end);  // kids[0]: the callee
        parser_.node(callee).str = "__init__";
        parser_.node(call).kids.push_back(callee);
        size_t pos = cb + 2;
        if (parser_.ParseCallArgs(T, &pos, ce, call)) {
          std::vector<int> args = Args(call);
          bool super_call = cb >= 4 && IsName(text_, T[cb - 4], "super");
          size_t first = super_call ? 0 : 1;  // Base.__init__(self, msg)
          bool starred = false;
          for (size_t k = first; k < args.size(); ++k) starred = starred || parser_.node(args[k]).kind == NodeKind::kStarred;
          if (args.size() > first + 1 && !starred && Keywords(call).empty()) {
            // Base.__init__(self, option, section, msg): which argument the base
            // prints is the base's business (ClassMessageTable binds them).
            Eval ev{init, {T[cb].line, T[cb].col}};
            cm.source = py::ClassMessage::Source::kBaseCall;
            for (size_t k = first; k < args.size(); ++k) cm.base_args.push_back(EvOrHole(ev, args[k], 0, ev.pos));
          } else if (args.size() > first && parser_.node(args[first]).kind != NodeKind::kStarred) {
            int msg = args[first];
            std::pair<int, int> at{T[cb].line, T[cb].col};
            // msg = self.fmt.format(**kwargs): the template is a class attribute.
            int v = msg;
            if (parser_.node(v).kind == NodeKind::kName) {
              Eval ev{init, at};
              std::optional<Found> f = Lookup(ev, parser_.node(v).str, at);
              if (f && f->chain.size() == 1) v = ParseAssignValue(*f->chain[0]);
            }
            if (v >= 0 && parser_.node(v).kind == NodeKind::kCall) {
              int fn = parser_.node(v).kids[0];
              if (parser_.node(fn).kind == NodeKind::kAttribute && parser_.node(fn).str == "format") {
                int base = parser_.node(fn).kids[0];
                if (parser_.node(base).kind == NodeKind::kAttribute &&
                    parser_.node(parser_.node(base).kids[0]).kind == NodeKind::kName &&
                    parser_.node(parser_.node(base).kids[0]).str == "self") {
                  cm.source = py::ClassMessage::Source::kFormatAttr;
                  cm.format_attr = parser_.node(base).str;
                }
              }
            }
            if (cm.source == py::ClassMessage::Source::kNone) {
              MaybeSegs segs = EvInScope(init, msg, at);
              // A parameter passed on as is ("Error.__init__(self, msg)") is a
              // template of one hole: a subclass's kBaseCall binds it.
              if (!segs && parser_.node(msg).kind == NodeKind::kName &&
                  std::find(cm.params.begin(), cm.params.end(), parser_.node(msg).str) != cm.params.end())
                segs = Segs{Seg::Hole(parser_.node(msg).str)};
              if (segs) {
                cm.source = py::ClassMessage::Source::kText;
                cm.text = std::move(*segs);
              }
            }
          }
        }
      }
    }
    // __str__ says what is printed, whatever __init__ passed on.
    if (str >= 0) {
      const Scope& ss = scopes_[static_cast<size_t>(str)];
      py::Seg alt;
      alt.type = py::Seg::kAlt;
      for (const auto& [rb, re] : ss.returns) {
        if (ReturnsArgsPercent(rb, re)) {
          cm.source = py::ClassMessage::Source::kArgsPercent;
          alt.options.clear();
          break;
        }
        size_t pos = rb;
        int n = parser_.ParseExpr(T, &pos, re, true);
        if (n < 0 || pos != re) continue;
        MaybeSegs segs = EvInScope(str, n, {T[rb].line, T[rb].col});
        if (segs) alt.options.push_back(std::move(*segs));
      }
      if (cm.source != py::ClassMessage::Source::kArgsPercent && !alt.options.empty() &&
          alt.options.size() <= py::kMaxAlternatives) {
        cm.source = py::ClassMessage::Source::kText;
        cm.text = alt.options.size() == 1 ? std::move(alt.options[0]) : py::Segs{std::move(alt)};
        if (init >= 0) RenameSelfHoles(cm.text, self_param);
      }
    }
    out.push_back(std::move(cm));
  }
  return out;
}

bool FileExtractor::ReturnsArgsPercent(uint32_t b, uint32_t e) const {
  std::string spelled;
  for (uint32_t i = b; i < e && i < toks_.tokens.size() && spelled.size() < 64; ++i) spelled += py::TokenText(text_, toks_.tokens[i]);
  return spelled == "self.args[0]%self.args[1:]" || spelled == "self.args[0]%tuple(self.args[1:])";
}

bool FileExtractor::BindClassTemplate(Site& site, int call, const Pending& p, const std::string& cls) {
  if (!classes_) return false;
  std::optional<py::ClassTemplate> t = classes_->Resolve(cls, path_);
  if (!t) return false;
  Eval ev = EvalAt(p);
  py::BoundArgs args;
  for (int a : Args(call)) {
    if (parser_.node(a).kind == NodeKind::kStarred) {
      args.star = true;
      break;
    }
    args.positional.push_back(EvOrHole(ev, a, 0, ev.pos));
  }
  for (int k : Keywords(call)) {
    // Copies, not a reference to the node: evaluating the value may parse more and
    // grow (reallocate) the parser's node table.
    std::string name = parser_.node(k).str;
    if (name.empty()) {
      args.star = true;
      continue;
    }
    int value = parser_.node(k).kids[0];
    Segs v = EvOrHole(ev, value, 0, ev.pos);
    args.keywords.emplace_back(std::move(name), std::move(v));
  }
  MaybeSegs segs;
  if (t->args_percent) {
    // str(e) is args[0] % args[1:]: the first argument's template, the others filling it.
    std::vector<int> positional = Args(call);
    if (args.star || positional.empty() || !Keywords(call).empty()) return false;
    segs = EvTemplate(ev, positional[0], 0, ev.pos);
    if (segs && positional.size() > 1)
      segs = ApplyPercent(*segs, std::vector<int>(positional.begin() + 1, positional.end()), nullptr, false);
    if (!segs || !py::HasLiteral(*segs)) return false;
  } else {
    segs = py::BindClassMessage(*t, args);
    // An alternative of the class's template that is holes only once bound (the
    // argument as given, where this raise passes no text for it: click's
    // NoSuchOption(opt) leaves `message` None, so __init__ writes its own) would
    // match any text: the alternatives with words say what this raise prints.
    if (segs && segs->size() == 1 && (*segs)[0].type == py::Seg::kAlt) {
      std::vector<py::Segs>& options = (*segs)[0].options;
      bool any_literal = false;
      for (const py::Segs& o : options) any_literal = any_literal || py::HasLiteral(o);
      if (any_literal)
        options.erase(std::remove_if(options.begin(), options.end(), [](const py::Segs& o) { return !py::HasLiteral(o); }),
                      options.end());
      if (options.size() == 1) segs = py::Segs(std::move(options[0]));
    }
  }
  if (!segs) return false;
  py::Rendered r = py::Render(segs);
  if (!r.message) return false;
  site.error_message = r.message;
  site.message_pattern = r.pattern;
  site.message_alternatives = std::move(r.alternatives);
  site.interpolations = std::move(r.holes);
  site.message_resolution = "class-template";
  return true;
}

std::vector<py::ClassMessage> FileExtractor::RunCollect() {
  ReadStructure();
  toks_.diagnostics.clear();
  return CollectClasses();
}

}  // namespace errdex::pyx
