// check/interp.cc: statements, control flow, calls and verdicts (see interp.h);
// expressions are in eval.cc.
//
// Reachability. State::alive says whether execution surely (kSure), maybe
// (kMaybe) or never (kDead) reaches the current statement, for the program run
// as a whole. A branch whose test is unknown runs both sides on copies with
// alive unchanged -- the uncertainty is on path_ (a PathStep with truth
// kUnknown) -- and the join after it lowers alive to kMaybe only when a side
// left the function (return, break) so that what follows may be skipped. A
// site is WILL when alive is kSure, every step on path_ is decided, the
// program cannot have exited before (may_exit), and no handler may catch it.
//
// Tested by interp_test.cc and tests/check/.
#include "check/interp.h"

#include <algorithm>
#include <functional>

namespace errdex::check {

namespace {

Alive Min(Alive a, Alive b) { return (uint8_t)a < (uint8_t)b ? a : b; }

void AddUnique(std::vector<Unknown>& into, const std::vector<Unknown>& from) {
  for (const auto& w : from)
    if (into.size() < 8 && std::find(into.begin(), into.end(), w) == into.end()) into.push_back(w);
}
void AddUnique(std::vector<std::string>& into, const std::vector<std::string>& from) {
  for (const auto& f : from)
    if (std::find(into.begin(), into.end(), f) == into.end()) into.push_back(f);
}

}  // namespace

Interpreter::Interpreter(ProgramIndex& index, std::map<std::string, Val> settings, std::map<std::string, std::string> env)
    : ix_(index), env_(std::move(env)) {
  initial_settings_ = settings;
  for (const auto& [dest, v] : initial_settings_.map())
    if (!v.from.empty()) dest_flag_[dest] = v.from[0];
}

std::string Interpreter::Where(const Frame& fr, int line) const {
  if (fr.file < 0) return "?";
  return ix_.path(fr.file) + ":" + std::to_string(line);
}

Interpreter::State Interpreter::Branch(const State& st) const { return st; }

void Interpreter::JoinMaps(CowMap& into, const CowMap& other) {
  if (into.Shares(other)) return;
  // Only the entries that differ are written (and only then is the map copied).
  std::vector<std::pair<std::string, Val>> changes;
  const CowMap::Map& a = into.map();
  for (const auto& [k, v] : other.map()) {
    auto it = a.find(k);
    if (it == a.end()) changes.emplace_back(k, v);  // bound on one side only: reading it on the other raises
    else if (!SameVal(it->second, v) || it->second.from != v.from) changes.emplace_back(k, Join(it->second, v));
  }
  if (changes.empty()) return;
  CowMap::Map& m = into.Mut();
  for (auto& [k, v] : changes) m[k] = std::move(v);
}

void Interpreter::JoinInto(State& into, const State& a, const State& b, Alive before) const {
  if (a.alive == Alive::kDead && b.alive == Alive::kDead) {
    into = a;
    into.exited = a.exited && b.exited;
    into.may_exit = a.may_exit || b.may_exit || a.exited || b.exited;
    return;
  }
  const State& live = a.alive == Alive::kDead ? b : a;
  const State& other = a.alive == Alive::kDead ? a : b;
  State r = live;
  if (other.alive != Alive::kDead) {
    JoinMaps(r.locals, other.locals);
    JoinMaps(r.heap, other.heap);
    r.alive = (a.alive == before && b.alive == before) ? before : Min(Min(a.alive, b.alive), Alive::kMaybe);
    AddUnique(r.maybe_why, other.maybe_why);
    r.may_exit = a.may_exit || b.may_exit;
  } else {
    // One side left (return/break/exit): what follows runs only when the other side was taken.
    r.alive = Min(live.alive, Alive::kMaybe);
    if (other.exited) r.may_exit = true;
    r.may_exit = r.may_exit || other.may_exit;
  }
  r.exited = false;
  into = std::move(r);
}

void Interpreter::ExecBody(const Cx& body, State& st, Frame& fr) {
  for (const Cx& s : body.kids) {
    if (st.alive == Alive::kDead) return;
    if (++steps_ > kMaxSteps) {
      st.alive = Alive::kDead;  // budget exhausted: what was not reached goes to the detached pass
      return;
    }
    Exec(s, st, fr);
  }
}

void Interpreter::Exec(const Cx& s, State& st, Frame& fr) {
  int line = s.Line();
  switch (s.head) {
    case Head::kAssign: {
      if (s.kids.size() < 3) return;
      Val v = Eval(s.kids.back(), st, fr);
      for (size_t k = 1; k + 1 < s.kids.size(); ++k) Assign(s.kids[k], v, st, fr);
      return;
    }
    case Head::kAug: {
      if (s.kids.size() < 3) return;
      Cx bin = Cx::List(Head::kBin, {s.kids[1], s.kids[2]});
      bin.text = s.text;
      Val v = Eval(bin, st, fr);
      Assign(s.kids[1], v, st, fr);
      return;
    }
    case Head::kExpr:
      if (s.kids.size() >= 2) Eval(s.kids[1], st, fr);
      return;
    case Head::kRet: {
      Val v = s.kids.size() >= 2 ? Eval(s.kids[1], st, fr) : Val::Of(PyVal::None());
      if (st.alive == Alive::kDead) return;
      fr.returns.push_back(std::move(v));
      fr.return_states.push_back(st);
      st.alive = Alive::kDead;
      return;
    }
    case Head::kRaise: {
      int site = s.kids.size() >= 2 && s.kids[1].atom == AtomKind::kInt ? (int)s.kids[1].i : -1;
      std::string cls;
      if (site >= 0 && fr.file >= 0 && site < (int)ix_.file(fr.file).sites.size())
        cls = ix_.file(fr.file).sites[(size_t)site].error_class;
      else if (s.kids.size() >= 3)
        cls = Unparse(s.kids[2], 80);
      SiteReached(site, cls, line, st, fr, nullptr);
      return;
    }
    case Head::kAssert: {
      if (!assertions_ || s.kids.size() < 3) return;
      int site = s.kids[1].atom == AtomKind::kInt ? (int)s.kids[1].i : -1;
      PathStep step;
      step.where = Where(fr, line);
      step.text = "not (" + Unparse(s.kids[2]) + ")";
      Tri t = Truth(s.kids[2], st, fr, &step);
      if (t == Tri::kTrue || st.alive == Alive::kDead) return;
      step.truth = t == Tri::kFalse ? Tri::kTrue : Tri::kUnknown;
      SiteReached(site, "AssertionError", line, st, fr, &step);
      return;
    }
    case Head::kBreak:
    case Head::kContinue:
      if (fr.breaks.empty()) return;
      (s.head == Head::kBreak ? fr.breaks : fr.continues).back().push_back(st);
      st.alive = Alive::kDead;
      return;
    case Head::kIf: ExecIf(s, st, fr); return;
    case Head::kWhile:
    case Head::kFor: ExecLoop(s, st, fr); return;
    case Head::kTry: ExecTry(s, st, fr); return;
    case Head::kWith:
      if (s.kids.size() >= 2) ExecBody(s.kids[1], st, fr);
      return;
    case Head::kBlock: {
      // Statements that may or may not run (match/case, nesting past the builder's limit).
      if (s.kids.size() >= 3) {  // contents dropped: locals can hold anything after it
        for (auto& [k, v] : st.locals.Mut()) v = Val::Unknow("run-time value", k);
      }
      if (s.kids.size() < 2) return;
      Alive before = st.alive;
      State a = Branch(st);
      PathStep step;
      step.truth = Tri::kUnknown;
      step.where = Where(fr, line);
      step.text = "a match/case branch";
      step.why.push_back({"run-time value", "match/case at " + step.where});
      path_.push_back(step);
      ExecBody(s.kids[1], a, fr);
      path_.pop_back();
      State skip = st;
      JoinInto(st, a, skip, before);
      return;
    }
    default: return;
  }
}

void Interpreter::ExecIf(const Cx& s, State& st, Frame& fr) {
  if (s.kids.size() < 4) return;
  PathStep step;
  step.where = Where(fr, s.Line());
  step.text = Unparse(s.kids[1]);
  Tri t = Truth(s.kids[1], st, fr, &step);
  if (st.alive == Alive::kDead) return;
  if (t != Tri::kUnknown) {
    step.truth = Tri::kTrue;
    if (t == Tri::kFalse) step.text = "not (" + step.text + ")";
    step.why.clear();
    path_.push_back(step);
    ExecBody(t == Tri::kTrue ? s.kids[2] : s.kids[3], st, fr);
    path_.pop_back();
    return;
  }
  Alive before = st.alive;
  step.truth = Tri::kUnknown;
  State a = Branch(st);
  path_.push_back(step);
  ExecBody(s.kids[2], a, fr);
  path_.pop_back();
  State b = Branch(st);
  PathStep neg = step;
  neg.text = "not (" + step.text + ")";
  path_.push_back(neg);
  ExecBody(s.kids[3], b, fr);
  path_.pop_back();
  // A side that left the function makes what follows conditional on this test.
  bool a_left = a.alive == Alive::kDead, b_left = b.alive == Alive::kDead;
  JoinInto(st, a, b, before);
  if (a_left != b_left && st.alive != Alive::kDead) {
    Unknown u{"control flow", "a " + std::string(a_left ? "branch" : "else branch") + " at " + step.where +
                                  " leaves first when " + (a_left ? step.text : neg.text)};
    AddUnique(st.maybe_why, {u});
    AddUnique(st.maybe_why, step.why);
  }
}

void Interpreter::ExecLoop(const Cx& s, State& st, Frame& fr) {
  bool is_for = s.head == Head::kFor;
  if (s.kids.size() < (is_for ? 5u : 4u)) return;
  const Cx& body = s.kids[is_for ? 3 : 2];
  const Cx& orelse = s.kids[is_for ? 4 : 3];
  PathStep step;
  step.where = Where(fr, s.Line());
  fr.breaks.emplace_back();
  fr.continues.emplace_back();
  auto end_iteration = [&](State& cur) {
    // continue statements rejoin at the end of the iteration
    for (State& c : fr.continues.back()) {
      State joined;
      JoinInto(joined, cur.alive == Alive::kDead ? c : cur, c, c.alive);
      cur = joined;
      if (cur.alive != Alive::kDead) cur.alive = c.alive == Alive::kDead ? cur.alive : Min(cur.alive, c.alive);
    }
    fr.continues.back().clear();
  };
  auto unknown_loop = [&](State& cur, const Val* item, const std::vector<Unknown>& why) {
    // Zero or more iterations: the body twice from joined states, changed values widened.
    Alive before = cur.alive;
    step.truth = Tri::kUnknown;
    AddUnique(step.why, why);
    State entry = cur;
    State acc = cur;
    for (int pass = 0; pass < 2; ++pass) {
      State it = Branch(acc);
      if (is_for) Assign(s.kids[1], item ? *item : Val::Unknow("run-time value", Unparse(s.kids[1])), it, fr);
      path_.push_back(step);
      ExecBody(body, it, fr);
      path_.pop_back();
      end_iteration(it);
      State next;
      JoinInto(next, acc, it, before);
      if (pass == 1) {  // widen what still changes
        std::vector<std::string> changed;
        for (const auto& [k, v] : next.locals.map())
          if (const Val* o = acc.locals.Get(k); o && !SameVal(*o, v)) changed.push_back(k);
        for (const auto& k : changed) next.locals[k] = Val::Unknow("run-time value", k);
      }
      acc = std::move(next);
    }
    if (acc.alive != Alive::kDead) acc.alive = Min(acc.alive, entry.alive);
    cur = std::move(acc);
  };
  if (is_for) {
    step.text = "the loop over " + Unparse(s.kids[2]) + " runs";
    Val it = Eval(s.kids[2], st, fr);
    std::optional<std::vector<PyVal>> items;
    if (const PyVal* p = it.Single()) items = p->Iter();
    if (it.kind == Val::Kind::kTuple && it.name != "dict" && (int)it.elems.size() <= kMaxUnroll) {
      step.truth = Tri::kTrue;  // a sequence of abstract values (a dict's items())
      for (const Val& item : it.elems) {
        if (st.alive == Alive::kDead) break;
        Assign(s.kids[1], item, st, fr);
        ExecBody(body, st, fr);
        end_iteration(st);
      }
    } else if (items && (int)items->size() <= kMaxUnroll) {
      step.truth = Tri::kTrue;
      for (const PyVal& item : *items) {
        if (st.alive == Alive::kDead) break;
        Val v = Val::Of(item);
        v.AddFrom(it);
        Assign(s.kids[1], v, st, fr);
        ExecBody(body, st, fr);
        end_iteration(st);
      }
    } else {
      Val item = Val::Unknow("run-time value", Unparse(s.kids[1]));
      if (it.kind == Val::Kind::kValues && !it.vals.empty()) {  // one of several known sequences
        std::vector<PyVal> all;
        bool ok = true;
        for (const PyVal& p : it.vals) {
          auto el = p.Iter();
          if (!el) ok = false;
          else all.insert(all.end(), el->begin(), el->end());
        }
        if (ok && !all.empty()) item = Val::OneOf(all);
      }
      std::vector<Unknown> why = it.why;
      if (why.empty()) why.push_back({"run-time value", "the items of " + Unparse(s.kids[2])});
      unknown_loop(st, &item, why);
    }
  } else {
    step.text = Unparse(s.kids[1]);
    for (int n = 0;; ++n) {
      if (st.alive == Alive::kDead) break;
      PathStep test = step;
      Tri t = Truth(s.kids[1], st, fr, &test);
      if (t == Tri::kFalse) break;
      if (t == Tri::kUnknown || n >= kMaxUnroll) {
        unknown_loop(st, nullptr, test.why.empty() ? std::vector<Unknown>{{"run-time value", step.text}} : test.why);
        break;
      }
      test.truth = Tri::kTrue;
      path_.push_back(test);
      ExecBody(body, st, fr);
      path_.pop_back();
      end_iteration(st);
    }
  }
  std::vector<State> breaks = std::move(fr.breaks.back());
  fr.breaks.pop_back();
  fr.continues.pop_back();
  // else: runs when the loop ends without break.
  if (st.alive != Alive::kDead && !orelse.kids.empty()) {
    if (breaks.empty()) {
      ExecBody(orelse, st, fr);
    } else {
      Alive before = st.alive;
      State a = Branch(st);
      PathStep e;
      e.truth = Tri::kUnknown;
      e.where = step.where;
      e.text = "the loop ends without break";
      e.why.push_back({"control flow", "a break in the loop at " + step.where});
      path_.push_back(e);
      ExecBody(orelse, a, fr);
      path_.pop_back();
      State skip = st;
      JoinInto(st, a, skip, before);
    }
  }
  for (State& b : breaks) {
    State joined;
    Alive before = b.alive;
    JoinInto(joined, st, b, st.alive == Alive::kDead ? b.alive : st.alive);
    (void)before;
    st = std::move(joined);
  }
}

void Interpreter::ExecTry(const Cx& s, State& st, Frame& fr) {
  if (s.kids.size() < 5) return;
  const Cx& handlers = s.kids[2];
  size_t pushed = 0;
  for (const Cx& h : handlers.kids) {
    if (h.head != Head::kExcept || h.kids.size() < 4) continue;
    Handler hd;
    hd.where = Where(fr, h.Line());
    const Cx& type = h.kids[1];
    if (type.IsNoneConst()) {
      hd.bare = true;
    } else {
      std::vector<const Cx*> types;
      if (type.head == Head::kTuple) for (const Cx& t : type.kids) types.push_back(&t);
      else types.push_back(&type);
      for (const Cx* t : types) {
        if (t->IsName() || t->head == Head::kAttr) {
          std::string n = Unparse(*t, 120);
          hd.classes.push_back(n.substr(n.rfind('.') == std::string::npos ? 0 : n.rfind('.') + 1));
        } else {
          hd.unknown = true;
        }
      }
    }
    hd.path_base = path_.size();
    handlers_.push_back(hd);
    ++pushed;
  }
  State pre = st;
  size_t first_handler = handlers_.size() - pushed;
  ExecBody(s.kids[1], st, fr);
  std::vector<Handler> mine(handlers_.begin() + (long)first_handler, handlers_.end());
  handlers_.resize(first_handler);
  if (st.alive != Alive::kDead) ExecBody(s.kids[3], st, fr);  // else: no exception
  if (pushed > 0) {
    // Each handler may run, from a state between the try's start and its end; a handler
    // that surely caught a raise on a decided path runs surely, from that raise's state.
    State from = pre;
    if (st.alive != Alive::kDead) JoinMaps(from.locals, st.locals), JoinMaps(from.heap, st.heap);
    size_t hi = 0;
    for (const Cx& h : handlers.kids) {
      if (h.head != Head::kExcept || h.kids.size() < 4) continue;
      const Handler& hd = mine[hi++];
      if (hd.decided && st.alive == Alive::kDead) {
        State hs = hd.caught[0];
        for (size_t k = 1; k < hd.caught.size(); ++k) JoinMaps(hs.locals, hd.caught[k].locals), JoinMaps(hs.heap, hd.caught[k].heap);
        hs.alive = pre.alive;
        if (h.kids[2].IsName()) Assign(h.kids[2], Val::Unknow("run-time value", h.kids[2].text), hs, fr);
        ExecBody(h.kids[3], hs, fr);
        st = std::move(hs);
        continue;
      }
      Alive before = st.alive == Alive::kDead ? pre.alive : st.alive;
      State hs = Branch(from);
      for (const State& c : hd.caught) JoinMaps(hs.locals, c.locals), JoinMaps(hs.heap, c.heap);
      hs.alive = pre.alive;
      PathStep step;
      step.truth = Tri::kUnknown;
      step.where = Where(fr, h.Line());
      step.text = "an exception in the try at " + Where(fr, s.Line()) + " is caught here";
      step.why.push_back({"run-time value", "an exception inside the try at " + Where(fr, s.Line())});
      if (h.kids[2].IsName()) Assign(h.kids[2], Val::Unknow("run-time value", h.kids[2].text), hs, fr);
      path_.push_back(step);
      ExecBody(h.kids[3], hs, fr);
      path_.pop_back();
      State joined;
      JoinInto(joined, st, hs, before);
      st = std::move(joined);
    }
  }
  if (!s.kids[4].kids.empty()) {
    // finally: runs whatever happened; after an exit it still runs but the flow stays dead.
    Alive keep = st.alive;
    if (st.alive == Alive::kDead) st.alive = pre.alive;
    ExecBody(s.kids[4], st, fr);
    if (keep == Alive::kDead) st.alive = Alive::kDead;
  }
}

int Interpreter::CaughtCheck(const std::string& cls, int site_file, std::string* maybe_where) const {
  maybe_where->clear();
  // Is `c` (a class name as seen from `file`) `base` or a subclass of it? nullopt: cannot tell.
  std::function<std::optional<bool>(const std::string&, int, const std::string&, int)> is_sub =
      [&](const std::string& c, int file, const std::string& base, int depth) -> std::optional<bool> {
    if (c == base) return true;
    if (depth > 12) return std::nullopt;
    if (auto b = IsBuiltinSubclass(c, base)) return b;
    if (file >= 0) {
      if (auto ref = ix_.ClassByName(file, c)) {
        std::optional<bool> result = false;
        for (const std::string& b : ix_.klass(*ref).bases) {
          std::string last = b.substr(b.rfind('.') == std::string::npos ? 0 : b.rfind('.') + 1);
          auto r = is_sub(last, ref->file, base, depth + 1);
          if (r == true) return true;
          if (!r) result = std::nullopt;
        }
        return result;
      }
    }
    return std::nullopt;
  };
  for (size_t k = handlers_.size(); k-- > 0;) {
    const Handler& h = handlers_[k];
    if (h.bare) return (int)k;
    bool maybe = h.unknown;
    for (const std::string& c : h.classes) {
      auto r = cls.empty() ? std::optional<bool>() : is_sub(cls, site_file, c, 0);
      if (r == true) return (int)k;
      if (!r) maybe = true;
    }
    if (maybe && maybe_where->empty()) *maybe_where = h.where;
  }
  return -1;
}

void Interpreter::SiteReached(int site, const std::string& cls, int line, State& st, Frame& fr, const PathStep* extra) {
  if (st.alive == Alive::kDead || fr.file < 0) return;
  std::string caught_where;
  int handler = CaughtCheck(cls, fr.file, &caught_where);
  bool caught = !caught_where.empty();
  if (site >= 0) reached_sites_.insert({fr.file, site});
  if (handler >= 0) {
    // The handler runs instead of the rest of the try body; surely, when nothing on the way
    // since the try was left open.
    Handler& h = handlers_[(size_t)handler];
    bool decided = st.alive == Alive::kSure && !st.may_exit;
    for (size_t k = h.path_base; k < path_.size(); ++k) decided = decided && path_[k].truth == Tri::kTrue;
    h.caught.push_back(st);
    h.decided = h.decided || decided;
    st.alive = Alive::kDead;
    return;
  }
  if (site < 0 || site >= (int)ix_.file(fr.file).sites.size()) return;
  // What this visit says, from path_ without copying it (sites in loops and helpers are
  // reached many times; the path is copied only into a new or upgraded verdict).
  bool decided = true;
  std::vector<std::string> from;
  std::vector<Unknown> depends;
  auto scan = [&](const PathStep& p) {
    AddUnique(from, p.from);
    if (p.truth != Tri::kTrue) {
      decided = false;
      AddUnique(depends, p.why);
    }
  };
  for (const PathStep& p : path_) scan(p);
  if (extra) scan(*extra);
  if (st.alive != Alive::kSure || st.may_exit) AddUnique(depends, st.maybe_why);
  if (caught) depends.push_back({"exception handling", "may be caught by the except clause at " + caught_where});
  bool will = decided && st.alive == Alive::kSure && !st.may_exit && !caught && !detached_;
  auto key = std::make_pair(fr.file, site);
  auto it = verdicts_.find(key);
  if (it != verdicts_.end() && (it->second.will || !will)) {
    Verdict& old = it->second;
    if (!old.will) {
      AddUnique(old.depends, depends);
      AddUnique(old.from, from);
      old.detached = old.detached && detached_;
    }
    return;
  }
  Verdict v;
  v.file = fr.file;
  v.site = site;
  v.order = it == verdicts_.end() ? ++order_ : it->second.order;
  v.detached = detached_;
  v.path = path_;
  if (extra) v.path.push_back(*extra);
  v.from = std::move(from);
  v.depends = std::move(depends);
  v.caught_by = caught ? caught_where : "";
  v.will = will;
  verdicts_[key] = std::move(v);
}

void Interpreter::Assign(const Cx& t, const Val& v, State& st, Frame& fr) {
  if (st.alive == Alive::kDead) return;
  if (t.IsName()) {
    st.locals[t.text] = v;
    return;
  }
  if (t.head == Head::kAttr && t.kids.size() == 2) {
    Val obj = Eval(t.kids[0], st, fr);
    const std::string& attr = t.kids[1].text;
    Val w = v;
    if (auto f = dest_flag_.find(attr); f != dest_flag_.end() && std::find(w.from.begin(), w.from.end(), f->second) == w.from.end())
      w.from.push_back(f->second);
    if (obj.kind == Val::Kind::kSettings) {
      st.heap[attr] = w;
    } else if (obj.kind == Val::Kind::kUnknown && st.heap.count(attr)) {
      st.heap[attr] = Join(st.heap[attr], w);  // an object check cannot name may be the settings
    }
    return;
  }
  if (t.head == Head::kSub && t.kids.size() == 2) {
    // os.environ["X"] = v; d[k] = v on a local
    Val obj = Eval(t.kids[0], st, fr);
    Val key = Eval(t.kids[1], st, fr);
    if (obj.kind == Val::Kind::kBuiltin && obj.name == "os.environ") {
      if (key.Single() && key.Single()->kind == PyVal::Kind::kStr) {
        if (v.Single() && v.Single()->kind == PyVal::Kind::kStr) env_[key.Single()->s] = v.Single()->s;
        else env_.erase(key.Single()->s), unknown_env_.insert(key.Single()->s);
      }
      return;
    }
    if (t.kids[0].IsName() && st.locals.count(t.kids[0].text)) {
      Val& cur = st.locals.Mut()[t.kids[0].text];
      const PyVal* d = cur.Single();
      const PyVal* k = key.Single();
      const PyVal* nv = v.Single();
      if (d && k && nv && d->kind == PyVal::Kind::kDict) {
        PyVal nd = *d;
        bool found = false;
        for (size_t i = 0; i + 1 < nd.items.size(); i += 2)
          if (nd.items[i] == *k) nd.items[i + 1] = *nv, found = true;
        if (!found) nd.items.push_back(*k), nd.items.push_back(*nv);
        cur = Val::Of(std::move(nd));
      } else {
        cur = Val::Unknow("run-time value", t.kids[0].text);
      }
    }
    return;
  }
  if (t.head == Head::kTuple || t.head == Head::kList) {
    const PyVal* p = v.Single();
    for (size_t k = 0; k < t.kids.size(); ++k) {
      Val e;
      if (v.kind == Val::Kind::kSettings) e = v;  // parse_args_into_dataclasses(): each is the settings
      else if (v.kind == Val::Kind::kTuple && v.elems.size() == t.kids.size()) e = v.elems[k];
      else if (p && p->IsSeq() && p->items.size() == t.kids.size() && t.kids[k].head != Head::kStar) e = Val::Of(p->items[k]);
      else e = Val::Unknow("run-time value", Unparse(t.kids[k]));
      e.AddFrom(v);
      const Cx& target = t.kids[k].head == Head::kStar && !t.kids[k].kids.empty() ? t.kids[k].kids[0] : t.kids[k];
      Assign(target, t.kids[k].head == Head::kStar ? Val::Unknow("run-time value", Unparse(target)) : e, st, fr);
    }
  }
}

void Interpreter::InitModule(int file) {
  if (file < 0 || globals_.count(file) || initializing_.count(file) || live_globals_.count(file)) return;
  initializing_.insert(file);
  const Cx* body = ix_.ModuleBody(file);
  std::vector<PathStep> saved_path = std::move(path_);
  std::vector<Handler> saved_handlers = std::move(handlers_);
  path_.clear();
  handlers_.clear();
  bool saved_detached = detached_;
  State st;
  st.alive = Alive::kMaybe;  // imported modules run at import time, for this launch or not
  st.maybe_why.push_back({"reachability", "module " + ix_.path(file) + " runs when it is imported"});
  st.heap = initial_settings_;
  st.locals["__name__"] = Val::Of(PyVal::Str(ix_.ModuleName(file)));
  Frame fr;
  fr.file = file;
  fr.module_scope = true;
  if (body) {
    live_globals_[file] = &st.locals;
    ExecBody(*body, st, fr);
    live_globals_.erase(file);
  }
  globals_[file] = st.locals;
  path_ = std::move(saved_path);
  handlers_ = std::move(saved_handlers);
  detached_ = saved_detached;
  initializing_.erase(file);
}

Val Interpreter::Invoke(FnRef fn, std::vector<Val> self, const std::vector<Val>& args,
                        const std::vector<std::pair<std::string, Val>>& kwargs, bool star_args, const Cx& call, State& st,
                        Frame& caller) {
  const FunctionFacts& f = ix_.function(fn);
  std::string what = f.qual + "()";
  if (st.alive == Alive::kDead) return Val::Opaque();
  if ((int)call_stack_.size() >= kMaxCallDepth ||
      std::any_of(call_stack_.begin(), call_stack_.end(), [&](FnRef r) { return r.file == fn.file && r.fn == fn.fn; }))
    return Val::Unknow("run-time value", what + " (recursive or too deep)");
  const Cx* body = ix_.Body(fn);
  if (!body) return Val::Unknow("run-time value", what);
  visited_fns_.insert({fn.file, fn.fn});
  bool is_static = std::find(f.decorators.begin(), f.decorators.end(), "staticmethod") != f.decorators.end();
  bool is_class = std::find(f.decorators.begin(), f.decorators.end(), "classmethod") != f.decorators.end();
  Frame fr;
  fr.file = fn.file;
  fr.fn = fn;
  fr.cls = ix_.ClassOf(fn);
  fr.path_base = path_.size();
  State cs;
  cs.alive = st.alive;
  cs.heap = st.heap;
  cs.maybe_why = st.maybe_why;
  cs.may_exit = st.may_exit;
  // Bind the parameters.
  size_t p = 0;
  std::vector<Val> positional;
  if (!is_static && !self.empty()) positional.push_back(self[0]);
  else if (is_class && fr.cls) {
    Val c;
    c.kind = Val::Kind::kClass;
    c.file = fr.cls->file;
    c.index = fr.cls->cls;
    positional.push_back(c);
  }
  positional.insert(positional.end(), args.begin(), args.end());
  std::set<std::string> bound;
  size_t pi = 0;
  for (; p < f.params.size(); ++p) {
    const std::string& name = f.params[p];
    if (name.rfind("**", 0) == 0) break;
    if (name[0] == '*') {
      cs.locals[name.substr(1)] = Val::Unknow("run-time value", "*" + name.substr(1));
      bound.insert(name.substr(1));
      pi = positional.size();
      continue;
    }
    if (pi < positional.size()) {
      cs.locals[name] = positional[pi++];
      bound.insert(name);
    }
  }
  Val extra;  // keyword arguments no parameter takes: the **kwargs dict (keys known, values abstract)
  extra.kind = Val::Kind::kTuple;
  extra.name = "dict";
  for (const auto& [k, v] : kwargs) {
    if (std::find(f.params.begin(), f.params.end(), k) != f.params.end()) {
      cs.locals[k] = v;
      bound.insert(k);
    } else {
      extra.vals.push_back(PyVal::Str(k));
      extra.elems.push_back(v);
    }
  }
  for (size_t k = 0; k < f.params.size(); ++k) {
    std::string name = f.params[k];
    if (name.rfind("**", 0) == 0) {
      cs.locals[name.substr(2)] = star_args ? Val::Unknow("run-time value", "**" + name.substr(2)) : extra;
      continue;
    }
    if (name[0] == '*' || bound.count(name)) continue;
    if (star_args) {
      cs.locals[name] = Val::Unknow("run-time value", "argument " + name + " of " + what);
    } else if (k < f.defaults.size() && !f.defaults[k].empty()) {
      auto d = ParseCx(f.defaults[k]);
      cs.locals[name] = d.ok() ? EvalInModule(fn.file, *d) : Val::Unknow("run-time value", name);
    } else {
      cs.locals[name] = Val::Unknow("run-time value", "argument " + name + " of " + what);
    }
  }
  PathStep step;
  step.where = Where(caller, call.Line() ? call.Line() : 0);
  step.text = "calls " + f.qual;
  path_.push_back(step);
  call_stack_.push_back(fn);
  CowMap* live = nullptr;
  if (caller.module_scope && !live_globals_.count(caller.file)) live_globals_[caller.file] = live = &st.locals;
  ExecBody(*body, cs, fr);
  if (live) live_globals_.erase(caller.file);
  call_stack_.pop_back();
  path_.pop_back();
  if (cs.alive != Alive::kDead) {
    fr.returns.push_back(Val::Of(PyVal::None()));
    fr.return_states.push_back(std::move(cs));
  }
  if (fr.return_states.empty()) {
    // Never returns: every path exits (or raises for sure, which check skips: then it returns).
    st.alive = Alive::kDead;
    st.exited = cs.exited;
    return Val::Opaque();
  }
  State joined = fr.return_states[0];
  for (size_t k = 1; k < fr.return_states.size(); ++k) {
    JoinMaps(joined.heap, fr.return_states[k].heap);
    joined.may_exit = joined.may_exit || fr.return_states[k].may_exit;
    AddUnique(joined.maybe_why, fr.return_states[k].maybe_why);
  }
  st.heap = std::move(joined.heap);
  if (joined.may_exit && !st.may_exit) {
    st.may_exit = true;
    AddUnique(st.maybe_why, joined.maybe_why);
  }
  Val r = fr.returns[0];
  for (size_t k = 1; k < fr.returns.size(); ++k) r = Join(r, fr.returns[k]);
  return r;
}

Val Interpreter::Construct(ClassRef c, const std::vector<Val>& args, const std::vector<std::pair<std::string, Val>>& kwargs,
                           const Cx& call, State& st, Frame& fr) {
  Val inst;
  if (ix_.IsSettingsClass(c)) {
    inst = Val::Settings();
    // Keyword arguments with known values set fields; `**vars(args)` and the like are the settings themselves.
    for (const auto& [k, v] : kwargs)
      if (!k.empty() && ix_.IsDataclass(c)) {
        Val w = v;
        if (auto f = dest_flag_.find(k); f != dest_flag_.end()) w.from.push_back(f->second);
        st.heap[k] = w;
      }
  } else {
    inst.kind = Val::Kind::kObject;
    inst.file = c.file;
    inst.index = c.cls;
  }
  bool star = false;
  for (const Cx& a : call.kids)
    if (a.head == Head::kStar || a.head == Head::kStarStar) star = true;
  if (auto init = ix_.Method(c, "__init__")) Invoke(*init, {inst}, args, kwargs, star, call, st, fr);
  if (st.alive == Alive::kDead) return inst;
  if (ix_.IsDataclass(c))
    if (auto post = ix_.Method(c, "__post_init__")) Invoke(*post, {inst}, {}, {}, false, call, st, fr);
  return inst;
}

Val Interpreter::EvalInModule(int file, const Cx& x) {
  State st;
  st.heap = initial_settings_;
  Frame fr;
  fr.file = file;
  fr.module_scope = true;
  if (!live_globals_.count(file)) InitModule(file);
  auto it = globals_.find(file);
  if (it != globals_.end()) st.locals = it->second;
  return Eval(x, st, fr);
}

Val Interpreter::EvalInClass(ClassRef c, const Cx& x) {
  // Class bodies see their own earlier attributes, then the module.
  State st;
  st.heap = initial_settings_;
  Frame fr;
  fr.file = c.file;
  fr.module_scope = true;
  if (!live_globals_.count(c.file)) InitModule(c.file);
  auto it = globals_.find(c.file);
  if (it != globals_.end()) st.locals = it->second;
  return Eval(x, st, fr);
}

void Interpreter::Run(const Launch& launch) {
  entry_file_ = launch.entry_file;
  main_name_ = launch.main_name;
  argv_ = launch.argv;
  assertions_ = launch.assertions;
  if (entry_file_ < 0) return;
  State st;
  st.alive = Alive::kSure;
  st.heap = initial_settings_;
  st.locals["__name__"] = Val::Of(PyVal::Str(main_name_));
  Frame fr;
  fr.file = entry_file_;
  fr.module_scope = true;
  initializing_.insert(entry_file_);
  live_globals_[entry_file_] = &st.locals;
  if (const Cx* body = ix_.ModuleBody(entry_file_)) ExecBody(*body, st, fr);
  live_globals_.erase(entry_file_);
  initializing_.erase(entry_file_);
  globals_[entry_file_] = st.locals;
  if (!launch.function.empty() && st.alive != Alive::kDead) {
    std::string qual = launch.function;
    FnRef f = ix_.FunctionByQual(entry_file_, qual);
    if (f.ok()) {
      Cx call = Cx::List(Head::kCall, {Cx::Name(qual)});
      Invoke(f, {}, {}, {}, false, call, st, fr);
    }
  }
  final_settings_ = st.heap.map();
}

void Interpreter::RunDetached(const std::set<int>& files) {
  detached_ = true;
  std::map<std::string, Val> heap = initial_settings_.map();
  for (const auto& [k, v] : final_settings_) heap[k] = heap.count(k) ? Join(heap[k], v) : v;
  std::set<std::string> settings_names = ix_.SettingsClassNames();
  for (int file : files) {
    const Section::File& f = ix_.file(file);
    std::set<int> site_lines;
    for (size_t s = 0; s < f.sites.size(); ++s)
      if ((f.sites[s].kind == "raise" || f.sites[s].kind == "assert" || f.sites[s].kind == "http") &&
          !reached_sites_.count({file, (int)s}))
        site_lines.insert(f.sites[s].line);
    if (site_lines.empty()) continue;
    for (int k = 0; k < (int)f.functions.size(); ++k) {
      const FunctionFacts& fn = f.functions[(size_t)k];
      if (visited_fns_.count({file, k})) continue;
      auto first = site_lines.lower_bound(fn.line);
      if (first == site_lines.end() || *first > fn.end_line) continue;
      // Arguments: the settings where the code says so (annotation, name), else unknown.
      std::vector<Val> args;
      std::vector<Val> self;
      std::optional<ClassRef> cls = ix_.ClassOf({file, k});
      size_t start = 0;
      if (cls && !fn.params.empty() && fn.params[0] == "self") {
        if (ix_.IsSettingsClass(*cls)) self.push_back(Val::Settings());
        else {
          Val o;
          o.kind = Val::Kind::kObject;
          o.file = cls->file;
          o.index = cls->cls;
          self.push_back(o);
        }
        start = 1;
      }
      for (size_t p = start; p < fn.params.size(); ++p) {
        const std::string& n = fn.params[p];
        if (n[0] == '*') break;
        std::string ann = p < fn.annotations.size() ? fn.annotations[p] : "";
        bool settings = n == "args" || n == "server_args" || (n.size() > 5 && n.compare(n.size() - 5, 5, "_args") == 0);
        for (const auto& sn : settings_names)
          if (!ann.empty() && ann.find(sn) != std::string::npos) settings = true;
        args.push_back(settings ? Val::Settings() : Val::Unknow("run-time value", "argument " + n + " of " + fn.qual));
      }
      State st;
      st.alive = Alive::kMaybe;  // the reason is on path_ (the step below)
      st.heap = heap;
      Frame fr;
      fr.file = file;
      PathStep step;
      step.truth = Tri::kUnknown;
      step.where = f.path + ":" + std::to_string(fn.line);
      step.text = fn.qual + " runs";
      step.why.push_back({"reachability", fn.qual + " (" + step.where + ") is not called on the path this launch takes"});
      path_.push_back(step);
      Cx call = Cx::List(Head::kCall, {Cx::Name(fn.qual)});
      Invoke({file, k}, self, args, {}, false, call, st, fr);
      path_.pop_back();
    }
  }
  detached_ = false;
}

}  // namespace errdex::check
