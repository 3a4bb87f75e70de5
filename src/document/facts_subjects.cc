// document/facts_subjects.cc: see facts_subjects.h. Tested through BuildSiteFacts
// (documenter_test.cc, prose_terms_test.cc, tests/prose/).
#include "document/facts_subjects.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "document/text.h"
#include "document/values.h"

namespace errdex::doc {
namespace {

// The words of an identifier or dotted name: gfx950_supported -> gfx950, supported.
std::vector<std::string> NameWords(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (IsAsciiAlnum(c)) cur += AsciiLower(c);
    else if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool IsHardwareWord(std::string_view s) {
  for (const std::string& w : NameWords(s)) {
    if (Has(w, "graph") || Has(w, "kernel") || Has(w, "stream")) return false;  // cudagraphs, hip_kernel: software
    static const char* const kWords[] = {"cuda", "hip", "rocm", "npu", "xpu", "gpu", "mps", "tpu", "hpu", "musa", "hopper",
                                         "blackwell", "ampere", "ada", "cpu", "arch", "device", "capability", "nvidia",
                                         "amd", "intel", "ascend", "sm", "gfx", "cc", "mlu", "ipu", "neuron", "tegra",
                                         "jetson", "xla", "habana", "gaudi", "platform", "hardware", "soc"};
    for (const char* k : kWords)
      if (w == k) return true;
    auto digits_after = [&](size_t n) {
      return w.size() > n && std::all_of(w.begin() + (long)n, w.end(), [](char c) { return std::isdigit((unsigned char)c) || c == 'a'; });
    };
    if ((StartsWith(w, "sm") && digits_after(2)) || (StartsWith(w, "gfx") && w.size() > 3) || (StartsWith(w, "cc") && digits_after(2)) ||
        StartsWith(w, "fp8") || StartsWith(w, "cuda") || StartsWith(w, "rocm") || StartsWith(w, "npu") || StartsWith(w, "ascend"))
      return true;
  }
  return false;
}


// Text inside the outermost parentheses of `x` starting at `open`, split at top-level commas.
std::vector<std::string> CallArgs(std::string_view x, size_t open) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  size_t b = open + 1;
  for (size_t i = open; i < x.size(); ++i) {
    char c = x[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        out.push_back(Trim(x.substr(b, i - b)));
        return out;
      }
    } else if (c == ',' && depth == 1) {
      out.push_back(Trim(x.substr(b, i - b)));
      b = i + 1;
    }
  }
  return {};
}

bool StringLit(const std::string& s, std::string* v) {
  std::string t = Trim(s);
  if (t.size() >= 2 && (t[0] == '"' || t[0] == '\'') && t.back() == t[0] && t.find(t[0], 1) == t.size() - 1) {
    *v = t.substr(1, t.size() - 2);
    return true;
  }
  return false;
}

}  // namespace

bool LiteralContainerItems(const std::string& text, std::vector<std::string>* items, bool qualified_names) {
  std::string t = Trim(text);
  if (t.size() < 2 || t.size() > 2048) return false;
  char open = t[0], close = t.back();
  if (!((open == '[' && close == ']') || (open == '(' && close == ')') || (open == '{' && close == '}'))) return false;
  // One bracketed literal, not `[1, 2] + [3]`: the first bracket closes at the end.
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    char c = t[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return false;
    }
  }
  std::vector<std::string> parts = CallArgs(t, 0);
  if (parts.empty()) return false;
  bool dict = false;
  for (std::string p : parts) {
    if (p.empty()) continue;  // a trailing comma
    if (open == '{') {
      // `"a": 1`: the key, before the first colon outside a string.
      char quote = 0;
      size_t colon = std::string::npos;
      for (size_t i = 0; i < p.size() && colon == std::string::npos; ++i) {
        if (quote) {
          if (p[i] == '\\') ++i;
          else if (p[i] == quote) quote = 0;
        } else if (p[i] == '"' || p[i] == '\'') {
          quote = p[i];
        } else if (p[i] == ':') {
          colon = i;
        }
      }
      if (items->empty()) dict = colon != std::string::npos;  // a set literal has no colons
      if (dict != (colon != std::string::npos)) return false;
      if (dict) p = Trim(p.substr(0, colon));
    }
    long n;
    std::string v;
    bool qualified = qualified_names && !dict && IsDotted(p) && p.find('.') != std::string::npos && p[0] != '_' &&
                     !StartsWith(p, "self.") && !StartsWith(p, "cls.");
    if (!IntLiteral(p, &n) && !StringLit(p, &v) && !qualified) return false;
    items->push_back(p);
  }
  return true;
}

SubjectResolver::SubjectResolver(const Site& site, const SiteContext& ctx, const KnowledgeIndex* k, DocDeps* deps)
    : site_(site), ctx_(ctx), k_(k), deps_(deps) {}

const std::string* SubjectResolver::Assigned(const std::string& name) const {
  for (const auto& [n, rhs] : ctx_.assigned)
    if (n == name) return &rhs;
  return nullptr;
}

