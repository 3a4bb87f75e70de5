#include "extract/cpp/cpp_sinks.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace errdex::cpp {

namespace {

using K = SiteKind;
using R = MsgRule;

// c10/util/Exception.h (PyTorch 1.13 .. 2.x): TORCH_CHECK_MSG with no message
// arguments is this text (two spaces twice); c10::str concatenates the rest.
constexpr std::string_view kTorchEmpty =
    "Expected @c to be true, but got false.  (Could this error message be improved?  If so, please report an "
    "enhancement request to PyTorch.)";
// TORCH_INTERNAL_ASSERT: #cond " INTERNAL ASSERT FAILED at " C10_STRINGIZE(__FILE__) ":"
// C10_STRINGIZE(__LINE__) ", please report a bug to PyTorch. " then c10::str(args).
constexpr std::string_view kTorchInternal = "@c INTERNAL ASSERT FAILED at \"@v\":@v, please report a bug to PyTorch. ";

Sink Torch(std::string_view name, std::string_view cls) {
  Sink s{name, "", K::kRaise, cls};
  s.cond_arg = 0;
  s.msg_arg = 1;
  s.rule = R::kConcat;
  s.empty = kTorchEmpty;
  return s;
}
Sink Internal(std::string_view name) {
  Sink s{name, "", K::kRaise, "RuntimeError"};
  s.cond_arg = 0;
  s.msg_arg = 1;
  s.rule = R::kConcat;
  s.prefix = kTorchInternal;
  return s;
}
// tvm-ffi logging.h: ICHECK(x) streams after "Check failed: (" #x ") is false: ";
// the binary forms after "Check failed: " #x " op " #y, the operands' values, ": ".
Sink TvmCheck(std::string_view name, std::string_view prefix, int class_arg, std::string_view cls) {
  Sink s{name, "", K::kRaise, cls};
  s.cond_arg = 0;
  s.class_arg = class_arg;
  s.stream = true;
  s.prefix = prefix;
  return s;
}
// glog: "Check failed: " #cond " " then the stream; CHECK_OP adds " (v1 vs. v2) ".
Sink Glog(std::string_view name, std::string_view prefix) {
  Sink s{name, "", K::kPanic, "fatal"};
  s.cond_arg = 0;
  s.stream = true;
  s.prefix = prefix;
  s.weak = true;
  return s;
}
Sink Log(std::string_view name, std::string_view qualifier, K kind, std::string_view cls, std::string_view level,
         int msg_arg, R rule) {
  Sink s{name, qualifier, kind, cls};
  s.msg_arg = msg_arg;
  s.rule = rule;
  s.log_level = level;
  return s;
}

std::vector<Sink> BuildSinks() {
  std::vector<Sink> v;
  // --- PyTorch (c10): the Python class each macro raises.
  v.push_back(Torch("TORCH_CHECK", "RuntimeError"));
  v.push_back(Torch("STD_TORCH_CHECK", "RuntimeError"));
  v.push_back(Torch("TORCH_CHECK_VALUE", "ValueError"));
  v.push_back(Torch("TORCH_CHECK_TYPE", "TypeError"));
  v.push_back(Torch("TORCH_CHECK_INDEX", "IndexError"));
  v.push_back(Torch("TORCH_CHECK_NOT_IMPLEMENTED", "NotImplementedError"));
  v.push_back(Torch("TORCH_CHECK_LINALG", "LinAlgError"));
  v.push_back(Internal("TORCH_INTERNAL_ASSERT"));
  v.push_back(Internal("TORCH_INTERNAL_ASSERT_DEBUG_ONLY"));
  v.push_back(Internal("AT_ASSERT"));
  {
    Sink s{"AT_ERROR", "", K::kRaise, "RuntimeError"};  // TORCH_CHECK(false, c10::str(args))
    s.msg_arg = 0;
    s.rule = R::kConcat;
    v.push_back(s);
  }
  {
    Sink s{"C10_THROW_ERROR", "", K::kRaise, ""};  // throw ::c10::ErrType({...}, msg)
    s.class_arg = 0;
    s.msg_arg = 1;
    s.rule = R::kOne;
    v.push_back(s);
  }
  v.push_back(Log("TORCH_WARN", "", K::kLog, "UserWarning", "warning", 0, R::kConcat));
  v.push_back(Log("TORCH_WARN_ONCE", "", K::kLog, "UserWarning", "warning", 0, R::kConcat));
  // --- tvm-ffi (and TVM's own ICHECK family, same texts).
  for (std::string_view n : {"TVM_FFI_ICHECK", "ICHECK"}) {
    Sink s = TvmCheck(n, "Check failed: (@c) is false: ", -1, "InternalError");
    s.weak = n == "ICHECK";
    v.push_back(s);
  }
  {
    Sink s = TvmCheck("TVM_FFI_CHECK", "Check failed: (@c) is false: ", 1, "");
    v.push_back(s);
  }
  struct Op {
    const char* suffix;
    const char* op;
  };
  static constexpr Op kOps[] = {{"EQ", "=="}, {"NE", "!="}, {"LT", "<"}, {"LE", "<="}, {"GT", ">"}, {"GE", ">="}};
  static std::deque<std::string> names;  // storage for the generated names (built once; a deque never moves them)
  auto keep = [](std::string s) -> std::string_view {
    names.push_back(std::move(s));
    return names.back();
  };
  for (const Op& o : kOps) {
    std::string_view tvm_prefix = keep(std::string("Check failed: @a ") + o.op + " @b@v: ");
    Sink tvm = TvmCheck(keep(std::string("TVM_FFI_ICHECK_") + o.suffix), tvm_prefix, -1, "InternalError");
    tvm.op = o.op;
    v.push_back(tvm);
    Sink t = TvmCheck(keep(std::string("ICHECK_") + o.suffix), tvm_prefix, -1, "InternalError");
    t.op = o.op;
    t.weak = true;
    v.push_back(t);
    std::string_view glog_prefix = keep(std::string("Check failed: @a ") + o.op + " @b (@v vs. @v) ");
    for (const char* family : {"CHECK_", "DCHECK_"}) {
      Sink g = Glog(keep(family + std::string(o.suffix)), glog_prefix);
      g.op = o.op;
      v.push_back(g);
    }
  }
  {
    Sink s{"TVM_FFI_THROW", "", K::kRaise, ""};
    s.class_arg = 0;
    s.stream = true;
    v.push_back(s);
  }
  // --- glog.
  v.push_back(Glog("CHECK", "Check failed: @c "));
  v.push_back(Glog("DCHECK", "Check failed: @c "));
  v.push_back(Glog("PCHECK", "Check failed: @c "));
  {
    Sink s{"CHECK_NOTNULL", "", K::kPanic, "fatal"};
    s.cond_arg = 0;
    s.prefix = "'@c' Must be non NULL";
    s.weak = true;
    v.push_back(s);
  }
  {
    Sink s{"LOG", "", K::kLog, ""};  // LOG(FATAL) aborts; LOG(ERROR) / LOG(WARNING) log
    s.severity_arg = 0;
    s.stream = true;
    s.weak = true;
    v.push_back(s);
  }
  // --- C.
  {
    Sink s{"assert", "", K::kAssert, "assert"};  // glibc: "Assertion `" #expr "' failed."
    s.cond_arg = 0;
    s.prefix = "Assertion `@c' failed.";
    s.weak = true;
    v.push_back(s);
  }
  {
    Sink s = Log("fprintf", "", K::kLog, "", "error", 1, R::kPrintf);
    s.needs_stderr = true;
    s.weak = true;
    v.push_back(s);
  }
  {
    Sink s = Log("printf", "", K::kPanic, "fatal", "", 0, R::kPrintf);
    s.fatal_print = true;
    s.weak = true;
    v.push_back(s);
  }
  // --- CPython: the class is the exception object's name without PyExc_.
  {
    Sink s{"PyErr_SetString", "", K::kRaise, ""};
    s.class_arg = 0;
    s.msg_arg = 1;
    s.rule = R::kOne;
    v.push_back(s);
  }
  {
    Sink s{"PyErr_Format", "", K::kRaise, ""};
    s.class_arg = 0;
    s.msg_arg = 1;
    s.rule = R::kPrintf;
    v.push_back(s);
  }
  {
    Sink s{"PyErr_SetNone", "", K::kRaise, ""};
    s.class_arg = 0;
    v.push_back(s);
  }
  {
    Sink s{"PyErr_WarnEx", "", K::kLog, ""};
    s.class_arg = 0;
    s.msg_arg = 1;
    s.rule = R::kOne;
    s.log_level = "warning";
    v.push_back(s);
  }
  {
    Sink s{"PyErr_WarnFormat", "", K::kLog, ""};
    s.class_arg = 0;
    s.msg_arg = 2;
    s.rule = R::kPrintf;
    s.log_level = "warning";
    v.push_back(s);
  }
  {
    Sink s{"pybind11_fail", "", K::kRaise, "std::runtime_error"};
    s.msg_arg = 0;
    s.rule = R::kOne;
    v.push_back(s);
  }
  // --- Abseil status errors and TensorFlow's errors:: (StrCat of the arguments).
  for (const char* code : {"Aborted", "AlreadyExists", "Cancelled", "DataLoss", "DeadlineExceeded",
                           "FailedPrecondition", "Internal", "InvalidArgument", "NotFound", "OutOfRange",
                           "PermissionDenied", "ResourceExhausted", "Unauthenticated", "Unavailable",
                           "Unimplemented", "Unknown"}) {
    Sink a{keep(std::string(code) + "Error"), "absl", K::kRaise, ""};
    a.msg_arg = 0;
    a.rule = R::kConcat;
    v.push_back(a);
    Sink e{keep(code), "errors", K::kRaise, ""};
    e.msg_arg = 0;
    e.rule = R::kConcat;
    v.push_back(e);
  }
  // --- spdlog.
  v.push_back(Log("error", "spdlog", K::kLog, "", "error", 0, R::kBraces));
  v.push_back(Log("warn", "spdlog", K::kLog, "", "warning", 0, R::kBraces));
  v.push_back(Log("critical", "spdlog", K::kLog, "", "critical", 0, R::kBraces));
  return v;
}

struct Tables {
  std::vector<Sink> sinks;
  std::unordered_map<std::string_view, std::vector<const Sink*>> by_name;
  Tables() : sinks(BuildSinks()) {
    for (const Sink& s : sinks) by_name[s.name].push_back(&s);
  }
};

const Tables& T() {
  static const Tables t;
  return t;
}

}  // namespace

