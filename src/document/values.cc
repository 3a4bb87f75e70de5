// document/values.cc: see values.h. Tested by tests/prose/ (the flag-idiom
// fixtures) and documenter_test.cc.
#include "document/values.h"

#include <algorithm>
#include <cstring>
#include <cctype>
#include <cstdio>
#include <string>
#include <map>
#include <set>

#include "document/text.h"
#include "document/writers.h"

namespace errdex::doc {
namespace {

std::string Unquoted(std::string d) {
  d = Trim(d);
  if (d.size() >= 2 && (d[0] == '"' || d[0] == '\'') && d.back() == d[0]) d = d.substr(1, d.size() - 2);
  return d;
}

}  // namespace

const std::vector<std::string>& ChoicesOf(const Subject& s) {
  static const std::vector<std::string> none;
  if (s.kind == SubjectKind::kFlag) return s.flag->choices;
  if (s.kind == SubjectKind::kField) return s.field->choices;
  if (s.kind == SubjectKind::kEnv && s.env_info) return s.env_info->choices;
  return none;
}

std::optional<std::string> DefaultOf(const Subject& s) {
  if (s.kind == SubjectKind::kFlag && s.flag->default_value) return s.flag->default_value;
  if (s.kind == SubjectKind::kField && s.field->default_value) return Unquoted(*s.field->default_value);
  if (s.kind == SubjectKind::kEnv && s.env_info && s.env_info->default_value) return Unquoted(*s.env_info->default_value);
  if ((s.kind == SubjectKind::kParam || !s.param.empty()) && s.param_info && !s.param_info->default_value.empty())
    return Unquoted(s.param_info->default_value);
  return std::nullopt;
}

bool IntBound(const Atom& a, long* bad, long* good) {
  long n;
  if (a.op.empty() || a.rhs_strings || !IntLiteral(a.rhs, &n)) return false;
  if (a.op == "<") *bad = n - 1, *good = n;
  else if (a.op == "<=") *bad = n, *good = n + 1;
  else if (a.op == ">") *bad = n + 1, *good = n;
  else if (a.op == ">=") *bad = n, *good = n - 1;
  else if (a.op == "==") *bad = n, *good = n == 0 ? 1 : n + 1;
  else if (a.op == "!=") *bad = n + 1, *good = n;
  else return false;
  return true;
}

bool FloatBound(const Atom& a, std::string* bad, std::string* good) {
  std::string r = Trim(a.rhs);
  if (a.op.empty() || a.rhs_strings || r.empty() || r.find('.') == std::string::npos) return false;
  for (size_t i = 0; i < r.size(); ++i)
    if (!std::isdigit((unsigned char)r[i]) && r[i] != '.' && !(i == 0 && r[i] == '-')) return false;
  double n;
  try {
    n = std::stod(r);
  } catch (...) {
    return false;
  }
  if (n > 1e6 || n < -1e6) return false;
  double b, g;
  if (a.op == "<") b = n - 1, g = n;
  else if (a.op == "<=") b = n, g = n + 1;
  else if (a.op == ">") b = n + 1, g = n;
  else if (a.op == ">=") b = n, g = n - 1;
  else return false;
  auto spell = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  };
  *bad = spell(b);
  *good = spell(g);
  return true;
}

std::string FixValue(const SiteFacts& sf, const Fact& f) {
  const Atom& a = f.atom;
  long bad, good;
  if (IntBound(a, &bad, &good)) {
    // A default that already avoids the error is the value to name.
    auto def = DefaultOf(f.subj);
    long d, n;
    if (def && IntLiteral(*def, &d) && IntLiteral(a.rhs, &n)) {
      bool holds = (a.op == "<" && d < n) || (a.op == "<=" && d <= n) || (a.op == ">" && d > n) || (a.op == ">=" && d >= n) ||
                   (a.op == "==" && d == n) || (a.op == "!=" && d != n);
      if (!holds) return std::to_string(d);
    }
    return std::to_string(good);
  }
  if (a.op.empty() || !a.rhs_strings || a.values.empty()) return "";
  if (auto it = sf.own_sets.find(f.subj.Key()); it != sf.own_sets.end()) return it->second;
  if (f.subj.kind == SubjectKind::kFlag) {
    auto hv = sf.hints.flag_values.find(f.subj.flag->Primary());
    if (hv != sf.hints.flag_values.end() && !hv->second.empty() && !Triggers(f, hv->second[0])) return hv->second[0];
    if (sf.hints.allowed_flag == f.subj.flag->Primary() && !sf.hints.allowed.empty() && !Triggers(f, sf.hints.allowed[0]))
      return sf.hints.allowed[0];
  }
  if (a.op == "not in" || a.op == "!=") return a.values[0];
  if (f.subj.kind == SubjectKind::kEnv && a.op == "==") return "\x01unset";
  const auto& choices = ChoicesOf(f.subj);
  auto def = DefaultOf(f.subj);
  if (def && *def != "None" && !Triggers(f, *def) && (!choices.empty() || f.subj.kind == SubjectKind::kParam)) return *def;
  // Another choice only when there are few: among many, any pick would be arbitrary.
  if (choices.size() <= 4)
    for (auto& c : choices)
      if (!Triggers(f, c)) return c;
  return "";
}

