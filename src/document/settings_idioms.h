// document/settings_idioms: the readers of one library's way to declare a setting,
// each called by CollectSettings (settings.cc) at the token where the idiom starts:
// argparse add_argument, click.option, a typer command's parameters, and the
// environment readers. Also the call-reading helpers they and the merge share.
// Internal to the settings map: other stages use settings.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "document/py_tokens.h"
#include "document/settings.h"

namespace errdex::doc {

// Unquotes a string literal's source text ("auto" -> auto); other text unchanged.
std::string Unquote(const std::string& s);
// A literal's source text: a number, a string, None, True or False.
bool LiteralText(const std::string& s);

// One call's arguments as token ranges, from its opening parenthesis.
struct Call {
  size_t open = 0, close = 0;
  std::vector<std::pair<size_t, size_t>> positional;
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> keywords;  // in order
  bool star_kwargs = false;
  const std::pair<size_t, size_t>* Kw(std::string_view k) const {
    for (const auto& [n, r] : keywords)
      if (n == k) return &r;
    return nullptr;
  }
};
Call ParseCall(const Toks& t, size_t open);
std::string SpanStr(const Toks& t, std::pair<size_t, size_t> r);

// Adds an environment variable read at `line` (ignored unless `name` is an identifier).
void AddEnv(std::string_view path, const Toks& t, std::string name, std::string reader, std::string type,
            std::optional<std::string> def, int line, SettingsData* d);
// The type a getter's name gives (get_bool_env_var -> bool), or "".
std::string TypeFromGetter(std::string_view fn);

// os.environ["X"], os.environ.get / os.getenv, "X" in os.environ, get_*_env_var("X", d) at token i.
void CollectEnvAt(std::string_view path, const Toks& t, size_t i, SettingsData* d);
// add_argument("--x", ...) at token i (the name add_argument).
void CollectArgparse(std::string_view path, const Toks& t, size_t i, SettingsData* d);
// @click.option(...) at token i (the name option), on the command `function`.
void CollectClickOption(std::string_view path, const Toks& t, size_t i, SettingsData* d, const std::string& function);
// One parameter (tokens [b, e)) of a typer command `function`.
void CollectTyperParam(std::string_view path, const Toks& t, size_t b, size_t e, bool command_params,
                       const std::string& function, const SettingsData& here, SettingsData* d);

}  // namespace errdex::doc
