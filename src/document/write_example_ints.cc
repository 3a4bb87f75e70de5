// document/write_example_ints.cc: exampleFix for integer arguments -- a range's
// failing and passing values, a disjunction of integer tests over several
// arguments. See write_example.h.
#include <algorithm>
#include <climits>
#include <numeric>
#include <set>

#include "document/text.h"
#include "document/write_example.h"
#include "document/writers.h"

namespace errdex::doc {

bool IntRange(const SiteFacts& sf, const Fact& f, std::string* param, long* bad, long* good, long* lo, long* hi) {
  if (!f.disjunction || f.any_of.size() < 2 || f.any_of.size() > 4) return false;
  std::string x = Trim(f.any_of[0].lhs);
  if (!IsParam(sf, x)) return false;
  std::vector<std::pair<std::string, long>> tests;
  for (const Atom& a : f.any_of) {
    long n;
    if (Trim(a.lhs) != x || a.op.empty() || a.rhs_strings || !IntLiteral(a.rhs, &n)) return false;
    tests.emplace_back(a.op, n);
  }
  auto fails = [&](long v) {
    for (const auto& [op, n] : tests)
      if ((op == "<" && v < n) || (op == "<=" && v <= n) || (op == ">" && v > n) || (op == ">=" && v >= n) || (op == "==" && v == n) ||
          (op == "!=" && v != n))
        return true;
    return false;
  };
  bool have_good = false, have_bad = false;
  *lo = LONG_MIN, *hi = LONG_MAX;
  for (const auto& [op, n] : tests) {
    if (op == "<") *lo = std::max(*lo, n);
    if (op == "<=") *lo = std::max(*lo, n + 1);
    if (op == ">") *hi = std::min(*hi, n);
    if (op == ">=") *hi = std::min(*hi, n - 1);
  }
  for (const auto& [op, n] : tests)
    for (long v : {n, n - 1, n + 1}) {
      if (!have_good && !fails(v)) *good = v, have_good = true;
      if (!have_bad && fails(v)) *bad = v, have_bad = true;
    }
  *param = x;
  return have_good && have_bad;
}

bool LiteralSideOfRange(const SiteFacts& sf, const Fact& f, std::string* param, long* bad, long* good) {
  if (!f.disjunction || f.any_of.size() != 2) return false;
  const std::string& def = sf.ctx->def_name;  // obj[i], not obj.__getitem__(i=...)
  if (StartsWith(def, "__") && def != "__init__" && def != "__new__") return false;
  std::string x = Trim(f.any_of[0].lhs);
  if (!IsParam(sf, x)) return false;
  int literal_side = 0, other_side = 0;  // -1 lower bound (fails below), +1 upper bound (fails above)
  for (const Atom& a : f.any_of) {
    if (Trim(a.lhs) != x || a.rhs_strings) return false;
    int side = a.op == "<" || a.op == "<=" ? -1 : a.op == ">" || a.op == ">=" ? 1 : 0;
    if (side == 0) return false;
    long n;
    if (IntLiteral(a.rhs, &n)) {
      if (literal_side != 0) return false;
      literal_side = side;
      // x < n fails below n: n passes, n - 1 fails; x <= n: n + 1 passes, n fails.
      if (a.op == "<") *good = n, *bad = n - 1;
      if (a.op == "<=") *good = n + 1, *bad = n;
      if (a.op == ">") *good = n, *bad = n + 1;
      if (a.op == ">=") *good = n - 1, *bad = n;
    } else {
      other_side = side;
    }
  }
  if (literal_side == 0 || other_side == 0 || literal_side == other_side) return false;
  *param = x;
  return true;
}

std::optional<std::string> IntArgsDisjunctionFix(const SiteFacts& sf, const Fact& f) {
  if (!f.disjunction || f.any_of.size() < 2 || f.any_of.size() > 6 || sf.site->language != "python" || !sf.ctx->known)
    return std::nullopt;
  const std::string& def = sf.ctx->def_name;
  if (def.empty() || (StartsWith(def, "__") && def != "__init__" && def != "__new__")) return std::nullopt;
  // The negated test of an earlier `if T: return` (T false here) is where the site is reached
  // from: a value that makes another such T true returns before the raise.
  const int exits_from = (int)sf.site->guards.size(), exits_to = exits_from + (int)sf.exit_branches.size();
  if (f.guard >= exits_from && f.guard < exits_to) return std::nullopt;
  struct Test {
    std::string op;  // "<", "<=", ">", ">=", "==", "!=", or "%" (fails unless a multiple of n)
    long n = 0;
  };
  struct Arg {
    std::string name;
    std::vector<Test> tests;
  };
  std::vector<Arg> args;
  auto int_value = [&](std::string t, long* v) {
    t = Trim(t);
    if (IntLiteral(t, v)) return true;
    if (!IsIdent(t) || IsParam(sf, t)) return false;
    for (const auto& [name, rhs] : sf.ctx->assigned)
      if (name == t) return IntLiteral(Trim(rhs), v);
    return false;
  };
  auto unwrap_int = [](std::string t) {
    t = Trim(t);
    if (StartsWith(t, "int(") && EndsWith(t, ")") && IsIdent(Trim(t.substr(4, t.size() - 5)))) t = Trim(t.substr(4, t.size() - 5));
    return t;
  };
  for (const Atom& a : f.any_of) {
    std::string lhs = Trim(a.lhs), x;
    Test t;
    size_t pct = lhs.find(" % ");
    if (pct != std::string::npos) {
      // `x % N != 0`, `x % N` (true when not a multiple).
      bool nonzero = (a.op == "!=" && Trim(a.rhs) == "0") || (a.op.empty() && !a.falsy);
      if (!nonzero || !int_value(lhs.substr(pct + 3), &t.n) || t.n < 2 || t.n > (1L << 20)) return std::nullopt;
      x = unwrap_int(lhs.substr(0, pct));
      t.op = "%";
    } else {
      static const std::set<std::string> kOps = {"<", "<=", ">", ">=", "==", "!="};
      if (!kOps.count(a.op) || a.rhs_strings || !IntLiteral(Trim(a.rhs), &t.n) || t.n < -(1L << 30) || t.n > (1L << 30))
        return std::nullopt;
      x = unwrap_int(lhs);
      t.op = a.op;
    }
    if (!IsIdent(x) || !IsParam(sf, x)) return std::nullopt;
    auto it = std::find_if(args.begin(), args.end(), [&](const Arg& g) { return g.name == x; });
    if (it == args.end()) args.push_back({x, {}}), it = args.end() - 1;
    it->tests.push_back(t);
  }
  auto fails = [](const Test& t, long v) {
    if (t.op == "%") return v % t.n != 0;
    return (t.op == "<" && v < t.n) || (t.op == "<=" && v <= t.n) || (t.op == ">" && v > t.n) || (t.op == ">=" && v >= t.n) ||
           (t.op == "==" && v == t.n) || (t.op == "!=" && v != t.n);
  };
  auto passes = [&](const Arg& g, long v) {
    for (const auto& t : g.tests)
      if (fails(t, v)) return false;
    return true;
  };
  std::vector<std::string> good(args.size());
  std::vector<bool> is_default(args.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg& g = args[i];
    long d;
    for (const auto& p : sf.ctx->params)
      if (p.name == g.name && IntLiteral(Trim(p.default_value), &d) && passes(g, d)) good[i] = std::to_string(d), is_default[i] = true;
    if (!good[i].empty()) continue;
    long step = 1;  // every modulus divides the value: step over their product's multiples
    for (const auto& t : g.tests)
      if (t.op == "%") step = std::lcm(step, t.n);
    if (step > (1L << 20)) return std::nullopt;
    std::vector<long> cands;
    if (step > 1)
      for (long k = 1; k <= 64; ++k) cands.push_back(k * step);
    for (const auto& t : g.tests)
      if (t.op != "%")
        for (long v : {t.n, t.n + 1, t.n - 1}) cands.push_back(v);
    for (long v : {1L, 0L}) cands.push_back(v);
    for (long v : cands)
      if (passes(g, v)) {
        good[i] = std::to_string(v);
        break;
      }
    if (good[i].empty()) return std::nullopt;
  }
  // The failing value: the first argument's, beside its first test's bound (a non-multiple
  // for a modulus).
  const Arg& first = args[0];
  std::string bad;
  for (const auto& t : first.tests) {
    std::vector<long> cands = t.op == "%" ? std::vector<long>{t.n + (t.n > 2 ? t.n / 2 : 1), t.n + 1}
                                          : std::vector<long>{t.n, t.n - 1, t.n + 1};
    for (long v : cands)
      if (!passes(first, v)) {
        bad = std::to_string(v);
        break;
      }
    if (!bad.empty()) break;
  }
  if (bad.empty()) return std::nullopt;
  std::string call = PublicCallName(sf, first.name);
  if (call.empty()) return std::nullopt;
  std::string before, after, note;
  for (size_t i = 0; i < args.size(); ++i) {
    before += (i ? ", " : "") + args[i].name + "=" + (i == 0 ? bad : good[i]);
    after += (i ? ", " : "") + args[i].name + "=" + good[i];
  }
  if (args.size() == 1 && is_default[0]) note = "  # the default";
  std::string fx = BeforeAfter(call + "(" + before + ")", call + "(" + after + ")" + note);
  if (fx.empty()) return std::nullopt;
  return fx;
}

}  // namespace errdex::doc
