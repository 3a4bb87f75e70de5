// check/interp: the abstract interpreter behind `errdex check`. It runs the
// program's own statements (kept by the scan, check/program.h) from the entry
// point the command line names, with the settings object holding what argparse
// would have parsed (check/argparse.h), and records every raise/assert site it
// reaches:
//   - WILL: reached on a path where every branch, loop and call on the way was
//     decided from the command line, the environment and defaults, with no
//     earlier return/exit that might be taken first, and not inside a try that
//     could catch it;
//   - MAY:  reached on a path that depends on something only known at run time
//     (hardware, an installed package, model config, an unknown call's result),
//     with the reasons.
// Everything it cannot evaluate is unknown, never guessed. Values are small
// sets (value.h), so a branch whose test is unknown runs both ways and the
// states join; values rewritten by earlier statements (a resolver turning
// `auto` into `low_latency`) are what later tests see.
//
// Semantics after a site fires: execution goes on as if the raise were not
// there (the site is "skipped"), so one run reports every error the command
// line leads to, in the order a user would meet them once the earlier ones
// are fixed. Functions the entry does not reach through calls the index can
// resolve are run afterwards, detached (arguments unknown, settings taking any
// value the program assigns): their sites are at most MAY, and reported only
// when a setting decides their path.
//
// Limits (named, documented in docs/check.md): call depth kMaxCallDepth, total
// statements kMaxSteps, loop unrolling kMaxUnroll; past them values become
// unknown and sites MAY.
//
// Thread-compatible: one Interpreter per check run. Tested by interp_test.cc
// and tests/check/ (the generated corpus runs the real program under python3).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/cx.h"
#include "check/program_index.h"
#include "check/value.h"

namespace errdex::check {

inline constexpr int kMaxCallDepth = 40;
inline constexpr int64_t kMaxSteps = 2'000'000;
inline constexpr int kMaxUnroll = 64;

enum class Alive : uint8_t { kDead, kMaybe, kSure };

// Names to values, shared between the states of branches until one of them writes
// (copy on write): a branch, a call and a join cost a pointer copy, not the map.
class CowMap {
 public:
  using Map = std::map<std::string, Val>;
  const Val* Get(const std::string& k) const {
    if (!m_) return nullptr;
    auto it = m_->find(k);
    return it == m_->end() ? nullptr : &it->second;
  }
  size_t count(const std::string& k) const { return m_ ? m_->count(k) : 0; }
  Val& operator[](const std::string& k) { return Mut()[k]; }
  const Map& map() const {
    static const Map kEmpty;
    return m_ ? *m_ : kEmpty;
  }
  Map& Mut() {
    if (!m_) m_ = std::make_shared<Map>();
    else if (m_.use_count() > 1) m_ = std::make_shared<Map>(*m_);
    return *m_;
  }
  bool Shares(const CowMap& o) const { return m_ == o.m_; }
  CowMap& operator=(const Map& m) {
    m_ = std::make_shared<Map>(m);
    return *this;
  }

 private:
  std::shared_ptr<Map> m_;
};

// One condition on the way to a site.
struct PathStep {
  Tri truth = Tri::kTrue;  // kUnknown: the branch may not be taken
  std::string where;       // file:line
  std::string text;        // the test as written (or "call f()", "loop over x")
  std::vector<std::string> from;  // settings it read
  std::vector<Unknown> why;       // when unknown
};

struct Verdict {
  int file = -1, site = -1;
  bool will = false;
  int order = 0;  // first time reached
  std::vector<PathStep> path;     // the conditions of the deciding visit (outermost first)
  std::vector<Unknown> depends;   // MAY: why
  std::vector<std::string> from;  // settings that decide it
  bool detached = false;          // reached only by the detached pass
  std::string caught_by;          // MAY because an except clause may catch it: file:line
};

struct Launch {
  int entry_file = -1;
  std::string main_name = "__main__";  // __name__ of the entry module
  std::string function;                // a console script's function (qual in the entry file), "" none
  std::vector<std::string> argv;       // sys.argv
  bool assertions = true;              // python -O turns asserts off
};

class Interpreter {
 public:
  // `settings`: the settings object's attributes at start (dest -> value).
  // `env`: environment variables (absent: unset).
  Interpreter(ProgramIndex& index, std::map<std::string, Val> settings, std::map<std::string, std::string> env);

  // Evaluates an expression in the module scope of `file` (module globals, imports);
  // used for add_argument keywords (choices=CONSTANT, default=ServerArgs.x).
  Val EvalInModule(int file, const Cx& x);
  Val EvalInClass(ClassRef c, const Cx& x);

  void Run(const Launch& launch);
  // Runs, detached, the functions holding sites the launch did not reach (see header comment).
  void RunDetached(const std::set<int>& files);

  const std::map<std::pair<int, int>, Verdict>& verdicts() const { return verdicts_; }
  bool budget_exhausted() const { return steps_ > kMaxSteps; }
  // The settings after the run (for the detached pass and for people: what the resolvers set).
  const std::map<std::string, Val>& final_settings() const { return final_settings_; }
  // Values of run-time expressions, by their Unparse() text (--assume).
  void SetAssumptions(std::map<std::string, Val> a) { assume_ = std::move(a); }

