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
  for (auto& c : o) c = (char)std::tolower((unsigned char)c);
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
bool IsWarningClass(const std::string& c) { return c.size() >= 7 && c.compare(c.size() - 7, 7, "Warning") == 0; }

}  // namespace

std::string BackgroundTagFor(const Evidence& e) {
  const std::string msg = Lower(e.message);
  const std::string& c = e.error_class;
  const std::string ctx = e.except_context;
  if (OneOf(c, {"DeprecationWarning", "FutureWarning", "PendingDeprecationWarning"}) || Has(msg, {"deprecated"}))
    return "deprecated-usage";
  if (e.kind == SiteKind::kHttp || e.kind == SiteKind::kHttpResponse) {
    if (e.http_status && *e.http_status >= 500) return "http-server-error";
    return "http-client-error";
  }
  if (c == "NotImplementedError" || Has(msg, {"not implemented", "not yet implemented"})) return "not-implemented";
  if (e.hardware_guard) return "unsupported-hardware";
  if (e.dtype_missing) return "missing-dtype-support";
  if (OneOf(c, {"ImportError", "ModuleNotFoundError"}) || Has(ctx, {"ImportError", "ModuleNotFoundError"}) ||
      e.module_missing)
    return "missing-dependency";
  if (OneOf(c, {"MemoryError", "OutOfMemoryError"}) || Has(c, {"OutOfMemory", "ResourceExhausted"}) ||
      Has(msg, {"out of memory", "exceeds", "exceeded", "too many", "too large", "limit"}))
    return "resource-exhausted";
  if (c == "TypeError" || e.isinstance_guard) return "type-error";
  if (OneOf(c, {"KeyError", "IndexError", "LookupError", "AttributeError"}) ||
      Has(ctx, {"KeyError", "IndexError", "LookupError"}))
    return "key-not-found";
  if (OneOf(c, {"OSError", "IOError", "FileNotFoundError", "PermissionError", "FileExistsError", "IsADirectoryError",
                "NotADirectoryError", "EOFError", "BlockingIOError"}))
    return "io-error";
  if (OneOf(c, {"TimeoutError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
                "ConnectionAbortedError", "BrokenPipeError", "timeout", "gaierror", "herror"}) ||
      Has(c, {"Timeout"}))
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
  if (IsWarningClass(e.error_class) || tag == "deprecated-usage") return "warning";
  if (tag == "missing-dependency" || tag == "missing-dtype-support" || tag == "unsupported-hardware" ||
      tag == "resource-exhausted" || e.error_class == "SystemExit")
    return "critical";
  return "error";
}

std::string ErrorTypeFor(const Evidence& e) {
  if (e.kind == SiteKind::kAssert) return "assertion";
  if (e.kind == SiteKind::kHttp || e.kind == SiteKind::kHttpResponse) return "http";
  const std::string& c = e.error_class;
  if (IsLogLike(e)) {
    if (e.log_level == "warning" || e.log_level == "warn" || IsWarningClass(c)) return "warning";
    return "log";
  }
  if (IsWarningClass(c)) return "warning";
  if (OneOf(c, {"ValueError", "TypeError", "ArgumentError", "ArgumentTypeError", "BadParameter", "UsageError",
                "BadArgumentUsage", "BadOptionUsage"}) ||
      Has(c, {"Validation", "Invalid", "Config", "Argument"}))
    return "validation";
  return "exception";
}

std::string HandlingStrategyFor(const Evidence& e, const std::string& tag) {
  if (IsLogLike(e) || IsWarningClass(e.error_class) || tag == "deprecated-usage") return "log-and-continue";
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
