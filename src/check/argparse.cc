// check/argparse.cc: argparse's parse_args (Python 3.11, Lib/argparse.py:
// _parse_known_args, consume_optional, consume_positionals, _get_values,
// _get_value, _check_value) over ArgSpecs. Tested by argparse_test.cc.
#include "check/argparse.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>

namespace errdex::check {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string StripPy(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && IsSpace(s[b])) ++b;
  while (e > b && IsSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Underscores between digits only (Python's literal rules for int()/float()).
bool StripUnderscores(const std::string& s, std::string* out) {
  out->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (i == 0 || i + 1 >= s.size() || !std::isxdigit((unsigned char)s[i - 1]) || !std::isxdigit((unsigned char)s[i + 1]))
        return false;
      continue;
    }
    out->push_back(s[i]);
  }
  return true;
}

// match_argument's count for one action against a pattern of 'A'/'O': -1 when it does not match.
int MatchCount(const ArgSpec& a, int nargs_zero, std::string_view pattern) {
  size_t as = 0;
  while (as < pattern.size() && pattern[as] == 'A') ++as;
  if (nargs_zero) return 0;
  const std::string& n = a.nargs;
  if (n.empty()) return as >= 1 ? 1 : -1;
  if (n == "?") return as >= 1 ? 1 : 0;
  if (n == "*") return (int)as;
  if (n == "+") return as >= 1 ? (int)as : -1;
  int k = std::atoi(n.c_str());
  return (int)as >= k ? k : -1;
}

std::string NargsError(const ArgSpec& a) {
  if (a.nargs.empty()) return "expected one argument";
  if (a.nargs == "?") return "expected at most one argument";
  if (a.nargs == "+") return "expected at least one argument";
  int k = std::atoi(a.nargs.c_str());
  return "expected " + a.nargs + (k == 1 ? " argument" : " arguments");
}

bool ZeroArgs(const ArgSpec& a) {
  return a.action == "store_true" || a.action == "store_false" || a.action == "store_const" || a.action == "append_const" ||
         a.action == "count" || a.action == "help" || a.action == "version" || a.action == "BooleanOptionalAction";
}

bool IsNegativeNumber(const std::string& s) {
  // ^-\d+$|^-\d*\.\d+$
  if (s.size() < 2 || s[0] != '-') return false;
  size_t i = 1;
  while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i;
  if (i == s.size()) return true;
  if (s[i] != '.') return false;
  size_t j = i + 1;
  if (j >= s.size()) return false;
  while (j < s.size() && std::isdigit((unsigned char)s[j])) ++j;
  return j == s.size();
}

struct OptionHit {
  int spec = -1;  // -1: an option nobody defines
  std::string option;
  std::optional<std::string> explicit_arg;
};

class Parser {
 public:
  Parser(const std::vector<ArgSpec>& specs, const std::vector<std::string>& argv) : specs_(specs), args_(argv) {
    for (size_t i = 0; i < specs_.size(); ++i)
      for (const std::string& o : specs_[i].AllOptions())
        if (!option_map_.count(o)) option_map_[o] = (int)i, option_order_.push_back(o);
    for (const std::string& o : option_order_)
      if (IsNegativeNumber(o)) has_negative_optionals_ = true;
  }