const Sink* FindSink(std::string_view name, std::string_view qualifier) {
  const auto& m = T().by_name;
  auto it = m.find(name);
  if (it == m.end()) return nullptr;
  while (qualifier.size() >= 2 && qualifier.substr(0, 2) == "::") qualifier.remove_prefix(2);
  for (const Sink* s : it->second) {
    if (s->qualifier.empty()) {
      // Unqualified sinks also match std::/::-qualified spellings of C functions,
      // but not a member of some other namespace (foo::assert is not assert).
      if (qualifier.empty() || qualifier == "std" || qualifier == "c10" || qualifier == "tvm::ffi") return s;
      continue;
    }
    if (qualifier == s->qualifier ||
        (qualifier.size() > s->qualifier.size() &&
         qualifier.substr(qualifier.size() - s->qualifier.size()) == s->qualifier &&
         qualifier[qualifier.size() - s->qualifier.size() - 1] == ':'))
      return s;
  }
  return nullptr;
}

bool IsSinkName(std::string_view name) { return T().by_name.count(name) != 0; }

bool IsStrongSinkName(std::string_view name) {
  const auto& m = T().by_name;
  auto it = m.find(name);
  if (it == m.end()) return false;
  for (const Sink* s : it->second)
    if (!s->weak && s->qualifier.empty()) return true;
  return false;
}

std::string_view ClassFromArgument(std::string_view arg) {
  while (arg.size() >= 2 && arg.substr(0, 2) == "::") arg.remove_prefix(2);
  size_t colon = arg.rfind("::");
  if (colon != std::string_view::npos) arg = arg.substr(colon + 2);
  if (arg.substr(0, 6) == "PyExc_") return arg.substr(6);
  if (arg == "Error") return "RuntimeError";  // c10::Error
  if (arg == "EnforceFiniteError") return "RuntimeError";
  return arg;
}

}  // namespace errdex::cpp