const ParamInfo* SubjectResolver::Param(const std::string& name) const {
  if (!IsIdent(name) || name == "self" || name == "cls") return nullptr;
  for (const auto& p : ctx_.params)
    if (p.name == name && !p.star) return &p;
  return nullptr;
}

bool SubjectResolver::IsModule(const std::string& dotted) const {
  std::string first = FirstComponent(dotted);
  if (first == "self" || first == "cls" || Param(first) || Assigned(first)) return false;
  if (std::find(ctx_.modules.begin(), ctx_.modules.end(), first) != ctx_.modules.end()) return true;
  // Not imported in the text seen (a stored window has no imports): a well-known package name.
  return IsKnownPackage(first, {}) || first == "np" || first == "torch_npu" || first == "sys" || first == "os";
}

Subject SubjectResolver::Resolve(Atom& a) const {
  Subject s;
  std::string expr = Trim(a.lhs);
  std::string v;
  if ((a.op == "in" || a.op == "not in") && Trim(a.rhs) == "os.environ" && StringLit(expr, &v)) {
    s.kind = SubjectKind::kEnv;
    s.env = v;
    s.env_info = k_ ? k_->FindEnv(v, deps_) : nullptr;
    s.expr = Show(expr);
    return s;
  }
  // A local is replaced by what it was assigned on the path to the site.
  for (int depth = 0; depth < 2 && IsIdent(expr) && !Param(expr); ++depth) {
    const std::string* r = Assigned(expr);
    if (!r || r->empty() || IsConstantExpr(*r) || *r == "[]" || *r == "{}" || *r == "()") break;
    if (s.via.empty()) s.via = expr;
    expr = *r;
  }
  // int(x) / bool(x) / str(x) / float(x): the wrapped expression is what is tested.
  for (int depth = 0; depth < 3; ++depth) {
    bool unwrapped = false;
    for (const char* w : {"int(", "bool(", "str(", "float("}) {
      size_t n = std::char_traits<char>::length(w);
      if (StartsWith(expr, w) && EndsWith(expr, ")") && CallArgs(expr, n - 1).size() == 1) {
        expr = Trim(expr.substr(n, expr.size() - n - 1));
        unwrapped = true;
      }
    }
    if (!unwrapped) break;
  }
  if (expr.size() > 2000) expr = expr.substr(0, 2000);
  s.expr = Show(expr);
  const std::string& x = expr;
  auto none_test = [&](bool* missing) {
    if (a.op == "is" && Trim(a.rhs) == "None") return *missing = true, true;
    if (a.op == "is not" && Trim(a.rhs) == "None") return *missing = false, true;
    if (a.op.empty()) return *missing = a.falsy, true;
    return false;
  };
  if (EnvOf(x, &s)) return s;
  // Java: a JVM system property read (System.getProperty("app.mode", ...), Integer.getInteger,
  // Long.getLong, Boolean.getBoolean): the user sets it with -Dapp.mode=...
  if (k_ && site_.language == "java")
    for (const JvmPropertyReader& r : kJvmPropertyReaders) {
      std::string name;
      if (!StartsWith(x, r.call) || !EndsWith(x, ")")) continue;
      auto args = CallArgs(x, r.call.size() - 1);
      if (args.empty() || !StringLit(Trim(args[0]), &name)) continue;
      if (const Flag* f = k_->FindFlagFrom("java", "-D" + name, site_.file_path, deps_)) {
        s.kind = SubjectKind::kFlag;
        s.flag = f;
        return s;
      }
    }
  if (StartsWith(x, "getattr(")) {
    auto args = CallArgs(x, 7);
    std::string attr;
    if (args.size() == 3 && Trim(args[2]) == "None" && StringLit(args[1], &attr) && IsDotted(args[0]) && none_test(&s.missing) &&
        IsModule(args[0])) {
      s.kind = SubjectKind::kMissingAttr;
      s.module = args[0];
      s.attr = attr;
      return s;
    }
  }
  if (StartsWith(x, "hasattr(") && a.op.empty()) {
    auto args = CallArgs(x, 7);
    std::string attr;
    if (args.size() == 2 && StringLit(args[1], &attr) && IsDotted(args[0]) && IsModule(args[0])) {
      s.kind = SubjectKind::kMissingAttr;
      s.module = args[0];
      s.attr = attr;
      s.missing = a.falsy;
      return s;
    }
  }
  if (size_t p = x.find("find_spec("); p != std::string::npos) {
    auto args = CallArgs(x, p + 9);
    std::string mod;
    if (!args.empty() && StringLit(args[0], &mod) && none_test(&s.missing)) {
      s.kind = SubjectKind::kMissingModule;
      s.module = mod;
      return s;
    }
  }
  if (Has(x, "torch.cuda.is_available()") || Has(x, "get_device_capability") || Has(x, "get_device_sm")) {
    s.kind = SubjectKind::kHardware;
    s.pred = Show(x);
    s.missing = a.op.empty() ? a.falsy : true;
    return s;
  }
  if (EndsWith(x, "()") && a.op.empty()) {
    std::string call = x.substr(0, x.size() - 2);
    std::string fn = LastComponent(call);
    if (IsDotted(call) && StartsWith(fn, "is_") && EndsWith(fn, "_available") && fn.size() > 13) {
      std::string what = fn.substr(3, fn.size() - 13);
      s.kind = IsHardwareWord(what) ? SubjectKind::kHardware : SubjectKind::kMissingModule;
      if (s.kind == SubjectKind::kMissingModule) s.module = what;
      s.pred = Show(x);
      s.missing = a.falsy;
      return s;
    }
    if (IsDotted(call) && (StartsWith(fn, "is_") || StartsWith(fn, "_is_") || StartsWith(fn, "has_") || StartsWith(fn, "supports_") ||
                           StartsWith(fn, "support_")) &&
        IsHardwareWord(fn)) {
      s.kind = SubjectKind::kHardware;
      s.pred = Show(x);
      s.missing = a.falsy;
      return s;
    }
  }
  if (a.op.empty() && VersionHelper(x, a.falsy, &s)) return s;
  if (a.op.empty() && RequirementConstant(x, a.falsy, &s)) return s;
  if (VersionComparison(a, x, &s)) return s;
  if (StartsWith(x, "isinstance(") && a.op.empty()) {
    auto args = CallArgs(x, 10);
    if (args.size() == 2) {
      s.kind = SubjectKind::kType;
      std::string arg = Trim(args[0]);
      if (IsIdent(arg) && !Param(arg))
        if (const std::string* r = Assigned(arg); r && !IsConstantExpr(*r)) s.via = arg, arg = *r;
      s.expr = Show(arg);
      // isinstance(args.x, T): the flag's value has the wrong type.
      if (k_ && IsDotted(arg) && arg.find('.') != std::string::npos && SettingsHolder(arg.substr(0, arg.rfind('.')), ctx_))
        s.flag = k_->FindFlagFrom(site_.language, LastComponent(arg), site_.file_path, deps_);
      s.pred = Show(args[1]);
      s.missing = a.falsy;
      if (const ParamInfo* p = Param(Trim(args[0]))) s.param = p->name, s.param_info = p;
      // isinstance(self.x, T) of a field the constructor took (a dataclass's __post_init__,
      // `self.x = x` in __init__): the caller passed the wrong type when building it.
      std::string own = Trim(args[0]);
      if (s.param.empty() && StartsWith(own, "self.") && IsIdent(own.substr(5)) && !s.flag)
        for (const auto& w : ctx_.writes)
          if (w.attr == own.substr(5) && w.method == "__init__" && StartsWith(w.value, "param:") && !ctx_.class_name.empty()) {
            s.param = w.value.substr(6);
            s.ctor = true;
            break;
          }
      return s;
    }
  }
  // callable(f): a type test as isinstance(f, Callable) is.
  if (StartsWith(x, "callable(") && a.op.empty()) {
    auto args = CallArgs(x, 8);
    if (args.size() == 1 && IsIdent(Trim(args[0]))) {
      s.kind = SubjectKind::kType;
      s.expr = Show(Trim(args[0]));
      s.pred = "Callable";
      s.missing = a.falsy;
      if (const ParamInfo* p = Param(Trim(args[0]))) s.param = p->name, s.param_info = p;
      return s;
    }
  }
  if (Tensor(a, x, &s)) return s;
  if (Request(x, &s)) return s;
  auto shapey = [](std::string_view t) {
    return Has(t, "len(") || Has(t, ".shape") || Has(t, ".ndim") || Has(t, ".dim()") || Has(t, ".size(") || Has(t, ".numel()") ||
           EndsWith(t, ".length") || EndsWith(t, ".len()");
  };
  if (shapey(x) || shapey(a.rhs)) {
    s.kind = SubjectKind::kShape;
    if (StartsWith(x, "len(") && EndsWith(x, ")"))
      if (const ParamInfo* p = Param(Trim(x.substr(4, x.size() - 5)))) s.param = p->name, s.param_info = p;
    for (const char* suf : {".length", ".len()", ".size()"})
      if (EndsWith(x, suf))
        if (const ParamInfo* p = Param(x.substr(0, x.size() - std::char_traits<char>::length(suf)))) s.param = p->name, s.param_info = p;
    // A tensor argument's shape: `q.shape[-1]`, `k.shape`, `bias.numel()`, `x.size(0)`.
    if (s.param.empty())
      for (const char* acc : {".shape", ".numel()", ".size("}) {
        size_t at = x.find(acc);
        if (at == std::string::npos || at == 0) continue;
        if (const ParamInfo* p = Param(x.substr(0, at))) s.param = p->name, s.param_info = p;
        break;
      }
    return s;
  }
  // `n % 64 != 0` of an argument: it must be a multiple of 64.
  if (size_t pct = x.find(" % "); pct != std::string::npos && Trim(a.rhs) == "0" && (a.op == "!=" || a.op == "==")) {
    long n;
    std::string lhs = Trim(x.substr(0, pct)), rhs = Trim(x.substr(pct + 3));
    // `int(n) % 8`: the argument itself; `n % BLOCK_SIZE`: a module-level (or local) int constant.
    if (StartsWith(lhs, "int(") && EndsWith(lhs, ")") && CallArgs(lhs, 3).size() == 1) lhs = Trim(lhs.substr(4, lhs.size() - 5));
    if (IsIdent(rhs) && !Param(rhs))
      if (const std::string* r = Assigned(rhs)) rhs = Trim(*r);
    const ParamInfo* p = Param(lhs);
    if (p && IntLiteral(rhs, &n) && n > 1) {
      s.kind = SubjectKind::kParam;
      s.param = p->name;
      s.param_info = p;
      s.pred = "multiple:" + std::to_string(n);
      return s;
    }
  }
  // Go: `*workers`, the value behind the pointer flag.Int("workers", ...) returned. Java: a
  // picocli @Option field, `workers` or `this.workers`, unless a parameter or local shadows it.
  if (k_ && site_.language == "go" && StartsWith(x, "*") && IsIdent(x.substr(1)))
    if (const Flag* f = k_->FindFlagFrom("go", x.substr(1), site_.file_path, deps_)) {
      s.kind = SubjectKind::kFlag;
      s.flag = f;
      return s;
    }
  if (k_ && site_.language == "java") {
    std::string field = StartsWith(x, "this.") ? x.substr(5) : x;
    if (IsIdent(field) && !Param(field) && !Assigned(field))
      if (const Flag* f = k_->FindFieldFlag("java", field, site_.file_path, deps_)) {
        s.kind = SubjectKind::kFlag;
        s.flag = f;
        return s;
      }
  }
  if (k_ && IsDotted(x) && x.find('.') != std::string::npos) {
    std::string base = x.substr(0, x.rfind('.'));
    std::string last = LastComponent(x);
    if (SettingsHolder(base, ctx_)) {
      if (const Flag* f = k_->FindFlagFrom(site_.language, last, site_.file_path, deps_)) {
        s.kind = SubjectKind::kFlag;
        s.flag = f;
        return s;
      }
      std::string_view own_class = base == "self" || base == "cls" ? std::string_view(ctx_.class_name) : std::string_view();
      if (const ConfigField* f = k_->FindFieldFrom(last, site_.file_path, own_class, deps_)) {
        // A field of a pydantic BaseSettings class: the user sets its environment variable.
        if (const EnvVar* e = SettingsEnv(*f)) {
          s.kind = SubjectKind::kEnv;
          s.env = e->name;
          s.env_info = e;
          return s;
        }
        s.kind = SubjectKind::kField;
        s.field = f;
        return s;
      }
    }
  }
  if (const ParamInfo* p = Param(x)) {
    // A parameter of a click/typer command is its flag.
    if (k_ && CommandFunction())
      if (const Flag* f = k_->FindFlag(p->name, deps_); f && (f->origin == "click" || f->origin == "typer")) {
        s.kind = SubjectKind::kFlag;
        s.flag = f;
        return s;
      }
    // is_hip / has_cuda passed in: the platform, not a choice of the caller.
    if ((StartsWith(p->name, "is_") || StartsWith(p->name, "has_") || StartsWith(p->name, "use_")) && IsHardwareWord(p->name) &&
        a.op.empty()) {
      s.kind = SubjectKind::kHardware;
      s.pred = p->name;
      s.missing = a.falsy;
      return s;
    }
    s.kind = SubjectKind::kParam;
    s.param = p->name;
    s.param_info = p;
    return s;
  }
  // self.<attr> of a class that is not a settings class: the object's state -- or,
  // when __init__ stored a parameter there, that constructor argument.
  if (StartsWith(x, "self.") && IsIdent(x.substr(5)) && !SettingsHolder("self", ctx_)) {
    s.attr = x.substr(5);
    for (const auto& w : ctx_.writes)
      if (w.attr == s.attr && w.method == "__init__" && StartsWith(w.value, "param:") && !ctx_.class_name.empty()) {
        s.kind = SubjectKind::kParam;
        s.param = w.value.substr(6);
        s.ctor = true;
        return s;
      }
    s.kind = SubjectKind::kSelfState;
    return s;
  }
  // Java's `this.x` or a bare field of the class (BraceFile::ClassState found it declared)
  // that no setting claimed: the object's state, as Python's `self.x`.
  if (site_.language == "java" && !ctx_.class_name.empty()) {
    std::string attr = StartsWith(x, "this.") ? x.substr(5) : x;
    if (IsIdent(attr) && !Param(attr) && !Assigned(attr) &&
        std::any_of(ctx_.writes.begin(), ctx_.writes.end(), [&](const StateWrite& w) { return w.attr == attr && w.method.empty(); })) {
      s.attr = attr;
      s.kind = SubjectKind::kSelfState;
      for (const auto& w : ctx_.writes)  // `this.name = name` in the constructor: its argument
        if (w.attr == attr && w.method == "__init__" && StartsWith(w.value, "param:")) {
          s.kind = SubjectKind::kParam;
          s.param = w.value.substr(6);
          s.ctor = true;
        }
    }
  }
  return s;
}