  ParsedArgs Run() {
    // Defaults first (the first action of a dest sets it).
    for (size_t i = 0; i < specs_.size(); ++i) {
      const ArgSpec& s = specs_[i];
      if (s.action == "help" || s.action == "version" || out_.values.count(s.dest)) continue;
      out_.values[s.dest] = DefaultVal(s);
    }
    // Classify every argument ('A', 'O', '-' after "--"); ambiguous prefixes are errors here.
    std::string pattern;
    std::vector<OptionHit> hits(args_.size());
    bool rest = false;
    for (size_t i = 0; i < args_.size(); ++i) {
      if (rest) {
        pattern.push_back('A');
        continue;
      }
      if (args_[i] == "--") {
        pattern.push_back('-');
        rest = true;
        continue;
      }
      std::optional<OptionHit> h = ParseOptional(args_[i]);
      if (h) {
        hits[i] = *h;
        pattern.push_back('O');
      } else {
        pattern.push_back('A');
      }
    }
    pattern_ = pattern;
    std::vector<size_t> option_indices;
    for (size_t i = 0; i < pattern.size(); ++i)
      if (pattern[i] == 'O') option_indices.push_back(i);
    for (size_t i = 0; i < specs_.size(); ++i)
      if (specs_[i].IsPositional()) positionals_.push_back((int)i);

    size_t start = 0;
    size_t max_option = option_indices.empty() ? 0 : option_indices.back() + 1;  // one past
    while (!option_indices.empty() && start < max_option && !stopped_) {
      size_t next = *std::lower_bound(option_indices.begin(), option_indices.end(), start);
      if (start != next) {
        size_t end = ConsumePositionals(start);
        if (end > start) {
          start = end;
          continue;
        }
        start = end;
      }
      if (!std::binary_search(option_indices.begin(), option_indices.end(), start)) {
        for (size_t k = start; k < next; ++k) Extra(k);
        start = next;
      }
      start = ConsumeOptional(start, hits[start]);
    }
    if (!stopped_) {
      size_t stop = ConsumePositionals(start);
      for (size_t k = stop; k < args_.size(); ++k) Extra(k);
    }
    if (stopped_) return std::move(out_);
    // Required arguments, then string defaults converted by their type.
    std::vector<std::string> missing;
    for (size_t i = 0; i < specs_.size(); ++i) {
      const ArgSpec& s = specs_[i];
      if (seen_.count((int)i)) continue;
      bool required = s.required;
      // argparse: a positional is required unless nargs is '?', or '*' with a default
      if (s.IsPositional()) required = s.nargs != "?" && !(s.nargs == "*" && s.default_value) && s.nargs != "0";
      if (required) {
        missing.push_back(s.DisplayName());
        if (!out_.values.count(s.dest) || out_.values[s.dest].IsKnown()) out_.values[s.dest] = Val::Unknow("missing argument", s.DisplayName());
        continue;
      }
      if (s.default_value && s.default_value->kind == PyVal::Kind::kStr && !given_dest_.count(s.dest) && !ZeroArgs(s)) {
        Val v = Convert(s, s.default_value->s, /*check_choices=*/false);
        v.from = {Provenance(s)};
        if (!default_set_.count(s.dest) || default_set_[s.dest] == (int)i) out_.values[s.dest] = v;
      }
    }
    if (!missing.empty()) {
      std::string m = "the following arguments are required: ";
      for (size_t k = 0; k < missing.size(); ++k) m += (k ? ", " : "") + missing[k];
      out_.errors.push_back(m);
    }
    if (!extras_.empty()) {
      std::string m = "unrecognized arguments:";
      for (const auto& e : extras_) m += " " + e;
      out_.errors.push_back(m);
      out_.unrecognized = extras_;
    }
    return std::move(out_);
  }

 private:
  std::string Provenance(const ArgSpec& s) const {
    for (const auto& o : s.options)
      if (o.size() > 2 && o[0] == '-' && o[1] == '-') return o;
    return s.options.empty() ? s.dest : s.options[0];
  }

  Val DefaultVal(const ArgSpec& s) {
    default_set_.emplace(s.dest, (int)(&s - specs_.data()));
    Val v;
    if (s.unknown_default) v = Val::Unknow("run-time value", "the default of " + s.DisplayName());
    else if (s.default_value) v = Val::Of(*s.default_value);
    else if (s.action == "store_true") v = Val::Of(PyVal::Bool(false));
    else if (s.action == "store_false") v = Val::Of(PyVal::Bool(true));
    else v = Val::Of(PyVal::None());
    v.from = {Provenance(s)};
    return v;
  }

  void Error(const ArgSpec* s, const std::string& msg) {
    out_.errors.push_back(s ? "argument " + s->DisplayName() + ": " + msg : msg);
  }

  void Extra(size_t k) { extras_.push_back(args_[k]); }

  std::optional<OptionHit> ParseOptional(const std::string& arg) {
    if (arg.empty() || arg[0] != '-') return std::nullopt;
    if (auto it = option_map_.find(arg); it != option_map_.end()) return OptionHit{it->second, arg, std::nullopt};
    if (arg.size() == 1) return std::nullopt;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      std::string o = arg.substr(0, eq);
      if (auto it = option_map_.find(o); it != option_map_.end()) return OptionHit{it->second, o, arg.substr(eq + 1)};
    }
    std::vector<OptionHit> tuples;
    if (arg.size() >= 2 && arg[1] == '-') {
      std::string prefix = arg;
      std::optional<std::string> explicit_arg;
      if (size_t eq = arg.find('='); eq != std::string::npos) prefix = arg.substr(0, eq), explicit_arg = arg.substr(eq + 1);
      for (const std::string& o : option_order_)
        if (o.compare(0, prefix.size(), prefix) == 0) tuples.push_back({option_map_[o], o, explicit_arg});
    } else {
      std::string short_prefix = arg.substr(0, 2), short_explicit = arg.substr(2);
      for (const std::string& o : option_order_) {
        if (o == short_prefix) tuples.push_back({option_map_[o], o, short_explicit});
        else if (o.compare(0, arg.size(), arg) == 0) tuples.push_back({option_map_[o], o, std::nullopt});
      }
    }
    if (tuples.size() > 1) {
      std::string m = "ambiguous option: " + arg + " could match ";
      for (size_t k = 0; k < tuples.size(); ++k) m += (k ? ", " : "") + tuples[k].option;
      out_.errors.push_back(m);
      return OptionHit{-1, arg, std::nullopt};  // treated as unknown from here on
    }
    if (tuples.size() == 1) return tuples[0];
    if (IsNegativeNumber(arg) && !has_negative_optionals_) return std::nullopt;
    if (arg.find(' ') != std::string::npos) return std::nullopt;
    return OptionHit{-1, arg, std::nullopt};
  }