std::string TriggerValue(const SiteFacts& sf, const Fact& f) {
  const Atom& a = f.atom;
  long bad, good;
  if (IntBound(a, &bad, &good)) return std::to_string(bad);
  if (a.op.empty() || !a.rhs_strings || a.values.empty()) return "";
  if (a.op == "==" || a.op == "in") return a.values[0];
  if (a.rhs_numbers && (a.op == "not in" || a.op == "!=")) {
    // A number outside the allowed ones.
    long m = 0, k;
    for (auto& v : a.values)
      if (IntLiteral(v, &k)) m = std::max(m, k);
    return std::to_string(m + 1);
  }
  auto rw = sf.rewrites.find(f.subj.Key());
  for (auto& c : ChoicesOf(f.subj)) {
    if (rw != sf.rewrites.end() && c == rw->second.from) continue;
    if (!Triggers(f, c)) continue;
    bool ok = true;
    for (const auto& g : sf.facts)
      if (&g != &f && g.subj.Key() == f.subj.Key() && g.atom.rhs_strings && !g.atom.op.empty() && !Triggers(g, c)) ok = false;
    if (ok) return c;
  }
  return "";
}

std::string SettingForm(const Subject& s, const std::string& v, const Atom& a) {
  if (a.op.empty()) {
    if (s.kind == SubjectKind::kEnv) return a.falsy ? s.env + "=0" : s.env + "=1";
    if (IsBoolFlag(s)) return a.falsy ? "" : (s.flag->action == "store_false" ? "" : s.flag->Primary());
    if (s.kind == SubjectKind::kFlag && s.flag->IsTrueFalseProperty()) return s.flag->With(a.falsy ? "false" : "true");
    if (IsBoolField(s)) {
      // The value that holds the test; left out when it is the field's default.
      std::string v = a.falsy ? "False" : "True";
      return s.field->default_value == v ? "" : s.field->name + "=" + v;
    }
    // A flag that takes a value, tested for being given: the flag with argparse's metavar.
    if (s.kind == SubjectKind::kFlag && !a.falsy) return s.flag->With(Upper(s.flag->dest));
    return "";
  }
  if (v.empty()) return "";
  if (v == "\x01unset") return "unset " + s.env;
  if (s.kind == SubjectKind::kEnv) return s.env + "=" + v;
  if (s.kind == SubjectKind::kField) return s.field->name + "=" + QuoteIfText(v);
  if (s.kind == SubjectKind::kParam) return s.param + "=" + QuoteIfText(v);
  return SettingValue(s, v);
}

std::string NegatedForm(const Subject& s, const Atom& a) {
  // A boolean env var (its reader parses it) is switched off by 0; one read for being
  // set at all must be unset.
  if (s.kind == SubjectKind::kEnv)
    return a.falsy ? s.env + "=1" : (s.env_info && s.env_info->type == "bool" ? s.env + "=0" : "unset " + s.env);
  if (IsBoolFlag(s)) {
    if (a.falsy) return s.flag->action == "store_false" ? "" : s.flag->Primary();
    return s.flag->negative;  // "" = drop the flag
  }
  if (s.kind == SubjectKind::kFlag && s.flag->IsTrueFalseProperty()) return s.flag->With(a.falsy ? "true" : "false");
  if (s.kind == SubjectKind::kFlag && a.falsy) return s.flag->With(Upper(s.flag->dest));
  if (IsBoolField(s)) return s.field->name + (a.falsy ? "=True" : "=False");
  return "";
}