 private:
  struct State {
    Alive alive = Alive::kSure;       // reached, relative to the program run (see interp.cc)
    CowMap locals;
    CowMap heap;  // the settings object's attributes
    std::vector<Unknown> maybe_why;   // why alive is kMaybe / may_exit is set
    bool exited = false;              // dead because the program exits (sys.exit) here
    bool may_exit = false;            // the program may have exited before this point
  };
  struct Handler {
    std::vector<std::string> classes;  // resolved names; empty + bare: catches everything
    bool bare = false;
    bool unknown = false;              // a class check cannot name
    std::string where;
    size_t path_base = 0;              // path_ size at the try
    std::vector<State> caught;         // states at raises this handler surely catches
    bool decided = false;              // one of them was reached on a decided path
  };
  struct Frame {
    int file = -1;
    FnRef fn;                    // !ok(): module body
    std::optional<ClassRef> cls;  // the class of a method (for super())
    bool module_scope = false;   // locals are the module's globals
    std::vector<Val> returns;
    std::vector<State> return_states;
    std::vector<std::vector<State>> breaks, continues;  // per enclosing loop
    size_t path_base = 0;        // path_ size when the invocation started
  };

  // statements (interp.cc)
  void ExecBody(const Cx& body, State& st, Frame& fr);
  void Exec(const Cx& s, State& st, Frame& fr);
  void ExecIf(const Cx& s, State& st, Frame& fr);
  void ExecLoop(const Cx& s, State& st, Frame& fr);
  void ExecTry(const Cx& s, State& st, Frame& fr);
  void Assign(const Cx& target, const Val& v, State& st, Frame& fr);
  void SiteReached(int site, const std::string& cls, int line, State& st, Frame& fr, const PathStep* extra);
  State Branch(const State& st) const;  // a copy for one side of a branch
  void JoinInto(State& into, const State& a, const State& b, Alive before) const;
  static void JoinMaps(CowMap& into, const CowMap& other);

  // expressions (eval.cc)
  Val Eval(const Cx& x, State& st, Frame& fr);
  Tri Truth(const Cx& x, State& st, Frame& fr, PathStep* step);
  static void AddFromStep(PathStep* step, const std::vector<std::string>& from);
  Val Name(const std::string& n, State& st, Frame& fr);
  Val Attr(const Val& obj, const std::string& attr, const Cx& x, State& st, Frame& fr);
  Val Compare(const Cx& x, State& st, Frame& fr);
  Val Call(const Cx& x, State& st, Frame& fr);
  Val CallBuiltin(const std::string& name, const Cx& x, const std::vector<Val>& args,
                  const std::vector<std::pair<std::string, Val>>& kwargs, State& st, Frame& fr);
  Val CallMethodOfValue(const Val& bound, const std::vector<Val>& args, State& st);
  Val Invoke(FnRef fn, std::vector<Val> self, const std::vector<Val>& args,
             const std::vector<std::pair<std::string, Val>>& kwargs, bool star_args, const Cx& call, State& st, Frame& fr);
  Val Construct(ClassRef c, const std::vector<Val>& args, const std::vector<std::pair<std::string, Val>>& kwargs,
                const Cx& call, State& st, Frame& fr);
  Val Global(int file, const std::string& name, State& st);
  Val FromBinding(const Binding& b, int file, const std::string& name, State& st);
  Val ClassMember(ClassRef c, const std::vector<Val>& self, const std::string& attr, const Cx& x, State& st, Frame& fr);
  Val EnvRead(const std::string& name, const Val* default_value);
  // The innermost handler that surely catches `cls` (index into handlers_), or -1; `maybe_where`:
  // a handler that may catch it.
  int CaughtCheck(const std::string& cls, int site_file, std::string* maybe_where) const;
  std::string Where(const Frame& fr, int line) const;
  static std::string Category(const std::string& text);
  Val UnknownOf(const Cx& x, const std::string& category = "");

  void InitModule(int file);

  ProgramIndex& ix_;
  CowMap initial_settings_;
  std::map<std::string, Val> final_settings_;
  std::map<std::string, std::string> env_;
  std::map<std::string, Val> assume_;
  std::set<std::string> unknown_env_;  // variables the program sets to values check cannot know
  std::map<int, CowMap> globals_;  // per file, after its module body ran
  std::set<int> initializing_;
  std::vector<PathStep> path_;
  std::vector<Handler> handlers_;
  std::map<std::pair<int, int>, Verdict> verdicts_;
  std::vector<FnRef> call_stack_;
  std::map<int, CowMap*> live_globals_;  // module bodies running now
  std::set<std::pair<int, int>> visited_fns_;                 // functions the launch entered
  std::set<std::pair<int, int>> reached_sites_;               // sites reached (caught ones too)
  std::map<std::string, std::string> dest_flag_;              // settings attribute -> its flag (provenance)
  int order_ = 0;
  int64_t steps_ = 0;
  bool detached_ = false;
  bool assertions_ = true;
  int entry_file_ = -1;
  std::string main_name_;
  std::vector<std::string> argv_;
};

}  // namespace errdex::check