const EnvVar* SubjectResolver::SettingsEnv(const ConfigField& f) const {
  const auto& sc = k_->data().settings_classes;
  if (std::find(sc.begin(), sc.end(), f.class_name) == sc.end()) return nullptr;
  std::string prefix;
  if (auto it = k_->data().env_prefixes.find(f.class_name); it != k_->data().env_prefixes.end()) prefix = it->second;
  return k_->FindEnv(Upper(prefix + f.name), deps_);
}

bool SubjectResolver::CommandFunction() const {
  for (const auto& d : ctx_.decorators)
    if (d == "command" || d == "option" || d == "callback" || d == "argument") return true;
  return false;
}

// x.dtype != torch.float16, x.scalar_type() == at.kHalf, not x.is_contiguous(), x.device.type != "cuda",
// not x.is_cuda(): a property of a tensor the caller passes.
bool SubjectResolver::Tensor(Atom& a, const std::string& x_in, Subject* s) const {
  std::string base, prop, x = x_in;
  // flashinfer's `encode_dlpack_dtype(t.dtype()) == float32_code`: the dtype, as a code.
  if (StartsWith(x, "encode_dlpack_dtype(") && EndsWith(x, ")")) x = Trim(x.substr(20, x.size() - 21));
  auto strip = [&](const char* suffix, const char* what) {
    if (!EndsWith(x, suffix) || x.size() <= std::char_traits<char>::length(suffix)) return false;
    base = x.substr(0, x.size() - std::char_traits<char>::length(suffix));
    prop = what;
    return true;
  };
  bool truth = a.op.empty();
  long n;
  std::string other;
  bool int_rhs = !truth && IntLiteral(a.rhs, &n);
  bool ok = (!truth && (strip(".dtype", "dtype") || strip(".dtype()", "dtype") || strip(".scalar_type()", "dtype") ||
                        strip(".device.type", "device") || strip(".device().type()", "device") ||
                        strip(".device().device_type", "device") || strip(".device", "device"))) ||
            (int_rhs && (strip(".dim()", "dim") || strip(".ndim", "dim") || strip(".ndim()", "dim") ||
                         strip(".ndimension()", "dim"))) ||
            (truth && (strip(".is_contiguous()", "contiguous") || strip(".IsContiguous()", "contiguous") || strip(".is_cuda", "cuda") || strip(".is_cuda()", "cuda") ||
                       strip(".device().is_cuda()", "cuda") || strip(".is_cpu", "cpu") || strip(".is_cpu()", "cpu") ||
                       strip(".device().is_cpu()", "cpu")));
  // `x.device != y.device` / `x.device != device` compare with another argument's device
  // (TensorPairOther); any other right side must name a device.
  if (ok && prop == "device" && !a.rhs_strings && !TensorPairOther(a, prop, &other)) {
    if (EndsWith(x, ".device")) return false;  // `x.device != torch.device(...)`: neither
    // at::kCPU / c10::kCUDA / torch.kCUDA / DeviceType::CUDA: a device name.
    std::string d = Lower(LastComponent(Trim(a.rhs)));
    if (StartsWith(d, "k")) d = d.substr(1);
    if (StartsWith(d, "dl")) d = d.substr(2);  // DLPack's kDLCUDA / kDLCPU (TVM FFI tensors)
    if (d == "cpu" || d == "cuda" || d == "xpu" || d == "mps" || d == "hip" || d == "meta") {
      a.values = {d};  // the device's name as a string value (read by the writers)
      a.rhs_strings = true;
    } else {
      return false;
    }
  }
  // `t.stride(-1) != 1`: the last dimension is not contiguous (`t.contiguous()` makes it so).
  if (!ok && a.op == "!=" && int_rhs && n == 1 && (strip(".stride(-1)", "contiguous") || strip(".stride()[-1]", "contiguous"))) {
    ok = true;
    truth = true;
    a.falsy = true;  // read as `not t.is_contiguous()`
  }
  if (!ok) return false;
  // `(input).stride(-1)` (a macro's parenthesised argument), `scale.value().dtype()` (C++'s
  // Optional<Tensor>): the tensor is the name inside.
  if (base.size() > 2 && base.front() == '(' && base.back() == ')') base = Trim(base.substr(1, base.size() - 2));
  if (EndsWith(base, ".value()") && base.size() > 8) base = base.substr(0, base.size() - 8);
  if (!IsDotted(base)) return false;
  s->kind = SubjectKind::kTensor;
  s->tensor = base;
  s->pred = prop;
  s->missing = truth ? a.falsy : false;
  if (const ParamInfo* p = Param(base)) s->param = p->name, s->param_info = p;
  else if (!ctx_.known && IsIdent(base)) s->param = base;  // another language: no signature read
  return true;
}

