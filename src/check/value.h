// check/value: the values `errdex check` reasons with. A PyVal is one concrete
// Python value (None, bool, int, float, str, list, tuple, set). A Val is what
// an expression may evaluate to: a small set of concrete values, the
// program's settings object (argparse Namespace / the dataclass built from
// it), a repository module, function or class, an instance of a repository
// class, or unknown -- with why (`is_sm100_supported()`: hardware) and which
// settings it was computed from (provenance, for "decided by").
//
// Python semantics are followed exactly where a value is concrete (==, <, in,
// truthiness, + on str/int/float/list, str methods); anything else is unknown,
// never guessed. Tri is the three-valued truth used for guards.
//
// Plain data; thread-compatible. Tested by value_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::check {

enum class Tri : uint8_t { kFalse, kTrue, kUnknown };
inline Tri Not(Tri t) { return t == Tri::kTrue ? Tri::kFalse : t == Tri::kFalse ? Tri::kTrue : Tri::kUnknown; }

struct PyVal;

// A PyVal's elements, shared between copies until one is changed (copy on write). The
// interpreter copies values at every name read and state join; a module constant of hundreds
// of entries copied deeply each time made a check of a real server (sglang, 710 flags) take
// minutes. Reads look like a const std::vector; writers go through the mutating members,
// which take a private copy first when the elements are shared.
class PyItems {
 public:
  using Vec = std::vector<PyVal>;
  using const_iterator = Vec::const_iterator;
  using iterator = Vec::iterator;
  PyItems() = default;
  PyItems(Vec v);  // NOLINT: a vector is a list of items
  PyItems& operator=(Vec v);
  operator const Vec&() const { return vec(); }  // NOLINT
  const Vec& vec() const;

  // The members that touch elements are defined after PyVal (below): clang 14 with
  // libstdc++ (the fuzz build) instantiates them here, where PyVal is incomplete.
  size_t size() const;
  bool empty() const { return size() == 0; }
  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }
  const PyVal& operator[](size_t k) const;
  const PyVal& front() const;
  const PyVal& back() const;

  // The same elements (copies not changed since): equal without looking at them.
  bool SharedWith(const PyItems& o) const { return p_ == o.p_; }

  Vec& mut();  // a private copy of the elements, to change
  PyVal& operator[](size_t k);
  void push_back(PyVal v);
  void clear() { p_.reset(); }
  // Positions are taken before the elements are copied, so iterators from begin()/end() work.
  void insert(const_iterator pos, const_iterator first, const_iterator last);
  void erase(const_iterator pos);

 private:
  std::shared_ptr<Vec> p_;
};

struct PyVal {
  enum class Kind : uint8_t { kNone, kBool, kInt, kFloat, kStr, kList, kTuple, kSet, kDict };  // kDict: items k0 v0 k1 v1 ...
  Kind kind = Kind::kNone;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  PyItems items;

  static PyVal None() { return PyVal(); }
  static PyVal Bool(bool v);
  static PyVal Int(int64_t v);
  static PyVal Float(double v);
  static PyVal Str(std::string v);
  static PyVal Seq(Kind k, std::vector<PyVal> items);

  bool IsNumber() const { return kind == Kind::kBool || kind == Kind::kInt || kind == Kind::kFloat; }
  bool IsSeq() const { return kind == Kind::kList || kind == Kind::kTuple || kind == Kind::kSet; }
  // The elements iteration gives (a dict's keys, a str's characters); nullopt when not iterable.
  std::optional<std::vector<PyVal>> Iter() const;
  double AsDouble() const { return kind == Kind::kFloat ? f : kind == Kind::kInt ? (double)i : (b ? 1.0 : 0.0); }
  bool Truthy() const;
  // Python's repr() (str: single quotes), bounded.
  std::string Repr() const;
  // Python's str().
  std::string Str() const;
};

inline size_t PyItems::size() const { return p_ ? p_->size() : 0; }
inline const PyVal& PyItems::operator[](size_t k) const { return (*p_)[k]; }
inline const PyVal& PyItems::front() const { return p_->front(); }
inline const PyVal& PyItems::back() const { return p_->back(); }
inline PyVal& PyItems::operator[](size_t k) { return mut()[k]; }

bool operator==(const PyVal& a, const PyVal& b);  // Python ==
// Python <, <=, >, >= : nullopt when Python raises TypeError (str < int).
std::optional<bool> PyCompare(const PyVal& a, std::string_view op, const PyVal& b);
// Python `x in seq` (str: substring); nullopt when not supported.
std::optional<bool> PyContains(const PyVal& seq, const PyVal& x);
// + - * / // % ** and | & ^ << >> on concrete values; nullopt otherwise (or on error).
std::optional<PyVal> PyBinOp(std::string_view op, const PyVal& a, const PyVal& b);

// Why a value is unknown: a category for people and the expression.
struct Unknown {
  std::string category;  // hardware, installed package, model config, file system, environment, run-time value, ...
  std::string expr;      // the expression as written (Python text)
  bool operator==(const Unknown& o) const { return category == o.category && expr == o.expr; }
};

inline constexpr size_t kMaxValues = 16;   // a set larger than this becomes unknown
inline constexpr size_t kMaxReasons = 4;   // reasons kept per value
inline constexpr size_t kMaxProvenance = 8;

struct Val {
  enum class Kind : uint8_t {
    kUnknown,
    kValues,    // one of `vals`
    kSettings,  // the program's settings object
    kModule,    // `name`: a repository module path (file) or an external module's dotted name (`external`)
    kFunction,  // file index + function index (+ bound self)
    kClass,     // file index + class index
    kObject,    // an instance of a repository class (file index + class index)
    kTuple,     // a tuple of abstract values (parse_known_args), `elems`
    kBuiltin,   // a builtin or library callable check models: `name`
    kBound,     // a method of a concrete value or of a builtin object: `name` on `elems[0]`
  };
  Kind kind = Kind::kUnknown;
  std::vector<PyVal> vals;
  std::vector<Unknown> why;
  std::vector<std::string> from;  // settings it was computed from: "--deepep-mode", "$SGLANG_X", "name"
  std::string name;
  bool external = false;
  int file = -1, index = -1;
  std::vector<Val> elems;
  std::vector<Val> self;  // kFunction: the bound instance (0 or 1)

  static Val Of(PyVal v);
  static Val OneOf(std::vector<PyVal> vs);
  static Val Unknow(std::string category, std::string expr);
  static Val Opaque();  // unknown, no reason (a reason is added by the caller)
  static Val Settings();
  static Val Builtin(std::string name);

  bool IsKnown() const { return kind == Kind::kValues; }
  // The single concrete value, if there is exactly one.
  const PyVal* Single() const { return kind == Kind::kValues && vals.size() == 1 ? &vals[0] : nullptr; }
  Tri Truth() const;
  void AddFrom(const Val& o);
  void AddWhy(const Val& o);
  std::string Describe() const;  // for people: 'normal', one of {'a', 'b'}, unknown (...)
};

// The union of two possible values (a branch join).
Val Join(const Val& a, const Val& b);
bool SameVal(const Val& a, const Val& b);

// A class name of the builtin exception hierarchy that `base` is, or is a base
// of `cls` (both builtin): IsBuiltinSubclass("KeyError", "LookupError") is true.
// nullopt when either is not a builtin exception.
std::optional<bool> IsBuiltinSubclass(std::string_view cls, std::string_view base);

}  // namespace errdex::check