  size_t ConsumeOptional(size_t start, OptionHit hit) {
    struct Act {
      int spec;
      std::vector<std::string> args;
      std::string option;
    };
    std::vector<Act> acts;
    size_t stop = start + 1;
    while (true) {
      if (hit.spec < 0) {
        extras_.push_back(args_[start]);
        return start + 1;
      }
      const ArgSpec& s = specs_[(size_t)hit.spec];
      if (hit.explicit_arg) {
        int count = ZeroArgs(s) ? 0 : MatchCount(s, 0, "A");
        if (count == 0 && hit.option.size() > 1 && hit.option[1] != '-' && !hit.explicit_arg->empty()) {
          acts.push_back({hit.spec, {}, hit.option});
          std::string o = std::string(1, hit.option[0]) + (*hit.explicit_arg)[0];
          std::string rest = hit.explicit_arg->substr(1);
          if (auto it = option_map_.find(o); it != option_map_.end()) {
            hit.spec = it->second;
            hit.option = o;
            hit.explicit_arg = rest.empty() ? std::nullopt : std::optional<std::string>(rest);
            continue;
          }
          Error(&s, "ignored explicit argument " + PyVal::Str(*hit.explicit_arg).Repr());
          return Bail(start);
        }
        if (count == 1) {
          acts.push_back({hit.spec, {*hit.explicit_arg}, hit.option});
          stop = start + 1;
          break;
        }
        if (count < 0) Error(&s, NargsError(s));
        else Error(&s, "ignored explicit argument " + PyVal::Str(*hit.explicit_arg).Repr());
        return Bail(start);
      }
      size_t from = start + 1;
      int count = ZeroArgs(s) ? 0 : MatchCount(s, 0, std::string_view(pattern_).substr(std::min(from, pattern_.size())));
      if (count < 0) {
        Error(&s, NargsError(s));
        return Bail(start);
      }
      stop = from + (size_t)count;
      acts.push_back({hit.spec, std::vector<std::string>(args_.begin() + (long)from, args_.begin() + (long)stop), hit.option});
      break;
    }
    for (const Act& a : acts) {
      TakeAction(a.spec, a.args, a.option);
      if (stopped_) break;
    }
    return stop;
  }

  // After an error in an option argparse exits; check goes on after the option.
  size_t Bail(size_t start) { return std::min(start + 1, args_.size()); }

  // Positionals matched greedily against the pattern from `start` (argparse's _match_arguments_partial).
  size_t ConsumePositionals(size_t start) {
    if (positionals_.empty()) return start;
    std::string_view pat = std::string_view(pattern_).substr(std::min(start, pattern_.size()));
    std::vector<int> counts;
    for (size_t n = positionals_.size(); n > 0; --n) {
      counts.assign(n, 0);
      if (MatchSeq(pat, 0, 0, n, &counts)) break;
      counts.clear();
    }
    size_t pos = start;
    for (size_t k = 0; k < counts.size(); ++k) {
      int spec = positionals_[k];
      std::vector<std::string> vals;
      for (int c = 0; c < counts[k]; ++c) {
        // '-' marks in the pattern stand for "--", which argparse drops from values
        if (pattern_[pos] != '-') vals.push_back(args_[pos]);
        ++pos;
      }
      TakeAction(spec, vals, "");
      if (stopped_) return pos;
    }
    positionals_.erase(positionals_.begin(), positionals_.begin() + (long)counts.size());
    return pos;
  }

