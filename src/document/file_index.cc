// document/file_index.cc: see file_index.h. Tested by file_index_test.cc.
#include "document/file_index.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <set>

#include "document/guards.h"
#include "document/text.h"

namespace errdex::doc {

using py::TokenKind;

FileIndex::Wanted FileIndex::WantedBy(const std::vector<const Site*>& sites) {
  Wanted w;
  auto idents = [&](std::string_view g) {
    for (size_t i = 0; i < g.size();) {
      if (std::isalpha((unsigned char)g[i]) || g[i] == '_') {
        size_t e = i;
        while (e < g.size() && IsWordChar(g[e])) ++e;
        w.names.insert(g.substr(i, e - i));
        i = e;
      } else {
        ++i;
      }
    }
  };
  for (const Site* s : sites) {
    if (!s) continue;
    std::string_view f = s->function;
    size_t dot = f.rfind('.');
    std::string_view last = dot == std::string_view::npos ? f : f.substr(dot + 1);
    w.callees.insert(last);
    if (last == "__init__" && dot != std::string_view::npos) {
      std::string_view cls = f.substr(0, dot);
      size_t d2 = cls.rfind('.');
      w.callees.insert(d2 == std::string_view::npos ? cls : cls.substr(d2 + 1));
    }
    for (const auto& g : s->guards) idents(std::string_view(g).substr(0, 4096));
  }
  return w;
}

namespace {

// A 256-bit filter over (length, first byte, last byte) of each string of a set: a
// name whose bit is clear is not in the set, so most names skip the hash (the index
// looks at every call of the file).
struct NameFilter {
  uint64_t bits[4] = {0, 0, 0, 0};
  static unsigned Slot(std::string_view s) {
    if (s.empty()) return 0;
    return (unsigned)(s.size() * 31 + (unsigned char)s.front() * 7 + (unsigned char)s.back()) & 255u;
  }
  explicit NameFilter(const std::unordered_set<std::string_view>* set) {
    if (!set) {
      for (uint64_t& b : bits) b = ~uint64_t{0};
      return;
    }
    for (std::string_view s : *set) bits[Slot(s) >> 6] |= uint64_t{1} << (Slot(s) & 63);
  }
};
bool MayHold(const NameFilter& f, std::string_view s) {
  unsigned k = NameFilter::Slot(s);
  return (f.bits[k >> 6] >> (k & 63)) & 1;
}

// Indent -> the block last opened there (-1: a statement since, or none): a vector for
// the indents real code has, a map beyond.
class LastAtIndent {
 public:
  int Get(int indent) const {
    if (indent >= 0 && indent < kDirect) return (size_t)indent < v_.size() ? v_[(size_t)indent] : -1;
    auto it = far_.find(indent);
    return it == far_.end() ? -1 : it->second;
  }
  void Set(int indent, int block) {
    if (indent >= 0 && indent < kDirect) {
      if ((size_t)indent >= v_.size()) v_.resize((size_t)indent + 1, -1);
      v_[(size_t)indent] = block;
    } else {
      far_[indent] = block;
    }
  }

