// document/message_hints: the advice an error message gives about itself --
// its imperative sentences ("Pass --deepep-mode low_latency or auto.",
// "Please upgrade torch.", "Ensure vLLM and Ascend use the same ..."), the
// flag values and env settings they name, allowed-value lists ("supports
// only A, B or C", "must be one of"), version requirements ("torch>=2.8"),
// `pip install X`, and a replacement ("use Y instead"). Every sentence is kept
// whole: hints are never cut mid-word. Hand-written scanners; linear time.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "document/knowledge.h"
#include "model/site.h"

namespace errdex::doc {

struct Hints {
  std::vector<std::string> sentences;  // imperative sentences, {holes} shown as `expr`
  std::map<std::string, std::vector<std::string>> flag_values;  // --flag -> values the message suggests
  std::map<std::string, std::string> flag_verbs;                 // --flag -> the verb of its sentence ("pass", "use")
  std::vector<std::string> switches;   // "consider adding --hidden": flags of this repository that take no value
  std::vector<std::string> allowed;    // "supports only A, B or C"
  std::string allowed_flag;            // the flag the allowed list belongs to
  std::string package, version_op, version;  // "requires torch>=2.8"
  std::string upgrade;                 // "Please upgrade X"
  std::string pip;                     // "pip install X"
  std::vector<std::string> env_sets;   // "set X=1" -> X=1
  std::vector<std::string> env_names;  // "set the X environment variable" -> X (no value given)
  std::string replacement, replaced;   // "use Y instead (of X)"
  // "--quantization nvfp4_online supports only ...": every `--flag value` the message
  // names (a value must be one of the flag's choices when they are known).
  std::vector<std::pair<std::string, std::string>> named_flags;
  std::string call_first;              // "register_pool must be called first": the call to make first
  std::vector<std::pair<std::string, std::string>> kwargs;  // "try using `use_cftime=True`": keyword -> value
};

// The message analysed is at most kMaxHintBytes of errorMessage.
inline constexpr size_t kMaxHintBytes = 4096;

Hints ReadHints(const Site& site, const KnowledgeIndex* k, DocDeps* deps);

// errorMessage writes holes as {expr} and literal braces as they print: `text` (a
// "{...}" run of a message) is the message's own text when its messagePattern
// (`pattern`) holds it escaped, a hole otherwise.
bool LiteralBraces(const std::optional<std::string>& pattern, std::string_view text);

// Is `w` (lower case) a package name a message may name for pip: one the
// file imports (`imported`), or a well-known one.
bool IsKnownPackage(const std::string& w, const std::vector<std::string>& imported);

}  // namespace errdex::doc
