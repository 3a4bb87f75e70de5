// document/knowledge: what the repository teaches about how a user sets things.
// Internal to document/ (the public face is FileKnowledge/RepoKnowledge in
// documenter.h). Collected per file by a small token scan (py_lex.h), no AST:
//  * argparse: `<x>.add_argument("--deepep-mode", dest=, choices=, default=, help=, action=)`
//  * dataclass fields of argument/config classes (`@dataclass class ServerArgs:
//    deepep_mode: str = "auto"`) -- only classes whose name ends with Args,
//    Arguments, Config, Options, Settings or Params are used to map attributes;
//  * environment variables: os.environ["X"], os.environ.get("X", d), os.getenv("X", d),
//    get_<kind>_env_var("X", d), envs.X(.get()/.value), and definitions
//    `X = EnvBool(default)` in a class body (sglang's envs.py);
//  * module-level constants holding a list/tuple of strings (to resolve `choices=NAME`).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "document/documenter.h"

namespace errdex::doc {

struct FlagInfo {
  std::vector<std::string> options;  // "--deepep-mode", "-d"
  std::string dest;                  // deepep_mode
  std::vector<std::string> choices;  // resolved strings, empty when unknown
  std::string choices_expr;          // source text when not a literal list
  std::optional<std::string> default_value;  // the literal value, or source text
  bool default_is_literal = false;
  std::string help;
  std::string action;                // store_true, ... ("" = store)
  std::string file;
  int line = 0;
  std::string Primary() const;       // the first long option, else the first option
};

struct FieldInfo {
  std::string class_name, name, type;
  std::optional<std::string> default_value;  // source text
  std::string file;
  int line = 0;
};

struct EnvInfo {
  std::string name;
  std::string reader;                        // "os.environ", "os.getenv", "get_bool_env_var", "envs"
  std::optional<std::string> default_value;  // source text
  std::string file;
  int line = 0;
};

// `name = <rhs>` inside a function (or at module level: def_line 0) whose rhs is
// a setting-like expression (cfg.x, getattr(m, "a", None), an env read, a
// capability predicate). Kept so that `errdex document`, which sees only a
// record's source window, can still substitute locals assigned above it.
struct AliasInfo {
  std::string file;
  int def_line = 0, end_line = 0;  // the enclosing function's lines (0, INT_MAX at module level)
  int line = 0;
  std::string name, rhs;
};

struct KnowledgeData {
  // `class Name(Base, ...)`: Name -> its first base's last dotted component. Lets a
  // repo's exception be classified by the built-in it derives from. class_bases
  // holds the names all of whose definitions agree; a name defined with different
  // bases in different files (tarfile.ReadError vs shutil.ReadError) is only in
  // file_class_bases, under each defining file. A file's own knowledge has all its
  // classes in class_bases.
  std::map<std::string, std::string> class_bases;
  std::map<std::string, std::map<std::string, std::string>> file_class_bases;
  std::vector<FlagInfo> flags;
  std::vector<FieldInfo> fields;
  std::vector<EnvInfo> envs;
  std::map<std::string, std::vector<std::string>> list_constants;
  std::vector<AliasInfo> aliases;
};

}  // namespace errdex::doc

namespace errdex {

struct FileKnowledge {
  std::string path;
  doc::KnowledgeData data;
};

namespace doc {

// The merged, indexed knowledge (the concrete RepoKnowledge).
class KnowledgeIndex final : public RepoKnowledge {
 public:
  explicit KnowledgeIndex(KnowledgeData data);
  std::string Serialize() const override;

  // By dest (deepep_mode) or option (--deepep-mode).
  const FlagInfo* FindFlag(std::string_view name) const;
  // A field of an argument/config class named `name`.
  const FieldInfo* FindField(std::string_view name) const;
  const EnvInfo* FindEnv(std::string_view name) const;
  // The last alias of `name` assigned before `line` in the function of `file` that spans `line`.
  const AliasInfo* FindAlias(std::string_view file, std::string_view name, int line) const;
  // The first ancestor of class `name` not defined in the repo (the built-in or
  // third-party class it derives from), or "" when `name` is not a repo class.
  // `file` (repo-relative) is where the name is used: its own definitions win.
  std::string ExternalBase(std::string_view name, std::string_view file = {}) const;
  const KnowledgeData& data() const { return data_; }

 private:
  KnowledgeData data_;
  std::map<std::string, size_t, std::less<>> flag_by_name_, field_by_name_, env_by_name_;
  std::map<std::string, std::vector<size_t>, std::less<>> aliases_by_file_;
};

// The index behind any RepoKnowledge made by Build/Deserialize (nullptr otherwise).
const KnowledgeIndex* AsIndex(const RepoKnowledge& k);

}  // namespace doc
}  // namespace errdex
