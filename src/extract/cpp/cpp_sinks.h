// The C/C++/CUDA error sinks errdex knows by name: the calls and macros whose
// use raises, aborts or logs an error, each with the rule that builds the
// message a user sees (from c10, tvm-ffi, glog, CPython, Abseil/TensorFlow,
// spdlog: facts recorded here, see the comment of each entry in cpp_sinks.cc).
// A repository's own wrapper macros are not listed: cpp_macros expands them to
// the sinks they reach.
//
// Immutable tables; thread-safe.
#pragma once

#include <string_view>

#include "model/site.h"

namespace errdex::cpp {

enum class MsgRule : uint8_t {
  kNone,     // the sink carries no message (beyond prefix/empty text)
  kConcat,   // arguments from msg_arg on, concatenated (c10::str, StrCat)
  kPrintf,   // printf format at msg_arg, its arguments after it
  kBraces,   // fmt/std::format "{}" format at msg_arg
  kOne,      // the single argument at msg_arg
};

struct Sink {
  std::string_view name;       // the last component of the callee
  std::string_view qualifier;  // required qualifier ("errors" for errors::X), "" for none
  SiteKind kind;
  std::string_view cls;        // errorClass; "" when taken from class_arg
  int class_arg = -1;          // argument naming the class (PyExc_ValueError, a tvm-ffi kind)
  int cond_arg = -1;           // the checked condition (stringized into the prefix as @c)
  // CHECK_EQ(a, b) and kin: the condition is `a op b` (arguments cond_arg and
  // cond_arg + 1), not the first argument alone.
  std::string_view op;
  int msg_arg = -1;            // first message argument
  MsgRule rule = MsgRule::kNone;
  bool stream = false;         // a `<< a << b` chain after the call adds to the message
  // Text before the user's message. @c: the condition as written; @a / @b: the
  // first / second argument as written; @v: a run-time value (a hole).
  std::string_view prefix;
  // The whole message when no message arguments (and no stream) are given.
  std::string_view empty;
  std::string_view log_level;  // kLog sites
  bool weak = false;           // a generic name (CHECK, LOG, assert): a repository #define wins
  int severity_arg = -1;       // LOG(SEVERITY): the kind and class follow this argument
  bool needs_stderr = false;   // fprintf: only when the first argument is stderr
  bool fatal_print = false;    // printf: a site only when the program then stops
};

// The sink named `name` (last component) whose qualifier requirement `qualifier`
// (the components before it, "" for none) meets; nullptr when none.
const Sink* FindSink(std::string_view name, std::string_view qualifier);
// Any sink of this name, whatever the qualifier (the macro table's reachability).
bool IsSinkName(std::string_view name);
// Strong sinks are never expanded from a repository #define (their meaning is
// the library's, e.g. c10's TORCH_CHECK); weak ones are (CHECK, LOG, assert).
bool IsStrongSinkName(std::string_view name);

// The Python class users see for a CPython exception object or a c10 error
// type: PyExc_ValueError -> ValueError, c10 Error -> RuntimeError,
// a tvm-ffi kind as written.
std::string_view ClassFromArgument(std::string_view arg);

}  // namespace errdex::cpp
