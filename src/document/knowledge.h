// document/knowledge: the merged, indexed knowledge of a repository (the
// concrete RepoKnowledge of documenter.h): the settings map (settings.h) plus
// what classifies errors (class bases). Lookups record what they consulted in
// a DocDeps when given one.
// Thread-safety: immutable after construction; any number of readers.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "document/documenter.h"
#include "document/settings.h"

namespace errdex {

struct FileKnowledge {
  std::string path;
  doc::SettingsData data;
};

namespace doc {

class KnowledgeIndex final : public RepoKnowledge {
 public:
  // `file_class_bases`: class names defined with different bases in different
  // files, per defining file (tarfile.ReadError vs shutil.ReadError).
  KnowledgeIndex(SettingsData data, std::map<std::string, std::map<std::string, std::string>> file_class_bases);

  std::string Serialize(const std::vector<std::pair<std::string, const SiteContext*>>& sites) const override;
  std::string SerializeChunks(const std::vector<std::string>& site_chunks) const override;
  const SiteContext* StoredContext(std::string_view record_id) const override;
  std::string SettingsJson() const override;
  uint64_t HashDeps(const DocDeps& deps) const override;
  // The entries of `deps` that exist, as a JSON array of {"kind", ...entry} (the
  // language-model prompt's "settings").
  std::string ConsultedJson(const DocDeps& deps) const;

  // By dest (deepep_mode) or option (--deepep-mode).
  const Flag* FindFlag(std::string_view name, DocDeps* deps = nullptr) const;
  // The flag a site of `language` means by `name` (a dest or an option): Python's
  // idioms for Python sites, clap's for Rust ones, flag/pflag's for Go ones.
  const Flag* FindFlagFor(std::string_view language, std::string_view name, DocDeps* deps = nullptr) const;
  // FindFlagFor's flag as code in `file` (a site's, repo-relative) can mean it:
  // `file`'s own flag of that name first, then one defined outside the script
  // trees (examples/, scripts/, benchmarks/, tests/ ...) or in `file`'s own tree;
  // a flag only scripts define, unless the library has a settings field of that
  // name (`peft_config.target_modules` is LoraConfig's, not an example's --target_modules).
  const Flag* FindFlagFrom(std::string_view language, std::string_view name, std::string_view file,
                           DocDeps* deps = nullptr) const;
  // The flag a Java check of field `field` means (a picocli @Option, a Spring property):
  // the one `file` (the site's) binds, when it binds one -- `timeout` is a field of many
  // classes, and a check names its own class's -- else FindFlagFor's.
  const Flag* FindFieldFlag(std::string_view language, std::string_view field, std::string_view file,
                            DocDeps* deps = nullptr) const;
  // A field of a settings-like class (dataclass/pydantic) named `name`.
  const ConfigField* FindField(std::string_view name, DocDeps* deps = nullptr) const;
  // Whether a settings class outside the script trees has a field `name`.
  bool LibraryField(std::string_view name) const;
  // The field `name` as code in `file` means it: the field of `class_name` (the
  // site's class, for `self.x`) in `file`, else of its nearest base class, else the
  // definition nearest `file` in the tree among those whose file reaches it
  // (FlagFileReaches: an example's ScriptArguments is not the library's).
  const ConfigField* FindFieldFrom(std::string_view name, std::string_view file, std::string_view class_name,
                                   DocDeps* deps = nullptr) const;
  const EnvVar* FindEnv(std::string_view name, DocDeps* deps = nullptr) const;
  // The first ancestor of class `name` not defined in the repo (the built-in or
  // third-party class it derives from), or "" when `name` is not a repo class.
  // `file` (repo-relative) is where the name is used: its own definitions win.
  std::string ExternalBase(std::string_view name, std::string_view file = {}, DocDeps* deps = nullptr) const;
  // Class `name`'s bases in the repository, nearest first (bounded: `class A(B)` /
  // `class B(A)` loops end).
  std::vector<std::string> Bases(std::string_view name) const;
  const SettingsData& data() const { return data_; }

  void SetStoredContexts(std::map<std::string, SiteContext, std::less<>> sites) { sites_ = std::move(sites); }

 private:
  SettingsData data_;
  std::map<std::string, std::map<std::string, std::string>> file_class_bases_;
  // The flag of `lang_dest` ("<language>:<dest>", Python's bare) that `file` defines.
  const Flag* FlagInFile(const std::string& lang_dest, std::string_view file) const;
  std::map<std::string, size_t, std::less<>> flag_by_name_, env_by_name_;  // by dest and by option
  std::map<std::string, std::vector<size_t>, std::less<>> flags_by_dest_;   // "<language>:<dest>" -> every definition
  std::map<std::string, std::vector<size_t>, std::less<>> fields_by_name_;  // settings-like classes' fields, every definition
  std::map<std::string, SiteContext, std::less<>> sites_;
};

// Whether a flag defined in `flag_file` can be what code in `file` means: a flag
// of a script tree (examples/, scripts/, benchmarks/, tests/, docs/ ...) only
// within that tree; any other flag anywhere.
bool FlagFileReaches(std::string_view flag_file, std::string_view file);
// Whether `path` lies in a script tree (examples/, scripts/, benchmarks/, tests/, docs/ ...).
bool InScriptTree(std::string_view path);

// The index behind any RepoKnowledge made by Build/Deserialize (nullptr otherwise).
const KnowledgeIndex* AsIndex(const RepoKnowledge& k);

}  // namespace doc
}  // namespace errdex
