// document/settings: the settings map -- every way a user configures the
// program, in the user's own terms: command-line flags (with options, dest,
// type, choices, default, action, nargs, help) and environment variables (with
// their readers, types and defaults). Collected per file from tokens, merged
// and resolved repository-wide by knowledge.h, serialized into the catalog's
// knowledge blob ("settings" object, docs/document.md) so `errdex check` and
// `errdex document` can use it without the source tree.
//
// Idioms understood (each has a fixture tree in tests/prose/):
//   argparse      <x>.add_argument("--deepep-mode", dest=, type=, choices=, default=,
//                 action= (store_true/store_false/BooleanOptionalAction -> --no-x), nargs=,
//                 help=); choices/defaults given as module constants, Literal aliases,
//                 Enum classes or `ServerArgs.field` are resolved; `**kwargs` flags (vLLM's
//                 EngineArgs) take type/choices/default from the dataclass field of that name
//   dataclass     fields of a dataclass that a helper turns into flags: a function that walks
//                 `fields(C)` (dataclasses.fields, a record_fields wrapper, __dataclass_fields__,
//                 model_fields) and calls add_argument, in a file that builds "--" names
//                 (kebab-case when it replaces "_" by "-"); the classes are the one it names, its
//                 enclosing class, or the ones the repository passes to it
//                 (`add_cli_args_from_dataclass(parser, ServerArgs)`, sglang), with their dataclass
//                 bases; or HfArgumentParser(C, ...) (--field_name). A field annotated
//                 `Annotated[T, "help"]` / `A[T, Arg(help=, choices=, aliases=, cli_name=, action=,
//                 no_cli=)]` (any alias of Annotated) gives help, choices (Literal/Enum of T, or the
//                 metadata's list or constant), aliases and its own flag name; when a class has
//                 such fields, only they become flags (the helper skips the others). The field
//                 default is the default (`X.y` resolved through class X's field y); bool fields
//                 store_true (BooleanOptionalAction: --x/--no-x)
//   click         @click.option("--x/--no-x", type=click.Choice([...]), default=, is_flag=,
//                 envvar=, help=)
//   typer         parameters with typer.Option(...) (or Annotated[T, typer.Option(...)]) and
//                 every defaulted parameter of a @app.command() of a typer.Typer() app
//                 (--kebab-case; bool -> --x/--no-x; Enum -> choices)
//   pydantic      fields of a BaseSettings class read from PREFIX_NAME (env_prefix from
//                 model_config / class Config) or Field(env=...)
//   environment   os.environ["X"], os.environ.get("X", d), os.getenv("X", d), "X" in os.environ,
//                 get_<kind>_env_var("X", d), registries `X = EnvBool(d)` (sglang) and
//                 {"X": lambda: int(os.getenv("X", d))} (vLLM); bool(int(...)) wrappers give the type
//   Rust, Go      clap derive attributes, Go's flag/pflag, env reads: settings_brace.cc
//   mentioned     a `--kebab-flag` that the repository's own strings name (messages, help) but
//                 that it does not define (a plugin of another program's CLI)
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace errdex::doc {

class Toks;

struct Flag {
  std::vector<std::string> options;  // "--deepep-mode", "-d"
  std::string negative;              // "--no-deepep-mode" when the flag has one
  std::string dest;                  // deepep_mode
  std::string type;                  // str, int, float, bool, or the type= source text; "" unknown
  std::vector<std::string> choices;  // resolved values; empty when unknown
  std::string choices_from;          // "choices", "Literal", "Enum:<Name>", "click.Choice", ""
  std::string choices_expr;          // unresolved source text (resolved when merged)
  std::optional<std::string> default_value;  // the literal's value, or source text
  bool default_is_literal = false;
  std::string action;                // "" (store), store_true, store_false, BooleanOptionalAction, count, append, ...
  std::string nargs;
  std::string help;
  std::string origin;                // argparse, dataclass, hf, click, typer, mentioned
  std::string env;                   // an environment variable that also sets it (click envvar=)
  std::string class_name;            // the dataclass (or typer command) the flag comes from
  std::string file;
  int line = 0;
  bool kwargs = false;               // add_argument(..., **kwargs): details from the field of that name
  std::string Primary() const;       // the first long option, else the first option
  // The flag given value v, as typed: "--workers 4", "-Dapp.threads=4" for a JVM
  // system property, "server.port=8080" for a Spring property.
  std::string With(std::string_view v) const;
  bool IsJvmProperty() const { return origin == "jvm-property"; }
  // A Spring property (@Value("${x:d}") field, @ConfigurationProperties class): written
  // `x=v` (application.properties; Primary() is its name), -Dx=v or --x=v.
  bool IsSpringProperty() const { return origin == "spring-property"; }
  // Either kind of property: given as name=value, never as a bare switch.
  bool IsProperty() const { return IsJvmProperty() || IsSpringProperty(); }
  // A boolean property: given "true" or "false", never bare (`-Dx` alone is "",
  // which Boolean.getBoolean reads as false).
  bool IsTrueFalseProperty() const { return IsProperty() && type == "bool"; }
  bool IsBool() const;               // takes no value
  // "rust" (clap), "go" (flag, pflag), "java" (picocli, JVM system properties: origin
  // "jvm-property", options {"-Dname"}, dest the property's name; Spring properties: origin
  // "spring-property", dest the field), or "" for Python's idioms: a flag applies to
  // the sites of its own language only.
  std::string_view Language() const;
};

// The calls that read a JVM system property by name, and the type of what each reads
// (settings_brace collects them, facts resolves a guard's local through them).
struct JvmPropertyReader {
  std::string_view call, type;
};
inline constexpr JvmPropertyReader kJvmPropertyReaders[] = {
    {"System.getProperty(", "str"}, {"Integer.getInteger(", "int"}, {"Long.getLong(", "int"}, {"Boolean.getBoolean(", "bool"}};

struct ConfigField {
  std::string class_name, name, type;
  std::optional<std::string> default_value;  // source text
  std::vector<std::string> choices;
  std::string choices_from;
  std::string choices_expr;          // Arg(choices=NAME): resolved when merged
  std::string help;
  // Annotated metadata (`A[T, Arg(...)]`, `Annotated[T, "help"]`); has_meta when present.
  bool has_meta = false;
  std::string inner_type;            // T of Annotated[T, ...] ("" without metadata)
  std::vector<std::string> aliases;  // Arg(aliases=[...])
  std::string cli_name;              // Arg(cli_name="--x")
  std::string action;                // Arg(action=...): its last component
  bool no_cli = false;               // Arg(no_cli=True)
  std::string file;
  int line = 0;
};

struct EnvVar {
  std::string name;
  std::string type;                          // bool, int, float, str, "" unknown
  std::optional<std::string> default_value;  // source text
  std::vector<std::string> choices;
  std::string reader;                        // os.environ, os.getenv, get_bool_env_var, registry, pydantic:<Class>.<field>
  std::string file;
  int line = 0;
};

// A helper that turns the fields of dataclasses into flags.
struct FieldWalker {
  std::string file;
  std::string function;              // the helper's name: calls of it name more classes
  std::vector<std::string> classes;  // empty (and no calls of `function`): the dataclasses of `file`
  bool kebab = true;                 // --deepep-mode (else --deepep_mode)
  bool underscore_alias = false;     // HfArgumentParser: --a_b primary, --a-b alias
  bool boolean_optional = false;     // bool fields get --x/--no-x
  std::string origin = "dataclass";
};

// What one file says about settings, before the repository-wide merge.
struct SettingsData {
  std::vector<Flag> flags;
  std::vector<ConfigField> fields;
  std::vector<EnvVar> envs;
  std::vector<FieldWalker> walkers;
  std::map<std::string, std::vector<std::string>> list_constants;   // NAME = ["a", "b"]
  // Module constants that test an installed package (lightning_utilities' idiom):
  // NAME = RequirementCache("wandb>=0.12.10") / compare_version("torch", operator.ge, "2.3.0")
  // / package_available("x") / module_available("x") -> "wandb>=0.12.10", "torch>=2.3.0", "x".
  std::map<std::string, std::string> requirement_constants;
  std::map<std::string, std::vector<std::string>> literal_aliases;  // Mode = Literal["a", "b"]
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> enums;  // class -> (member, value)
  std::map<std::string, std::string> env_prefixes;                  // BaseSettings class -> env prefix
  std::map<std::string, std::string> class_bases;                   // class -> its first base's last component
  std::vector<std::string> settings_classes;                        // BaseSettings subclasses
  std::vector<std::pair<std::string, int>> mentioned_flags;         // "--x" named in strings, with a line
  // Merge-time only (not serialized): every base of each class (last components),
  // and calls that pass a class to a function whose name speaks of args/cli/fields
  // (callee's last component, class) -- which classes a field walker is given.
  std::map<std::string, std::vector<std::string>> all_bases;
  std::vector<std::pair<std::string, std::string>> class_calls;
};

// Collects what `toks` (a whole file at `path`) says about settings into `out`.
void CollectSettings(std::string_view path, const Toks& toks, SettingsData* out);

// The same for a Rust, Go or Java file (settings_brace.cc): clap's derive attributes,
// Go's flag/pflag definers, the environment variables the file reads. Nothing for
// other languages.
void CollectBraceSettings(std::string_view path, std::string_view text, SettingsData* out);
std::string_view BraceSettingsLanguage(std::string_view path);  // "rust", "go", "java" or ""

// Merges per-file data (in path order) and resolves it: walkers become flags,
// kwargs flags and unresolved choices/defaults are filled, pydantic fields
// become environment variables, mentioned flags are added where undefined.
// The parts are moved from (left valid but unspecified): the caller's per-file
// data is discarded after the merge, and copying every file's flags and fields
// was most of it (perf, an incremental scan of flashinfer).
SettingsData MergeSettings(std::vector<SettingsData*> files);

// The choices a type annotation names: Literal["a", "b"], Annotated[Literal[...], ...],
// Optional[...], a Literal alias or an Enum class of `data`. Empty when none.
std::vector<std::string> ChoicesOfType(std::string_view type, const SettingsData& data, std::string* from);

}  // namespace errdex::doc
