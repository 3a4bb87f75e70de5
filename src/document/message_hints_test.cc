// The advice a message gives about itself (message_hints.h): its holes shown as the
// code that fills them, its own braces left as it prints them.
#include "document/message_hints.h"
#include "model/pattern.h"

#include <gtest/gtest.h>

namespace errdex::doc {
namespace {

Site WithMessage(const std::string& message, const std::string& pattern) {
  Site s;
  s.file_path = "pkg/run.py";
  s.line = 3;
  s.error_message = message;
  s.message_pattern = pattern;
  return s;
}

TEST(MessageHints, HolesBecomeCodeAndTheMessagesOwnBracesStay) {
  Hints h = ReadHints(WithMessage("Please rerun with `python {script}` or set {var}.",
                                  "Please rerun with `python (.*?)` or set (.*?)\\."),
                      nullptr, nullptr);
  ASSERT_EQ(h.sentences.size(), 1u);
  // Inside the message's own code span the hole is written bare: backticks do not nest.
  EXPECT_EQ(h.sentences[0], "Please rerun with `python script` or set `var`.");
  // A plain string's braces print as written (accelerate: "python {{myscript.py}}").
  h = ReadHints(WithMessage("Please rerun with `python {{myscript.py}}`.",
                            "Please rerun with `python \\{\\{myscript\\.py\\}\\}`\\."),
                nullptr, nullptr);
  ASSERT_EQ(h.sentences.size(), 1u);
  EXPECT_EQ(h.sentences[0], "Please rerun with `python {{myscript.py}}`.");
  // A hole inside a name is a placeholder the reader fills (lightning:
  // `limit_{stage.dataloader_prefix}_batches={min_percentage}`).
  h = ReadHints(WithMessage("Try at least `limit_{stage.dataloader_prefix}_batches={min_percentage}`",
                            "Try at least `limit_(.*?)_batches=(.*?)`"),
                nullptr, nullptr);
  ASSERT_EQ(h.sentences.size(), 1u);
  EXPECT_EQ(h.sentences[0], "Try at least `limit_<dataloader_prefix>_batches=min_percentage`");
  // A hole whose expression has backticks of its own (lightning's EarlyStopping:
  // "any of the following: `{'`, `'.join(list(logs.keys()))}`").
  h = ReadHints(WithMessage("Pass in or modify your `EarlyStopping` callback to use any of the following: `{'`, `'.join(list(logs.keys()))}`",
                            "Pass in or modify your `EarlyStopping` callback to use any of the following: `(.*?)`"),
                nullptr, nullptr);
  ASSERT_EQ(h.sentences.size(), 1u);
  EXPECT_EQ(h.sentences[0], "Pass in or modify your `EarlyStopping` callback to use any of the following: `…`");
}

// Go wraps an error with what the code was doing (`fmt.Errorf("check Ollama account:
// %w", err)`): the verb there is a report, not advice. A sentence that goes on after
// its colon is still read.
TEST(MessageHints, AWrappedErrorsContextIsNotAdvice) {
  Hints h = ReadHints(WithMessage("check Ollama account: {err}", "check Ollama account: (.*?)"), nullptr, nullptr);
  EXPECT_TRUE(h.sentences.empty());
  h = ReadHints(WithMessage("create {destination}: {err}", "create (.*?): (.*?)"), nullptr, nullptr);
  EXPECT_TRUE(h.sentences.empty());
  h = ReadHints(WithMessage("Check the account: it has expired", "Check the account: it has expired"), nullptr, nullptr);
  ASSERT_EQ(h.sentences.size(), 1u);
  EXPECT_EQ(h.sentences[0], "Check the account: it has expired");
  // Asked politely, it is advice all the same (accelerate).
  h = ReadHints(WithMessage("Please define them in the class definition: {err}",
                            "Please define them in the class definition: (.*?)"),
                nullptr, nullptr);
  EXPECT_EQ(h.sentences.size(), 1u);
}

// "only supported for" is its own phrase, not "only support" and a word cut after it
// (lmdeploy: "Use what the message says is supported: ed for fp8 quantization.").
TEST(MessageHints, AllowedValuesStartAfterAWholePhrase) {
  Hints h = ReadHints(WithMessage("fp8_quant_scope is only supported for fp8 quantization.",
                                  "fp8_quant_scope is only supported for fp8 quantization\\."),
                      nullptr, nullptr);
  ASSERT_EQ(h.allowed.size(), 1u);
  EXPECT_EQ(h.allowed[0], "fp8 quantization");
  h = ReadHints(WithMessage("This kernel only supports bf16", "This kernel only supports bf16"), nullptr, nullptr);
  EXPECT_EQ(h.allowed, std::vector<std::string>{"bf16"});
}

// "use Y instead" with Y quoted or code-shaped, and what it replaces when the message
// retires a name ("X is deprecated", "The 'x' attribute will be removed"); "instead of".
TEST(MessageHints, ReplacementAndWhatItReplaces) {
  auto read = [](const std::string& m) { return ReadHints(WithMessage(m, EscapePatternLiteral(m)), nullptr, nullptr); };
  Hints h = read("dt.weekofyear and dt.week have been deprecated. Please use dt.isocalendar().week instead.");
  EXPECT_EQ(h.replacement, "dt.isocalendar().week");
  EXPECT_EQ(h.replaced, "dt.week");
  h = read("'RequestContext' has merged with 'AppContext', and will be removed in Flask 4.0. Use 'AppContext' instead.");
  EXPECT_EQ(h.replacement, "AppContext");
  EXPECT_EQ(h.replaced, "RequestContext");
  h = read("Use `fast_path` instead of `slow_path`.");
  EXPECT_EQ(h.replacement, "fast_path");
  EXPECT_EQ(h.replaced, "slow_path");
  // Not retired, no "instead of": the replacement alone (two directives, which one is unknown).
  h = read("Day of the year directive '%j' is not compatible with ISO year directive '%G'. Use '%Y' instead.");
  EXPECT_EQ(h.replacement, "%Y");
  EXPECT_EQ(h.replaced, "");
  // English after "use" is no name; an apostrophe is no quote.
  h = read("Can't use the old loader, it is deprecated.");
  EXPECT_EQ(h.replacement, "");
  // Two names replace one: neither alone is the replacement. A hole before the retired
  // name leaves no whole name: the first quoted one.
  h = read("Passing `is_causal` to {api_name}.plan() is deprecated; use `window_left` and `window_right` instead.");
  EXPECT_EQ(h.replacement, "");
  h = read("Passing `is_causal` to {api_name}.plan() is deprecated; use `window_left` instead.");
  EXPECT_EQ(h.replacement, "window_left");
  EXPECT_EQ(h.replaced, "is_causal");
  // A keyword inside another function's call is that function's.
  h = read("only quant_mode='nvfp4' works here; use allocate_moe_workspace(..., quant_mode='w4a16') for W4A16.");
  EXPECT_TRUE(h.kwargs.empty());
  h = read("Please call init_ascend_config first; try using `use_cftime=True` or mode == 'r'.");
  EXPECT_EQ(h.call_first, "init_ascend_config");
  ASSERT_EQ(h.kwargs.size(), 1u);
  EXPECT_EQ(h.kwargs[0], (std::pair<std::string, std::string>{"use_cftime", "True"}));
}

// A distribution the message requires at a version ("cupti-python >= 13"), not a bound of
// a hyphenated name (`q-len >= 1`).
TEST(MessageHints, ARequiredDistributionAndItsVersion) {
  auto read = [](const std::string& m) { return ReadHints(WithMessage(m, EscapePatternLiteral(m)), nullptr, nullptr); };
  Hints h = read("reportable timings require cupti-python >= 13");
  EXPECT_EQ(h.package, "cupti-python");
  EXPECT_EQ(h.version_op, ">=");
  EXPECT_EQ(h.version, "13");
  h = read("q-len >= 1 is required");
  EXPECT_EQ(h.package, "");
}

// A flag's value quoted as the shell takes it (`--gpu_ids='all'`); a flag of another
// program the message runs (`pip install --upgrade x`) is not this repository's; English
// after a flag ("Adjust --base-port so the paths differ") is not its value.
TEST(MessageHints, FlagValuesAsTypedAndFlagsOfOtherPrograms) {
  auto read = [](const std::string& m) { return ReadHints(WithMessage(m, EscapePatternLiteral(m)), nullptr, nullptr); };
  Hints h = read("Please ensure at least two are specified for `--gpu_ids`, or use `--gpu_ids='all'`.");
  ASSERT_EQ(h.flag_values["--gpu_ids"].size(), 1u);
  EXPECT_EQ(h.flag_values["--gpu_ids"][0], "all");
  h = read("cuDNN is too old. Upgrade: pip install --upgrade nvidia-cudnn-cu12");
  EXPECT_EQ(h.flag_values.count("--upgrade"), 0u);
  h = read("Port collision. Adjust --base-port so the paths differ.");
  EXPECT_TRUE(h.flag_values["--base-port"].empty());
  // The repository's own script run with python keeps its flag.
  h = read("Please run python train.py --num-workers 1.");
  ASSERT_EQ(h.flag_values["--num-workers"].size(), 1u);
  EXPECT_EQ(h.flag_values["--num-workers"][0], "1");
}

// "You can install it with:" and the command on the next line: one piece of advice with
// its command, not a sentence that stops at its colon.
TEST(MessageHints, AdviceEndsWithTheCommandOnTheNextLine) {
  std::string m = "Form data requires \"python-multipart\" to be installed.\nYou can install \"python-multipart\" with: \n\n"
                  "pip install python-multipart\n";
  Hints h = ReadHints(WithMessage(m, EscapePatternLiteral(m)), nullptr, nullptr);
  ASSERT_FALSE(h.sentences.empty());
  EXPECT_EQ(h.sentences[0], "You can install \"python-multipart\" with: `pip install python-multipart`");
}

}  // namespace
}  // namespace errdex::doc