  // Greedy regex semantics over positionals[k..n) (argparse's nargs patterns for positionals:
  // '-*A-*', '-*A?-*', '-*[A-]*', '-*A[A-]*', '(-*A-*){N}'): each takes a number of 'A's and
  // the "--" marks ('-') around them.
  bool MatchSeq(std::string_view pat, size_t at, size_t k, size_t n, std::vector<int>* counts) {
    if (k == n) return true;
    const ArgSpec& s = specs_[(size_t)positionals_[k]];
    size_t avail = 0;  // 'A's reachable from `at` before an 'O'
    for (size_t p = at; p < pat.size() && pat[p] != 'O'; ++p) avail += pat[p] == 'A';
    int lo = 0, hi = 0;
    if (s.nargs.empty()) lo = hi = 1;
    else if (s.nargs == "?") lo = 0, hi = 1;
    else if (s.nargs == "*") lo = 0, hi = (int)avail;
    else if (s.nargs == "+") lo = 1, hi = (int)avail;
    else lo = hi = std::atoi(s.nargs.c_str());
    if (ZeroArgs(s)) lo = hi = 0;
    for (int c = std::min(hi, (int)avail); c >= lo; --c) {
      size_t p = at;
      while (p < pat.size() && pat[p] == '-') ++p;
      for (int got = 0; got < c; ++p)
        if (pat[p] == 'A') ++got;
      while (p < pat.size() && pat[p] == '-') ++p;
      (*counts)[k] = (int)(p - at);
      if (MatchSeq(pat, p, k + 1, n, counts)) return true;
    }
    return false;
  }

  Val Convert(const ArgSpec& s, const std::string& text, bool check_choices) {
    Val v;
    const std::string& t = s.type;
    if (t.empty() || t == "str") {
      v = Val::Of(PyVal::Str(text));
    } else if (t == "int") {
      auto n = PyIntFromString(text);
      if (!n) {
        Error(&s, "invalid int value: " + PyVal::Str(text).Repr());
        return Val::Unknow("invalid value", s.DisplayName() + " " + text);
      }
      v = Val::Of(PyVal::Int(*n));
    } else if (t == "float") {
      auto f = PyFloatFromString(text);
      if (!f) {
        Error(&s, "invalid float value: " + PyVal::Str(text).Repr());
        return Val::Unknow("invalid value", s.DisplayName() + " " + text);
      }
      v = Val::Of(PyVal::Float(*f));
    } else if (t == "bool") {
      v = Val::Of(PyVal::Bool(!text.empty()));
    } else {
      return Val::Unknow("run-time value", s.DisplayName() + " converted by " + t);
    }
    if (check_choices && s.choices && !s.unknown_choices) {
      const PyVal& got = v.vals[0];
      if (std::none_of(s.choices->begin(), s.choices->end(), [&](const PyVal& c) { return c == got; })) {
        std::string m = "invalid choice: " + got.Repr() + " (choose from ";
        for (size_t k = 0; k < s.choices->size(); ++k) m += (k ? ", " : "") + (*s.choices)[k].Repr();
        Error(&s, m + ")");
        return Val::Unknow("invalid value", s.DisplayName() + " " + text);
      }
    }
    return v;
  }

  void TakeAction(int spec, std::vector<std::string> vals, const std::string& option) {
    const ArgSpec& s = specs_[(size_t)spec];
    seen_.insert(spec);
    if (s.action == "help" || s.action == "version") {
      out_.help = true;
      stopped_ = true;
      return;
    }
    std::string shown = option.empty() ? s.dest : option;
    for (const auto& v : vals) shown += " " + v;
    Val value;
    if (s.action == "custom") {
      value = Val::Unknow("run-time value", s.DisplayName() + " (a custom argparse action)");
    } else if (ZeroArgs(s)) {
      if (s.action == "store_true") value = Val::Of(PyVal::Bool(true));
      else if (s.action == "store_false") value = Val::Of(PyVal::Bool(false));
      else if (s.action == "BooleanOptionalAction") value = Val::Of(PyVal::Bool(option.compare(0, 5, "--no-") != 0));
      else if (s.action == "store_const" || s.action == "append_const")
        value = s.const_value ? Val::Of(*s.const_value) : Val::Of(PyVal::None());
      else if (s.action == "count") {
        const Val& cur = out_.values[s.dest];
        const PyVal* c = cur.Single();
        if (c && c->kind == PyVal::Kind::kNone) value = Val::Of(PyVal::Int(1));
        else if (c && c->kind == PyVal::Kind::kInt) value = Val::Of(PyVal::Int(c->i + 1));
        else value = Val::Opaque();
      }
      if (s.action == "append_const") value = Append(s, value, false);
    } else if (vals.empty() && s.nargs == "?") {
      const std::optional<PyVal>& c = s.IsPositional() ? s.default_value : s.const_value;
      value = c ? Val::Of(*c) : Val::Of(PyVal::None());
      if (c && c->kind == PyVal::Kind::kStr) value = Convert(s, c->s, true);
    } else if (vals.empty() && s.nargs == "*" && s.IsPositional()) {
      value = s.default_value ? Val::Of(*s.default_value) : Val::Of(PyVal::Seq(PyVal::Kind::kList, {}));
    } else if (vals.size() == 1 && (s.nargs.empty() || s.nargs == "?")) {
      value = Convert(s, vals[0], true);
    } else {
      std::vector<PyVal> items;
      bool known = true;
      for (const auto& v : vals) {
        Val c = Convert(s, v, true);
        if (c.Single()) items.push_back(*c.Single());
        else known = false;
      }
      value = known ? Val::Of(PyVal::Seq(PyVal::Kind::kList, std::move(items))) : Val::Unknow("invalid value", shown);
    }
    if (s.action == "append" || s.action == "extend") value = Append(s, value, s.action == "extend");
    value.from = {Provenance(s)};
    out_.values[s.dest] = value;
    out_.given[s.dest] = shown;
    given_dest_.insert(s.dest);
  }

