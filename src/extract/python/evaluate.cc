// extract/python/evaluate.cc: phase 2 of the Python front end -- a message
// expression rebuilt as text with holes, by the rules of ../shared/tools/oracle_py.py
// (names through their assignments, calls, `%`, `.format`, f-strings, concatenation).
// See file_extractor.h for the other stages.
#include "extract/python/file_extractor.h"

#include <algorithm>
#include <cstring>

namespace errdex::pyx {

// ---------------------------------------------------------------------------
// Phase 2.

int FileExtractor::ParseAssignValue(const Assign& a) {
  if (a.node != -2) return a.node;
  size_t pos = a.vb;
  int n = parser_.ParseExpr(toks_.tokens, &pos, a.ve, true);
  a.node = (n >= 0 && pos == a.ve) ? n : -1;
  return a.node;
}

std::optional<Found> FileExtractor::Lookup(Eval& ev, const std::string& name, std::pair<int, int> pos) {
  int scope = ev.scope;
  bool first = true;
  while (scope >= 0) {
    const Scope& s = scopes_[static_cast<size_t>(scope)];
    if (s.kind == Scope::kClass && !first) {
      scope = s.parent;
      continue;
    }
    bool any = false;
    std::vector<const Assign*> usable;
    for (const auto& [an, a] : s.assigns) {
      if (an != name) continue;
      any = true;
      if (!first || std::make_pair(a.line, a.col) < pos) usable.push_back(&a);
    }
    if (any) {
      int base = -1;
      for (int i = static_cast<int>(usable.size()) - 1; i >= 0; --i)
        if (!usable[static_cast<size_t>(i)]->aug) {
          base = i;
          break;
        }
      if (base >= 0) {
        int n_plain = 0;
        for (const Assign* a : usable) n_plain += a->aug ? 0 : 1;
        Found f;
        f.chain.push_back(usable[static_cast<size_t>(base)]);
        for (size_t i = static_cast<size_t>(base) + 1; i < usable.size(); ++i)
          if (usable[i]->aug) f.chain.push_back(usable[i]);
        if (!f.chain[0]->has_value) return std::nullopt;
        // Bound in several branches of an if: each binding is a possible message.
        if (f.chain.size() == 1 && s.kind == Scope::kFunction) {
          const Assign* cur = f.chain[0];
          bool sibling = false;
          for (int i = base - 1; i >= 0 && f.branches.size() + 1 < py::kMaxAlternatives; --i) {
            const Assign* a = usable[static_cast<size_t>(i)];
            if (a->aug) break;
            Branching b = BranchingOf(*a, *cur, pos);
            if (b == Branching::kNone) break;
            f.branches.push_back(a);
            cur = a;
            sibling = sibling || b == Branching::kSibling;
            if (b == Branching::kOverridden) break;
          }
          // The earliest binding sits in a branch of an if that ended by the use, and
          // no other branch of it binds the name: past that if, the parameter's own
          // value still flows (an exception's __init__ that decorates `msg` only when
          // it knows a position).
          if (!sibling && s.HasParam(name)) {
            IfPlace place = PlaceInIf(f.branches.empty() ? *f.chain[0] : *f.branches.back(), pos);
            f.param_other_path = place.header >= 0 && place.ended;
          }
        }
        f.kind = s.kind == Scope::kModule ? "module-constant" : "variable";
        if (n_plain > 1) f.flags += "-multi";
        if (f.chain.size() > 1) f.flags += "+aug";
        f.apos = {f.chain[0]->line, f.chain[0]->col};
        return f;
      }
      if (s.kind == Scope::kFunction) return std::nullopt;
    }
    if (s.kind == Scope::kFunction && s.HasParam(name)) return std::nullopt;
    first = false;
    scope = s.parent;
  }
  return std::nullopt;
}

// The logical lines BranchingOf and InEndedIfBranch read: `a`'s, the header of its
// block (an if/elif/else, else -1), and whether that if has ended by the use.
FileExtractor::IfPlace FileExtractor::PlaceInIf(const Assign& a, std::pair<int, int> use) const {
  const std::vector<py::LogicalLine>& L = toks_.lines;
  const std::vector<py::Token>& T = toks_.tokens;
  IfPlace out;
  out.line = LineOf(a);
  if (out.line < 0) return out;
  // The logical line of the use: the last one starting at or before it.
  auto after_use = std::upper_bound(L.begin(), L.end(), use, [&](std::pair<int, int> p, const py::LogicalLine& x) {
    return p < std::make_pair(static_cast<int>(T[x.first].line), static_cast<int>(T[x.first].col));
  });
  int u = static_cast<int>(after_use - L.begin()) - 1;
  if (u <= out.line) return out;
  int lh = HeaderOf(out.line);
  if (lh < 0 || !(StartsWithWord(lh, "if") || StartsWithWord(lh, "elif") || StartsWithWord(lh, "else"))) return out;
  out.header = lh;
  // Used inside a branch of that if, the name holds that branch's text only: the if
  // must end (a line at its indentation that continues no branch, or less) by the use.
  for (int i = out.line + 1; i <= u && !out.ended; ++i)
    out.ended = Indent(i) < Indent(lh) ||
                (Indent(i) == Indent(lh) && !StartsWithWord(i, "elif") && !StartsWithWord(i, "else"));
  return out;
}

// The logical line whose first token is the assignment's (line, col); -1 if none.
int FileExtractor::LineOf(const Assign& a) const {
  const std::vector<py::LogicalLine>& L = toks_.lines;
  const std::vector<py::Token>& T = toks_.tokens;
  auto it = std::lower_bound(L.begin(), L.end(), a.line,
                             [&](const py::LogicalLine& l, int line) { return T[l.first].line < line; });
  for (; it != L.end() && T[it->first].line == a.line; ++it)
    if (T[it->first].col == a.col) return static_cast<int>(it - L.begin());
  return -1;
}

int FileExtractor::Indent(int i) const { return toks_.lines[static_cast<size_t>(i)].indent; }

bool FileExtractor::StartsWithWord(int i, std::string_view word) const {
  return py::TokenText(text_, toks_.tokens[toks_.lines[static_cast<size_t>(i)].first]) == word;
}

// The header of line i's block: the nearest line before it that is indented less.
int FileExtractor::HeaderOf(int i) const {
  int j = i - 1;
  while (j >= 0 && Indent(j) >= Indent(i)) --j;
  return j;
}

FileExtractor::Branching FileExtractor::BranchingOf(const Assign& earlier, const Assign& later,
                                                    std::pair<int, int> use) const {
  IfPlace place = PlaceInIf(later, use);
  int e = LineOf(earlier), l = place.line, lh = place.header;
  if (e < 0 || l <= e || lh < 0 || !place.ended) return Branching::kNone;
  if (Indent(e) == Indent(l)) {
    // Siblings: earlier's block header is an if/elif at the if's indentation k, and
    // every line between them at k continues that if (elif/else).
    int eh = HeaderOf(e);
    if (eh < 0 || !(StartsWithWord(eh, "if") || StartsWithWord(eh, "elif"))) return Branching::kNone;
    int k = Indent(eh);
    if (Indent(lh) != k || lh <= e) return Branching::kNone;
    for (int i = e + 1; i < l; ++i) {
      if (Indent(i) < k) return Branching::kNone;
      if (Indent(i) == k && !StartsWithWord(i, "elif") && !StartsWithWord(i, "else")) return Branching::kNone;
    }
    return Branching::kSibling;
  }
  // Overridden: earlier is at the if's level or outside it, before the if.
  int first_header = lh;
  while (first_header >= 0 && (StartsWithWord(first_header, "elif") || StartsWithWord(first_header, "else"))) {
    int j = first_header - 1;
    while (j >= 0 && Indent(j) != Indent(first_header)) --j;
    first_header = j;
  }
  if (first_header <= e || Indent(e) > Indent(first_header)) return Branching::kNone;
  return Branching::kOverridden;
}

std::string FileExtractor::FvText(int fv) const {
  const Node& n = parser_.node(fv);
  std::string t = HoleText(n.kids[0]);
  if (n.conv) {
    t.push_back('!');
    t.push_back(n.conv);
  }
  if (n.spec >= 0) {
    t.push_back(':');
    for (int k : parser_.node(n.spec).kids) {
      const Node& p = parser_.node(k);
      if (p.kind == NodeKind::kStr) t += p.str;
      else if (p.kind == NodeKind::kFormatted) t += "{" + FvText(k) + "}";
    }
  }
  return t;
}

Segs FileExtractor::EvOrHole(Eval& ev, int node, int depth, std::pair<int, int> pos) {
  MaybeSegs r = Ev(ev, node, depth, pos);
  if (r) return std::move(*r);
  return Segs{Seg::Hole(HoleText(node))};
}

MaybeSegs FileExtractor::Ev(Eval& ev, int node, int depth, std::pair<int, int> pos) {
  if (depth > kMaxEvalDepth || node < 0) return std::nullopt;
  const Node& n = parser_.node(node);
  switch (n.kind) {
    case NodeKind::kStr:
      return Segs{Seg::Lit(n.str)};
    case NodeKind::kJoinedStr: {
      Segs out;
      const std::vector<int> kids = n.kids;  // (a copy: evaluating a binding may grow the arena)
      for (int k : kids) {
        const Node& p = parser_.node(k);
        if (p.kind == NodeKind::kStr) {
          out.push_back(Seg::Lit(p.str));
          continue;
        }
        // `f"{msg} (at {pos})"` in a function whose `msg` a call binds (EvReturns,
        // BindFactory): the caller's text, when the value is printed as is.
        const Binding* bound = nullptr;
        if (ev.bindings && !p.conv && p.spec < 0 && parser_.node(p.kids[0]).kind == NodeKind::kName)
          for (const Binding& b : *ev.bindings)
            if (b.name == parser_.node(p.kids[0]).str) bound = &b;
        if (!bound) {
          out.push_back(Seg::Hole(FvText(k)));
          continue;
        }
        Eval caller{bound->scope, bound->pos};
        MaybeSegs v = Ev(caller, bound->node, depth + 1, bound->pos);
        if (v) out.insert(out.end(), std::make_move_iterator(v->begin()), std::make_move_iterator(v->end()));
        else out.push_back(Seg::Hole(HoleText(bound->node)));
      }
      return out;
    }
    case NodeKind::kBinOp: {
      int l = n.kids[0], r = n.kids[1];
      if (n.str == "+") {
        MaybeSegs left = Ev(ev, l, depth + 1, pos);
        MaybeSegs right = Ev(ev, r, depth + 1, pos);
        if (!left && !right) return std::nullopt;
        Segs out = left ? std::move(*left) : Segs{Seg::Hole(HoleText(l))};
        Segs rs = right ? std::move(*right) : Segs{Seg::Hole(HoleText(r))};
        out.insert(out.end(), rs.begin(), rs.end());
        return out;
      }
      if (n.str == "%") {
        MaybeSegs left = EvTemplate(ev, l, depth + 1, pos);
        if (!left) return std::nullopt;
        return py::PerAlt(*left, [&](const Segs& s) { return ApplyPercentRight(s, r); });
      }
      return std::nullopt;
    }
    case NodeKind::kName: {
      if (ev.bindings)
        for (const Binding& b : *ev.bindings)
          if (b.name == n.str) {
            Eval caller{b.scope, b.pos};  // the argument, in the caller's scope
            MaybeSegs v = Ev(caller, b.node, depth + 1, b.pos);
            return v ? v : Segs{Seg::Hole(HoleText(b.node))};
          }
      const std::string name_read = n.str;  // (copy: evaluation below grows the node arena)
      std::optional<Found> f = Lookup(ev, name_read, pos);
      if (!f) {
        // A parameter of the function the message is built in: what its callers pass,
        // or its default when they leave it out.
        const Scope& fs = scopes_[static_cast<size_t>(ev.scope)];
        if (fs.kind != Scope::kFunction || !fs.HasParam(n.str) || fs.Binds(n.str)) return std::nullopt;
        std::string name = n.str;  // (copy: evaluation grows the node arena)
        // Only for the message as a whole (`raise X(message)`): a parameter inside a
        // larger text is a value, which callers elsewhere pass differently.
        if (!whole_message_ || depth != 0 || following_callers_) return std::nullopt;
        bool open = false;
        MaybeSegs from_callers = CallerMessages(ev.scope, name, depth, &open);
        if (from_callers) {
          ev.flags += open ? "+callers+open" : "+callers";
          return from_callers;
        }
        return ParamDefaultText(ev, name, depth);
      }
      Segs out;
      for (size_t i = 0; i < f->chain.size(); ++i) {
        int v = ParseAssignValue(*f->chain[i]);
        MaybeSegs r = v >= 0 ? Ev(ev, v, depth + 1, f->apos) : std::nullopt;
        if (!r) {
          if (i == 0) return std::nullopt;
          r = Segs{Seg::Hole(v >= 0 ? HoleText(v) : std::string())};
        }
        if (i > 0) {
          // `msg += "..."` is most often conditional (`if c: msg += ...`): the part it
          // adds is optional in the pattern. Past the oracle (messageResolution "+aug",
          // tolerated by tests/diff/diff_oracle.py).
          Seg alt;
          alt.type = Seg::kAlt;
          alt.options.push_back(std::move(*r));
          alt.options.push_back(Segs{});
          out.push_back(std::move(alt));
          continue;
        }
        out.insert(out.end(), r->begin(), r->end());
      }
      if (!f->branches.empty()) {
        // The other branches' texts, in source order, beside this one. Past the oracle
        // (messageResolution "+branches", tolerated by tests/diff/diff_oracle.py); a
        // branch with no literal text (`e = ""`, `e = str(x)`) would match anything.
        Seg alt;
        alt.type = Seg::kAlt;
        for (auto it = f->branches.rbegin(); it != f->branches.rend(); ++it) {
          int v = ParseAssignValue(**it);
          MaybeSegs r = v >= 0 ? Ev(ev, v, depth + 1, {(*it)->line, (*it)->col}) : std::nullopt;
          if (r && py::HasLiteral(*r)) alt.options.push_back(std::move(*r));
        }
        if (!alt.options.empty() && py::HasLiteral(out)) {
          alt.options.push_back(std::move(out));
          out = Segs{std::move(alt)};
          if (ev.flags.find("+branches") == std::string::npos) ev.flags += "+branches";
        }
      }
      if (f->param_other_path && collect_classes_ && py::HasLiteral(out)) {
        // A class's template (its __init__): the argument as given is the other
        // alternative; each raise binds it to its own text. Listed last: a pattern's
        // alternation tries its options in order, and the decorated text says more.
        Seg alt;
        alt.type = Seg::kAlt;
        alt.options.push_back(std::move(out));
        alt.options.push_back(Segs{Seg::Hole(name_read)});
        out = Segs{std::move(alt)};
        if (ev.flags.find("+branches") == std::string::npos) ev.flags += "+branches";
      }
      if (ev.resolution == "literal" || std::string_view(f->kind) == "variable") ev.resolution = f->kind;
      for (const char* fl : {"-multi", "+aug"})
        if (f->flags.find(fl) != std::string::npos && ev.flags.find(fl) == std::string::npos) ev.flags += fl;
      return out;
    }
    case NodeKind::kCall:
      return EvCall(ev, node, depth, pos);
    case NodeKind::kStarred: {
      // `raise AssertionError(*args)` in `def assert_(cond, *args)` (wsgiref): the one
      // argument each caller passes past the named ones is the message.
      const Node& inner = parser_.node(n.kids[0]);
      if (inner.kind != NodeKind::kName || !whole_message_ || depth != 0 || following_callers_) return std::nullopt;
      const Scope& fs = scopes_[static_cast<size_t>(ev.scope)];
      std::string name = inner.str;  // (copy: evaluation grows the node arena)
      if (fs.kind != Scope::kFunction || fs.Binds(name) ||
          std::find(fs.star_params.begin(), fs.star_params.end(), name) == fs.star_params.end())
        return std::nullopt;
      bool open = false;
      MaybeSegs from_callers = CallerMessages(ev.scope, name, depth, &open);
      if (from_callers) ev.flags += open ? "+callers+open" : "+callers";
      return from_callers;
    }
    case NodeKind::kIfExp: {
      // (copies: evaluation may parse assignments and grow the node arena)
      const int body = n.kids[0], orelse = n.kids[2];
      MaybeSegs a = Ev(ev, body, depth + 1, pos);
      MaybeSegs b = Ev(ev, orelse, depth + 1, pos);
      if (!a && !b) return std::nullopt;
      Seg alt;
      alt.type = Seg::kAlt;
      alt.options.push_back(a ? std::move(*a) : Segs{Seg::Hole(HoleText(body))});
      alt.options.push_back(b ? std::move(*b) : Segs{Seg::Hole(HoleText(orelse))});
      return Segs{std::move(alt)};
    }
    default:
      return std::nullopt;
  }
}

std::vector<int> FileExtractor::Args(int call) const {
  std::vector<int> out;
  const Node& n = parser_.node(call);
  for (size_t k = 1; k < n.kids.size(); ++k)
    if (parser_.node(n.kids[k]).kind != NodeKind::kKeyword) out.push_back(n.kids[k]);
  return out;
}
std::vector<int> FileExtractor::Keywords(int call) const {
  std::vector<int> out;
  const Node& n = parser_.node(call);
  for (size_t k = 1; k < n.kids.size(); ++k)
    if (parser_.node(n.kids[k]).kind == NodeKind::kKeyword) out.push_back(n.kids[k]);
  return out;
}

// textwrap.dedent(x) / inspect.cleandoc(x), called qualified or imported bare.
MaybeSegs FileExtractor::EvTextFunction(Eval& ev, const std::vector<int>& args, bool no_kw, bool dedent, int depth,
                                        std::pair<int, int> pos) {
  if (args.size() != 1 || !no_kw || parser_.node(args[0]).kind == NodeKind::kStarred) return std::nullopt;
  MaybeSegs base = Ev(ev, args[0], depth + 1, pos);
  if (!base) return std::nullopt;
  return py::PerAlt(*base, [&](const Segs& s) -> MaybeSegs {
    return py::MapText(s, [&](const std::string& t) { return dedent ? py::TextwrapDedent(t) : py::InspectCleandoc(t); });
  });
}

MaybeSegs FileExtractor::EvCall(Eval& ev, int node, int depth, std::pair<int, int> pos) {
  // Copies, not references: evaluation may parse assignments and grow the arena.
  const int f = parser_.node(node).kids[0];
  const NodeKind fkind = parser_.node(f).kind;
  const std::string fstr = parser_.node(f).str;
  const size_t n_kids = parser_.node(node).kids.size();
  std::vector<int> args = Args(node);
  bool no_kw = Keywords(node).empty();
  if (fkind == NodeKind::kAttribute) {
    const std::string& attr = fstr;
    int base_node = parser_.node(f).kids[0];
    if (attr == "format") {
      MaybeSegs base = EvTemplate(ev, base_node, depth + 1, pos);
      if (!base) return std::nullopt;
      return py::PerAlt(*base, [&](const Segs& s) { return ApplyFormat(s, node); });
    }
    if (attr == "join" && args.size() == 1 && no_kw && n_kids == 2) {
      MaybeSegs sep = Ev(ev, base_node, depth + 1, pos);
      if (!sep) return std::nullopt;
      std::string sep_s;
      for (const Seg& s : *sep) {
        if (s.type != Seg::kLit) return std::nullopt;
        sep_s += s.text;
      }
      const NodeKind it_kind = parser_.node(args[0]).kind;
      if (it_kind == NodeKind::kList || it_kind == NodeKind::kTuple) {
        const std::vector<int> elts = parser_.node(args[0]).kids;
        for (int k : elts)
          if (parser_.node(k).kind == NodeKind::kStarred) return std::nullopt;
        Segs out;
        for (size_t i = 0; i < elts.size(); ++i) {
          if (i) out.push_back(Seg::Lit(sep_s));
          Segs e = EvOrHole(ev, elts[i], depth + 1, pos);
          out.insert(out.end(), e.begin(), e.end());
        }
        return out;
      }
      return std::nullopt;
    }
    if ((attr == "strip" || attr == "lstrip" || attr == "rstrip") && args.empty() && no_kw) {
      MaybeSegs base = Ev(ev, base_node, depth + 1, pos);
      if (!base) return std::nullopt;
      bool l = attr != "rstrip", r = attr != "lstrip";
      return py::PerAlt(*base, [&](const Segs& s) -> MaybeSegs {
        return py::MapText(s, [&](const std::string& t) { return py::PyStrip(t, l, r); });
      });
    }
    if (attr == "replace" && args.size() == 2 && no_kw && parser_.node(args[0]).kind == NodeKind::kStr &&
        parser_.node(args[1]).kind == NodeKind::kStr) {
      MaybeSegs base = Ev(ev, base_node, depth + 1, pos);
      if (!base) return std::nullopt;
      std::string a = parser_.node(args[0]).str, b = parser_.node(args[1]).str;
      return py::PerAlt(*base, [&](const Segs& s) -> MaybeSegs {
        return py::MapText(s, [&](const std::string& t) { return py::ReplaceAll(t, a, b); });
      });
    }
    if ((attr == "dedent" || attr == "cleandoc") && parser_.node(base_node).kind == NodeKind::kName &&
        (parser_.node(base_node).str == "textwrap" || parser_.node(base_node).str == "inspect")) {
      return EvTextFunction(ev, args, no_kw, attr == "dedent", depth, pos);
    }
    return EvReturns(ev, node, depth, pos);
  }
  if (fkind == NodeKind::kName && (fstr == "dedent" || fstr == "cleandoc")) {
    return EvTextFunction(ev, args, no_kw, fstr == "dedent", depth, pos);
  }
  // gettext: _('option -%s not recognized') is its literal; ngettext(singular,
  // plural, n) either of the two.
  bool gettext_call = fkind == NodeKind::kName && (fstr == "_" || fstr == "gettext" || fstr == "gettext_lazy" ||
                                                   fstr == "ugettext" || fstr == "lazy_gettext" || fstr == "N_");
  if (fkind == NodeKind::kAttribute && fstr == "gettext") gettext_call = true;
  if (gettext_call && args.size() == 1 && no_kw && parser_.node(args[0]).kind == NodeKind::kStr) {
    gettext_ = true;
    return Segs{Seg::Lit(parser_.node(args[0]).str)};
  }
  bool ngettext_call = (fkind == NodeKind::kName || fkind == NodeKind::kAttribute) && fstr == "ngettext";
  if (ngettext_call && args.size() == 3 && parser_.node(args[0]).kind == NodeKind::kStr &&
      parser_.node(args[1]).kind == NodeKind::kStr) {
    gettext_ = true;
    Seg alt;
    alt.type = Seg::kAlt;
    alt.options.push_back(Segs{Seg::Lit(parser_.node(args[0]).str)});
    alt.options.push_back(Segs{Seg::Lit(parser_.node(args[1]).str)});
    return Segs{std::move(alt)};
  }
  if (fkind == NodeKind::kName) return EvReturns(ev, node, depth, pos);
  return std::nullopt;
}

MaybeSegs FileExtractor::ApplyPercentRight(const Segs& segs, int right) {
  const Node& r = parser_.node(right);
  if (r.kind == NodeKind::kTuple) {
    for (int k : r.kids)
      if (parser_.node(k).kind == NodeKind::kStarred) return ApplyPercent(segs, {}, nullptr, true);
    return ApplyPercent(segs, r.kids, nullptr, false);
  }
  if (r.kind == NodeKind::kDict) return ApplyPercent(segs, {}, &r.kids, false);
  // a single non-tuple argument with several conversions is really a tuple variable
  int n_conv = 0;
  for (const Seg& s : segs) {
    if (s.type != Seg::kLit) continue;
    for (size_t i = 0; i < s.text.size(); ++i) {
      if (s.text[i] != '%') continue;
      py::PercentSpec m = py::MatchPercent(s.text, i);
      if (m.end == 0) continue;
      if (m.conv != '%') ++n_conv;
      i = m.end - 1;
    }
  }
  if (n_conv > 1) return ApplyPercent(segs, {}, nullptr, true);
  return ApplyPercent(segs, {right}, nullptr, false);
}

MaybeSegs FileExtractor::ApplyPercent(const Segs& segs, const std::vector<int>& positional, const std::vector<int>* dict,
                                      bool unknown_tuple) {
  size_t idx = 0;
  Segs out;
  for (const Seg& s : segs) {
    if (s.type == Seg::kHole) {
      out.push_back(s);
      continue;
    }
    const std::string& t = s.text;
    size_t last = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '%') continue;
      py::PercentSpec m = py::MatchPercent(t, i);
      if (m.end == 0) continue;
      out.push_back(Seg::Lit(t.substr(last, i - last)));
      last = m.end;
      size_t mend = m.end;
      if (m.conv == '%') {
        out.push_back(Seg::Lit("%"));
        i = mend - 1;
        continue;
      }
      if (m.has_name) {
        int arg = -1;
        if (dict != nullptr) {
          for (size_t k = 0; k + 1 < dict->size(); k += 2) {
            int key = (*dict)[k];
            if (key >= 0 && parser_.node(key).kind == NodeKind::kStr && parser_.node(key).str == m.name)
              arg = (*dict)[k + 1];
          }
        }
        out.push_back(Seg::Hole(arg < 0 ? m.name : HoleText(arg)));
        i = mend - 1;
        continue;
      }
      int arg = -1;
      if (!unknown_tuple && dict == nullptr && idx < positional.size()) arg = positional[idx];
      ++idx;
      std::optional<std::string> lit;
      if (arg >= 0 && mend == i + 2) lit = LiteralArg(arg, t[i + 1] == 'r' ? 'r' : t[i + 1] == 's' || t[i + 1] == 'd' ? 0 : '?', "");
      if (lit) {
        out.push_back(Seg::Lit(*lit));
      } else {
        std::string hole = arg < 0 ? std::string() : HoleText(arg);
        // A class template keeps the conversion: a literal bound there later is repr'd.
        if (collect_classes_ && arg >= 0 && mend == i + 2 && t[i + 1] == 'r') hole += "!r";
        out.push_back(Seg::Hole(std::move(hole)));
      }
      i = mend - 1;
    }
    out.push_back(Seg::Lit(t.substr(last)));
  }
  return out;
}

