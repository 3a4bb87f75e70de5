// document/taxonomy.cc: the rules documented in taxonomy.h. Tested by taxonomy_test.cc.
#include "document/taxonomy.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string_view>

namespace errdex::doc {
namespace {

std::string Lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;  // std::tolower in the "C" locale
  return o;
}
bool Has(const std::string& hay, std::initializer_list<std::string_view> needles) {
  for (auto n : needles)
    if (hay.find(n) != std::string::npos) return true;
  return false;
}
bool OneOf(const std::string& s, std::initializer_list<std::string_view> xs) {
  for (auto x : xs)
    if (s == x) return true;
  return false;
}
bool IsLogLike(const Evidence& e) { return e.kind == SiteKind::kLog; }
bool IsWarningName(const std::string& c) { return c.size() >= 7 && c.compare(c.size() - 7, 7, "Warning") == 0; }
// Class rules hold for the class or for the built-in it derives from: a repo's
// `class QuantConfigError(ValueError)` is a ValueError.
bool ClassIs(const Evidence& e, std::initializer_list<std::string_view> xs) {
  return OneOf(e.error_class, xs) || (!e.base_class.empty() && OneOf(e.base_class, xs));
}
bool ClassHas(const Evidence& e, std::initializer_list<std::string_view> needles) {
  return Has(e.error_class, needles) || (!e.base_class.empty() && Has(e.base_class, needles));
}
bool IsWarningClass(const Evidence& e) { return IsWarningName(e.error_class) || IsWarningName(e.base_class); }

}  // namespace

std::string BackgroundTagFor(const Evidence& e) {
  const std::string msg = Lower(e.message);
  const std::string& ctx = e.except_context;
  if (ClassIs(e, {"DeprecationWarning", "FutureWarning", "PendingDeprecationWarning"}) || Has(msg, {"deprecated"}))
    return "deprecated-usage";
  if (e.kind == SiteKind::kHttp || e.kind == SiteKind::kHttpResponse) {
    if (e.http_status && *e.http_status >= 500) return "http-server-error";
    return "http-client-error";
  }
  if (ClassIs(e, {"NotImplementedError"}) || Has(msg, {"not implemented", "not yet implemented"}))
    return "not-implemented";
  if (e.hardware_guard) return "unsupported-hardware";
  if (e.dtype_missing) return "missing-dtype-support";
  if (ClassIs(e, {"ImportError", "ModuleNotFoundError"}) || Has(ctx, {"ImportError", "ModuleNotFoundError"}) ||
      e.module_missing)
    return "missing-dependency";
  if (ClassIs(e, {"MemoryError", "OutOfMemoryError"}) || ClassHas(e, {"OutOfMemory", "ResourceExhausted"}) ||
      Has(msg, {"out of memory", "exceeds", "exceeded", "too many", "too large", "limit"}))
    return "resource-exhausted";
  if (ClassIs(e, {"TypeError"}) || e.isinstance_guard) return "type-error";
  if (ClassIs(e, {"KeyError", "IndexError", "LookupError", "AttributeError"}) ||
      Has(ctx, {"KeyError", "IndexError", "LookupError"}))
    return "key-not-found";
  if (ClassIs(e, {"OSError", "IOError", "FileNotFoundError", "PermissionError", "FileExistsError", "IsADirectoryError",
                "NotADirectoryError", "EOFError", "BlockingIOError"}))
    return "io-error";
  if (ClassIs(e, {"TimeoutError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
                 "ConnectionAbortedError", "BrokenPipeError", "timeout", "gaierror", "herror"}) ||
      ClassHas(e, {"Timeout"}))
    return "network-error";
  if (e.shape_guard || Has(msg, {"shape", "dimension", "ndim", "size mismatch"})) return "shape-mismatch";
  // A log reports and goes on: it rejects no combination or value.
  if (IsLogLike(e)) return "runtime-warning";
  if (e.setting_guards >= 2 ||
      (e.setting_guards >= 1 && Has(msg, {"only supports", "supports only", "not supported with", "incompatible",
                                          "cannot be used with", "together with", "combined with", "in combination"})))
    return "unsupported-configuration-combo";
  if (e.kind == SiteKind::kAssert) return "assertion-failure";
  if (IsLogLike(e)) return "runtime-warning";
  if (ErrorTypeFor(e) == "validation" || e.setting_guards == 1) return "invalid-argument-value";
  if (Has(msg, {"not initialized", "already", "closed", "must be called", "before", "not started", "not running"}))
    return "invalid-state";
  return "runtime-error";
}

std::string SeverityFor(const Evidence& e, const std::string& tag) {
  if (IsLogLike(e)) {
    if (e.log_level == "critical" || e.log_level == "fatal") return "critical";
    if (e.log_level == "error" || e.log_level == "exception") return "error";
    return "warning";
  }
  if (IsWarningClass(e) || tag == "deprecated-usage") return "warning";
  if (tag == "missing-dependency" || tag == "missing-dtype-support" || tag == "unsupported-hardware" ||
      tag == "resource-exhausted" || ClassIs(e, {"SystemExit"}))
    return "critical";
  return "error";
}

std::string ErrorTypeFor(const Evidence& e) {
  if (e.kind == SiteKind::kAssert) return "assertion";
  if (e.kind == SiteKind::kHttp || e.kind == SiteKind::kHttpResponse) return "http";
  if (IsLogLike(e)) {
    if (e.log_level == "warning" || e.log_level == "warn" || IsWarningClass(e)) return "warning";
    return "log";
  }
  if (IsWarningClass(e)) return "warning";
  if (ClassIs(e, {"ValueError", "TypeError", "ArgumentError", "ArgumentTypeError", "BadParameter", "UsageError",
                  "BadArgumentUsage", "BadOptionUsage"}) ||
      ClassHas(e, {"Validation", "Invalid", "Config", "Argument"}))
    return "validation";
  return "exception";
}

std::string HandlingStrategyFor(const Evidence& e, const std::string& tag) {
  if (IsLogLike(e) || IsWarningClass(e) || tag == "deprecated-usage") return "log-and-continue";
  if (tag == "network-error" || tag == "resource-exhausted" ||
      (e.http_status && (*e.http_status == 429 || *e.http_status == 502 || *e.http_status == 503 || *e.http_status == 504)))
    return "retry-with-backoff";
  if (tag == "key-not-found" || tag == "io-error" || tag == "http-client-error" || tag == "http-server-error")
    return "catch-and-handle";
  if (tag == "assertion-failure" || tag == "not-implemented" || tag == "invalid-state" || tag == "runtime-error")
    return "fix-code";
  return "validation";
}

}  // namespace errdex::doc