// request.json["x"], request.args.get("x"), request.form["x"], request.headers.get("X"),
// request.query_params.get("x"), req.body.x, req.query.x, req.params.x, req.headers["x"].
bool SubjectResolver::Request(const std::string& x, Subject* s) const {
  static const std::pair<const char*, const char*> kPy[] = {
      {"request.json", "body"},     {"request.get_json()", "body"}, {"request.args", "query"},
      {"request.form", "form"},     {"request.values", "query"},    {"request.headers", "header"},
      {"request.cookies", "cookie"}, {"request.query_params", "query"}, {"request.path_params", "path"},
      {"req.body", "body"},         {"req.query", "query"},         {"req.params", "path"},
      {"req.headers", "header"},    {"req.cookies", "cookie"},      {"request.body", "body"},
      {"request.query", "query"},   {"request.params", "path"},     {"ctx.request.body", "body"},
      {"ctx.query", "query"},       {"ctx.params", "path"}};
  for (const auto& [prefix, where] : kPy) {
    if (!StartsWith(x, prefix)) continue;
    std::string rest = x.substr(std::char_traits<char>::length(prefix));
    std::string field;
    if (StartsWith(rest, ".get(")) {
      auto args = CallArgs(rest, 4);
      if (args.empty() || !StringLit(args[0], &field)) return false;
    } else if (StartsWith(rest, "[") && EndsWith(rest, "]")) {
      if (!StringLit(rest.substr(1, rest.size() - 2), &field)) return false;
    } else if (StartsWith(rest, ".") && IsIdent(rest.substr(1))) {
      field = rest.substr(1);
    } else {
      return false;
    }
    if (field.empty() || field.size() > 80) return false;
    s->kind = SubjectKind::kRequest;
    s->module = where;
    s->attr = field;
    return true;
  }
  return false;
}