MaybeSegs FileExtractor::ApplyFormat(const Segs& segs, int call) {
  std::vector<int> args;
  std::vector<std::pair<std::string, int>> kws;
  bool star = false;
  if (call >= 0) {
    args = Args(call);
    for (int a : args) star |= parser_.node(a).kind == NodeKind::kStarred;
    for (int k : Keywords(call)) {
      const Node& kn = parser_.node(k);
      if (!kn.str.empty()) kws.emplace_back(kn.str, kn.kids[0]);
    }
  }
  size_t autoi = 0;
  Segs out;
  for (const Seg& s : segs) {
    if (s.type == Seg::kHole) {
      out.push_back(s);
      continue;
    }
    auto parsed = py::ParseFormatString(s.text);
    if (!parsed) return std::nullopt;
    for (const py::FormatPiece& p : *parsed) {
      if (!p.literal.empty()) out.push_back(Seg::Lit(p.literal));
      if (!p.has_field) continue;
      size_t cut = p.field.find_first_of(".[");
      std::string head = p.field.substr(0, cut);
      std::string rest = cut == std::string::npos ? std::string() : p.field.substr(cut);
      int expr = -1;
      if (head.empty()) {
        if (!star && autoi < args.size()) expr = args[autoi];
        ++autoi;
      } else if (std::all_of(head.begin(), head.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        size_t i = head.size() > 9 ? SIZE_MAX : std::stoul(head);
        if (!star && i < args.size()) expr = args[i];
      } else {
        for (auto& kv : kws)
          if (kv.first == head) expr = kv.second;
      }
      if (expr >= 0 && rest.empty()) {
        if (std::optional<std::string> lit = LiteralArg(expr, p.conv, p.spec)) {
          out.push_back(Seg::Lit(*lit));
          continue;
        }
      }
      std::string text = expr >= 0 ? HoleText(expr) + rest : p.field;
      if (p.conv) {
        text.push_back('!');
        text.push_back(p.conv);
      }
      if (!p.spec.empty()) text += ":" + p.spec;
      out.push_back(Seg::Hole(std::move(text)));
    }
  }
  return out;
}

std::optional<std::string> FileExtractor::LiteralArg(int node, char conv, std::string_view spec) {
  if (!spec.empty() || (conv != 0 && conv != 'r' && conv != 's')) return std::nullopt;
  const Node& n = parser_.node(node);
  std::optional<std::string> out;
  if (n.kind == NodeKind::kStr) out = conv == 'r' ? py::PyRepr(n.str) : n.str;
  else if (n.kind == NodeKind::kNumber && conv != 'r') out = std::string(parser_.Seg(node));
  if (out) literal_args_ = true;
  return out;
}

std::string FileExtractor::LastName(int node) const {
  if (node < 0) return std::string();
  const Node& n = parser_.node(node);
  if (n.kind == NodeKind::kName || n.kind == NodeKind::kAttribute) return n.str;
  return std::string();
}

// A template a parameter defaults to (`def _deprecated(name, message=_DEPRECATED_MSG,
// ...)`, then `message.format(name=name, ...)`): the text callers get when they
// leave it out -- callers in other files are not read, so the site's message is
// open ("+default+open": the class alone may still point at it). Only a default
// with literal text in it; evaluated where the def stands.
MaybeSegs FileExtractor::EvTemplate(Eval& ev, int node, int depth, std::pair<int, int> pos) {
  MaybeSegs v = Ev(ev, node, depth, pos);
  if (v) return v;
  const Node& n = parser_.node(node);
  if (n.kind != NodeKind::kName) return std::nullopt;
  const Scope& fs = scopes_[static_cast<size_t>(ev.scope)];
  if (fs.kind != Scope::kFunction || !fs.HasParam(n.str) || fs.Binds(n.str)) return std::nullopt;
  std::string name = n.str;  // (copy: evaluation grows the node arena)
  return ParamDefaultText(ev, name, depth);
}

MaybeSegs FileExtractor::ParamDefaultText(Eval& ev, const std::string& name, int depth) {
  const Scope& fs = scopes_[static_cast<size_t>(ev.scope)];
  std::pair<uint32_t, uint32_t> range{0, 0};
  for (const auto& [param, r] : fs.param_defaults)
    if (param == name) range = r;
  if (range.second <= range.first || fs.parent < 0) return std::nullopt;
  size_t pos = range.first;
  int value = parser_.ParseExpr(toks_.tokens, &pos, range.second, true);
  if (value < 0 || pos != range.second) return std::nullopt;
  const Token& at = toks_.tokens[range.first];
  Eval outer{fs.parent, {at.line, at.col}};
  MaybeSegs v = Ev(outer, value, depth + 1, {at.line, at.col});
  const bool literal = v && std::any_of(v->begin(), v->end(), [](const Seg& g) {
    return g.type != Seg::kHole && !(g.type == Seg::kLit && g.text.empty());
  });
  if (!literal) return std::nullopt;
  if (ev.flags.find("+default") == std::string::npos) ev.flags += "+default+open";
  return v;
}

std::optional<std::string> FileExtractor::ParamDefaultClass(const std::string& name, int scope) const {
  while (scope >= 0) {
    const Scope& s = scopes_[static_cast<size_t>(scope)];
    if (s.kind == Scope::kFunction && (s.HasParam(name) || s.Binds(name))) {
      if (s.Binds(name)) return std::nullopt;  // reassigned: the default may not be what is raised
      for (const auto& [param, cls] : s.class_defaults)
        if (param == name) return std::string(cls);
      return std::nullopt;
    }
    scope = s.parent;
  }
  return std::nullopt;
}

bool FileExtractor::LocallyBound(const std::string& name, int scope) const {
  while (scope >= 0) {
    const Scope& s = scopes_[static_cast<size_t>(scope)];
    if (s.kind == Scope::kFunction && (s.HasParam(name) || s.Binds(name))) return true;
    scope = s.parent;
  }
  return false;
}

int FileExtractor::PickMessageArg(int call, int idx, std::initializer_list<const char*> kws) const {
  std::vector<int> args = Args(call);
  for (size_t i = 0; i < args.size(); ++i) {
    if (parser_.node(args[i]).kind == NodeKind::kStarred) return -1;
    if (static_cast<int>(i) == idx) return args[i];
  }
  std::vector<int> kw = Keywords(call);
  for (const char* k : kws)
    for (int x : kw)
      if (parser_.node(x).str == k) return parser_.node(x).kids[0];
  return -1;
}

}  // namespace errdex::pyx