bool IsStringType(const std::string& lang, const std::string& type) {
  std::string t = Trim(type);
  if (lang == "go") return t == "string";
  if (lang == "rust") return t == "&str" || t == "String" || t == "&String";
  if (lang == "java") return t == "String" || t == "CharSequence";
  return t == "std::string" || t == "const std::string&" || t == "std::string_view" || t == "const std::string &";
}

bool IsSequenceType(const std::string& lang, const std::string& type) {
  std::string t = Trim(type);
  if (lang == "go") return StartsWith(t, "[]");
  if (lang == "rust") return StartsWith(t, "Vec<") || StartsWith(t, "&[") || StartsWith(t, "&mut [") || StartsWith(t, "&Vec<");
  if (lang == "java") return EndsWith(t, "[]") || StartsWith(t, "List<") || StartsWith(t, "Collection<");
  return false;
}

std::string QuoteIfText(const std::string& v) {
  long n;
  if (v == "None" || v == "True" || v == "False" || IntLiteral(v, &n)) return v;
  bool number = !v.empty();
  for (char c : v)
    if (!(std::isdigit((unsigned char)c) || c == '.' || c == '-' || c == 'e')) number = false;
  if (number && std::isdigit((unsigned char)v.back())) return v;
  return PyQuote(v);
}

std::string SampleOfType(const std::string& type) {
  static const std::map<std::string, std::string> m = {
      {"str", "\"text\""}, {"int", "1"}, {"float", "1.0"}, {"bytes", "b\"data\""}, {"list", "[...]"},
      {"dict", "{...}"}, {"tuple", "(...)"}, {"bool", "True"}, {"bytearray", "bytearray(b\"data\")"},
      {"Path", "Path(\"...\")"}, {"PathLike", "Path(\"...\")"}, {"List", "[...]"}, {"Sequence", "[...]"},
      {"Dict", "{...}"}, {"Mapping", "{...}"}, {"Tensor", "torch.tensor(...)"}, {"ndarray", "np.array(...)"},
      {"Callable", "my_function"}};
  // Types a caller does not construct but names a value of.
  if (type == "torch.dtype") return "torch.float16";
  if (type == "torch.device") return "torch.device(\"cuda\")";
  auto it = m.find(LastComponent(type));
  return it == m.end() ? "" : it->second;
}

namespace {

// The members of `Union[A, B[C, D]]` or `A | B` at the top level, `None` left out.
std::vector<std::string> UnionMembers(const std::string& t) {
  std::string inner = t;
  bool is_union = false;
  for (const char* head : {"Union[", "typing.Union[", "Optional[", "typing.Optional["})
    if (StartsWith(t, head) && EndsWith(t, "]")) {
      inner = t.substr(std::strlen(head), t.size() - std::strlen(head) - 1);
      is_union = true;
      break;
    }
  std::vector<std::string> out;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    bool end = i == inner.size();
    char c = end ? ',' : inner[i];
    if (c == '[' || c == '(') ++depth;
    else if (c == ']' || c == ')') --depth;
    else if (end || (depth == 0 && (c == '|' || (is_union && c == ',')))) {
      std::string m = Trim(inner.substr(from, i - from));
      if (!m.empty() && m != "None" && m != "NoneType") out.push_back(m);
      from = i + 1;
    }
  }
  return out;
}

}  // namespace

std::string SampleOf(const std::string& annotation) {
  std::string t = Trim(annotation);
  std::vector<std::string> members = UnionMembers(t);
  if (members.size() != 1 || members[0] != t) {
    // A union: the plainest member to type (`int` of `Union[list[int], int]`).
    std::string first;
    for (const std::string& m : members) {
      std::string smp = SampleOf(m);
      if (smp.empty()) continue;
      if (m == "str" || m == "int" || m == "float" || m == "bool") return smp;
      if (first.empty()) first = smp;
    }
    return first;
  }
  if (t == "None" || t.empty()) return "";
  size_t open = t.find('[');
  std::string head = t.substr(0, open);
  // A list of scalars: one element of them (`[1]`, `["text"]`).
  static const std::set<std::string> kLists = {"list", "List", "Sequence", "typing.List", "typing.Sequence"};
  if (open != std::string::npos && kLists.count(head) && EndsWith(t, "]")) {
    std::string elem = Trim(t.substr(open + 1, t.size() - open - 2));
    if (elem == "str" || elem == "int" || elem == "float") return "[" + SampleOfType(elem) + "]";
  }
  return SampleOfType(head);
}

