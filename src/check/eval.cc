// check/eval.cc: expressions for the interpreter (interp.h) -- names, attributes
// on the settings object, modules and classes, comparisons and boolean logic over
// value sets, calls into the repository's functions and the builtins check models
// (len, int, getattr, os.environ, str methods, ...). Anything else is unknown,
// with the reason a person can act on (hardware, installed package, model config).
#include <algorithm>
#include <cctype>
#include <cmath>

#include "check/argparse.h"
#include "check/interp.h"

namespace errdex::check {

namespace {

bool Contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

std::string Lower(std::string s) {
  for (char& c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}

const char* const kBuiltins[] = {
    "len", "int", "float", "str", "bool", "list", "tuple", "set", "frozenset", "dict", "sorted", "min", "max", "sum", "any",
    "all", "abs", "isinstance", "getattr", "hasattr", "setattr", "vars", "print", "range", "enumerate", "zip", "repr",
    "type", "super", "open", "round", "reversed", "id", "hash", "callable", "format", "exit", "quit", "next", "iter",
    "map", "filter", "object"};

bool EndsWith(const std::string& s, std::string_view suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

bool IsBuiltinName(const std::string& n) {
  for (const char* b : kBuiltins)
    if (n == b) return true;
  // exception classes: a call builds an exception object
  return EndsWith(n, "Error") || EndsWith(n, "Exception") || EndsWith(n, "Warning") || n == "KeyboardInterrupt" ||
         n == "SystemExit" || n == "StopIteration";
}

bool IsMutator(const std::string& m) {
  static const char* kM[] = {"append", "extend", "insert", "remove", "pop", "clear", "add", "discard", "update", "sort", "reverse", "setdefault"};
  for (const char* x : kM)
    if (m == x) return true;
  return false;
}

// Cartesian application over two value sets; nullopt result for any pair -> unknown.
template <typename F>
Val Lift2(const Val& a, const Val& b, F f, const std::string& what) {
  if (a.kind != Val::Kind::kValues || b.kind != Val::Kind::kValues) {
    Val u = Val::Unknow("", "");
    u.AddWhy(a);
    u.AddWhy(b);
    if (u.why.empty()) u.why.push_back({"run-time value", what});
    u.AddFrom(a);
    u.AddFrom(b);
    return u;
  }
  std::vector<PyVal> out;
  for (const auto& x : a.vals)
    for (const auto& y : b.vals) {
      std::optional<PyVal> r = f(x, y);
      if (!r) {
        Val u = Val::Unknow("run-time value", what);
        u.AddFrom(a);
        u.AddFrom(b);
        return u;
      }
      out.push_back(*r);
    }
  Val r = Val::OneOf(std::move(out));
  r.AddFrom(a);
  r.AddFrom(b);
  return r;
}

Val Bool(bool b) { return Val::Of(PyVal::Bool(b)); }

}  // namespace

std::string Interpreter::Category(const std::string& text) {
  std::string t = Lower(text);
  for (const char* h : {"cuda", "is_hip", "hip(", "_hip", "npu", "xpu", "mps", "gpu", "device_capability", "sm100", "sm90", "sm80",
                        "is_sm", "hopper", "blackwell", "ampere", "gfx", "rocm", "device_count", "get_device", "nvidia", "nccl",
                        "cpu_count", "is_cpu", "cudnn", "triton_is", "capability"})
    if (Contains(t, h)) return "hardware";
  for (const char* h : {"__version__", "version(", "find_spec", "importlib", "_available", "pkg_resources", "metadata",
                        "hasattr(torch", "getattr(torch", "torch.", "flashinfer", "vllm", "transformers", "deep_gemm",
                        "sgl_kernel", "aiter", "import"})
    if (Contains(t, h)) return "installed package";
  for (const char* h : {"model_config", "hf_config", "config.json", "autoconfig", "from_pretrained", "architectures",
                        "get_config", "model_type", "text_config", "quant_config", "num_attention_heads", "hidden_size"})
    if (Contains(t, h)) return "model config";
  for (const char* h : {"os.path", "exists(", "isfile", "isdir", "open(", "path(", "listdir", "glob"})
    if (Contains(t, h)) return "file system";
  for (const char* h : {"socket", "port", "requests.", "urlopen", "http"})
    if (Contains(t, h)) return "network";
  for (const char* h : {"os.environ", "getenv", "env_var", "envs."})
    if (Contains(t, h)) return "environment";
  return "run-time value";
}

Val Interpreter::UnknownOf(const Cx& x, const std::string& category) {
  std::string text = Unparse(x, 120);
  return Val::Unknow(category.empty() ? Category(text) : category, text);
}

Val Interpreter::EnvRead(const std::string& name, const Val* default_value) {
  Val v;
  if (unknown_env_.count(name)) {
    v = Val::Unknow("environment", name + " (set by the program)");
  } else if (auto it = env_.find(name); it != env_.end()) {
    v = Val::Of(PyVal::Str(it->second));
  } else {
    v = default_value ? *default_value : Val::Of(PyVal::None());
  }
  v.from.push_back("$" + name);
  return v;
}

Val Interpreter::FromBinding(const Binding& b, int file, const std::string& name, State& st) {
  Val v;
  switch (b.kind) {
    case Binding::Kind::kFunction:
      v.kind = Val::Kind::kFunction;
      v.file = b.fn.file;
      v.index = b.fn.fn;
      return v;
    case Binding::Kind::kClass:
      v.kind = Val::Kind::kClass;
      v.file = b.cls.file;
      v.index = b.cls.cls;
      return v;
    case Binding::Kind::kModule:
      v.kind = Val::Kind::kModule;
      v.file = b.module;
      return v;
    case Binding::Kind::kExternal: {
      v = Val::Builtin(b.external);
      v.external = true;
      return v;
    }
    default:
      if (IsBuiltinName(name)) return Val::Builtin(name);
      return Val::Unknow("run-time value", name);
  }
}

Val Interpreter::Global(int file, const std::string& name, State& st) {
  if (auto live = live_globals_.find(file); live != live_globals_.end()) {
    if (const Val* v = live->second->Get(name)) return *v;
  } else {
    InitModule(file);
    auto g = globals_.find(file);
    if (g != globals_.end()) {
      if (const Val* v = g->second.Get(name)) return *v;
    }
  }
  if (name == "__name__") return Val::Of(PyVal::Str(file == entry_file_ ? main_name_ : ix_.ModuleName(file)));
  Binding b = ix_.Lookup(file, name);
  if (b.kind == Binding::Kind::kGlobal && b.module != file && b.module >= 0) {
    // a global of another module, imported by name
    static thread_local int depth = 0;
    if (depth > 8) return Val::Unknow("run-time value", name);
    ++depth;
    Val v = Global(b.module, b.external, st);
    --depth;
    return v;
  }
  if (b.kind == Binding::Kind::kGlobal || b.kind == Binding::Kind::kNone) {
    if (IsBuiltinName(name)) return Val::Builtin(name);
    return Val::Unknow("run-time value", name);
  }
  return FromBinding(b, file, name, st);
}

Val Interpreter::Name(const std::string& n, State& st, Frame& fr) {
  if (const Val* v = st.locals.Get(n)) return *v;
  if (fr.module_scope) {
    if (n == "__name__") return Val::Of(PyVal::Str(fr.file == entry_file_ ? main_name_ : ix_.ModuleName(fr.file)));
    Binding b = ix_.Lookup(fr.file, n);
    if (b.kind == Binding::Kind::kGlobal && b.module != fr.file && b.module >= 0) return Global(b.module, b.external, st);
    if (b.kind != Binding::Kind::kGlobal && b.kind != Binding::Kind::kNone) return FromBinding(b, fr.file, n, st);
    if (IsBuiltinName(n)) return Val::Builtin(n);
    return Val::Unknow("run-time value", n);
  }
  return Global(fr.file, n, st);
}

Val Interpreter::ClassMember(ClassRef c, const std::vector<Val>& self, const std::string& attr, const Cx& x, State& st,
                             Frame& fr) {
  if (auto m = ix_.Method(c, attr)) {
    const FunctionFacts& f = ix_.function(*m);
    bool prop = std::any_of(f.decorators.begin(), f.decorators.end(),
                            [](const std::string& d) { return d == "property" || d == "cached_property" || d == "functools.cached_property"; });
    if (prop && !self.empty()) {
      Cx call = Cx::List(Head::kCall, {x});
      return Invoke(*m, self, {}, {}, false, call, st, fr);
    }
    Val v;
    v.kind = Val::Kind::kFunction;
    v.file = m->file;
    v.index = m->fn;
    v.self = self;
    if (std::find(f.decorators.begin(), f.decorators.end(), "classmethod") != f.decorators.end()) {
      Val cv;
      cv.kind = Val::Kind::kClass;
      cv.file = c.file;
      cv.index = c.cls;
      v.self = {cv};
    }
    return v;
  }
  if (auto a = ix_.ClassAttr(c, attr)) {
    if (a->second.empty()) return UnknownOf(x);
    auto parsed = ParseCx(a->second);
    if (!parsed.ok()) return UnknownOf(x);
    const Cx& e = *parsed;
    // dataclasses.field(default=X) / field(default_factory=list)
    if (e.head == Head::kCall && !e.kids.empty() && (e.kids[0].IsName("field") || Unparse(e.kids[0]) == "dataclasses.field")) {
      for (size_t k = 1; k < e.kids.size(); ++k) {
        const Cx& kw = e.kids[k];
        if (kw.head != Head::kKw || kw.kids.size() != 2) continue;
        if (kw.kids[0].text == "default") return EvalInClass(a->first, kw.kids[1]);
        if (kw.kids[0].text == "default_factory") {
          std::string f = Unparse(kw.kids[1]);
          if (f == "list") return Val::Of(PyVal::Seq(PyVal::Kind::kList, {}));
          if (f == "dict") return Val::Of(PyVal::Seq(PyVal::Kind::kDict, {}));
          if (f == "set") return Val::Of(PyVal::Seq(PyVal::Kind::kSet, {}));
        }
      }
      return UnknownOf(x);
    }
    return EvalInClass(a->first, e);
  }
  return UnknownOf(x);
}

Val Interpreter::Attr(const Val& obj, const std::string& attr, const Cx& x, State& st, Frame& fr) {
  switch (obj.kind) {
    case Val::Kind::kSettings: {
      if (attr == "__dict__") return obj;
      for (ClassRef c : ix_.settings_classes())
        if (ix_.Method(c, attr)) return ClassMember(c, {obj}, attr, x, st, fr);
      if (const Val* v = st.heap.Get(attr)) return *v;
      for (ClassRef c : ix_.settings_classes())
        if (ix_.ClassAttr(c, attr)) return ClassMember(c, {obj}, attr, x, st, fr);
      if (attr == "parse_args" || attr == "parse_known_args") return Val::Builtin("argparse." + attr);
      return UnknownOf(x);
    }
    case Val::Kind::kObject: return ClassMember({obj.file, obj.index}, {obj}, attr, x, st, fr);
    case Val::Kind::kClass: {
      if (ix_.Method({obj.file, obj.index}, attr)) {
        Val v = ClassMember({obj.file, obj.index}, {}, attr, x, st, fr);
        return v;
      }
      return ClassMember({obj.file, obj.index}, {}, attr, x, st, fr);
    }
    case Val::Kind::kModule: {
      if (obj.file < 0) return UnknownOf(x);
      Val v = Global(obj.file, attr, st);
      if (v.kind == Val::Kind::kUnknown) {
        int sub = ix_.ModuleFile(ix_.ModuleName(obj.file) + "." + attr);
        if (sub >= 0) {
          Val m;
          m.kind = Val::Kind::kModule;
          m.file = sub;
          return m;
        }
      }
      return v;
    }
    case Val::Kind::kBuiltin: {
      std::string d = obj.name + "." + attr;
      if (d == "sys.argv") {
        std::vector<PyVal> a;
        for (const auto& s : argv_) a.push_back(PyVal::Str(s));
        return Val::Of(PyVal::Seq(PyVal::Kind::kList, std::move(a)));
      }
      if (obj.name == "super") {
        // super().m: the method of a base of the frame's class, bound to self.
        if (fr.cls)
          for (ClassRef b : ix_.Bases(*fr.cls))
            if (ix_.Method(b, attr)) return ClassMember(b, obj.elems, attr, x, st, fr);
        return Val::Unknow("run-time value", "super()." + attr);
      }
      Val v = Val::Builtin(d);
      v.external = obj.external || d == "os.environ" || obj.name == "os";
      return v;
    }
    case Val::Kind::kTuple:
      if (obj.name == "dict" && (attr == "items" || attr == "keys" || attr == "values" || attr == "get")) {
        Val b;
        b.kind = Val::Kind::kBound;
        b.name = attr;
        b.elems = {obj};
        return b;
      }
      return UnknownOf(x);
    case Val::Kind::kValues: {
      Val b;
      b.kind = Val::Kind::kBound;
      b.name = attr;
      b.elems = {obj};
      return b;
    }
    default: {
      if (attr == "parse_args" || attr == "parse_known_args" || attr == "parse_args_into_dataclasses")
        return Val::Builtin("argparse." + attr);
      if (attr == "add_argument" || attr == "add_argument_group" || attr == "add_mutually_exclusive_group" ||
          attr == "set_defaults" || attr == "add_subparsers")
        return Val::Builtin("argparse.noop");
      Val u = UnknownOf(x);
      u.AddFrom(obj);
      if (!obj.why.empty() && u.why.size() == 1 && u.why[0].category == "run-time value") u.why = obj.why;
      return u;
    }
  }
}

Val Interpreter::Compare(const Cx& x, State& st, Frame& fr) {
  std::vector<std::string> ops;
  size_t b = 0;
  while (b <= x.text.size()) {
    size_t e = x.text.find(' ', b);
    ops.push_back(x.text.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  if (x.kids.size() < 2 || ops.size() + 1 != x.kids.size()) return UnknownOf(x);
  Val left = Eval(x.kids[0], st, fr);
  Val result = Bool(true);
  std::string text = Unparse(x, 120);
  for (size_t k = 0; k < ops.size(); ++k) {
    Val right = Eval(x.kids[k + 1], st, fr);
    const std::string& op = ops[k];
    Val r;
    auto is_obj = [](const Val& v) {
      return v.kind == Val::Kind::kSettings || v.kind == Val::Kind::kModule || v.kind == Val::Kind::kFunction ||
             v.kind == Val::Kind::kClass || v.kind == Val::Kind::kObject;
    };
    if (op == "is" || op == "isnot") {
      bool neg = op == "isnot";
      const Val* other = nullptr;
      if (right.Single() && right.Single()->kind == PyVal::Kind::kNone) other = &left;
      else if (left.Single() && left.Single()->kind == PyVal::Kind::kNone) other = &right;
      if (other && other->kind == Val::Kind::kValues) {
        r = Lift2(left, right, [&](const PyVal& a, const PyVal& c) -> std::optional<PyVal> {
          return PyVal::Bool((a.kind == PyVal::Kind::kNone && c.kind == PyVal::Kind::kNone) != neg);
        }, text);
      } else if (other && is_obj(*other)) {
        r = Bool(neg);
        r.AddFrom(*other);
      } else if (left.Single() && right.Single() && left.Single()->kind == PyVal::Kind::kBool &&
                 right.Single()->kind == PyVal::Kind::kBool) {
        r = Bool((left.Single()->b == right.Single()->b) != neg);
      } else {
        r = Lift2(left, right, [](const PyVal&, const PyVal&) -> std::optional<PyVal> { return std::nullopt; }, text);
      }
    } else if (op == "==" || op == "!=") {
      bool neg = op == "!=";
      if ((is_obj(left) && right.kind == Val::Kind::kValues) || (is_obj(right) && left.kind == Val::Kind::kValues)) {
        r = Bool(neg);
        r.AddFrom(left);
        r.AddFrom(right);
      } else {
        r = Lift2(left, right, [&](const PyVal& a, const PyVal& c) -> std::optional<PyVal> { return PyVal::Bool((a == c) != neg); }, text);
      }
    } else if (op == "in" || op == "notin") {
      bool neg = op == "notin";
      if (right.kind == Val::Kind::kBuiltin && right.name == "os.environ") {
        // "X" in os.environ
        if (const PyVal* k = left.Single(); k && k->kind == PyVal::Kind::kStr) {
          Val e = EnvRead(k->s, nullptr);
          r = e.Single() ? Bool((e.Single()->kind != PyVal::Kind::kNone) != neg) : e;
          r.from = e.from;
        } else {
          r = UnknownOf(x, "environment");
        }
      } else if (right.kind == Val::Kind::kTuple && right.name == "dict" && left.Single()) {
        bool found = std::any_of(right.vals.begin(), right.vals.end(), [&](const PyVal& k) { return k == *left.Single(); });
        r = Bool(found != neg);
        r.AddFrom(left);
      } else {
        r = Lift2(left, right, [&](const PyVal& a, const PyVal& c) -> std::optional<PyVal> {
          auto in = PyContains(c, a);
          if (!in) return std::nullopt;
          return PyVal::Bool(*in != neg);
        }, text);
      }
    } else {
      r = Lift2(left, right, [&](const PyVal& a, const PyVal& c) -> std::optional<PyVal> {
        auto v = PyCompare(a, op, c);
        if (!v) return std::nullopt;
        return PyVal::Bool(*v);
      }, text);
    }
    // chain: a < b < c is (a < b) and (b < c)
    Tri t = r.Truth();
    Tri acc = result.Truth();
    Val next = t == Tri::kFalse || acc == Tri::kFalse ? Bool(false)
               : t == Tri::kTrue && acc == Tri::kTrue ? Bool(true)
                                                     : Val::Unknow("", "");
    next.AddFrom(result);
    next.AddFrom(r);
    if (next.kind == Val::Kind::kUnknown) {
      next.AddWhy(result);
      next.AddWhy(r);
      if (next.why.empty()) next.why.push_back({Category(text), text});
    }
    result = next;
    left = right;
    if (result.Truth() == Tri::kFalse) break;
  }
  return result;
}

Tri Interpreter::Truth(const Cx& x, State& st, Frame& fr, PathStep* step) {
  if (x.head == Head::kAnd || x.head == Head::kOr) {
    bool is_and = x.head == Head::kAnd;
    Tri acc = is_and ? Tri::kTrue : Tri::kFalse;
    std::vector<Unknown> why;
    PathStep local;
    for (const Cx& k : x.kids) {
      PathStep part;
      Tri t = Truth(k, st, fr, &part);
      AddFromStep(step, part.from);
      if (t == (is_and ? Tri::kFalse : Tri::kTrue)) return t;  // decided by this operand
      if (t == Tri::kUnknown) {
        acc = Tri::kUnknown;
        for (const auto& w : part.why)
          if (why.size() < kMaxReasons && std::find(why.begin(), why.end(), w) == why.end()) why.push_back(w);
      }
    }
    if (acc == Tri::kUnknown && step)
      for (const auto& w : why)
        if (step->why.size() < kMaxReasons && std::find(step->why.begin(), step->why.end(), w) == step->why.end()) step->why.push_back(w);
    return acc;
  }
  if (x.head == Head::kNot && x.kids.size() == 1) return Not(Truth(x.kids[0], st, fr, step));
  Val v = Eval(x, st, fr);
  Tri t = v.Truth();
  if (step) {
    AddFromStep(step, v.from);
    if (t == Tri::kUnknown) {
      std::vector<Unknown> why = v.why;
      if (why.empty()) why.push_back({Category(Unparse(x, 120)), Unparse(x, 120)});
      for (const auto& w : why)
        if (step->why.size() < kMaxReasons && std::find(step->why.begin(), step->why.end(), w) == step->why.end()) step->why.push_back(w);
    }
  }
  return t;
}

void Interpreter::AddFromStep(PathStep* step, const std::vector<std::string>& from) {
  if (!step) return;
  for (const auto& f : from)
    if (std::find(step->from.begin(), step->from.end(), f) == step->from.end()) step->from.push_back(f);
}

Val Interpreter::Eval(const Cx& x, State& st, Frame& fr) {
  if (x.IsAtom()) {
    switch (x.atom) {
      case AtomKind::kName: return Name(x.text, st, fr);
      case AtomKind::kStr: return Val::Of(PyVal::Str(x.text));
      case AtomKind::kInt: return Val::Of(PyVal::Int(x.i));
      case AtomKind::kFloat: return Val::Of(PyVal::Float(x.f));
      case AtomKind::kNoneConst: return Val::Of(PyVal::None());
      case AtomKind::kTrue: return Bool(true);
      case AtomKind::kFalse: return Bool(false);
      case AtomKind::kEllipsis: return Val::Unknow("run-time value", "...");
    }
  }
  if (!assume_.empty() && (x.head == Head::kCall || x.head == Head::kAttr || x.head == Head::kSub)) {
    auto it = assume_.find(Unparse(x, 4096));
    if (it != assume_.end()) return it->second;
  }
  switch (x.head) {
    case Head::kOpaque: return Val::Unknow(Category(x.text), x.text);
    case Head::kAttr: {
      if (x.kids.size() != 2) return UnknownOf(x);
      Val obj = Eval(x.kids[0], st, fr);
      return Attr(obj, x.kids[1].text, x, st, fr);
    }
    case Head::kCall: return Call(x, st, fr);
    case Head::kSub: {
      if (x.kids.size() != 2) return UnknownOf(x);
      Val obj = Eval(x.kids[0], st, fr);
      if (x.kids[1].head == Head::kSlice) {
        const PyVal* o = obj.Single();
        if (!o || !(o->IsSeq() || o->kind == PyVal::Kind::kStr) || o->kind == PyVal::Kind::kSet) return UnknownOf(x);
        int64_t n = o->kind == PyVal::Kind::kStr ? (int64_t)o->s.size() : (int64_t)o->items.size();
        int64_t lo = 0, hi = n;
        const Cx& sl = x.kids[1];
        for (size_t k = 0; k < 2 && k < sl.kids.size(); ++k) {
          if (sl.kids[k].IsNoneConst()) continue;
          Val b = Eval(sl.kids[k], st, fr);
          if (!b.Single() || b.Single()->kind != PyVal::Kind::kInt) return UnknownOf(x);
          int64_t v = b.Single()->i;
          if (v < 0) v += n;
          v = std::clamp<int64_t>(v, 0, n);
          (k == 0 ? lo : hi) = v;
        }
        if (sl.kids.size() > 2 && !sl.kids[2].IsNoneConst()) return UnknownOf(x);
        if (hi < lo) hi = lo;
        Val r = o->kind == PyVal::Kind::kStr ? Val::Of(PyVal::Str(o->s.substr((size_t)lo, (size_t)(hi - lo))))
                                             : Val::Of(PyVal::Seq(o->kind, std::vector<PyVal>(o->items.begin() + lo, o->items.begin() + hi)));
        r.AddFrom(obj);
        return r;
      }
      Val idx = Eval(x.kids[1], st, fr);
      if (obj.kind == Val::Kind::kBuiltin && obj.name == "os.environ") {
        const PyVal* k = idx.Single();
        if (!k || k->kind != PyVal::Kind::kStr) return UnknownOf(x, "environment");
        Val e = EnvRead(k->s, nullptr);
        if (e.Single() && e.Single()->kind == PyVal::Kind::kNone) {
          Val u = Val::Unknow("environment", k->s + " is not set (os.environ raises KeyError)");
          u.from = e.from;
          return u;
        }
        return e;
      }
      if (obj.kind == Val::Kind::kTuple && obj.name == "dict") {
        if (const PyVal* i = idx.Single())
          for (size_t k = 0; k < obj.vals.size() && k < obj.elems.size(); ++k)
            if (obj.vals[k] == *i) return obj.elems[k];
        return UnknownOf(x);
      }
      if (obj.kind == Val::Kind::kTuple) {
        if (const PyVal* i = idx.Single(); i && i->kind == PyVal::Kind::kInt && i->i >= 0 && i->i < (int64_t)obj.elems.size())
          return obj.elems[(size_t)i->i];
        return UnknownOf(x);
      }
      return Lift2(obj, idx, [](const PyVal& o, const PyVal& i) -> std::optional<PyVal> {
        if (o.kind == PyVal::Kind::kDict) {
          for (size_t k = 0; k + 1 < o.items.size(); k += 2)
            if (o.items[k] == i) return o.items[k + 1];
          return std::nullopt;
        }
        if ((o.kind == PyVal::Kind::kList || o.kind == PyVal::Kind::kTuple || o.kind == PyVal::Kind::kStr) &&
            (i.kind == PyVal::Kind::kInt)) {
          int64_t n = o.kind == PyVal::Kind::kStr ? (int64_t)o.s.size() : (int64_t)o.items.size();
          int64_t k = i.i < 0 ? i.i + n : i.i;
          if (k < 0 || k >= n) return std::nullopt;
          return o.kind == PyVal::Kind::kStr ? PyVal::Str(o.s.substr((size_t)k, 1)) : o.items[(size_t)k];
        }
        return std::nullopt;
      }, Unparse(x, 120));
    }
    case Head::kCmp: return Compare(x, st, fr);
    case Head::kAnd:
    case Head::kOr: {
      bool is_and = x.head == Head::kAnd;
      Val acc;
      bool have = false;
      std::vector<PyVal> kept;  // values that end the evaluation
      Val from_all = Val::Opaque();
      for (size_t k = 0; k < x.kids.size(); ++k) {
        Val v = Eval(x.kids[k], st, fr);
        from_all.AddFrom(v);
        bool last = k + 1 == x.kids.size();
        Tri t = v.Truth();
        if (last) {
          if (v.kind != Val::Kind::kValues) {
            if (kept.empty()) {
              v.AddFrom(from_all);
              return v;
            }
            Val u = Val::Unknow("", "");
            u.AddWhy(v);
            u.AddFrom(from_all);
            return u;
          }
          kept.insert(kept.end(), v.vals.begin(), v.vals.end());
          have = true;
          break;
        }
        if (t == Tri::kUnknown && v.kind != Val::Kind::kValues) {
          Val u = Val::Unknow("", "");
          u.AddWhy(v);
          u.AddFrom(from_all);
          return u;
        }
        // values that stop here: falsy ones for `and`, truthy ones for `or`
        bool stops_all = (t == (is_and ? Tri::kFalse : Tri::kTrue));
        for (const PyVal& p : v.vals)
          if (p.Truthy() != is_and) kept.push_back(p);
        if (stops_all) {
          have = true;
          break;
        }
      }
      (void)acc;
      if (!have) return UnknownOf(x);
      Val r = Val::OneOf(std::move(kept));
      r.AddFrom(from_all);
      return r;
    }
    case Head::kNot: {
      if (x.kids.size() != 1) return UnknownOf(x);
      Val v = Eval(x.kids[0], st, fr);
      Tri t = v.Truth();
      if (t == Tri::kUnknown) {
        Val u = Val::Unknow("", "");
        u.AddWhy(v);
        if (u.why.empty()) u.why.push_back({Category(Unparse(x)), Unparse(x)});
        u.AddFrom(v);
        return u;
      }
      Val r = Bool(t == Tri::kFalse);
      r.AddFrom(v);
      return r;
    }
    case Head::kNeg:
    case Head::kPos:
    case Head::kInv: {
      if (x.kids.size() != 1) return UnknownOf(x);
      Val v = Eval(x.kids[0], st, fr);
      Head h = x.head;
      return Lift2(v, Bool(false), [h](const PyVal& a, const PyVal&) -> std::optional<PyVal> {
        if (a.kind == PyVal::Kind::kFloat) return h == Head::kInv ? std::nullopt : std::optional<PyVal>(PyVal::Float(h == Head::kNeg ? -a.f : a.f));
        if (a.kind != PyVal::Kind::kInt && a.kind != PyVal::Kind::kBool) return std::nullopt;
        int64_t i = a.kind == PyVal::Kind::kBool ? a.b : a.i;
        if (i == INT64_MIN) return std::nullopt;
        return PyVal::Int(h == Head::kNeg ? -i : h == Head::kInv ? ~i : i);
      }, Unparse(x, 120));
    }
    case Head::kBin: {
      if (x.kids.size() != 2) return UnknownOf(x);
      Val a = Eval(x.kids[0], st, fr);
      Val b = Eval(x.kids[1], st, fr);
      std::string op = x.text;
      return Lift2(a, b, [&op](const PyVal& p, const PyVal& q) { return PyBinOp(op, p, q); }, Unparse(x, 120));
    }
    case Head::kIfx: {
      if (x.kids.size() != 3) return UnknownOf(x);
      PathStep step;
      Tri t = Truth(x.kids[0], st, fr, &step);
      if (t == Tri::kTrue) return Eval(x.kids[1], st, fr);
      if (t == Tri::kFalse) return Eval(x.kids[2], st, fr);
      Val r = Join(Eval(x.kids[1], st, fr), Eval(x.kids[2], st, fr));
      r.from.insert(r.from.end(), step.from.begin(), step.from.end());
      return r;
    }
    case Head::kTuple:
    case Head::kList:
    case Head::kSet: {
      PyVal::Kind k = x.head == Head::kTuple ? PyVal::Kind::kTuple : x.head == Head::kList ? PyVal::Kind::kList : PyVal::Kind::kSet;
      std::vector<Val> elems;
      bool concrete = true;
      size_t combos = 1;
      for (const Cx& e : x.kids) {
        if (e.head == Head::kStar) {
          concrete = false;
          elems.push_back(UnknownOf(e));
          continue;
        }
        elems.push_back(Eval(e, st, fr));
        if (elems.back().kind != Val::Kind::kValues) concrete = false;
        else combos *= elems.back().vals.size();
      }
      if (!concrete || combos > kMaxValues) {
        if (x.head == Head::kTuple) {
          Val t;
          t.kind = Val::Kind::kTuple;
          t.elems = std::move(elems);
          return t;
        }
        Val u = UnknownOf(x);
        for (const Val& e : elems) u.AddFrom(e), u.AddWhy(e);
        return u;
      }
      std::vector<std::vector<PyVal>> seqs{{}};
      Val from_all = Val::Opaque();
      for (const Val& e : elems) {
        from_all.AddFrom(e);
        std::vector<std::vector<PyVal>> next;
        for (const auto& s : seqs)
          for (const PyVal& v : e.vals) {
            auto n = s;
            n.push_back(v);
            next.push_back(std::move(n));
          }
        seqs = std::move(next);
      }
      std::vector<PyVal> out;
      for (auto& s : seqs) out.push_back(PyVal::Seq(k, std::move(s)));
      Val r = Val::OneOf(std::move(out));
      r.AddFrom(from_all);
      return r;
    }
    case Head::kDict: {
      std::vector<PyVal> items;
      for (const Cx& e : x.kids) {
        Val v = Eval(e, st, fr);
        if (!v.Single()) return UnknownOf(x);
        items.push_back(*v.Single());
      }
      return Val::Of(PyVal::Seq(PyVal::Kind::kDict, std::move(items)));
    }
    case Head::kWalrus: {
      if (x.kids.size() != 2) return UnknownOf(x);
      Val v = Eval(x.kids[1], st, fr);
      Assign(x.kids[0], v, st, fr);
      return v;
    }
    default: return UnknownOf(x);
  }
}

Val Interpreter::Call(const Cx& x, State& st, Frame& fr) {
  if (x.kids.empty()) return UnknownOf(x);
  const Cx& callee = x.kids[0];
  std::vector<Val> args;
  std::vector<std::pair<std::string, Val>> kwargs;
  bool star = false;
  // A mutating method on a local or a settings attribute: apply it or forget the value.
  if (callee.head == Head::kAttr && callee.kids.size() == 2 && IsMutator(callee.kids[1].text)) {
    const Cx& base = callee.kids[0];
    bool storage = (base.IsName() && st.locals.count(base.text)) ||
                   (base.head == Head::kAttr && base.kids.size() == 2 && Eval(base.kids[0], st, fr).kind == Val::Kind::kSettings);
    if (storage) {
      Val cur = Eval(base, st, fr);
      for (size_t k = 1; k < x.kids.size(); ++k) {
        if (x.kids[k].head == Head::kKw || x.kids[k].head == Head::kStar || x.kids[k].head == Head::kStarStar) star = true;
        else args.push_back(Eval(x.kids[k], st, fr));
      }
      const std::string& m = callee.kids[1].text;
      const PyVal* c = cur.Single();
      Val result = Val::Of(PyVal::None());
      Val updated = Val::Unknow("run-time value", Unparse(base) + " after ." + m + "()");
      if (c && !star && (c->kind == PyVal::Kind::kList || c->kind == PyVal::Kind::kSet)) {
        PyVal n = *c;
        bool ok = true;
        auto arg = [&](size_t i) -> const PyVal* { return i < args.size() ? args[i].Single() : nullptr; };
        if ((m == "append" || m == "add") && arg(0) && args.size() == 1) {
          n.items.push_back(*arg(0));
          n = PyVal::Seq(n.kind, std::move(n.items));
        } else if (m == "extend" && arg(0) && arg(0)->Iter() && args.size() == 1) {
          std::vector<PyVal> more = *arg(0)->Iter();
          for (const PyVal& v : more) n.items.push_back(v);
          n = PyVal::Seq(n.kind, std::move(n.items));
        } else if ((m == "remove" || m == "discard") && arg(0) && args.size() == 1) {
          auto it = std::find(n.items.begin(), n.items.end(), *arg(0));
          if (it != n.items.end()) n.items.erase(it);
          else ok = m == "discard";
        } else if (m == "clear" && args.empty()) {
          n.items.clear();
        } else {
          ok = false;
        }
        if (ok) updated = Val::Of(std::move(n)), updated.AddFrom(cur);
      }
      for (const Val& a : args) updated.AddFrom(a);
      Assign(base, updated, st, fr);
      return result;
    }
  }
  Val f = Eval(callee, st, fr);
  for (size_t k = 1; k < x.kids.size(); ++k) {
    const Cx& a = x.kids[k];
    if (a.head == Head::kKw && a.kids.size() == 2) kwargs.emplace_back(a.kids[0].text, Eval(a.kids[1], st, fr));
    else if (a.head == Head::kStar || a.head == Head::kStarStar) {
      star = true;
      if (!a.kids.empty()) Eval(a.kids[0], st, fr);
    } else args.push_back(Eval(a, st, fr));
  }
  if (st.alive == Alive::kDead) return Val::Opaque();
  switch (f.kind) {
    case Val::Kind::kFunction: {
      Val r = Invoke({f.file, f.index}, f.self, args, kwargs, star, x, st, fr);
      // An unknown result of a function whose name says what it asks (is_sm100_supported(),
      // is_flashinfer_available()): that is the reason a person can act on.
      if (r.kind == Val::Kind::kUnknown) {
        std::string text = Unparse(x, 120);
        std::string cat = Category(text);
        if (cat != "run-time value" && (r.why.empty() || r.why[0].expr != text)) r.why.insert(r.why.begin(), {cat, text});
        if (r.why.size() > kMaxReasons) r.why.resize(kMaxReasons);
      }
      return r;
    }
    case Val::Kind::kClass: return Construct({f.file, f.index}, args, kwargs, x, st, fr);
    case Val::Kind::kBuiltin: return CallBuiltin(f.name, x, args, kwargs, st, fr);
    case Val::Kind::kBound: return CallMethodOfValue(f, args, st);
    default: {
      Val u = UnknownOf(x);
      if (!f.why.empty() && f.why[0].category != "run-time value") u.why = {{f.why[0].category, Unparse(x, 120)}};
      return u;
    }
  }
}

Val Interpreter::CallBuiltin(const std::string& name, const Cx& x, const std::vector<Val>& args,
                             const std::vector<std::pair<std::string, Val>>& kwargs, State& st, Frame& fr) {
  auto arg = [&](size_t i) -> const Val* { return i < args.size() ? &args[i] : nullptr; };
  auto kw = [&](const std::string& k) -> const Val* {
    for (const auto& [n, v] : kwargs)
      if (n == k) return &v;
    return nullptr;
  };
  auto one = [&](size_t i) -> const PyVal* { return i < args.size() ? args[i].Single() : nullptr; };
  auto with_from = [&](Val r) {
    for (const Val& a : args) r.AddFrom(a);
    return r;
  };
  auto unknown = [&]() {
    Val u = UnknownOf(x);
    for (const Val& a : args) u.AddFrom(a);
    return u;
  };
  if (name == "argparse.parse_args" || name == "argparse.parse_args_into_dataclasses") return Val::Settings();
  if (name == "argparse.parse_known_args") {
    Val t;
    t.kind = Val::Kind::kTuple;
    t.elems = {Val::Settings(), Val::Unknow("run-time value", "the arguments argparse did not recognize")};
    return t;
  }
  if (name == "argparse.noop" || name == "print") return Val::Of(PyVal::None());
  if (name == "sys.exit" || name == "exit" || name == "quit" || name == "os._exit") {
    if (st.alive != Alive::kDead) {
      st.alive = Alive::kDead;
      st.exited = true;
    }
    return Val::Opaque();
  }
  if (name == "os.getenv" || name == "os.environ.get") {
    const PyVal* k = one(0);
    if (!k || k->kind != PyVal::Kind::kStr) return UnknownOf(x, "environment");
    const Val* d = arg(1) ? arg(1) : kw("default");
    return EnvRead(k->s, d);
  }
  if (name == "len") {
    const Val* a = arg(0);
    if (a && a->kind == Val::Kind::kTuple) return Val::Of(PyVal::Int((int64_t)a->elems.size()));
    if (!a || a->kind != Val::Kind::kValues) return unknown();
    std::vector<PyVal> out;
    for (const PyVal& p : a->vals) {
      if (p.kind == PyVal::Kind::kStr) out.push_back(PyVal::Int((int64_t)p.s.size()));  // bytes: exact for ASCII
      else if (p.IsSeq()) out.push_back(PyVal::Int((int64_t)p.items.size()));
      else if (p.kind == PyVal::Kind::kDict) out.push_back(PyVal::Int((int64_t)p.items.size() / 2));
      else return unknown();
    }
    return with_from(Val::OneOf(std::move(out)));
  }
  if (name == "int" || name == "float" || name == "str" || name == "bool") {
    const Val* a = arg(0);
    if (!a) {
      if (name == "str") return Val::Of(PyVal::Str(""));
      if (name == "bool") return Bool(false);
      return Val::Of(name == "int" ? PyVal::Int(0) : PyVal::Float(0));
    }
    if (a->kind != Val::Kind::kValues || args.size() > 1) return unknown();
    std::vector<PyVal> out;
    for (const PyVal& p : a->vals) {
      if (name == "bool") out.push_back(PyVal::Bool(p.Truthy()));
      else if (name == "str") out.push_back(PyVal::Str(p.Str()));
      else if (name == "int") {
        if (p.kind == PyVal::Kind::kInt) out.push_back(p);
        else if (p.kind == PyVal::Kind::kBool) out.push_back(PyVal::Int(p.b));
        else if (p.kind == PyVal::Kind::kFloat && std::isfinite(p.f) && std::fabs(p.f) < 9e18) out.push_back(PyVal::Int((int64_t)p.f));
        else if (p.kind == PyVal::Kind::kStr && PyIntFromString(p.s)) out.push_back(PyVal::Int(*PyIntFromString(p.s)));
        else return unknown();
      } else {
        if (p.IsNumber()) out.push_back(PyVal::Float(p.AsDouble()));
        else if (p.kind == PyVal::Kind::kStr && PyFloatFromString(p.s)) out.push_back(PyVal::Float(*PyFloatFromString(p.s)));
        else return unknown();
      }
    }
    return with_from(Val::OneOf(std::move(out)));
  }
  if (name == "list" || name == "tuple" || name == "set" || name == "frozenset" || name == "sorted") {
    const Val* a = arg(0);
    if (!a) return Val::Of(PyVal::Seq(name == "tuple" ? PyVal::Kind::kTuple : name == "list" || name == "sorted" ? PyVal::Kind::kList : PyVal::Kind::kSet, {}));
    const PyVal* p = a->Single();
    if (!p || !p->Iter() || !kwargs.empty()) return unknown();
    std::vector<PyVal> items = *p->Iter();
    PyVal::Kind k = name == "tuple" ? PyVal::Kind::kTuple : (name == "list" || name == "sorted") ? PyVal::Kind::kList : PyVal::Kind::kSet;
    if (name == "sorted") {
      for (size_t i = 1; i < items.size(); ++i)
        if (!PyCompare(items[i - 1], "<", items[i])) {
          if (!PyCompare(items[i], "<", items[i - 1])) return unknown();
        }
      bool ok = true;
      std::stable_sort(items.begin(), items.end(), [&](const PyVal& l, const PyVal& r) {
        auto c = PyCompare(l, "<", r);
        if (!c) ok = false;
        return c.value_or(false);
      });
      if (!ok) return unknown();
    }
    return with_from(Val::Of(PyVal::Seq(k, std::move(items))));
  }
  if (name == "any" || name == "all") {
    const PyVal* p = one(0);
    if (!p || !p->Iter()) return unknown();
    bool r = name == "all";
    std::vector<PyVal> items = *p->Iter();
    for (const PyVal& v : items) r = name == "all" ? (r && v.Truthy()) : (r || v.Truthy());
    return with_from(Bool(r));
  }
  if (name == "min" || name == "max") {
    std::vector<PyVal> items;
    if (args.size() == 1 && one(0) && one(0)->Iter()) items = *one(0)->Iter();
    else
      for (size_t i = 0; i < args.size(); ++i) {
        if (!one(i)) return unknown();
        items.push_back(*one(i));
      }
    if (items.empty() || !kwargs.empty()) return unknown();
    PyVal best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
      auto c = PyCompare(items[i], name == "min" ? "<" : ">", best);
      if (!c) return unknown();
      if (*c) best = items[i];
    }
    return with_from(Val::Of(best));
  }
  if (name == "abs") {
    const PyVal* p = one(0);
    if (!p || !p->IsNumber()) return unknown();
    if (p->kind == PyVal::Kind::kFloat) return with_from(Val::Of(PyVal::Float(std::fabs(p->f))));
    int64_t v = p->kind == PyVal::Kind::kBool ? p->b : p->i;
    if (v == INT64_MIN) return unknown();
    return with_from(Val::Of(PyVal::Int(v < 0 ? -v : v)));
  }
  if (name == "isinstance") {
    const Val* a = arg(0);
    const Val* t = arg(1);
    if (!a || !t || a->kind != Val::Kind::kValues || t->kind != Val::Kind::kBuiltin) return unknown();
    std::vector<std::string> types{t->name};
    std::vector<PyVal> out;
    for (const PyVal& p : a->vals) {
      bool r = false;
      for (const std::string& ty : types) {
        if (ty == "str") r |= p.kind == PyVal::Kind::kStr;
        else if (ty == "int") r |= p.kind == PyVal::Kind::kInt || p.kind == PyVal::Kind::kBool;
        else if (ty == "float") r |= p.kind == PyVal::Kind::kFloat;
        else if (ty == "bool") r |= p.kind == PyVal::Kind::kBool;
        else if (ty == "list") r |= p.kind == PyVal::Kind::kList;
        else if (ty == "tuple") r |= p.kind == PyVal::Kind::kTuple;
        else if (ty == "dict") r |= p.kind == PyVal::Kind::kDict;
        else if (ty == "set") r |= p.kind == PyVal::Kind::kSet;
        else return unknown();
      }
      out.push_back(PyVal::Bool(r));
    }
    return with_from(Val::OneOf(std::move(out)));
  }
  if (name == "getattr" || name == "hasattr") {
    const Val* o = arg(0);
    const PyVal* n = one(1);
    if (!o || !n || n->kind != PyVal::Kind::kStr) {
      Val u = UnknownOf(x);
      if (o && o->kind == Val::Kind::kBuiltin && o->external) u.why = {{"installed package", Unparse(x, 120)}};
      return u;
    }
    if (o->kind == Val::Kind::kBuiltin && o->external) return Val::Unknow("installed package", Unparse(x, 120));
    if (o->kind == Val::Kind::kValues) {  // a plain value: no such attribute (its methods aside)
      if (name == "hasattr") return UnknownOf(x);
      if (arg(2)) return *arg(2);
      return UnknownOf(x);
    }
    Cx attr = Cx::List(Head::kAttr, {x.kids.size() > 1 ? x.kids[1] : Cx::Name("?"), Cx::Name(n->s)});
    if (o->kind == Val::Kind::kSettings) {
      bool present = st.heap.count(n->s) > 0;
      for (ClassRef c : ix_.settings_classes()) present = present || ix_.Method(c, n->s) || ix_.ClassAttr(c, n->s);
      if (name == "hasattr") return present ? Bool(true) : UnknownOf(x);
      if (!present && (arg(2) || kw("default"))) return *(arg(2) ? arg(2) : kw("default"));
    }
    Val v = Attr(*o, n->s, attr, st, fr);
    if (name == "hasattr") return v.kind == Val::Kind::kUnknown ? UnknownOf(x) : Bool(true);
    if (v.kind == Val::Kind::kUnknown && arg(2)) {
      Val j = Join(v, *arg(2));
      return j;
    }
    return v;
  }
  if (name == "setattr") {
    const Val* o = arg(0);
    const PyVal* n = one(1);
    if (o && o->kind == Val::Kind::kSettings && arg(2)) {
      if (n && n->kind == PyVal::Kind::kStr) {
        Val w = *arg(2);
        if (auto f = dest_flag_.find(n->s); f != dest_flag_.end()) w.from.push_back(f->second);
        st.heap[n->s] = w;
      } else {
        for (auto& [k, v] : st.heap.Mut()) v = Val::Unknow("run-time value", "setattr(" + Unparse(x.kids.size() > 1 ? x.kids[1] : x) + ", ...)");
      }
    }
    return Val::Of(PyVal::None());
  }
  if (name == "vars" || name == "copy.copy" || name == "copy.deepcopy" || name == "dataclasses.replace") {
    const Val* o = arg(0);
    if (o && o->kind == Val::Kind::kSettings) {
      if (name == "dataclasses.replace")
        for (const auto& [k, v] : kwargs) st.heap[k] = v;
      return *o;
    }
    return unknown();
  }
  if (name == "super") {
    Val s = Val::Builtin("super");
    if (const Val* self = st.locals.Get("self")) s.elems = {*self};
    return s;
  }
  if (name == "range") {
    std::vector<int64_t> n;
    for (size_t i = 0; i < args.size(); ++i) {
      const PyVal* p = one(i);
      if (!p || p->kind != PyVal::Kind::kInt) return unknown();
      n.push_back(p->i);
    }
    int64_t lo = n.size() >= 2 ? n[0] : 0, hi = n.size() >= 2 ? n[1] : (n.empty() ? 0 : n[0]), step = n.size() >= 3 ? n[2] : 1;
    if (step == 0 || (hi - lo) / step > 256) return unknown();
    std::vector<PyVal> items;
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) items.push_back(PyVal::Int(i));
    return Val::Of(PyVal::Seq(PyVal::Kind::kList, std::move(items)));
  }
  if (name == "repr") {
    const PyVal* p = one(0);
    return p ? with_from(Val::Of(PyVal::Str(p->Repr()))) : unknown();
  }
  // Anything else from outside the repository: its result is only known at run time.
  Val u = UnknownOf(x);
  for (const Val& a : args) u.AddFrom(a);
  return u;
}

Val Interpreter::CallMethodOfValue(const Val& bound, const std::vector<Val>& args, State& st) {
  const Val& recv = bound.elems.empty() ? bound : bound.elems[0];
  const std::string& m = bound.name;
  std::string what = "." + m + "()";
  if (recv.kind == Val::Kind::kTuple && recv.name == "dict") {  // **kwargs: known keys, abstract values
    Val seq;
    seq.kind = Val::Kind::kTuple;
    if (m == "keys") return Val::Of(PyVal::Seq(PyVal::Kind::kList, recv.vals));
    if (m == "values") {
      seq.elems = recv.elems;
      return seq;
    }
    if (m == "items") {
      for (size_t k = 0; k < recv.vals.size() && k < recv.elems.size(); ++k) {
        Val pair;
        pair.kind = Val::Kind::kTuple;
        pair.elems = {Val::Of(recv.vals[k]), recv.elems[k]};
        seq.elems.push_back(std::move(pair));
      }
      return seq;
    }
    if (m == "get" && !args.empty() && args[0].Single()) {
      for (size_t k = 0; k < recv.vals.size() && k < recv.elems.size(); ++k)
        if (recv.vals[k] == *args[0].Single()) return recv.elems[k];
      return args.size() > 1 ? args[1] : Val::Of(PyVal::None());
    }
    return Val::Unknow("run-time value", what);
  }
  if (recv.kind != Val::Kind::kValues) return Val::Unknow("run-time value", what);
  for (const Val& a : args)
    if (a.kind != Val::Kind::kValues) {
      Val u = Val::Unknow("", "");
      u.AddWhy(a);
      if (u.why.empty()) u.why.push_back({"run-time value", what});
      u.AddFrom(a);
      u.AddFrom(recv);
      return u;
    }
  std::vector<PyVal> out;
  auto str_arg = [&](size_t i) -> const PyVal* {
    return i < args.size() && args[i].Single() && args[i].Single()->kind == PyVal::Kind::kStr ? args[i].Single() : nullptr;
  };
  for (const PyVal& p : recv.vals) {
    if (p.kind == PyVal::Kind::kStr) {
      const std::string& s = p.s;
      if (m == "lower" || m == "upper") {
        std::string r = s;
        for (char& c : r)
          if ((unsigned char)c < 0x80) c = (char)(m == "lower" ? std::tolower((unsigned char)c) : std::toupper((unsigned char)c));
        out.push_back(PyVal::Str(r));
      } else if ((m == "strip" || m == "lstrip" || m == "rstrip") && args.empty()) {
        size_t b = 0, e = s.size();
        auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
        if (m != "rstrip") while (b < e && ws(s[b])) ++b;
        if (m != "lstrip") while (e > b && ws(s[e - 1])) --e;
        out.push_back(PyVal::Str(s.substr(b, e - b)));
      } else if ((m == "startswith" || m == "endswith") && args.size() == 1) {
        std::vector<PyVal> cands;
        const PyVal* a = args[0].Single();
        if (!a) return Val::Unknow("run-time value", what);
        if (a->kind == PyVal::Kind::kStr) cands.push_back(*a);
        else if (a->kind == PyVal::Kind::kTuple) cands = a->items;
        else return Val::Unknow("run-time value", what);
        bool r = false;
        for (const PyVal& c : cands) {
          if (c.kind != PyVal::Kind::kStr) return Val::Unknow("run-time value", what);
          r |= m == "startswith" ? s.compare(0, c.s.size(), c.s) == 0
                                 : (s.size() >= c.s.size() && s.compare(s.size() - c.s.size(), c.s.size(), c.s) == 0);
        }
        out.push_back(PyVal::Bool(r));
      } else if (m == "replace" && args.size() == 2 && str_arg(0) && str_arg(1) && !str_arg(0)->s.empty()) {
        std::string r;
        const std::string &from = str_arg(0)->s, &to = str_arg(1)->s;
        size_t pos = 0;
        for (size_t f; (f = s.find(from, pos)) != std::string::npos; pos = f + from.size()) r += s.substr(pos, f - pos) + to;
        out.push_back(PyVal::Str(r + s.substr(pos)));
      } else if (m == "split" && args.size() <= 1) {
        std::vector<PyVal> parts;
        if (args.empty()) {
          size_t i = 0;
          while (i < s.size()) {
            while (i < s.size() && std::isspace((unsigned char)s[i])) ++i;
            size_t b = i;
            while (i < s.size() && !std::isspace((unsigned char)s[i])) ++i;
            if (i > b) parts.push_back(PyVal::Str(s.substr(b, i - b)));
          }
        } else if (str_arg(0) && !str_arg(0)->s.empty()) {
          const std::string& sep = str_arg(0)->s;
          size_t pos = 0;
          for (size_t f; (f = s.find(sep, pos)) != std::string::npos; pos = f + sep.size()) parts.push_back(PyVal::Str(s.substr(pos, f - pos)));
          parts.push_back(PyVal::Str(s.substr(pos)));
        } else {
          return Val::Unknow("run-time value", what);
        }
        out.push_back(PyVal::Seq(PyVal::Kind::kList, std::move(parts)));
      } else if ((m == "isdigit" || m == "isnumeric" || m == "isdecimal") && args.empty()) {
        out.push_back(PyVal::Bool(!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })));
      } else if (m == "join" && args.size() == 1 && args[0].Single() && args[0].Single()->Iter()) {
        std::string r;
        bool first = true;
        std::vector<PyVal> parts = *args[0].Single()->Iter();
        for (const PyVal& v : parts) {
          if (v.kind != PyVal::Kind::kStr) return Val::Unknow("run-time value", what);
          r += (first ? "" : s) + v.s;
          first = false;
        }
        out.push_back(PyVal::Str(r));
      } else {
        return Val::Unknow("run-time value", what);
      }
    } else if (p.kind == PyVal::Kind::kDict) {
      if (m == "get" && (args.size() == 1 || args.size() == 2) && args[0].Single()) {
        PyVal r = args.size() == 2 && args[1].Single() ? *args[1].Single() : PyVal::None();
        if (args.size() == 2 && !args[1].Single()) return Val::Unknow("run-time value", what);
        for (size_t k = 0; k + 1 < p.items.size(); k += 2)
          if (p.items[k] == *args[0].Single()) r = p.items[k + 1];
        out.push_back(r);
      } else if ((m == "keys" || m == "values") && args.empty()) {
        std::vector<PyVal> r;
        for (size_t k = m == "keys" ? 0 : 1; k < p.items.size(); k += 2) r.push_back(p.items[k]);
        out.push_back(PyVal::Seq(PyVal::Kind::kList, std::move(r)));
      } else {
        return Val::Unknow("run-time value", what);
      }
    } else if (p.IsSeq() && m == "count" && args.size() == 1 && args[0].Single()) {
      int64_t n = 0;
      for (const PyVal& v : p.items) n += v == *args[0].Single();
      out.push_back(PyVal::Int(n));
    } else if (p.IsSeq() && m == "index" && args.size() == 1 && args[0].Single()) {
      auto it = std::find(p.items.begin(), p.items.end(), *args[0].Single());
      if (it == p.items.end()) return Val::Unknow("run-time value", what);
      out.push_back(PyVal::Int(it - p.items.begin()));
    } else {
      return Val::Unknow("run-time value", what);
    }
  }
  Val r = Val::OneOf(std::move(out));
  r.AddFrom(recv);
  for (const Val& a : args) r.AddFrom(a);
  return r;
}

}  // namespace errdex::check
