// document/values: the values a user gives that make a fact true (the "before" of
// an exampleFix) or false (its "after"), and how the user writes them: a flag on
// the command line (`--deepep-mode low_latency`, `--tp-size 2`, `--enable-x`), an
// environment variable (`X=1`, `unset X`), a config field (`x="a"`), an argument of
// a call (`f(x=2)`), a tensor conversion (`x.contiguous()`), a field of a request.
// Shared by the solution and exampleFix writers. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document/facts.h"

namespace errdex::doc {

// A typed language's string type: Go `string`, Rust `&str`/`String`, Java
// `String`/`CharSequence`, C++ `std::string`/`std::string_view`.
bool IsStringType(const std::string& lang, const std::string& type);
// A typed language's sequence type: Go `[]T`, Rust `Vec<T>`/`&[T]`, Java `T[]`/`List<T>`/
// `Collection<T>`.
bool IsSequenceType(const std::string& lang, const std::string& type);

// The choices and the default the repository declares for a setting/parameter.
const std::vector<std::string>& ChoicesOf(const Subject& s);
std::optional<std::string> DefaultOf(const Subject& s);

// `x <op> n` with an integer n: a value that makes it true (bad) and one that makes
// it false (good). False when the atom is no integer comparison.
bool IntBound(const Atom& a, long* bad, long* good);
// The same for a decimal literal (`value <= 0.0`, `eps > 0.5`): a value that fails
// and one that passes, one apart, as Python writes them ("0.0", "1.0"). False for
// an integer, an exponent or a value past 1e6.
bool FloatBound(const Atom& a, std::string* bad, std::string* good);

// A value that makes fact `f` false (the fix), preferring the message's hint and what
// the site's own branch sets; "" when none is known. "\x01unset" for an env var to unset.
std::string FixValue(const SiteFacts& sf, const Fact& f);
// A value that makes fact `f` true (what a failing run passed); "" when none is known.
std::string TriggerValue(const SiteFacts& sf, const Fact& f);

// How the user writes subject `s` at value `v` for atom `a`: `--x v`, `X=v`, `x="v"`,
// `unset X`; for a truth test the flag alone / X=1 / X=0. "" when there is no form.
std::string SettingForm(const Subject& s, const std::string& v, const Atom& a);
// The form that makes a truth test false: `--no-x` / "" (drop the flag) / `X=1` / `unset X`.
std::string NegatedForm(const Subject& s, const Atom& a);

// Python literal for a value: numbers, None, True, False as they are, text quoted.
std::string QuoteIfText(const std::string& v);
// A sample value of an annotation (`int` -> 1, `Optional[str]` -> "text"), "" unknown.
std::string SampleOf(const std::string& annotation);
// A value to give a settings field that takes one (`layers_to_transform=1`): its
// first choice, else a sample of its type; "" when neither is known.
std::string FieldSample(const ConfigField& f);
// A sample value of a type name (`int` -> 1, `Path` -> Path("...")), "" unknown.
std::string SampleOfType(const std::string& type);

// torch dtype named by a dtype constant of any spelling: torch.float16, at.kHalf,
// torch.kBFloat16, c10.ScalarType.Float -> torch.float32; "" when not a dtype.
std::string TorchDtype(const std::string& expr);

// "flash_attn>=2.8" -> "flash-attn>=2.8" (the distribution name, the requirement kept).
std::string ReqName(const std::string& req);

}  // namespace errdex::doc