std::string FieldSample(const ConfigField& f) {
  if (!f.choices.empty()) return QuoteIfText(f.choices[0]);
  return SampleOf(f.inner_type.empty() ? f.type : f.inner_type);
}

std::string TorchDtype(const std::string& expr) {
  std::string e = Trim(expr);
  std::string last = LastComponent(e);
  static const std::map<std::string, std::string> k = {
      {"kHalf", "float16"},       {"kFloat16", "float16"},   {"Half", "float16"},         {"kBFloat16", "bfloat16"},
      {"BFloat16", "bfloat16"},   {"kFloat", "float32"},     {"kFloat32", "float32"},     {"Float", "float32"},
      {"kDouble", "float64"},     {"kFloat64", "float64"},   {"Double", "float64"},       {"kInt", "int32"},
      {"kInt32", "int32"},        {"Int", "int32"},          {"kLong", "int64"},          {"kInt64", "int64"},
      {"Long", "int64"},          {"kByte", "uint8"},        {"kUInt8", "uint8"},         {"Byte", "uint8"},
      {"kChar", "int8"},          {"kInt8", "int8"},         {"Char", "int8"},            {"kBool", "bool"},
      {"kFloat8_e4m3fn", "float8_e4m3fn"}, {"Float8_e4m3fn", "float8_e4m3fn"}, {"kFloat8_e5m2", "float8_e5m2"},
      {"kShort", "int16"},        {"kInt16", "int16"}};
  if (StartsWith(e, "torch.") && IsDotted(e) && e.find('.', 6) == std::string::npos && !StartsWith(last, "k")) {
    static const char* const kNames[] = {"float16", "half", "bfloat16", "float32", "float", "float64", "double", "int8",
                                         "uint8", "int16", "int32", "int64", "long", "bool", "float8_e4m3fn",
                                         "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "complex64", "int4"};
    for (const char* n : kNames)
      if (last == n) return e;
    return "";
  }
  // DLPack's dtype constants (TVM FFI tensors, flashinfer's csrc): dl_int32 -> torch.int32.
  if (StartsWith(last, "dl_") && e == last) {
    static const char* const kDl[] = {"float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16",
                                      "int32", "int64", "bool", "float8_e4m3fn", "float8_e5m2"};
    for (const char* n : kDl)
      if (last.compare(3, std::string::npos, n) == 0) return std::string("torch.") + n;
    return "";
  }
  // A C/C++ constant named for its dtype (`fp32_dtype`, `int32_dtype`, `float32_code`, the
  // DLDataType and code constants of flashinfer's and TensorRT-LLM's bindings). fp8 names
  // say no format (e4m3 or e5m2), so they name none.
  for (const char* suffix : {"_dtype", "_code"}) {
    if (e != last || !EndsWith(last, suffix)) continue;
    static const std::map<std::string, std::string> kStem = {
        {"fp32", "float32"}, {"float32", "float32"}, {"f32", "float32"},   {"fp16", "float16"},
        {"float16", "float16"}, {"half", "float16"}, {"f16", "float16"},   {"bf16", "bfloat16"},
        {"bfloat16", "bfloat16"}, {"fp64", "float64"}, {"float64", "float64"}, {"int8", "int8"},
        {"uint8", "uint8"}, {"int16", "int16"}, {"int32", "int32"},       {"int64", "int64"},
        {"bool", "bool"}};
    auto s = kStem.find(Lower(last.substr(0, last.size() - std::char_traits<char>::length(suffix))));
    return s == kStem.end() ? "" : "torch." + s->second;
  }
  auto it = k.find(last);
  if (it != k.end() && (StartsWith(e, "at.") || StartsWith(e, "torch.") || StartsWith(e, "c10.") || StartsWith(e, "at::") ||
                        StartsWith(e, "torch::") || e == last || StartsWith(e, "ScalarType.")))
    return "torch." + it->second;
  return "";
}

std::string ReqName(const std::string& req) {
  size_t op = req.find_first_of("<>=!~");
  return PipName(req.substr(0, op)) + (op == std::string::npos ? "" : req.substr(op));
}

}  // namespace errdex::doc
