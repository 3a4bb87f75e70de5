// document/writers: one writer per prose field, each a pure function of the
// SiteFacts (facts.h). The rules every writer keeps (docs/document.md, "What
// the checker flags"; tests/prose/ checks them on real code):
//  * a guard is never restated as an action ("Make `x != y` false"); when no
//    change from the user's side is known, solutions stay null and the
//    documentation says what the error means and where it comes from;
//  * constant guards (`while True`) are no conditions;
//  * the message's own advice is carried whole into solutions;
//  * exampleFix is in the form the user types (flags, env, pip, a call) and
//    its before and after differ;
//  * fields do not repeat each other;
//  * every shown expression is clipped; output is bounded per site.
//   write_story.cc   documentation, triggerScenarios, commonSituations
//   write_fixes.cc   solutions, exampleFix, preventionTips
//   write_code.cc    validationCode, typeGuard, tryCatchPattern, tags
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document/facts.h"

namespace errdex::doc {

std::string WriteDocumentation(const SiteFacts& sf);
std::string WriteTriggers(const SiteFacts& sf);
std::optional<std::string> WriteSituations(const SiteFacts& sf);
std::optional<std::vector<std::string>> WriteSolutions(const SiteFacts& sf);
std::optional<std::string> WriteExampleFix(const SiteFacts& sf);
// The forms WriteExampleFix tries in turn (write_example_hint.cc, write_example_brace.cc).
std::optional<std::string> PackageFix(const SiteFacts& sf);  // pip for a missing module/attribute/version
std::optional<std::string> HintFix(const SiteFacts& sf);     // what the message itself says to run or pass
std::optional<std::string> BraceCallFix(const SiteFacts& sf);  // a Go/Rust/C/C++ call with a failing and a passing argument
std::optional<std::vector<std::string>> WritePreventionTips(const SiteFacts& sf, const std::vector<std::string>& solutions,
                                                            bool has_validation);
std::optional<std::string> WriteValidation(const SiteFacts& sf);
std::optional<std::string> WriteTypeGuard(const SiteFacts& sf);
std::optional<std::string> WriteTryCatch(const SiteFacts& sf);
std::vector<std::string> WriteTags(const SiteFacts& sf);

// Shared by the writers.
std::string CodeTerm(const Fact& f);               // `code` (`via` = `expr`)
std::string IntBoundPhrase(const std::string& op, const std::string& n);  // "<", "0" -> "at least 0"
bool IsStdlibModule(const std::string& m);
// `out`, `output`, `k_out`, `out_scale`: a buffer the kernel writes its result into
// (a converted copy of it would lose the result).
bool IsOutputBuffer(const std::string& tensor);
std::string PipName(const std::string& module);
// "# before\n<before>\n# after\n<after>"; "" when the two are the same or after is empty.
std::string BeforeAfter(const std::string& before, const std::string& after);
// `x < 1 or x > 12` over one argument x: a failing and a passing value, and the
// range [lo, hi] that passes (LONG_MIN/LONG_MAX when open).
bool IntRange(const SiteFacts& sf, const Fact& f, std::string* param, long* bad, long* good, long* lo, long* hi);

}  // namespace errdex::doc
