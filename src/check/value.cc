// check/value.cc: Python semantics on concrete values (see value.h).
// Tested by value_test.cc.
#include "check/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace errdex::check {

const PyItems::Vec& PyItems::vec() const {
  static const Vec kEmpty;
  return p_ ? *p_ : kEmpty;
}

PyItems::PyItems(Vec v) { *this = std::move(v); }

PyItems& PyItems::operator=(Vec v) {
  if (v.empty()) p_.reset();
  else p_ = std::make_shared<Vec>(std::move(v));
  return *this;
}

PyItems::Vec& PyItems::mut() {
  if (!p_) p_ = std::make_shared<Vec>();
  else if (p_.use_count() > 1) p_ = std::make_shared<Vec>(*p_);
  return *p_;
}

void PyItems::push_back(PyVal v) { mut().push_back(std::move(v)); }

void PyItems::insert(const_iterator pos, const_iterator first, const_iterator last) {
  size_t at = p_ ? (size_t)(pos - p_->cbegin()) : 0;
  Vec add(first, last);  // the range may be these very elements
  Vec& v = mut();
  v.insert(v.begin() + (long)at, std::make_move_iterator(add.begin()), std::make_move_iterator(add.end()));
}

void PyItems::erase(const_iterator pos) {
  size_t at = (size_t)(pos - p_->cbegin());
  Vec& v = mut();
  v.erase(v.begin() + (long)at);
}