// The version-check helpers of the Hugging Face libraries, tested for truth:
// `is_torch_version(">=", "2.1")`, `is_transformers_version(">=", MIN)`,
// `compare_versions("deepspeed", "<", "0.9.3")`. The requirement that avoids the
// error is the helper's comparison when the error comes on its failing (`if not
// is_torch_version(">=", V)`), its opposite when on its passing; the version a
// literal or a constant of this file ("torch>=2.1"); else the package alone.
bool SubjectResolver::VersionHelper(const std::string& x, bool falsy, Subject* s) const {
  size_t open = x.find('(');
  if (open == std::string::npos || !EndsWith(x, ")")) return false;
  const std::string fn = LastComponent(x.substr(0, open));
  std::vector<std::string> args = CallArgs(x, open);
  std::string pkg, op, ver;
  if (fn == "compare_versions" && args.size() == 3) {
    if (!StringLit(Trim(args[0]), &pkg)) {
      pkg = Trim(args[0]);  // compare_versions(torch, ...): the module object
      if (!IsIdent(pkg)) return false;
    }
    if (!StringLit(Trim(args[1]), &op)) return false;
    ver = Trim(args[2]);
  } else if (StartsWith(fn, "is_") && EndsWith(fn, "_version") && fn.size() > 11 && args.size() == 2) {
    pkg = fn.substr(3, fn.size() - 11);
    if (!StringLit(Trim(args[0]), &op)) return false;
    ver = Trim(args[1]);
  } else {
    return false;
  }
  static const char* const kOps[] = {">=", ">", "<=", "<", "==", "!="};
  if (std::find_if(std::begin(kOps), std::end(kOps), [&](const char* o) { return op == o; }) == std::end(kOps)) return false;
  std::string v;
  if (!StringLit(ver, &v) && IsIdent(ver))
    if (const std::string* r = Assigned(ver)) StringLit(Trim(*r), &v);
  for (char c : v)
    if (!(std::isdigit((unsigned char)c) || c == '.' || c == 'a' || c == 'b' || c == 'r' || c == 'c' || c == 'v' || c == 'p' ||
          c == 's' || c == 't' || c == 'd' || c == 'e' || c == 'o'))
      v.clear();  // not a version as pip reads it
  s->kind = SubjectKind::kVersion;
  s->pred = Show(falsy ? "not " + x : x);
  s->missing = true;
  s->module = pkg;
  if (!v.empty()) s->attr = pkg + (falsy ? op : FlipOp(op)) + v;
  return true;
}

