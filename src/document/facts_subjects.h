// document/facts_subjects: what one guard atom tests, in the user's terms -- the
// Subject of facts.h: a flag, a config field, an environment variable, a parameter,
// a missing attribute or module, the hardware, a version, a type, a tensor's
// property, a request's field, the object's own state. Internal to the facts stage
// (facts.cc builds a site's facts with it). Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "document/facts.h"

namespace errdex::doc {

// The requirement a call of lightning_utilities' package tests names, as pip reads
// it: RequirementCache("wandb>=0.12.10"[, "wandb"]) -> "wandb>=0.12.10",
// compare_version("torch", operator.ge, "2.3.0") -> "torch>=2.3.0",
// package_available("x") / module_available("x") -> "x"; "" for other calls.
std::string RequirementOfCall(const std::string& call);

class SubjectResolver {
 public:
  SubjectResolver(const Site& site, const SiteContext& ctx, const KnowledgeIndex* k, DocDeps* deps);

  // What the local `name` was assigned on the path to the site; null when nothing.
  const std::string* Assigned(const std::string& name) const;
  // The enclosing function's parameter `name` (not self, cls or a starred one); null when none.
  const ParamInfo* Param(const std::string& name) const;
  // What atom `a` tests. May normalize the atom's values (a device constant becomes its name).
  Subject Resolve(Atom& a) const;

 private:
  bool IsModule(const std::string& dotted) const;
  const EnvVar* SettingsEnv(const ConfigField& f) const;
  bool CommandFunction() const;
  bool Tensor(Atom& a, const std::string& x, Subject* s) const;
  bool Request(const std::string& x, Subject* s) const;
  bool VersionHelper(const std::string& x, bool falsy, Subject* s) const;
  // A module constant that tests an installed package (`not _WANDB_AVAILABLE`, with
  // `_WANDB_AVAILABLE = RequirementCache("wandb>=0.12.10")` anywhere in the repository).
  bool RequirementConstant(const std::string& x, bool falsy, Subject* s) const;
  bool VersionComparison(const Atom& a, const std::string& x, Subject* s) const;
  static bool VersionLike(std::string_view t);
  bool EnvOf(const std::string& x, Subject* s) const;

  const Site& site_;
  const SiteContext& ctx_;
  const KnowledgeIndex* k_;
  DocDeps* deps_;
};

// `["a", "b"]`, `("a", "b")`, `{"a", "b"}`, `{"a": 1, "b": 2}` (its keys), `(32, 64)`: the
// items' source text, each a string or integer literal; false for any other text.
// `qualified_names`: a list or tuple may also hold module-qualified names
// (`(torch.float16, torch.bfloat16)`, `[Mode.FAST]`).
bool LiteralContainerItems(const std::string& text, std::vector<std::string>* items, bool qualified_names = false);

}  // namespace errdex::doc