 private:
  static constexpr int kDirect = 1024;
  std::vector<int> v_;
  std::unordered_map<int, int> far_;
};

}  // namespace

// A switch on the length: the header of every logical line is tested.
int FileIndex::KeywordKind(std::string_view w) {
  switch (w.size()) {
    case 2: return Toks::Same(w, "if") ? kIf : -1;
    case 3: return Toks::Same(w, "for") ? kFor : Toks::Same(w, "try") ? kTry : Toks::Same(w, "def") ? kDef : -1;
    case 4:
      return Toks::Same(w, "elif")   ? kElif
             : Toks::Same(w, "else") ? kElse
             : Toks::Same(w, "with") ? kWith
             : Toks::Same(w, "case") ? kCase
                                     : -1;
    case 5: return Toks::Same(w, "while") ? kWhile : Toks::Same(w, "class") ? kClass : Toks::Same(w, "match") ? kMatch : -1;
    case 6: return Toks::Same(w, "except") ? kExcept : -1;
    case 7: return Toks::Same(w, "finally") ? kFinally : -1;
    default: return -1;
  }
}

FileIndex::FileIndex(const Toks& t, const Wanted* wanted) : t_(t) {
  const auto& lines = t.lines();
  ll_.reserve(lines.size());
  std::vector<int> stack;
  LastAtIndent last_at_indent;
  const NameFilter callee_mask(wanted ? &wanted->callees : nullptr);
  const NameFilter name_mask(wanted ? &wanted->names : nullptr);
  const py::Token* tk = t.tokens().data();
  const char* src = t.text().data();
  const std::vector<uint32_t>& call_names = t.call_names();
  size_t next_call = 0;  // cursor into call_names: logical lines come in token order
  auto close_to = [&](int indent) {
    while (!stack.empty() && blocks_[stack.back()].indent >= indent) {
      Block& b = blocks_[stack.back()];
      b.end = std::max(b.end, ll_.empty() ? b.start : ll_.back().end);
      stack.pop_back();
    }
  };
  for (const py::LogicalLine& L : lines) {
    if (L.first >= L.last) continue;
    close_to(L.indent);
    LogLine l;
    l.first = L.first;
    l.last = L.last;
    l.indent = L.indent;
    l.start = t.line(L.first);
    // Only a multi-line string token ends on a later line than it starts.
    l.end = t.IsKind(L.last - 1, TokenKind::kString) ? t.EndLine(L.last - 1) : t.line(L.last - 1);
    l.block = stack.empty() ? -1 : stack.back();
    int li = (int)ll_.size();
    uint32_t k = L.first;
    if (t.IsName(k, "async")) ++k;
    std::string_view w = t.Text(k);
    int kind = -1;
    if (t.IsKind(k, TokenKind::kName)) {
      kind = KeywordKind(w);
      // `match` / `case` are soft keywords: only as a statement ending in ':'.
      if ((kind == kMatch || kind == kCase) && !t.IsOp1(L.last - 1, ':')) kind = -1;
    }
    uint32_t colon = 0;
    if (kind >= 0) {
      int base = t.depth(k);
      for (uint32_t j = k + 1; j < L.last; ++j)
        if (t.depth(j) == base && t.IsOp1(j, ':')) {
          colon = j;
          break;
        }
      if (!colon) kind = -1;
    }
    if (kind >= 0) {
      Block b;
      b.kind = (Kind)kind;
      b.ll = li;
      b.start = l.start;
      b.end = l.end;
      b.indent = L.indent;
      b.parent = l.block;
      b.body_b = colon + 1;
      if (kind == kIf || kind == kElif || kind == kWhile) {
        b.test_b = k + 1;
        b.test_e = colon;
      }
      if ((kind == kDef || kind == kClass) && t.IsKind(k + 1, TokenKind::kName)) b.name = t.Text(k + 1);
      if (kind == kElif || kind == kElse) {
        int last = last_at_indent.Get(L.indent);
        if (last >= 0 && (blocks_[last].kind == kIf || blocks_[last].kind == kElif)) b.chain_prev = last;
      }
      int bi = (int)blocks_.size();
      blocks_.push_back(b);
      l.opens = bi;
      last_at_indent.Set(L.indent, bi);
      if (colon + 1 >= L.last) stack.push_back(bi);  // a body on the following lines
    } else {
      last_at_indent.Set(L.indent, -1);
      // name = ..., name: T = ...
      if (t.IsKind(L.first, TokenKind::kName)) {
        uint32_t eq = L.first + 1;
        if (t.IsOp1(eq, ':')) {
          while (eq < L.last && !(t.IsOp1(eq, '=') && t.depth(eq) == t.depth(L.first))) ++eq;
        }
        if (eq < L.last && t.IsOp1(eq, '=') &&
            (!wanted || (MayHold(name_mask, t.Text(L.first)) && wanted->names.count(t.Text(L.first)))))
          assigns_[t.Text(L.first)].push_back(li);
        // self.attr = ... / self.attr: T = ...
        if (t.IsName(L.first, "self") && t.IsOp1(L.first + 1, '.') && t.IsKind(L.first + 2, TokenKind::kName) &&
            (t.IsOp1(L.first + 3, '=') || t.IsOp1(L.first + 3, ':')) &&
            (!wanted || (MayHold(name_mask, t.Text(L.first + 2)) && wanted->names.count(t.Text(L.first + 2)))))
          self_assigns_[t.Text(L.first + 2)].push_back(li);
      }
      if (Toks::Same(w, "import") || Toks::Same(w, "from")) {
        // import a.b -> a; import a as b -> b; from x import a, b as c -> a, c
        bool from = Toks::Same(w, "from");
        uint32_t j = L.first + 1;
        if (from) {
          while (j < L.last && !t.IsName(j, "import")) ++j;
          ++j;
        }
        for (auto [pb, pe] : t.SplitTopLevel(j, L.last)) {
          while (pb < pe && t.IsOp1(pb, '(')) ++pb;
          if (pb >= pe) continue;
          uint32_t as = pb;
          while (as < pe && !t.IsName(as, "as")) ++as;
          if (as + 1 < pe) imports_.insert(t.Text(as + 1));
          else if (t.IsKind(pb, TokenKind::kName)) imports_.insert(t.Text(pb));
        }
      }
    }
    // The line's `name(` tokens (Toks::call_names, so not every token is read); a name
    // is hashed only when the filter lets it through.
    while (next_call < call_names.size() && call_names[next_call] < L.first) ++next_call;
    for (; next_call < call_names.size() && call_names[next_call] + 1 < L.last; ++next_call) {
      uint32_t j = call_names[next_call];
      std::string_view name(src + tk[j].begin, tk[j].end - tk[j].begin);
      if (!MayHold(callee_mask, name)) continue;
      if (j > L.first && (t.IsName(j - 1, "def") || t.IsName(j - 1, "class"))) continue;
      if (!wanted || wanted->callees.count(name)) calls_[name].push_back(j);
    }
    ll_.push_back(l);
  }
  close_to(INT_MIN);
}

int FileIndex::LogLineAt(int line) const {
  auto it = std::upper_bound(ll_.begin(), ll_.end(), line, [](int v, const LogLine& l) { return v < l.start; });
  if (it == ll_.begin()) return -1;
  int li = (int)(it - ll_.begin()) - 1;
  return line <= ll_[li].end ? li : -1;
}

int FileIndex::InnermostBlock(int li) const {
  if (li < 0) return -1;
  const LogLine& l = ll_[li];
  if (l.opens >= 0 && blocks_[l.opens].end == l.end && (int)blocks_[l.opens].body_b < (int)l.last) return l.opens;  // one-liner
  return l.block;
}

int FileIndex::DefOf(int b) const {
  for (int depth = 0; b >= 0 && depth < 256; b = blocks_[b].parent, ++depth)
    if (blocks_[b].kind == kDef) return b;
  return -1;
}

std::string FileIndex::ScopeName(int b) const {
  std::string fn, cls;
  for (int depth = 0; b >= 0 && depth < 256; b = blocks_[b].parent, ++depth) {
    if (blocks_[b].kind == kDef && fn.empty() && cls.empty()) fn = std::string(blocks_[b].name);
    else if (blocks_[b].kind == kClass) {
      cls = std::string(blocks_[b].name);
      break;
    } else if (blocks_[b].kind == kDef && !fn.empty()) {
      break;  // a nested def: its outer function is not part of the name
    }
  }
  if (!fn.empty()) return cls.empty() ? fn : cls + "." + fn;
  if (!cls.empty()) return "class " + cls;
  return "<module>";
}

int FileIndex::MinIndent(int from, int to) const {
  int n = (int)ll_.size();
  if (from > to || from < 0 || to >= n) return INT_MAX;
  if (seg_.empty()) {
    seg_.assign(2 * (size_t)n, INT_MAX);
    for (int i = 0; i < n; ++i) seg_[(size_t)(n + i)] = ll_[i].indent;
    for (int i = n - 1; i > 0; --i) seg_[(size_t)i] = std::min(seg_[(size_t)(2 * i)], seg_[(size_t)(2 * i + 1)]);
  }
  int r = INT_MAX;
  for (int l = from + n, h = to + n + 1; l < h; l >>= 1, h >>= 1) {
    if (l & 1) r = std::min(r, seg_[(size_t)l++]);
    if (h & 1) r = std::min(r, seg_[(size_t)--h]);
  }
  return r;
}

bool FileIndex::MutatedContainer(std::string_view n) const {
  // A scan of the whole file: the sites of one file ask about the same few names.
  auto known = mutated_.find(n);
  if (known != mutated_.end()) return known->second;
  bool found = ScanMutated(n);
  mutated_.emplace(std::string(n), found);
  return found;
}

bool FileIndex::ScanMutated(std::string_view n) const {
  for (size_t i = 0; i + 1 < t_.size(); ++i) {
    if (!t_.IsName(i, n) || (i > 0 && t_.IsOp1(i - 1, '.'))) continue;
    if (t_.IsOp1(i + 1, '.')) {
      std::string_view m = t_.Text(i + 2);
      if (m == "add" || m == "append" || m == "extend" || m == "update" || m == "insert" || m == "setdefault" || m == "remove" ||
          m == "discard" || m == "pop" || m == "popitem" || m == "clear" || m == "__setitem__")
        return true;
    } else if (t_.IsOp1(i + 1, '[')) {
      size_t close = t_.MatchBracket(i + 1);
      if (t_.IsOp1(close + 1, '=')) return true;
    } else if (t_.IsOp(i + 1, "+=") || t_.IsOp(i + 1, "|=") || t_.IsOp(i + 1, "-=") || t_.IsOp(i + 1, "&=")) {
      return true;
    } else if (i > 0 && t_.IsName(i - 1, "del")) {
      return true;
    }
  }
  return false;
}

std::string FileIndex::RhsOf(int li) const {
  const LogLine& l = ll_[li];
  uint32_t eq = l.first + 1;
  while (eq < l.last && !(t_.IsOp1(eq, '=') && t_.depth(eq) == t_.depth(l.first))) ++eq;
  if (eq + 1 >= l.last) return "";
  return Clip(OneLine(t_.Span(eq + 1, l.last)), kMaxContextText);
}

void FileIndex::Summarize(const Block& b, int until_line, BranchInfo* out) const {
  size_t end = t_.size();
  for (size_t i = b.body_b, n = 0; i < end && n < 400; ++i, ++n) {
    const py::Token& tk = t_[i];
    if (tk.kind == TokenKind::kEnd) break;
    if (tk.line > b.end || (until_line > 0 && tk.line >= until_line)) break;
    if (tk.kind != TokenKind::kName) continue;
    std::string_view w = t_.Text(i);
    std::string v;
    if (t_.IsOp1(i + 1, '=') && t_.StringAt(i + 2, &v) && out->sets.size() < 4) {
      std::pair<std::string, std::string> p{std::string(w), Clip(v, 80)};
      if (std::find(out->sets.begin(), out->sets.end(), p) == out->sets.end()) out->sets.push_back(std::move(p));
    }
    if ((w == "warning" || w == "warn") && i > 0 && t_.IsOp1(i - 1, '.') && t_.IsOp1(i + 1, '(')) out->warns = true;
    if (w == "return") out->returns = true;
    if (w == "raise" && out->raises.empty() && t_.IsKind(i + 1, TokenKind::kName)) {
      size_t j = i + 1;
      std::string r(t_.Text(j));
      while (t_.IsOp1(j + 1, '.') && t_.IsKind(j + 2, TokenKind::kName)) {
        r += "." + std::string(t_.Text(j + 2));
        j += 2;
      }
      out->raises = LastComponent(r);
    }
  }
}

const std::vector<ParamInfo>& FileIndex::ParamsOf(int def) const {
  if (params_.empty()) params_.resize(blocks_.size());
  auto& p = params_[def];
  if (!p) p = Params(blocks_[def]);
  return *p;
}

std::vector<ParamInfo> FileIndex::Params(const Block& def) const {
  std::vector<ParamInfo> out;
  const LogLine& l = ll_[def.ll];
  uint32_t open = l.first;
  while (open < l.last && !t_.IsOp1(open, '(')) ++open;
  if (open >= l.last) return out;
  size_t close = t_.MatchBracket(open);
  for (auto [pb, pe] : t_.SplitTopLevel(open + 1, close)) {
    if (pb >= pe || out.size() >= 32) continue;
    ParamInfo p;
    while (pb < pe && (t_.IsOp(pb, "*") || t_.IsOp(pb, "**"))) {
      p.star = true;
      ++pb;
    }
    if (pb >= pe || !t_.IsKind(pb, TokenKind::kName)) continue;
    p.name = std::string(t_.Text(pb));
    size_t colon = 0, eq = 0;
    for (size_t j = pb + 1; j < pe; ++j) {
      if (t_.depth(j) != t_.depth(pb)) continue;
      if (!colon && !eq && t_.IsOp1(j, ':')) colon = j;
      if (!eq && t_.IsOp1(j, '=')) eq = j;
    }
    if (colon) p.annotation = Clip(OneLine(t_.Span(colon + 1, eq ? eq : pe)), 120);
    if (eq) p.default_value = Clip(OneLine(t_.Span(eq + 1, pe)), 120);
    out.push_back(std::move(p));
  }
  return out;
}

bool FileIndex::AlwaysExits(int bi) const {
  const Block& b = blocks_[bi];
  const LogLine& head = ll_[b.ll];
  auto exit_word = [&](uint32_t tok) {
    return t_.IsName(tok, "return") || t_.IsName(tok, "raise") || t_.IsName(tok, "continue") || t_.IsName(tok, "break");
  };
  if (b.body_b < head.last) return exit_word(b.body_b);  // a one-liner: `if x: return`
  int last = -1;
  for (int k = b.ll + 1, n = 0; k < (int)ll_.size() && ll_[k].start <= b.end && n < 4096; ++k, ++n)
    if (ll_[k].block == bi) last = k;
  if (last < 0) return false;
  if (ll_[last].opens >= 0) return false;  // ends in a nested block: not followed
  return exit_word(ll_[last].first);
}

void FileIndex::Exits(int li, int inner, SiteContext* c) const {
  const LogLine& site_line = ll_[li];
  if (site_line.block != inner || site_line.opens >= 0) return;  // the site sits in its own branch
  int lo = inner >= 0 ? blocks_[inner].ll : -1;
  std::vector<std::pair<int, std::string>> found;  // nearest first
  std::vector<int> chain;                          // branches of the chain being read, last first
  bool has_else = false;
  for (int k = li - 1, n = 0; k > lo && n < 400 && found.size() < 8; --k, ++n) {
    const LogLine& l = ll_[k];
    if (l.block != inner || l.opens < 0) continue;
    const Block& b = blocks_[l.opens];
    if (b.kind == kElse) {
      has_else = true;
      chain.clear();
      continue;
    }
    if (b.kind != kIf && b.kind != kElif) {
      has_else = false;
      chain.clear();
      continue;
    }
    chain.push_back(l.opens);
    if (b.kind == kElif) continue;
    // The chain is complete (its `if`): it implies something only when every branch exits.
    bool all_exit = !has_else;
    for (int bi : chain) all_exit = all_exit && AlwaysExits(bi);
    if (all_exit)
      for (int bi : chain) {
        const Block& cb = blocks_[bi];
        std::string test = OneLine(t_.Span(cb.test_b, cb.test_e));
        if (!test.empty() && test.size() <= kMaxContextText) found.emplace_back(cb.start, test);
      }
    chain.clear();
    has_else = false;
  }
  for (auto it = found.rbegin(); it != found.rend(); ++it) c->exits.push_back(*it);
}

void FileIndex::Setters(const Site& site, int def, SiteContext* c) const {
  if (def < 0 || c->class_name.empty()) return;
  int cls = blocks_[def].parent;
  if (cls < 0 || blocks_[cls].kind != kClass) return;
  std::vector<std::string> attrs;
  for (const std::string& g : site.guards) {
    if (g.size() > 4096) continue;
    for (size_t p = g.find("self."); p != std::string::npos && attrs.size() < 4; p = g.find("self.", p + 5)) {
      if (p > 0 && (IsWordChar(g[p - 1]) || g[p - 1] == '.')) continue;
      size_t e = p + 5;
      while (e < g.size() && IsWordChar(g[e])) ++e;
      if (e < g.size() && g[e] == '(') continue;  // a method call
      std::string a = g.substr(p + 5, e - p - 5);
      if (!a.empty() && std::find(attrs.begin(), attrs.end(), a) == attrs.end()) attrs.push_back(a);
    }
  }
  bool post_init = blocks_[def].name == "__post_init__" && IsDataclass(cls);
  for (const std::string& a : attrs) {
    // A dataclass's __post_init__ validates a field: the caller chose it in the constructor call.
    if (post_init && c->writes.size() < 12 && DataclassField(cls, a)) {
      StateWrite w{a, "__init__", "param:" + a};
      if (std::find(c->writes.begin(), c->writes.end(), w) == c->writes.end()) c->writes.push_back(std::move(w));
      continue;
    }
    auto it = self_assigns_.find(a);
    if (it == self_assigns_.end()) continue;
    int found = 0;
    for (int ai : it->second) {
      if (found >= 4 || (int)c->writes.size() >= 12) break;
      int d = DefOf(ll_[ai].block);
      if (d < 0 || d == def || blocks_[d].parent != cls) continue;
      std::string rhs = RhsOf(ai);
      if (rhs.empty()) continue;
      std::string value = IsConstantExpr(rhs) || rhs == "[]" || rhs == "{}" || rhs == "()" ? rhs : "";
      if (blocks_[d].name == "__init__") {
        // self.x = x of a constructor parameter: the caller chooses it when it builds the object.
        if (!IsIdent(rhs)) continue;
        bool param = false;
        for (const auto& p : ParamsOf(d)) param = param || (p.name == rhs && !p.star);
        if (!param) continue;
        value = "param:" + rhs;
      }
      StateWrite w{a, std::string(blocks_[d].name), value};
      if (std::find(c->writes.begin(), c->writes.end(), w) != c->writes.end()) continue;
      c->writes.push_back(std::move(w));
      ++found;
    }
  }
}

bool FileIndex::IsDataclass(int cls) const {
  for (int k = blocks_[cls].ll - 1, n = 0; k >= 0 && n < 8 && t_.IsOp1(ll_[k].first, '@'); --k, ++n) {
    std::string dec(t_.Span(ll_[k].first + 1, ll_[k].last));
    dec = dec.substr(0, dec.find('('));
    if (dec == "dataclass" || EndsWith(dec, ".dataclass")) return true;
  }
  return false;
}

bool FileIndex::DataclassField(int cls, const std::string& name) const {
  const Block& b = blocks_[cls];
  for (int k = b.ll + 1; k < (int)ll_.size() && ll_[k].start <= b.end; ++k)
    if (ll_[k].block == cls && t_.IsName(ll_[k].first, name) && t_.IsOp1(ll_[k].first + 1, ':')) return true;
  return false;
}

void FileIndex::Route(const Block& def, SiteContext* c) const {
  for (int k = def.ll - 1, n = 0; k >= 0 && n < 8 && t_.IsOp1(ll_[k].first, '@'); --k, ++n) {
    const LogLine& l = ll_[k];
    uint32_t open = l.first + 1;
    while (open < l.last && !t_.IsOp1(open, '(')) ++open;
    if (open >= l.last || open < l.first + 2) continue;
    std::string verb(t_.Text(open - 1));
    static const char* const kVerbs[] = {"get", "post", "put", "delete", "patch", "head", "options", "route", "api_route"};
    bool route = false;
    for (const char* v : kVerbs) route = route || verb == v;
    if (!route || !t_.IsOp1(open - 2, '.')) continue;
    std::string path;
    if (!t_.StringAt(open + 1, &path) || path.empty() || path[0] != '/') continue;
    c->route = Clip(path, 200);
    c->route_method = verb == "route" || verb == "api_route" ? "GET" : Upper(verb);
    // methods=["POST"]: the first method.
    for (uint32_t j = open; j + 3 < l.last; ++j)
      if (t_.IsName(j, "methods") && t_.IsOp1(j + 1, '=')) {
        std::vector<std::string> ms;
        size_t close = t_.IsOp1(j + 2, '[') || t_.IsOp1(j + 2, '(') ? t_.MatchBracket(j + 2) : j + 2;
        if (t_.StringList(j + 2, close + 1, &ms) && !ms.empty()) c->route_method = Upper(ms[0]);
      }
    return;
  }
}

SiteContext FileIndex::Gather(const Site& site) const {
  SiteContext c;
  c.known = true;
  int li = LogLineAt(site.line);
  if (li < 0) return c;
  int inner = InnermostBlock(li);
  int def = DefOf(inner);
  if (def >= 0) {
    const Block& d = blocks_[def];
    c.def_line = d.start;
    c.def_name = std::string(d.name);
    if (d.parent >= 0 && blocks_[d.parent].kind == kClass) c.class_name = std::string(blocks_[d.parent].name);
    c.params = ParamsOf(def);
    for (int k = d.ll - 1, n = 0; k >= 0 && n < 8 && t_.IsOp1(ll_[k].first, '@'); --k, ++n) {
      std::string dec(t_.Span(ll_[k].first + 1, ll_[k].last));
      dec = dec.substr(0, dec.find('('));
      c.decorators.push_back(LastComponent(Trim(dec)));
    }
    Route(d, &c);
    Setters(site, def, &c);
  } else {
    for (int b = inner, depth = 0; b >= 0 && depth < 256; b = blocks_[b].parent, ++depth)
      if (blocks_[b].kind == kClass) {
        c.class_name = std::string(blocks_[b].name);
        break;
      }
  }
  // The class's bases.
  for (int b = inner, depth = 0; b >= 0 && depth < 256 && !c.class_name.empty(); b = blocks_[b].parent, ++depth) {
    if (blocks_[b].kind != kClass || blocks_[b].name != c.class_name) continue;
    const LogLine& l = ll_[blocks_[b].ll];
    uint32_t open = l.first;
    while (open < l.last && !t_.IsOp1(open, '(')) ++open;
    if (open < l.last)
      for (auto [pb, pe] : t_.SplitTopLevel(open + 1, t_.MatchBracket(open)))
        if (pb < pe && c.class_bases.size() < 8) c.class_bases.push_back(Clip(OneLine(t_.Span(pb, pe)), 80));
    break;
  }

  // The innermost guards and the names they test.
  size_t first_guard = site.guards.size() > kMaxGuards ? site.guards.size() - kMaxGuards : 0;
  std::vector<std::string> names;
  std::set<std::string> module_names;
  auto want = [&](std::string_view n) {
    if (IsIdent(n) && n != "self" && n != "cls" && names.size() < 16 && std::find(names.begin(), names.end(), n) == names.end())
      names.emplace_back(n);
  };
  // The identifiers a test uses: candidates for locals (not after '.', not called)
  // and for modules (not after '.'). A token-free scan: Gather runs for every site.
  auto scan_names = [&](std::string_view g) {
    for (size_t i = 0; i < g.size();) {
      char ch = g[i];
      if (ch == '"' || ch == '\'') {  // skip string literals
        size_t e = i + 1;
        while (e < g.size() && g[e] != ch) e += g[e] == '\\' ? 2 : 1;
        i = e + 1;
        continue;
      }
      if (!(std::isalpha((unsigned char)ch) || ch == '_')) {
        ++i;
        continue;
      }
      size_t e = i;
      while (e < g.size() && IsWordChar(g[e])) ++e;
      bool after_dot = i > 0 && g[i - 1] == '.';
      if (!after_dot) {
        std::string_view n = g.substr(i, e - i);  // a string only when kept
        if (imports_.count(n)) module_names.emplace(n);  // only imported names can be modules
        bool kw = n == "and" || n == "or" || n == "not" || n == "in" || n == "is" || n == "None" || n == "True" || n == "False" ||
                  n == "if" || n == "else" || n == "lambda" || n == "for";
        if (!kw && (e >= g.size() || g[e] != '(')) want(n);
      }
      i = e;
    }
  };
  std::vector<std::pair<int, std::string>> negated;  // guard index -> test of the earlier branch
  for (size_t g = first_guard; g < site.guards.size(); ++g) {
    const std::string& text = site.guards[g];
    if (text.size() > 4096) continue;
    std::string inner_test;
    if (StartsWith(text, "not (") && StripNot(text, &inner_test)) negated.emplace_back((int)g, OneLine(inner_test));
    scan_names(text);
  }
  if (site.assert_condition && site.assert_condition->size() <= 4096) scan_names(*site.assert_condition);

  // Locals on the path to the site (the def's scope, else module level).
  for (const std::string& n : names) {
    auto it = assigns_.find(n);
    if (it == assigns_.end()) continue;
    bool param = std::any_of(c.params.begin(), c.params.end(), [&](const ParamInfo& p) { return p.name == n; });
    if (param) continue;
    const std::vector<int>& v = it->second;
    auto end = std::lower_bound(v.begin(), v.end(), li);
    std::string rhs;
    int tried = 0;
    for (auto a = end; a != v.begin() && tried < 64; ++tried) {
      --a;
      int ai = *a;
      if (DefOf(ll_[ai].block) != def) continue;
      if (ll_[ai].indent <= MinIndent(ai + 1, li)) {
        rhs = RhsOf(ai);
        break;
      }
    }
    if (rhs.empty() && def >= 0) {
      // A module-level assignment (anywhere in the file: it ran before the call).
      for (auto a = v.rbegin(); a != v.rend() && tried < 128; ++a, ++tried)
        if (ll_[*a].indent == 0 && ll_[*a].block < 0) {
          rhs = RhsOf(*a);
          break;
        }
    }
    // A list, set or dict literal the file changes elsewhere (`flags.add(os.SEEK_HOLE)`,
    // `m[k] = v`, `xs += [...]`) does not hold its literal at the site.
    if (!rhs.empty() && (rhs[0] == '[' || rhs[0] == '{') && MutatedContainer(n)) continue;
    if (!rhs.empty()) c.assigned.emplace_back(n, rhs);
  }
  // Names the guards (and the locals they test) use as modules.
  auto module_candidates = [&](const std::string& e) {
    if (IsDotted(e)) module_names.insert(FirstComponent(e));
    for (const char* fn : {"getattr(", "hasattr("}) {
      size_t p = e.find(fn);
      if (p == std::string::npos) continue;
      size_t b = p + std::char_traits<char>::length(fn), end = e.find(',', b);
      if (end != std::string::npos) module_names.insert(FirstComponent(Trim(e.substr(b, end - b))));
    }
    size_t dot = e.find('.');
    if (dot != std::string::npos && dot > 0 && IsIdent(e.substr(0, dot))) module_names.insert(e.substr(0, dot));
  };
  for (const auto& [n, rhs] : c.assigned) module_candidates(rhs);
  for (const std::string& m : module_names)
    if (imports_.count(m) && c.modules.size() < 8) c.modules.push_back(m);

  // Earlier branches of the else-guards, read from the chain the site is in.
  std::vector<int> enclosing;
  for (int b = inner, depth = 0; b >= 0 && depth < 64; b = blocks_[b].parent, ++depth) enclosing.push_back(b);
  for (const auto& [g, test] : negated) {
    bool found = false;
    for (int b : enclosing) {
      if (found) break;
      if (blocks_[b].kind != kElif && blocks_[b].kind != kElse) continue;
      int steps = 0;
      for (int p = blocks_[b].chain_prev; p >= 0 && steps < (int)(2 * kMaxGuards + 2); p = blocks_[p].chain_prev, ++steps) {
        const Block& pb = blocks_[p];
        if (OneLine(t_.Span(pb.test_b, pb.test_e)) != test) continue;
        BranchInfo bi;
        bi.guard = g;
        bi.line = pb.start;
        bi.test = Clip(test, kMaxContextText);
        Summarize(pb, 0, &bi);
        c.branches.push_back(std::move(bi));
        found = true;
        break;
      }
    }
  }
  // The site's own branches: the if/elif/while blocks whose test is a positive guard.
  for (size_t g = first_guard; g < site.guards.size(); ++g) {
    const std::string& text = site.guards[g];
    if (StartsWith(text, "not (") || text.size() > 4096) continue;
    std::string want_test = OneLine(text);
    for (int b : enclosing) {
      const Block& bl = blocks_[b];
      if (bl.kind != kIf && bl.kind != kElif && bl.kind != kWhile) continue;
      if (OneLine(t_.Span(bl.test_b, bl.test_e)) != want_test) continue;
      BranchInfo bi;
      bi.guard = (int)g;
      bi.own = true;
      bi.line = bl.start;
      bi.test = Clip(want_test, kMaxContextText);
      Summarize(bl, site.line, &bi);
      if (!bi.sets.empty()) c.branches.push_back(std::move(bi));
      break;
    }
  }

  Exits(li, inner, &c);

  // Callers in this file: calls of the function's name (a constructor: the class's).
  std::string callee = c.def_name == "__init__" ? c.class_name : c.def_name;
  // Python calls a dunder method itself (`__post_init__`, `__call__`, `__enter__`);
  // a call of that name in the file is another class's (`super().__post_init__()` in
  // accelerate's FP8RecipeKwargs read as a caller of TorchTensorParallelConfig's).
  if (c.def_name != "__init__" && c.def_name.size() > 4 && StartsWith(c.def_name, "__") && EndsWith(c.def_name, "__"))
    callee.clear();
  if (!callee.empty()) {
    auto it = calls_.find(callee);
    if (it != calls_.end()) {
      int own_start = def >= 0 ? blocks_[def].start : 0, own_end = def >= 0 ? blocks_[def].end : 0;
      std::set<int> lines_seen;
      bool method = !c.class_name.empty() && c.def_name != "__init__" && !c.params.empty() &&
                    (c.params[0].name == "self" || c.params[0].name == "cls");
      for (uint32_t tok : it->second) {
        // A method is called as obj.name(...); a function or class by its bare name.
        bool dotted = tok > 0 && t_.IsOp1(tok - 1, '.');
        if (method != dotted) continue;
        int line = t_.line(tok);
        if (line >= own_start && line <= own_end) continue;  // recursion
        if (!lines_seen.insert(line).second) continue;
        if ((int)c.callers.size() < kMaxCallers) {
          int cl = LogLineAt(line);
          CallerInfo ci;
          ci.line = line;
          ci.scope = ScopeName(InnermostBlock(cl));
          if (cl >= 0) ci.call = Clip(OneLine(t_.Span(ll_[cl].first, ll_[cl].last)), kMaxContextText);
          c.callers.push_back(std::move(ci));
        }
      }
      c.callers_total = (int)lines_seen.size();
    }
  }
  return c;
}

}  // namespace errdex::doc
