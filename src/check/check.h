// check/check: the library behind `errdex check` (docs/check.md). From a
// command line (`python -m pkg.mod ARGS`, `python path/x.py ARGS`, a console
// script, with VAR=value prefixes) and a catalog's check section, predicts the
// errors the program WILL raise and those it MAY raise, before it runs:
//   1. ParseCommand: the interpreter and its options, the entry, the program's argv;
//   2. Check: the entry resolved in the section; the program's flags (its
//      import closure's argparse and dataclass-generated flags) parsed from argv
//      as argparse would (argparse.h); the interpreter (interp.h) run from the
//      entry with those values, the environment and --set overrides; findings.
// Pure: no I/O (the CLI reads the catalog, the environment and --env-file).
//
// Thread-safety: pure functions. Tested by check_test.cc and tests/check/.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "check/interp.h"
#include "check/section.h"
#include "model/status.h"

namespace errdex::check {

struct Command {
  enum class Kind { kModule, kScript, kConsole };
  Kind kind = Kind::kModule;
  std::string target;                      // dotted module, script path, or console script name
  std::vector<std::string> args;           // the program's arguments (sys.argv[1:])
  std::map<std::string, std::string> env;  // VAR=value before the command, env VAR=value
  std::vector<std::string> unset_env;      // env -u VAR
  bool assertions = true;                  // python -O: asserts do not run
  std::string display;                     // how to name it: "python -m sglang.launch_server"
};

// kInvalidArgument for what check cannot run: an empty command, `python -c`, `python -` (stdin).
Result<Command> ParseCommand(const std::vector<std::string>& argv);

struct CheckOptions {
  std::map<std::string, std::string> env;                // the environment the program would get
  std::vector<std::pair<std::string, std::string>> set;  // --set name=value: a flag's dest/option or an env var
  // --assume EXPR=VALUE: what a run-time expression evaluates to on the target machine
  // (`is_sm100_supported()=True`, `getattr(torch, 'float4_e2m1fn_x2', None)=None`); EXPR is
  // matched as Python, VALUE is a Python literal (a bare word is a string).
  std::vector<std::pair<std::string, std::string>> assume;
};

// One error check predicts.
struct Finding {
  bool will = false;
  std::string record_id;
  std::string file;
  int line = 0;
  std::string kind;         // raise / assert / http
  std::string error_class;
  int order = 0;
  std::vector<std::string> decided_by;  // "--deepep-mode normal", "--tp-size 1 (default)", "SGLANG_X=1"
  std::vector<PathStep> path;
  std::vector<Unknown> depends;         // MAY: what it depends on
  bool detached = false;
};

struct Report {
  std::string entry;        // the entry file's path
  std::string function;     // a console script's function
  int flags_known = 0;      // argument definitions check used
  std::vector<std::string> usage_errors;  // argparse's messages; [0] is what it would print
  bool help = false;        // --help/--version: the program prints and exits 0
  std::vector<Finding> findings;  // WILL first, then MAY, each in the order reached
  std::vector<std::string> notes; // e.g. the step budget ran out
};

// kNotFound when the section holds no file for the command's entry.
// kInvalidArgument for a --set name that is no flag, field or environment variable.
Result<Report> Check(const Section& section, const Command& command, const CheckOptions& options);

// Does this section hold the command's entry? (to pick a scan among many)
bool HoldsEntry(const Section& section, const Command& command);

}  // namespace errdex::check
