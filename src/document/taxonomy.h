// document/taxonomy: the closed vocabularies of the record's classification
// fields and the rules that choose them. Deterministic: the same evidence always
// gives the same answer; the first matching rule wins. Also in docs/document.md.
//
// backgroundTag (one kebab-case tag per record; rules in this order):
//   deprecated-usage               DeprecationWarning/FutureWarning/PendingDeprecationWarning, or the
//                                  message says "deprecated"
//   http-server-error              an HTTP error (kind http/http_response) with status 5xx
//   http-client-error              an HTTP error with status 4xx (or unknown status)
//   not-implemented                NotImplementedError, or the message says "not (yet) implemented"
//   unsupported-hardware           a guard tests a hardware/platform predicate (is_sm100_supported(),
//                                  torch.cuda.is_available(), is_hip(), get_device_capability, ...)
//   missing-dtype-support          a guard finds a dtype-like attribute missing (getattr(torch, "float4_...",
//                                  None) is None, not hasattr(torch, "bfloat16"), ...)
//   missing-dependency             ImportError/ModuleNotFoundError, an `except ImportError` context,
//                                  importlib.util.find_spec(...) is None, is_<pkg>_available() false, another
//                                  attribute missing from a module, or a version comparison
//   resource-exhausted             MemoryError/*OutOfMemory*/ResourceExhausted*, or the message says
//                                  "out of memory", "exceeds", "too many", "too large", "limit"
//   type-error                     TypeError, or an isinstance() guard
//   key-not-found                  KeyError/IndexError/LookupError/AttributeError, or an `except KeyError` context
//   io-error                       OSError/IOError/FileNotFoundError/PermissionError/FileExistsError/
//                                  IsADirectoryError/NotADirectoryError/EOFError
//   network-error                  TimeoutError/ConnectionError and subclasses, socket errors
//   shape-mismatch                 the message or a guard is about shape/dimension/len()/ndim/size
//   runtime-warning                a log/warning site matching nothing above (logs stop here)
//   unsupported-configuration-combo  two or more guards test settings (flags, config fields, env vars), or
//                                  one does and the message says "only supports", "supports only", "not
//                                  supported with", "incompatible", "cannot be used with", "together with",
//                                  "combined with", "in combination"
//   assertion-failure              an assert statement
//   invalid-argument-value         ValueError and other validation classes, or one setting guard
//   invalid-state                  RuntimeError whose message speaks of state ("not initialized", "already",
//                                  "closed", "must be called", "before", "not started", "not running")
//   runtime-error                  anything else
//
// severity:
//   kind log: level critical -> critical; error/exception -> error; warning/warn/info/other -> warning
//   a class ending in "Warning", or backgroundTag deprecated-usage -> warning
//   backgroundTag missing-dependency / missing-dtype-support / unsupported-hardware / resource-exhausted,
//     or SystemExit -> critical (the feature cannot run in this environment at all; typically hit at
//     import, model load or startup)
//   everything else -> error
//
// errorType:
//   assert -> assertion; http/http_response -> http; log at warning level or a *Warning class -> warning;
//   other logs -> log; a validation class (ValueError, TypeError, argparse.ArgumentError,
//   ArgumentTypeError, click BadParameter/UsageError, names containing Validation/Invalid/Config/Argument)
//   -> validation; everything else -> exception
//
// handlingStrategy:
//   validation       check the inputs/environment before the call (configuration, argument, capability,
//                    dependency, type and shape problems)
//   retry-with-backoff  transient: network-error, http 429/502/503/504, resource-exhausted
//   catch-and-handle key-not-found, io-error, other http errors
//   fix-code         assertion-failure, not-implemented, invalid-state, runtime-error (a code path or an
//                    invariant, not an input, is at fault)
//   log-and-continue warnings and logs (the program goes on)
#pragma once

#include <optional>
#include <string>

#include "model/site.h"

namespace errdex::doc {

// What the classification rules look at (gathered by the documenter).
struct Evidence {
  SiteKind kind = SiteKind::kRaise;
  std::string error_class;             // "" when unknown
  std::string base_class;              // the built-in (or third-party) class a repo class derives from, "" none
  std::string log_level;               // kind log
  std::optional<int> http_status;
  std::string message;                 // errorMessage, "" when unknown
  std::string except_context;          // "" when none
  bool hardware_guard = false;
  bool dtype_missing = false;
  bool module_missing = false;         // find_spec / is_x_available / other attribute / version
  bool isinstance_guard = false;
  bool shape_guard = false;
  int setting_guards = 0;              // guards on flags, config fields, env vars
};

std::string BackgroundTagFor(const Evidence& e);
std::string SeverityFor(const Evidence& e, const std::string& background_tag);
std::string ErrorTypeFor(const Evidence& e);
std::string HandlingStrategyFor(const Evidence& e, const std::string& background_tag);

}  // namespace errdex::doc