namespace {

constexpr size_t kMaxReprBytes = 200;

bool SeqKindEq(PyVal::Kind a, PyVal::Kind b) { return a == b; }

std::string FloatRepr(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::string s = buf;
  // Python: 1e+16 -> 1e+16, 100.0 -> 100.0, 1e-05 -> 1e-05
  if (s.find_first_of(".einn") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

PyVal PyVal::Bool(bool v) {
  PyVal p;
  p.kind = Kind::kBool;
  p.b = v;
  return p;
}
PyVal PyVal::Int(int64_t v) {
  PyVal p;
  p.kind = Kind::kInt;
  p.i = v;
  return p;
}
PyVal PyVal::Float(double v) {
  PyVal p;
  p.kind = Kind::kFloat;
  p.f = v;
  return p;
}
PyVal PyVal::Str(std::string v) {
  PyVal p;
  p.kind = Kind::kStr;
  p.s = std::move(v);
  return p;
}
PyVal PyVal::Seq(Kind k, std::vector<PyVal> items) {
  PyVal p;
  p.kind = k;
  p.items = std::move(items);
  if (k == Kind::kSet) {  // no duplicates
    std::vector<PyVal> u;
    for (auto& x : p.items)
      if (std::find(u.begin(), u.end(), x) == u.end()) u.push_back(std::move(x));
    p.items = std::move(u);
  }
  return p;
}

bool PyVal::Truthy() const {
  switch (kind) {
    case Kind::kNone: return false;
    case Kind::kBool: return b;
    case Kind::kInt: return i != 0;
    case Kind::kFloat: return f != 0.0;
    case Kind::kStr: return !s.empty();
    default: return !items.empty();
  }
}

std::string PyVal::Repr() const {
  std::string out;
  switch (kind) {
    case Kind::kNone: return "None";
    case Kind::kBool: return b ? "True" : "False";
    case Kind::kInt: return std::to_string(i);
    case Kind::kFloat: return FloatRepr(f);
    case Kind::kStr: {
      bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
      char q = dq ? '"' : '\'';
      out.push_back(q);
      for (char c : s) {
        if (out.size() > kMaxReprBytes) {
          out += "...";
          break;
        }
        if (c == '\\') out += "\\\\";
        else if (c == q) out += std::string("\\") + q;
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if ((unsigned char)c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", (unsigned char)c);
          out += buf;
        } else out.push_back(c);
      }
      out.push_back(q);
      return out;
    }
    case Kind::kDict: {
      out = "{";
      for (size_t k = 0; k + 1 < items.size(); k += 2) {
        if (k) out += ", ";
        out += items[k].Repr() + ": " + items[k + 1].Repr();
        if (out.size() > kMaxReprBytes) {
          out += ", ...";
          break;
        }
      }
      return out + "}";
    }
    default: {
      const char* open = kind == Kind::kList ? "[" : kind == Kind::kTuple ? "(" : "{";
      const char* close = kind == Kind::kList ? "]" : kind == Kind::kTuple ? ")" : "}";
      if (kind == Kind::kSet && items.empty()) return "set()";
      out = open;
      for (size_t k = 0; k < items.size(); ++k) {
        if (k) out += ", ";
        out += items[k].Repr();
        if (out.size() > kMaxReprBytes) {
          out += ", ...";
          break;
        }
      }
      if (kind == Kind::kTuple && items.size() == 1) out += ",";
      out += close;
      return out;
    }
  }
}

std::string PyVal::Str() const { return kind == Kind::kStr ? s : Repr(); }

bool operator==(const PyVal& a, const PyVal& b) {
  if (a.IsNumber() && b.IsNumber()) {
    if (a.kind == PyVal::Kind::kFloat || b.kind == PyVal::Kind::kFloat) return a.AsDouble() == b.AsDouble();
    int64_t x = a.kind == PyVal::Kind::kBool ? a.b : a.i, y = b.kind == PyVal::Kind::kBool ? b.b : b.i;
    return x == y;
  }
  if (a.kind != b.kind) return false;
  if (a.kind != PyVal::Kind::kStr && a.items.SharedWith(b.items)) return true;  // Python: x == x for containers
  switch (a.kind) {
    case PyVal::Kind::kNone: return true;
    case PyVal::Kind::kStr: return a.s == b.s;
    case PyVal::Kind::kDict: {
      if (a.items.size() != b.items.size()) return false;
      for (size_t k = 0; k + 1 < a.items.size(); k += 2) {
        bool found = false;
        for (size_t j = 0; j + 1 < b.items.size(); j += 2)
          if (a.items[k] == b.items[j]) {
            found = a.items[k + 1] == b.items[j + 1];
            break;
          }
        if (!found) return false;
      }
      return true;
    }
    case PyVal::Kind::kSet: {
      if (a.items.size() != b.items.size()) return false;
      for (const auto& x : a.items)
        if (std::find(b.items.begin(), b.items.end(), x) == b.items.end()) return false;
      return true;
    }
    default:
      if (!SeqKindEq(a.kind, b.kind) || a.items.size() != b.items.size()) return false;
      for (size_t k = 0; k < a.items.size(); ++k)
        if (!(a.items[k] == b.items[k])) return false;
      return true;
  }
}

std::optional<bool> PyCompare(const PyVal& a, std::string_view op, const PyVal& b) {
  int c = 0;
  if (a.IsNumber() && b.IsNumber()) {
    if (a.kind == PyVal::Kind::kFloat || b.kind == PyVal::Kind::kFloat) {
      double x = a.AsDouble(), y = b.AsDouble();
      if (std::isnan(x) || std::isnan(y)) return false;
      c = x < y ? -1 : x > y ? 1 : 0;
    } else {
      int64_t x = a.kind == PyVal::Kind::kBool ? a.b : a.i, y = b.kind == PyVal::Kind::kBool ? b.b : b.i;
      c = x < y ? -1 : x > y ? 1 : 0;
    }
  } else if (a.kind == PyVal::Kind::kStr && b.kind == PyVal::Kind::kStr) {
    c = a.s < b.s ? -1 : a.s > b.s ? 1 : 0;  // UTF-8 byte order is code point order
  } else if ((a.kind == PyVal::Kind::kList || a.kind == PyVal::Kind::kTuple) && a.kind == b.kind) {
    size_t n = std::min(a.items.size(), b.items.size());
    for (size_t k = 0; k < n; ++k) {
      if (a.items[k] == b.items[k]) continue;
      return PyCompare(a.items[k], op, b.items[k]);
    }
    c = a.items.size() < b.items.size() ? -1 : a.items.size() > b.items.size() ? 1 : 0;
  } else {
    return std::nullopt;
  }
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  if (op == ">=") return c >= 0;
  return std::nullopt;
}

std::optional<bool> PyContains(const PyVal& seq, const PyVal& x) {
  if (seq.kind == PyVal::Kind::kStr) {
    if (x.kind != PyVal::Kind::kStr) return std::nullopt;
    return seq.s.find(x.s) != std::string::npos;
  }
  if (seq.kind == PyVal::Kind::kDict) {
    for (size_t k = 0; k < seq.items.size(); k += 2)
      if (seq.items[k] == x) return true;
    return false;
  }
  if (!seq.IsSeq()) return std::nullopt;
  for (const auto& it : seq.items)
    if (it == x) return true;
  return false;
}

std::optional<std::vector<PyVal>> PyVal::Iter() const {
  if (IsSeq()) return items;
  if (kind == Kind::kDict) {
    std::vector<PyVal> keys;
    for (size_t k = 0; k < items.size(); k += 2) keys.push_back(items[k]);
    return keys;
  }
  if (kind == Kind::kStr) {
    std::vector<PyVal> chars;
    for (size_t k = 0; k < s.size();) {
      size_t n = 1;
      unsigned char c = (unsigned char)s[k];
      if (c >= 0xF0) n = 4;
      else if (c >= 0xE0) n = 3;
      else if (c >= 0xC0) n = 2;
      chars.push_back(PyVal::Str(s.substr(k, n)));
      k += n;
    }
    return chars;
  }
  return std::nullopt;
}

std::optional<PyVal> PyBinOp(std::string_view op, const PyVal& a, const PyVal& b) {
  auto as_int = [](const PyVal& v) -> int64_t { return v.kind == PyVal::Kind::kBool ? v.b : v.i; };
  bool ints = (a.kind == PyVal::Kind::kInt || a.kind == PyVal::Kind::kBool) &&
              (b.kind == PyVal::Kind::kInt || b.kind == PyVal::Kind::kBool);
  if (a.IsNumber() && b.IsNumber()) {
    if (ints) {
      int64_t x = as_int(a), y = as_int(b), r = 0;
      if (op == "+") return __builtin_add_overflow(x, y, &r) ? std::nullopt : std::optional<PyVal>(PyVal::Int(r));
      if (op == "-") return __builtin_sub_overflow(x, y, &r) ? std::nullopt : std::optional<PyVal>(PyVal::Int(r));
      if (op == "*") return __builtin_mul_overflow(x, y, &r) ? std::nullopt : std::optional<PyVal>(PyVal::Int(r));
      if (op == "/") return y == 0 ? std::nullopt : std::optional<PyVal>(PyVal::Float((double)x / (double)y));
      if (op == "//" || op == "%") {
        if (y == 0 || (x == INT64_MIN && y == -1)) return std::nullopt;
        int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) --q, m += y;
        return PyVal::Int(op == "//" ? q : m);
      }
      if (op == "**") {
        if (y < 0) return PyVal::Float(std::pow((double)x, (double)y));
        int64_t acc = 1;
        for (int64_t k = 0; k < y; ++k)
          if (__builtin_mul_overflow(acc, x, &acc)) return std::nullopt;
        return PyVal::Int(acc);
      }
      if (op == "&") return PyVal::Int(x & y);
      if (op == "|") return PyVal::Int(x | y);
      if (op == "^") return PyVal::Int(x ^ y);
      if (op == "<<" && y >= 0 && y < 62 && x >= 0 && x < (INT64_C(1) << (62 - y))) return PyVal::Int(x << y);
      if (op == ">>" && y >= 0) return PyVal::Int(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
      return std::nullopt;
    }
    double x = a.AsDouble(), y = b.AsDouble();
    if (op == "+") return PyVal::Float(x + y);
    if (op == "-") return PyVal::Float(x - y);
    if (op == "*") return PyVal::Float(x * y);
    if (op == "/") return y == 0 ? std::nullopt : std::optional<PyVal>(PyVal::Float(x / y));
    if (op == "//") return y == 0 ? std::nullopt : std::optional<PyVal>(PyVal::Float(std::floor(x / y)));
    if (op == "%") {
      if (y == 0) return std::nullopt;
      double m = std::fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return PyVal::Float(m);
    }
    if (op == "**") return PyVal::Float(std::pow(x, y));
    return std::nullopt;
  }
  if (op == "+" && a.kind == PyVal::Kind::kStr && b.kind == PyVal::Kind::kStr) return PyVal::Str(a.s + b.s);
  if (op == "+" && (a.kind == PyVal::Kind::kList || a.kind == PyVal::Kind::kTuple) && a.kind == b.kind) {
    std::vector<PyVal> items = a.items;
    items.insert(items.end(), b.items.begin(), b.items.end());
    return PyVal::Seq(a.kind, std::move(items));
  }
  if (op == "*" && a.kind == PyVal::Kind::kStr && (b.kind == PyVal::Kind::kInt || b.kind == PyVal::Kind::kBool)) {
    int64_t n = as_int(b);
    if (n <= 0) return PyVal::Str("");
    if (a.s.size() * (uint64_t)n > 4096) return std::nullopt;
    std::string r;
    for (int64_t k = 0; k < n; ++k) r += a.s;
    return PyVal::Str(r);
  }
  if ((op == "|" || op == "&" || op == "-") && a.kind == PyVal::Kind::kSet && b.kind == PyVal::Kind::kSet) {
    std::vector<PyVal> r;
    auto in = [](const PyVal& s, const PyVal& x) { return std::find(s.items.begin(), s.items.end(), x) != s.items.end(); };
    if (op == "|") {
      r = a.items;
      r.insert(r.end(), b.items.begin(), b.items.end());
    } else {
      for (const auto& x : a.items)
        if (in(b, x) == (op == "&")) r.push_back(x);
    }
    return PyVal::Seq(PyVal::Kind::kSet, std::move(r));
  }
  return std::nullopt;
}

Val Val::Of(PyVal v) {
  Val x;
  x.kind = Kind::kValues;
  x.vals.push_back(std::move(v));
  return x;
}

Val Val::OneOf(std::vector<PyVal> vs) {
  Val x;
  x.kind = Kind::kValues;
  for (auto& v : vs) {  // 1 == True == 1.0 in Python: kept apart by kind so repr stays right
    if (std::none_of(x.vals.begin(), x.vals.end(), [&](const PyVal& o) { return o.kind == v.kind && o == v; }))
      x.vals.push_back(std::move(v));
    if (x.vals.size() > kMaxValues) return Unknow("run-time value", "");  // before comparing the rest
  }
  if (x.vals.empty()) x.kind = Kind::kUnknown;
  return x;
}

Val Val::Unknow(std::string category, std::string expr) {
  Val x;
  if (!category.empty() || !expr.empty()) x.why.push_back({std::move(category), std::move(expr)});
  return x;
}

Val Val::Opaque() { return Val(); }

Val Val::Settings() {
  Val x;
  x.kind = Kind::kSettings;
  return x;
}

Val Val::Builtin(std::string name) {
  Val x;
  x.kind = Kind::kBuiltin;
  x.name = std::move(name);
  return x;
}

Tri Val::Truth() const {
  if (kind == Kind::kSettings || kind == Kind::kModule || kind == Kind::kFunction || kind == Kind::kClass ||
      kind == Kind::kBuiltin)
    return Tri::kTrue;  // objects without __bool__ / __len__ are true
  if (kind != Kind::kValues || vals.empty()) return Tri::kUnknown;
  bool any_true = false, any_false = false;
  for (const auto& v : vals) (v.Truthy() ? any_true : any_false) = true;
  return any_true && any_false ? Tri::kUnknown : any_true ? Tri::kTrue : Tri::kFalse;
}

void Val::AddFrom(const Val& o) {
  for (const auto& f : o.from)
    if (from.size() < kMaxProvenance && std::find(from.begin(), from.end(), f) == from.end()) from.push_back(f);
}

void Val::AddWhy(const Val& o) {
  for (const auto& w : o.why)
    if (why.size() < kMaxReasons && std::find(why.begin(), why.end(), w) == why.end()) why.push_back(w);
}

std::string Val::Describe() const {
  switch (kind) {
    case Kind::kValues: {
      if (vals.size() == 1) return vals[0].Repr();
      std::string s = "one of ";
      for (size_t k = 0; k < vals.size(); ++k) s += (k ? ", " : "") + vals[k].Repr();
      return s;
    }
    case Kind::kSettings: return "the settings";
    default: {
      std::string s = "unknown";
      if (!why.empty()) s += " (" + why[0].category + (why[0].expr.empty() ? "" : ": " + why[0].expr) + ")";
      return s;
    }
  }
}

bool SameVal(const Val& a, const Val& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Val::Kind::kUnknown: return true;
    case Val::Kind::kValues: {
      if (a.vals.size() != b.vals.size()) return false;
      for (const auto& v : a.vals)
        if (std::none_of(b.vals.begin(), b.vals.end(), [&](const PyVal& o) { return o.kind == v.kind && o == v; }))
          return false;
      return true;
    }
    case Val::Kind::kModule:
    case Val::Kind::kBuiltin: return a.name == b.name && a.external == b.external;
    case Val::Kind::kFunction:
    case Val::Kind::kClass:
    case Val::Kind::kObject: return a.file == b.file && a.index == b.index;
    case Val::Kind::kTuple:
    case Val::Kind::kBound: {
      if (a.elems.size() != b.elems.size() || a.name != b.name) return false;
      for (size_t k = 0; k < a.elems.size(); ++k)
        if (!SameVal(a.elems[k], b.elems[k])) return false;
      return true;
    }
    default: return true;
  }
}

Val Join(const Val& a, const Val& b) {
  Val r;
  if (a.kind == Val::Kind::kValues && b.kind == Val::Kind::kValues) {
    std::vector<PyVal> vs = a.vals;
    vs.insert(vs.end(), b.vals.begin(), b.vals.end());
    r = Val::OneOf(std::move(vs));
  } else if (a.kind == Val::Kind::kTuple && b.kind == Val::Kind::kTuple && a.elems.size() == b.elems.size()) {
    r.kind = Val::Kind::kTuple;
    for (size_t k = 0; k < a.elems.size(); ++k) r.elems.push_back(Join(a.elems[k], b.elems[k]));
  } else if (SameVal(a, b)) {
    r = a;
    r.from.clear();
    r.why.clear();
  } else {
    r = Val::Opaque();
  }
  r.AddFrom(a);
  r.AddFrom(b);
  r.AddWhy(a);
  r.AddWhy(b);
  return r;
}

std::optional<bool> IsBuiltinSubclass(std::string_view cls, std::string_view base) {
  // child -> parent of the builtin exception hierarchy (Python 3.11)
  static const std::pair<const char*, const char*> kParents[] = {
      {"Exception", "BaseException"}, {"SystemExit", "BaseException"}, {"KeyboardInterrupt", "BaseException"},
      {"GeneratorExit", "BaseException"}, {"ArithmeticError", "Exception"}, {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"}, {"FloatingPointError", "ArithmeticError"}, {"AssertionError", "Exception"},
      {"AttributeError", "Exception"}, {"BufferError", "Exception"}, {"EOFError", "Exception"},
      {"ImportError", "Exception"}, {"ModuleNotFoundError", "ImportError"}, {"LookupError", "Exception"},
      {"IndexError", "LookupError"}, {"KeyError", "LookupError"}, {"MemoryError", "Exception"},
      {"NameError", "Exception"}, {"UnboundLocalError", "NameError"}, {"OSError", "Exception"},
      {"IOError", "OSError"}, {"EnvironmentError", "OSError"}, {"FileNotFoundError", "OSError"},
      {"FileExistsError", "OSError"}, {"PermissionError", "OSError"}, {"TimeoutError", "OSError"},
      {"ConnectionError", "OSError"}, {"NotADirectoryError", "OSError"}, {"IsADirectoryError", "OSError"},
      {"RuntimeError", "Exception"}, {"NotImplementedError", "RuntimeError"}, {"RecursionError", "RuntimeError"},
      {"StopIteration", "Exception"}, {"SyntaxError", "Exception"}, {"SystemError", "Exception"},
      {"TypeError", "Exception"}, {"ValueError", "Exception"}, {"UnicodeError", "ValueError"},
      {"UnicodeDecodeError", "UnicodeError"}, {"UnicodeEncodeError", "UnicodeError"}, {"Warning", "Exception"},
      {"UserWarning", "Warning"}, {"DeprecationWarning", "Warning"}, {"RuntimeWarning", "Warning"},
      {"FutureWarning", "Warning"}, {"BaseException", ""}};
  auto parent = [&](std::string_view c) -> const char* {
    for (const auto& [ch, p] : kParents)
      if (c == ch) return p;
    return nullptr;
  };
  if (!parent(cls) || !parent(base)) return std::nullopt;
  std::string_view cur = cls;
  for (int d = 0; d < 8 && !cur.empty(); ++d) {
    if (cur == base) return true;
    cur = parent(cur);
  }
  return false;
}

}  // namespace errdex::check