  Val Append(const ArgSpec& s, const Val& item, bool extend) {
    const Val& cur = out_.values[s.dest];
    const PyVal* c = cur.Single();
    const PyVal* it = item.Single();
    if (!c || !it) return Val::Opaque();
    std::vector<PyVal> items;
    if (c->kind == PyVal::Kind::kList) items = c->items;
    else if (c->kind != PyVal::Kind::kNone) return Val::Opaque();
    if (extend && it->IsSeq()) items.insert(items.end(), it->items.begin(), it->items.end());
    else items.push_back(*it);
    return Val::Of(PyVal::Seq(PyVal::Kind::kList, std::move(items)));
  }

  const std::vector<ArgSpec>& specs_;
  const std::vector<std::string>& args_;
  std::map<std::string, int> option_map_;
  std::vector<std::string> option_order_;  // argparse's _option_string_actions order
  bool has_negative_optionals_ = false;
  std::string pattern_;
  std::vector<int> positionals_;
  std::set<int> seen_;
  std::set<std::string> given_dest_;
  std::map<std::string, int> default_set_;
  std::vector<std::string> extras_;
  bool stopped_ = false;
  ParsedArgs out_;
};

}  // namespace

std::string ArgSpec::DisplayName() const {
  if (options.empty()) return metavar.empty() ? dest : metavar;
  std::string s;
  for (const auto& o : AllOptions()) s += (s.empty() ? "" : "/") + o;
  return s;
}

std::vector<std::string> ArgSpec::AllOptions() const {
  std::vector<std::string> out;
  for (const auto& o : options) {
    out.push_back(o);
    if (action == "BooleanOptionalAction" && o.size() > 2 && o[0] == '-' && o[1] == '-') out.push_back("--no-" + o.substr(2));
  }
  return out;
}

std::optional<int64_t> PyIntFromString(const std::string& raw) {
  std::string s = StripPy(raw), t;
  if (s.empty() || !StripUnderscores(s, &t)) return std::nullopt;
  size_t i = 0;
  bool neg = false;
  if (t[0] == '+' || t[0] == '-') neg = t[0] == '-', i = 1;
  if (i >= t.size()) return std::nullopt;
  int64_t v = 0;
  for (; i < t.size(); ++i) {
    if (!std::isdigit((unsigned char)t[i])) return std::nullopt;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, t[i] - '0', &v)) return std::nullopt;
  }
  return neg ? -v : v;
}

std::optional<double> PyFloatFromString(const std::string& raw) {
  std::string s = StripPy(raw), t;
  if (s.empty() || !StripUnderscores(s, &t)) return std::nullopt;
  std::string low;
  for (char c : t) low.push_back((char)std::tolower((unsigned char)c));
  std::string body = low[0] == '+' || low[0] == '-' ? low.substr(1) : low;
  double sign = low[0] == '-' ? -1 : 1;
  if (body == "inf" || body == "infinity") return sign * INFINITY;
  if (body == "nan") return NAN;
  // digits [. digits] [e [+-] digits], at least one digit in the mantissa
  size_t i = 0, digits = 0;
  while (i < body.size() && std::isdigit((unsigned char)body[i])) ++i, ++digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit((unsigned char)body[i])) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < body.size() && body[i] == 'e') {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t ed = 0;
    while (i < body.size() && std::isdigit((unsigned char)body[i])) ++i, ++ed;
    if (ed == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  return std::strtod(low.c_str(), nullptr);
}

ParsedArgs ParseArgv(const std::vector<ArgSpec>& specs, const std::vector<std::string>& argv) {
  return Parser(specs, argv).Run();
}

}  // namespace errdex::check
