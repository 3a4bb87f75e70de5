// document/write_example: the pieces exampleFix's files share (write_example.cc,
// write_example_call.cc, write_example_ints.cc, write_example_presence.cc). Internal
// to them. Each *Fix: the example in one form, nullopt when the facts do not support it.
#pragma once

#include <optional>
#include <string>

#include "document/facts.h"

namespace errdex::doc {

// (BeforeAfter, shared with write_example_hint.cc and write_example_brace.cc, is writers.h's.)

// `name` is a (non-star) parameter of the enclosing function: a value its caller chooses.
bool IsParam(const SiteFacts& sf, const std::string& name);
// `name`'s place among the parameters (-1: none of them).
int ParamIndex(const SiteFacts& sf, const std::string& name);
// The enclosing function is a comparison helper (assert*, *compare*, *equal*): the
// mismatch of two arguments is what it reports, so making them agree is no fix.
bool ReportsMismatch(const SiteFacts& sf);
// How a user reaches a private helper that checks `param`: the public function or
// constructor of this file that calls it passing `param` through (date(...) for
// _check_date_fields(year, month, day)); the helper itself otherwise.
std::string PublicCallName(const SiteFacts& sf, const std::string& param);
// What parameter `s` holds: its annotation, else the type a guard around establishes
// (`isinstance(name, str)` outside `not name`), else its default's type; "" unknown.
std::string ParamTypeOf(const SiteFacts& sf, const Subject& s);
// The call form `f(x=v)` / `obj.f(x=v)` / `C(x=v)`; `f(..., v, ...)` when the
// parameter's place is unknown (another language).
std::string CallWith(const SiteFacts& sf, const std::string& param, const std::string& value, const std::string& note,
                     bool ctor = false);

// A call of the function with a bad and a good value of the tested parameter.
std::optional<std::string> CallFix(const SiteFacts& sf);
// Two tensors on different devices (flashinfer's CHECK_DEVICE(a, b): `a.device().device_type
// == b.device().device_type`): the call with the second moved
// to the first one's device -- or, when the second is an output buffer the kernel writes,
// the first moved to the buffer's.
std::optional<std::string> DevicePairFix(const SiteFacts& sf);
// The call with a parameter passed that must be left out, or left out that must be
// passed: `urlopen(..., cafile=cafile, context=context)` -> without context=;
// `post_mortem()` -> `post_mortem(t=t)`. The guards' other presence tests of
// parameters are kept the same on both lines (their conjunction is what fires); one
// flips. For `a is None or b is None` (both required together) the failing call
// leaves out the first and the passing one gives both; for `a is not None or b is not
// None` (neither supported) the failing call gives the first, the passing one none.
// A given value is the parameter's name (the caller's own variable) or a sample of
// its annotation.
std::optional<std::string> PresenceFix(const SiteFacts& sf);
// `day < 1 or day > dim` (`not 1 <= day <= dim`) over one argument: one side of the range is a
// literal, the other an expression of the code. The value just past the literal side fails;
// the literal bound itself passes, provided every literal bound is on one side (lower or
// upper) and every other bound on the other -- a range whose far end the code computes
// (a month's days, a string's length) still holds its literal end.
bool LiteralSideOfRange(const SiteFacts& sf, const Fact& f, std::string* param, long* bad, long* good);
// `x <= 0 or x % 16 != 0`, `m % 16 != 0 or n % 16 != 0`, `total <= 0 or count <= 0`: a
// disjunction whose every atom is an integer test of an argument of this (Python) function --
// a comparison with an integer literal, or `x % N != 0` (`x % N` as a truth test) with N an
// integer literal or a name assigned one. Each argument gets the first value no atom of it
// rejects (its integer default first, then the smallest positive multiple of every N, then
// values beside the literal bounds), checked against every atom; the failing call gives the
// first argument a value one of its atoms rejects, the others their good values. Nothing when
// an atom has another form or some argument has no value that passes.
std::optional<std::string> IntArgsDisjunctionFix(const SiteFacts& sf, const Fact& f);

}  // namespace errdex::doc