std::string RequirementOfCall(const std::string& x) {
  size_t open = x.find('(');
  if (open == std::string::npos || !EndsWith(x, ")")) return "";
  std::string fn = LastComponent(x.substr(0, open));
  std::vector<std::string> args = CallArgs(x, open);
  std::string first;
  if (args.empty() || !StringLit(Trim(args[0]), &first) || first.empty()) return "";
  if (fn == "RequirementCache" || fn == "package_available" || fn == "module_available") {
    // Only a well-formed requirement: a name, then an optional version clause.
    for (char c : first)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_-.<>=!~, []", c))) return "";
    // module_available("dask", minversion="2024.08.1") (xarray's): at least that version.
    std::string min;
    for (size_t i = 1; i < args.size(); ++i) {
      std::string arg = Trim(args[i]);
      if (StartsWith(arg, "minversion=") && StringLit(Trim(arg.substr(11)), &min) && !min.empty() &&
          first.find_first_of("<>=!~") == std::string::npos)
        return first + ">=" + min;
    }
    return first;
  }
  if (fn != "compare_version" || args.size() < 3) return "";
  static const std::pair<const char*, const char*> kOps[] = {
      {"operator.ge", ">="}, {"operator.gt", ">"}, {"operator.le", "<="}, {"operator.lt", "<"}, {"operator.eq", "=="}, {"operator.ne", "!="}};
  std::string ver;
  for (const auto& [name, sym] : kOps)
    if (Trim(args[1]) == name && StringLit(Trim(args[2]), &ver) && !ver.empty()) return first + sym + ver;
  return "";
}

