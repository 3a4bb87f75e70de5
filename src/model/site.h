// Site: one place in a source file where an error a user can see is produced,
// with the facts a front end found there. A Site is what extract/<language>
// produces and what scan/ turns into a Record (model/record.h) and what
// document/ explains. Plain data, thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace errdex {

enum class SiteKind {
  kRaise,         // raise X(...) / raise X / raise f(...) creating a new error
  kAssert,        // assert cond[, msg]  (errorClass AssertionError)
  kHttp,          // a raised HTTP error (HTTPException, werkzeug classes) or abort(code, msg)
  kHttpResponse,  // an error returned to an HTTP client (create_error_response, JSONResponse 4xx/5xx)
  kLog,           // logger.warning/error/exception/critical, warnings.warn
  kPanic,         // the program stops: Rust panic!/unreachable!/todo!, Go panic()/log.Fatal,
                  // C++ LOG(FATAL)/glog CHECK, a fatal printf followed by exit/abort
};
inline constexpr int kSiteKindCount = 6;

// "raise", "assert", "http", "http_response", "log", "panic".
const char* SiteKindName(SiteKind kind);
// Inverse of SiteKindName; nullopt for an unknown name.
std::optional<SiteKind> SiteKindFromName(const std::string& name);

struct Site {
  SiteKind kind = SiteKind::kRaise;
  std::string language = "python";
  std::string file_path;  // repo-relative, '/' separated
  int line = 0;           // 1-based line of the raise/assert keyword (of the call for calls)
  int column = 0;         // 0-based UTF-8 byte column of that keyword
  int end_line = 0;       // last line of the statement

  std::optional<std::string> error_class;       // last dotted component: click.BadParameter -> BadParameter
  std::optional<std::string> error_class_expr;  // the raised expression / callee as written
  std::optional<std::string> error_code;        // Err(ErrorCode.X, "msg") -> "ErrorCode.X"
  std::optional<int> http_status;
  std::optional<std::string> log_level;         // kLog: "warning", "error", "exception", "critical", "warn"

  // Message. error_message shows each interpolated part as {expr};
  // message_pattern is the regex (see model/pattern.h for the exact form).
  std::optional<std::string> error_message;
  std::optional<std::string> message_pattern;
  std::optional<std::string> message_expr;        // raw source text of the message argument
  std::vector<std::string> message_alternatives;  // "a" if c else "b": every variant (>1 only)
  std::vector<std::string> interpolations;        // the expr text of each interpolated part, in order
  std::string message_resolution;                 // literal / variable / module-constant[-multi][+aug]

  // Context.
  std::string function = "<module>";           // dotted qualified name of enclosing classes/functions
  std::vector<std::string> guards;             // outermost first, exact source text
  std::optional<std::string> except_context;   // innermost enclosing "except KeyError as e"
  std::optional<std::string> cause;            // raise ... from <cause>
  std::optional<std::string> assert_condition;
  bool dynamic = false;   // the class cannot be named statically
  bool in_tests = false;  // a tests/ directory or test_*.py file

  // Texts a resource limit cut (extract/common/limits.h): the field's facts key
  // ("sourceCode", "errorMessage", "guards", "guardBytes", ...) and its size before
  // the cut (bytes; for "guards" the number of guards; for "guardBytes" the
  // longest guard). Empty for ordinary code; in the facts only when not empty.
  std::vector<std::pair<std::string, uint64_t>> truncated;
};

}  // namespace errdex
