// check/argparse: parses a program's argv as Python 3.11's argparse would,
// from the program's argument definitions (ArgSpec, built by check.cc from the
// settings map and the add_argument calls the scan kept). Gives each dest its
// value (given or default, converted by `type` as argparse does, string
// defaults included) and argparse's own error messages, in argparse's order
// (each option's errors as met, then missing required arguments, then
// unrecognized arguments) -- but where argparse stops at the first error,
// ParseArgv goes on, so `errdex check` can report the rest too.
//
// Modelled: long and short options, `--opt=value`, `-xVALUE`, combined short
// flags, unambiguous prefixes of long options (allow_abbrev), `--`, negative
// numbers as values, nargs None/?/*/+/N, actions store, store_const,
// store_true, store_false, append, append_const, extend, count,
// BooleanOptionalAction (--no-x), help, version; choices; type int, float,
// str, bool; required options and positionals. Not modelled: subparsers,
// mutually exclusive groups, fromfile_prefix_chars, custom actions (their
// dest becomes unknown).
//
// Thread-safety: pure functions. Tested by argparse_test.cc against python3's
// argparse on generated command lines.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/value.h"

namespace errdex::check {

struct ArgSpec {
  std::vector<std::string> options;  // "-m", "--model"; empty for a positional
  std::string dest;
  std::string action = "store";      // store, store_const, store_true, store_false, append, append_const,
                                     // extend, count, BooleanOptionalAction, help, version, or "custom"
  std::string nargs;                 // "", "?", "*", "+", or a number
  std::string type;                  // "", "str", "int", "float", "bool"; anything else: conversion unknown
  std::optional<std::vector<PyVal>> choices;  // nullopt: no choices; an unknown list is "unknown_choices"
  bool unknown_choices = false;      // choices exist but are not known (no choice check, values unknown)
  std::optional<PyVal> default_value;  // nullopt: None
  bool unknown_default = false;
  std::optional<PyVal> const_value;
  bool required = false;
  std::string metavar;
  std::string file;
  int line = 0;

  bool IsPositional() const { return options.empty(); }
  // As argparse names it in messages: "-m/--model" or the positional's metavar/dest.
  std::string DisplayName() const;
  // The options a user types for it (with --no-x for BooleanOptionalAction).
  std::vector<std::string> AllOptions() const;
};

struct ParsedArgs {
  std::map<std::string, Val> values;         // dest -> value (provenance: the option's primary name)
  std::map<std::string, std::string> given;  // dest -> as the user gave it ("--deepep-mode normal")
  std::vector<std::string> errors;           // argparse's messages, in its order; errors[0] is what it prints
  std::vector<std::string> unrecognized;     // the arguments argparse would not recognize
  bool help = false;                         // -h/--help or a version action: the program prints and exits 0
};

ParsedArgs ParseArgv(const std::vector<ArgSpec>& specs, const std::vector<std::string>& argv);

// int(s) / float(s) as Python converts a string; nullopt when Python raises ValueError.
std::optional<int64_t> PyIntFromString(const std::string& s);
std::optional<double> PyFloatFromString(const std::string& s);

}  // namespace errdex::check