bool SubjectResolver::RequirementConstant(const std::string& x, bool falsy, Subject* s) const {
  // A module constant (UPPER_CASE: the only names looked up, so the only ones a
  // record's prose depends on) defined anywhere, or the call itself (a constant of
  // this file, replaced by what it was assigned).
  std::string spec = RequirementOfCall(x);
  if (spec.empty()) {
    if (!k_ || !IsUpperName(x) || Param(x)) return false;
    if (deps_) deps_->Add("requirement", x);
    const auto& reqs = k_->data().requirement_constants;
    auto it = reqs.find(x);
    if (it == reqs.end()) return false;
    spec = it->second;
  }
  const std::string shown = s->via.empty() ? x : s->via;
  size_t cut = spec.find_first_of("<>=!~[ ,");
  std::string pkg = spec.substr(0, cut);
  if (pkg.empty()) return false;
  s->pred = Show(falsy ? "not " + shown : shown);
  s->module = pkg;
  size_t op_at = spec.find_first_of("<>=!~");
  if (op_at == std::string::npos) {
    // Only whether it is installed; that it is (`if module_available("dask"): raise`)
    // says which path the code took, not what to change.
    if (!falsy) return false;
    s->kind = SubjectKind::kMissingModule;
    s->missing = falsy;
    return true;
  }
  s->kind = SubjectKind::kVersion;
  s->missing = true;
  // `not NAME` fails without the requirement: it is the fix. `NAME` fails with it: its
  // opposite, when the requirement is one comparison.
  std::string clause = spec.substr(op_at);
  size_t op_end = clause.find_first_not_of("<>=!~");
  std::string op = clause.substr(0, op_end), ver = op_end == std::string::npos ? "" : clause.substr(op_end);
  if (falsy) s->attr = pkg + clause;
  else if (!ver.empty() && ver.find_first_of(",<>=!~") == std::string::npos && op != "~=") s->attr = pkg + FlipOp(op) + ver;
  return true;
}

// `torch.__version__ < "2.1"`, `version("vllm") >= "0.6"`, `sys.version_info < (3, 10)`: a
// comparison with a version (a side with `{` is a dict or an f-string, not one).
bool SubjectResolver::VersionComparison(const Atom& a, const std::string& x, Subject* s) const {
  if (!(VersionLike(x) || VersionLike(a.rhs)) || Has(x, "{") || Has(a.rhs, "{")) return false;
  s->kind = SubjectKind::kVersion;
  s->pred = Show(a.Code());
  s->missing = true;
  // pkg.__version__ / version("pkg") on one side, a version literal on the other:
  // the requirement that avoids the error ("torch>=2.8").
  auto package_of = [](const std::string& side) -> std::string {
    size_t p = side.find(".__version__");
    if (p != std::string::npos) {
      size_t b = p;
      while (b > 0 && (IsWordChar(side[b - 1]) || side[b - 1] == '.')) --b;
      return FirstComponent(side.substr(b, p - b));
    }
    size_t v = side.find("version(");
    if (v != std::string::npos) {
      auto args = CallArgs(side, v + 7);
      std::string name;
      if (!args.empty() && StringLit(args[0], &name)) return name;
    }
    return "";
  };
  auto version_of = [](std::string side) -> std::string {
    side = Trim(side);
    for (int i = 0; i < 3; ++i) {
      size_t open = side.find('(');
      if (open == std::string::npos || !EndsWith(side, ")")) break;
      side = Trim(side.substr(open + 1, side.size() - open - 2));
    }
    std::string v;
    if (!StringLit(side, &v)) return "";
    for (char c : v)
      if (!(std::isdigit((unsigned char)c) || c == '.' || c == 'a' || c == 'b' || c == 'r' || c == 'c' || c == 'v')) return "";
    return v;
  };
  std::string lp = package_of(a.lhs), rp = package_of(a.rhs);
  std::string op = FlipOp(a.op);  // what must hold instead
  if (!lp.empty() && !version_of(a.rhs).empty() && !a.op.empty()) {
    s->module = lp;
    s->attr = lp + op + version_of(a.rhs);
  } else if (!rp.empty() && !version_of(a.lhs).empty() && !a.op.empty()) {
    std::string mirrored = op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : op;
    s->module = rp;
    s->attr = rp + mirrored + version_of(a.lhs);
  } else {
    s->module = !lp.empty() ? lp : rp;
  }
  return true;
}

