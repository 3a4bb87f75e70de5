// document/facts: a site's guards turned into facts a user can act on. Each
// guard atom (guards.h) gets a Subject: what it tests, in the user's terms --
// a flag, a config field, an env var, a parameter of the enclosing function,
// a missing attribute/module, a hardware predicate, a version, a type, a
// shape, or plain code. Locals are replaced by what the SiteContext says they
// were assigned; else-guards of one subject merge into one "none of" fact;
// constant guards (`while True`) are dropped. Also the message's own hints
// (message_hints.h) and the earlier branches that rewrite values.
// Pure; bounded: at most kMaxGuards guards, expressions clipped.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "document/file_index.h"
#include "document/guards.h"
#include "document/knowledge.h"
#include "document/message_hints.h"
#include "document/site_context.h"
#include "document/taxonomy.h"
#include "model/site.h"

namespace errdex::doc {

// Bytes of one expression (a guard's code, a compared value) shown in prose.
inline constexpr size_t kMaxExpr = 160;
// An expression as the prose shows it: on one line, clipped to kMaxExpr.
std::string Show(std::string_view s);

enum class SubjectKind {
  kCode,           // nothing a user sets directly
  kFlag,           // a command-line flag (Flag)
  kField,          // a config field without a flag (ConfigField)
  kEnv,            // an environment variable
  kParam,          // a parameter of the enclosing function: the caller passes it
  kMissingAttr,    // getattr(m, "a", None) is None / not hasattr(m, "a")
  kMissingModule,  // find_spec("m") is None / not is_m_available()
  kHardware,       // is_sm100_supported(), torch.cuda.is_available(), ...
  kVersion,        // a version comparison
  kType,           // isinstance(x, T)
  kShape,          // len(x), x.shape, x.ndim, ...
  kTensor,         // x.dtype / x.device / x.is_contiguous() (any language's spelling)
  kSelfState,      // self.<attr>: the object's own state (set by another method)
  kRequest,        // a field of an HTTP request (request.json["x"], req.body.x, req.query.x)
};

struct Subject {
  SubjectKind kind = SubjectKind::kCode;
  const Flag* flag = nullptr;
  const ConfigField* field = nullptr;
  const EnvVar* env_info = nullptr;  // may be null for an env var read but not registered
  std::string env;            // kEnv: the variable
  std::string param;          // kParam (and kType/kShape of a parameter): its name
  const ParamInfo* param_info = nullptr;
  std::string module, attr;   // kMissingAttr / kMissingModule; kRequest: location (body, query,
                              // path, header, form, cookie) and field; kSelfState: attr
  std::string tensor;         // kTensor: the tensor expression (param holds it when it is one)
  bool ctor = false;          // kParam from `self.x` that __init__ set from its parameter: the class's call
  std::string pred;           // kHardware: the predicate; kType: the type; kVersion: the comparison;
                              // kTensor: dtype, device or contiguous; kEnv: "present" (any value counts)
  std::string expr;           // the tested expression after substitution (one line, clipped)
  std::string via;            // the local that was substituted
  bool missing = false;       // capability kinds: the atom says it is absent
  std::string Key() const;
  bool IsSetting() const { return kind == SubjectKind::kFlag || kind == SubjectKind::kField || kind == SubjectKind::kEnv; }
  bool IsCapability() const {
    return kind == SubjectKind::kMissingAttr || kind == SubjectKind::kMissingModule || kind == SubjectKind::kHardware ||
           kind == SubjectKind::kVersion;
  }
  std::string SettingName() const;
};

struct Fact {
  Atom atom;
  Subject subj;
  int guard = 0;
  bool from_else = false;    // an earlier sibling's test, negated
  bool implied = false;      // an else-clause a positive test of the same subject makes redundant
  bool disjunction = false;  // several atoms: described by its code only
  std::string code;          // code form, one line, clipped
  std::vector<Atom> any_of;  // disjunction: its atoms
  const BranchInfo* branch = nullptr;  // from_else: the earlier branch it negates (when found)
  std::vector<int> merged_lines;       // merged else-facts: the earlier branches' lines
  std::string atom_constant;           // the rhs named a constant whose values atom.values holds
};

// A value an earlier branch (or the site's own branch) writes for a subject.
struct Rewrite {
  std::string from, to;
  int line = 0;
};

struct SiteFacts {
  const Site* site = nullptr;
  const SiteContext* ctx = nullptr;
  const KnowledgeIndex* k = nullptr;  // may be null (no knowledge)
  std::vector<Fact> facts;            // active facts, outermost first
  int guards_omitted = 0;             // outer guards beyond kMaxGuards
  bool constant_guard = false;        // a constant guard was dropped (`while True`)
  bool as_script = false;             // under `if __name__ == "__main__":` (the file run as a script)
  Hints hints;
  std::map<std::string, Rewrite> rewrites;     // subject key -> an earlier branch's rewrite
  std::map<std::string, std::string> own_sets; // subject key -> what the site's own branch sets it to
  std::vector<std::string> sibling_notes;      // one sentence per earlier branch
  std::vector<BranchInfo> exit_branches;       // the SiteContext's exits as branches (guard index past the site's)
  bool checked_condition = false;  // the innermost fact is a condition that must hold (assert, TORCH_CHECK)
  Evidence evidence;
  std::string background_tag;
  std::string func;        // last component of site->function
  std::string where;       // `f` (file:line)
  bool any_user_subject = false;  // a fact names something the user sets or has
};

SiteFacts BuildSiteFacts(const Site& site, const SiteContext& ctx, const KnowledgeIndex* k, DocDeps* deps);

// `base.attr` reads a settings object: base names one (args, cfg, config, self of an
// *Args/*Config class, ...).
bool SettingsHolder(const std::string& base, const SiteContext& ctx);

// A fact in the user's words, in two parts -- what it names and what holds of it --
// because the two join by what comes before them: after "with" a setting's state
// reads as a participle ("Calling `f` with argument `p` left as None"), after "when"
// a clause needs its verb ("when argument `p` is left as None").
struct UserTermParts {
  enum class Join {
    kWhole,       // `predicate` is the whole term, after "with" and "when" alike: `--x v`, "the package `m` is not installed"
    kState,       // "S P" after "with", "S is P" after "when": "argument `p` left as None", "`X` unset"
    kComparison,  // "S R P" after both, the operator R apart (`--x` >= `4`); `in` and `not in` take "is" after "when"
    kSwitch,      // a flag that takes no value, P "given" or "not given": "S" / "without S" after "with",
                  // "S is P" after "when"
    kInstalled,   // a version requirement: "an S that P" after "with", "the S P" after "when"
  };
  Join join = Join::kWhole;
  std::string subject;    // "argument `p`", "`--x`", "installed `torch`"; empty for kWhole
  std::string relation;   // kComparison: the operator as written (`!=`, `is`, `in`)
  std::string predicate;  // "left as None", "given", "does not satisfy `torch>=2.1`", a comparison's operand
  // kWhole clauses about a value the caller passes, as a relative clause after "with":
  // "`s` that is not an instance of `str`", "`x` whose dtype is not `float16`"; empty
  // when the term reads the same there.
  std::string relative;
  std::string With() const;  // to follow "with": "argument `p` left as None"
  std::string When() const;  // to follow "when": "argument `p` is left as None"
  std::string Passed() const { return relative.empty() ? With() : relative; }  // "Calling `f` with <this>"
};
UserTermParts UserTermOf(const SiteFacts& sf, const Fact& f);

// Helpers the writers share.
std::string UserTerm(const SiteFacts& sf, const Fact& f);   // UserTermOf(sf, f).With(): `--deepep-mode normal`, `X=1`, ...
std::string TypePhrase(const SiteFacts& sf, const std::string& type);  // "an instance of `T`"; JS: "a string"
std::string SettingRef(const Subject& s);                    // `--deepep-mode`, environment variable `X`
std::string SettingValue(const Subject& s, const std::string& v);  // --deepep-mode v / X=v / field=v
bool Triggers(const Fact& f, const std::string& v);          // v makes the fact true
Fact Positive(const Fact& f);                                // the fact negated back
bool IsBoolFlag(const Subject& s);
// A config field of type bool (`load_in_8bit: bool = False`): set as `name=True`/`False`.
bool IsBoolField(const Subject& s);
// Does a type test of the constructor argument `name` stand among the facts
// (`elif not isinstance(self.name, int)` after `if self.name is None`)?
bool TypeTestedArgument(const SiteFacts& sf, const std::string& name);
// The class the user builds to set field `f`, when the site checks its object's
// own fields as it is built (`__post_init__`/`__init__` of the field's class or of
// a subclass of it: AdaLoraConfig checks LoraConfig's `r`): the site's class; else "".
std::string BuiltClass(const SiteFacts& sf, const ConfigField& f);
std::string CallName(const SiteFacts& sf);                   // how a caller spells the call (`obj.f`)
// The operation a Python dunder method implements, as the user writes it: "Reading
// `obj.<name>` of a `Shard`", "Using `obj - other` on a `Offset`"; "" for other functions.
std::string DunderOperation(const SiteFacts& sf);
// A value of the site's class in an example: `obj` (Python); Java's the class's name with a
// lower-case first letter (`stopWatch`).
std::string InstanceName(const SiteFacts& sf);
std::string CalleeName(const SiteFacts& sf);                 // the function as prose names it: a method by its class (`C.f`)
// The "no value" of a site's language, as its code spells it: a Go `client == nil` is
// "left as nil", not Python's None (nil, nullptr, NULL, null; None for Python and Rust).
std::string NullWord(const std::string& language);
std::string KindWord(const Site& s);                         // raise / assert / log call / error response
// A self-state fact (`self.x is None`, `not self.x`, `self.closed`): the methods of
// the class that give the attribute a value that passes (`setters`) and those that
// put it into the failing state (`resetters`, e.g. close()). Both empty when the
// fact's test is none of these forms.
void StateMethods(const SiteFacts& sf, const Fact& f, std::vector<std::string>* setters, std::vector<std::string>* resetters);

// Two tensors on different devices, the site's innermost fact (flashinfer's
// CHECK_DEVICE(a, b): `a.device().device_id != b.device().device_id`, DLPack
// spelling only: in Python's `x.device != y.device` either side may be the one to
// move, and the other need not be a tensor): the two tensors' names.
bool DevicePair(const SiteFacts& sf, std::string* first, std::string* second);

// `x.dtype != y.dtype`, `x.device != y.device`, `x.device != device`, `x.dtype != out_dtype`: a tensor fact whose
// right side is the same property of another value (pred "dtype" or "device"), not a
// constant. `other` is what to convert to: `y.dtype`, `y.device`, `device`.
bool TensorPairOther(const Atom& a, const std::string& pred, std::string* other);

// The values a parameter accepts, as a caller types them, from fact `f` (`out_dtype !=
// torch.bfloat16`, `mode not in (None, "engine")`) and every other fact that tests the same
// parameter against constants (an if/elif chain's `dtype != torch.float32`, `dtype !=
// torch.float16`): their union, in order. Empty unless every value is typable by a
// caller: a literal, or a name whose head the file imports as a module or that is
// capitalized (a class or enum: `Mode.FAST`).
std::vector<std::string> AcceptedConstants(const SiteFacts& sf, const Fact& f);

// Python code (a span of the prose) with every read of a flag through its settings
// object (`args.num_experts`, `self.server_args.tp_size`) written as the flag the user
// types (`--num-experts`): "`--local-num-experts` > `--num-experts`", not "`args.num_experts`".
// Names inside string literals and method calls (`args.get(...)`) stay.
std::string FlagsAsOptions(const SiteFacts& sf, std::string_view code, DocDeps* deps);

// An unconditional NotImplementedError a subclass is meant to override (an
// abstract method, a base class, a message asking for an implementation).
bool AbstractMethod(const SiteFacts& sf);

}  // namespace errdex::doc