bool SubjectResolver::VersionLike(std::string_view t) {
  auto call = [&](std::string_view fn) {
    for (size_t p = t.find(fn); p != std::string_view::npos; p = t.find(fn, p + 1))
      if (p == 0 || !IsWordChar(t[p - 1])) return true;
    return false;
  };
  return Has(t, "__version__") || HasWord(t, "version_info") || call("version(") || call("Version(") ||
         call("parse_version(") || Has(t, "version.parse(");
}

bool SubjectResolver::EnvOf(const std::string& x, Subject* s) const {
  std::string name;
  auto set = [&](std::string n) {
    s->kind = SubjectKind::kEnv;
    s->env = std::move(n);
    s->env_info = k_ ? k_->FindEnv(s->env, deps_) : nullptr;
    return true;
  };
  for (const char* pat : {"os.environ.get(", "os.getenv(", "os.environ.setdefault("}) {
    size_t p = x.find(pat);
    if (p == std::string::npos) continue;
    auto args = CallArgs(x, p + std::char_traits<char>::length(pat) - 1);
    if (!args.empty() && StringLit(args[0], &name)) return set(name);
  }
  // Rust: std::env::var("X") (guards spell `::` as `.`); `.is_ok()` / `.is_some()` is "X is set".
  for (const char* pat : {"env.var(", "env.var_os("}) {
    size_t p = x.find(pat);
    if (p == std::string::npos || site_.language != "rust") continue;
    auto args = CallArgs(x, p + std::char_traits<char>::length(pat) - 1);
    if (args.size() != 1 || !StringLit(args[0], &name)) continue;
    std::string call = std::string(pat) + Trim(args[0]) + ")";
    if (x.compare(p, call.size(), call) != 0) continue;
    std::string rest = x.substr(p + call.size());
    if (rest.empty() || rest == ".is_ok()" || rest == ".is_some()") {
      s->pred = "present";  // any value, "0" and "" included, makes it true
      return set(name);
    }
  }
  if (size_t p = x.find("os.environ["); p != std::string::npos) {
    size_t e = x.find(']', p);
    if (e != std::string::npos && StringLit(x.substr(p + 11, e - p - 11), &name)) return set(name);
  }
  // get_bool_env_var("X"), envs.get_int("X")
  size_t open = x.find('(');
  if (open != std::string::npos && open > 0) {
    std::string fn = Lower(LastComponent(x.substr(0, open)));
    if (Has(fn, "env") && (StartsWith(fn, "get") || StartsWith(fn, "_get") || StartsWith(fn, "env"))) {
      auto args = CallArgs(x, open);
      if (!args.empty() && StringLit(args[0], &name)) return set(name);
    }
  }
  // envs.SGLANG_X(.get() / .value), envs_ascend.VLLM_X, vllm.envs.X
  std::string y = x;
  for (const char* suf : {".get()", ".value", ".get_value()"})
    if (EndsWith(y, suf)) y = y.substr(0, y.size() - std::char_traits<char>::length(suf));
  if (IsDotted(y) && y.find('.') != std::string::npos) {
    std::string last = LastComponent(y);
    std::string base_last = Lower(LastComponent(y.substr(0, y.rfind('.'))));
    if (IsUpperName(last) && (Has(base_last, "env") || (k_ && k_->FindEnv(last, deps_)))) return set(last);
  }
  return false;
}

// `base.attr` reads a settings object: base names one (args, cfg, config, ...).
bool SettingsHolder(const std::string& base, const SiteContext& ctx) {
  if (base == "self" || base == "cls") {
    for (std::string_view suf : {"Args", "Arguments", "Config", "Options", "Settings", "Params"})
      if (EndsWith(ctx.class_name, suf)) return true;
    return false;
  }
  std::string last = LastComponent(base);
  if (EndsWith(last, "()")) last = last.substr(0, last.size() - 2);
  // The words of NameWords(last), lowered, compared in place: this runs for every
  // dotted name in every record's prose (FlagsAsOptions), so it allocates nothing.
  static constexpr std::string_view kWords[] = {"args", "arg", "cfg", "config", "configs", "conf", "opts", "opt", "options",
                                                "settings", "view", "params", "flags", "ns", "namespace", "hparams", "hps"};
  char word[16];
  size_t n = 0;
  bool too_long = false;
  auto matches = [&] {
    if (too_long || n == 0) return false;
    std::string_view w(word, n);
    for (std::string_view k : kWords)
      if (w == k) return true;
    return false;
  };
  for (char c : last) {
    if (IsAsciiAlnum(c)) {
      if (n < sizeof(word)) word[n++] = AsciiLower(c);
      else too_long = true;  // longer than any of kWords
      continue;
    }
    if (matches()) return true;
    n = 0;
    too_long = false;
  }
  return matches();
}

}  // namespace errdex::doc
