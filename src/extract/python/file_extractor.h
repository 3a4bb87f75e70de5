// extract/python/file_extractor.h: the Python front end's state for one file
// (internal: python_extractor.h is the interface). One class, FileExtractor,
// implemented by stage:
//   python_extractor.cc  phase 1, the structure pass (blocks, scopes, assignments,
//                        imports, the statements and calls that can raise), and Run;
//   evaluate.cc          phase 2, a message expression rebuilt as text (the
//                        oracle's Evaluator: names, calls, %, .format, f-strings);
//   sites.cc             a queued statement made a Site (class, message, HTTP
//                        status, log level, guards);
//   helpers.cc           messages read from elsewhere in the file: a raising
//                        helper's callers, a message helper's returns, a class's
//                        message template, an exception factory's class.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "extract/python/class_messages.h"
#include "extract/python/expr.h"
#include "extract/python/message_eval.h"
#include "extract/python/python_extractor.h"
#include "extract/python/tokenizer.h"

namespace errdex::pyx {

using py::IsName;
using py::IsOp;
using py::MaybeSegs;
using py::Node;
using py::NodeKind;
using py::Seg;
using py::Segs;
using py::Token;
using py::TokenKind;

constexpr int kMaxEvalDepth = 8;

// Messages read from elsewhere in the file (CallerMessages: a raising helper's
// callers; EvReturns: a message helper's return statements).
constexpr size_t kMaxHelperCalls = 1 << 16;  // calls remembered per file
constexpr size_t kMaxHelperReturns = 16;     // a function with more return statements is no message helper
constexpr size_t kMinCallerLiteral = 8;      // a text with less literal text says too little
// A helper's return is the raise's own text with the raise's arguments bound: it
// may be short (unittest's `'%s != %s' % ...` through _formatMessage), so long as
// some of it is literal.
constexpr size_t kMinReturnLiteral = 4;

// Two alternative-free messages alike.
bool SameSegs(const Segs& a, const Segs& b);
// Adds one text read elsewhere to the alternatives `alt`; sets `*open` when it says
// too little or there are too many (CallerMessages, EvReturns).
void AddReadText(const Segs& text, Seg* alt, bool* open, size_t min_literal = kMinCallerLiteral);
// The texts AddReadText gathered, as one message (nullopt: none).
MaybeSegs ReadTexts(Seg alt);
std::optional<int> HttpStatusByName(std::string_view name);
const char* HttpStatusName(int code);
std::optional<int> HttpStatusFromClassName(std::string_view camel);
bool IsClasslike(std::string_view name);
bool InTests(std::string_view rel);
bool IsErrorResponseName(std::string_view s);
bool IsLoggerName(std::string_view s);

// ---------------------------------------------------------------------------
struct Assign {
  int line = 0, col = 0;
  bool aug = false;        // "+="
  bool has_value = false;  // false: bound to something that is not a value we track
  uint32_t vb = 0, ve = 0; // value token range
  mutable int node = -2;   // parsed value (-2 not yet, -1 unparsable)
};

struct Scope {
  enum Kind { kModule, kClass, kFunction } kind = kModule;
  int parent = -1;
  std::vector<std::pair<std::string_view, Assign>> assigns;  // in source order
  std::vector<std::string_view> params;
  std::vector<std::pair<std::string_view, std::string_view>> class_defaults;  // param -> class-like default (`error=ImportError`)
  std::vector<std::pair<std::string_view, std::pair<uint32_t, uint32_t>>> param_defaults;  // param -> its default's tokens
  bool Binds(std::string_view n) const {
    for (const auto& a : assigns)
      if (a.first == n) return true;
    return false;
  }
  bool HasParam(std::string_view n) const { return std::find(params.begin(), params.end(), n) != params.end(); }
  std::vector<std::pair<uint32_t, uint32_t>> returns;  // return value token ranges
  uint32_t ann_b = 0, ann_e = 0;                       // return annotation tokens
  // Only collected when class messages are (CollectPythonClassMessages):
  std::string_view name;                               // def/class name
  uint32_t bases_b = 0, bases_e = 0;                   // class: tokens between its parentheses
  std::vector<std::string_view> star_params;           // def: *args / **kwargs names
  std::vector<std::pair<uint32_t, uint32_t>> init_calls;  // __init__: super().__init__(...) / B.__init__(self, ...)
  std::vector<std::pair<std::string_view, std::pair<uint32_t, uint32_t>>> self_assigns;  // __init__: self.x = <tokens>
};

enum class BlockKind { kDef, kClass, kIf, kElif, kElse, kWhile, kFor, kTry, kExcept, kFinally, kWith, kMatch, kCase, kOther };

// How a block's guards are rendered (kept as offsets; strings are built only
// for sites, so the structure pass allocates little).
enum class GuardMode : uint8_t { kNone, kCond, kElif, kNotChain, kNotCond, kCustom };

struct Block {
  BlockKind kind = BlockKind::kOther;
  GuardMode guard = GuardMode::kNone;
  int indent = 0;
  uint32_t cond_b = 0, cond_e = 0;            // if/elif/while test; match subject
  uint32_t chain_start = 0, chain_len = 0;    // if/elif tests so far, in chain_arena_
  std::string custom;                         // case guard
  std::string_view name;                      // def/class name
  int scope = -1;                             // def/class scope
  bool has_handler = false;
  uint32_t type_b = 0, type_e = 0;            // except type expression (empty: bare except)
  std::string_view handler_name;
};

enum class PendKind { kRaise, kAssert, kAbort, kErrorResponse, kJsonResponse, kLog, kWarn };

struct Pending {
  PendKind kind;
  uint32_t tb = 0, te = 0;  // statement tokens; for calls: callee start .. statement end
  uint32_t lparen = 0;      // calls: index of '('
  int scope = 0;
  std::string qual;
  std::vector<std::string> guards;  // the innermost ExtractLimits::max_guards
  size_t guards_total = 0;           // before that cut
  size_t longest_guard = 0;          // bytes of the longest guard, before the max_guard_bytes cut
  std::vector<std::pair<std::string, std::string>> handlers;  // (name, header)
  std::string method;  // kLog: method name; kWarn/kAbort: bare or attribute
};

struct Found {
  std::vector<const Assign*> chain;
  // Plain assignments in other branches of the same `if` (`if c: e = "a" else: e =
  // "b"`), or before an `if` whose branch rebinds it: the name may hold any of them.
  std::vector<const Assign*> branches;
  // The one binding sits in a branch of an `if` that ended before the use, and the
  // name is a parameter: on the other path it still holds the argument (an
  // exception's __init__ that decorates `msg` only when a position is known).
  bool param_other_path = false;
  const char* kind;
  std::string flags;
  std::pair<int, int> apos;
};

class FileExtractor {
 public:
  FileExtractor(std::string_view path, std::string_view text, py::Tokens* toks, const ExtractLimits& limits)
      : path_(path), text_(text), toks_(*toks), parser_(text), limits_(limits) {}

  PythonExtractResult Run();
  // Phase 1 over the whole file: tokens, blocks, scopes, the queued statements.
  void ReadStructure();

 private:
  // phase 1
  void ProcessLine(const py::LogicalLine& l);
  void ProcessCompound(uint32_t b, uint32_t e, int indent, std::optional<Block>& prev, bool* handled);
  void ProcessSimple(uint32_t b, uint32_t e);
  void ProcessStatement(uint32_t b, uint32_t e);
  void ScanCallsAndAssigns(uint32_t b, uint32_t e, bool assigns);
  void NoteHelperCall(uint32_t b, uint32_t name, uint32_t e, bool dotted);
  void RecordImport(uint32_t b, uint32_t e);
  void BindNames(uint32_t b, uint32_t e, const Token& at);
  void AddAssign(std::string_view name, const Token& at, bool aug, bool has_value, uint32_t vb, uint32_t ve);
  Pending MakePending(PendKind k, uint32_t tb, uint32_t te) const;
  int FindHeaderColon(uint32_t b, uint32_t e) const;
  std::string SegTokens(uint32_t b, uint32_t e) const;  // tokens [b, e)
  std::pair<uint32_t, uint32_t> ExprRange(uint32_t b, uint32_t e);  // source offsets
  int CurrentScope() const;

  // phase 2
  void Finish(const Pending& p);
  void FinishSite(const Pending& p);
  void FinishRaise(const Pending& p, Site& site);
  void FinishCall(const Pending& p, Site& site);
  void CallRaise(Site& site, int call, const Pending& p, std::string* factory);
  void SetMessage(Site& site, int msg_node, const Pending& p, bool brace_template = false,
                  const std::vector<int>* log_args = nullptr);
  int FirstLiteralArg(int call, const Pending& p);
  std::vector<int> Args(int call) const;
  std::vector<int> Keywords(int call) const;
  int PickMessageArg(int call, int idx, std::initializer_list<const char*> kws) const;
  std::optional<int> StatusValue(int node) const;
  std::optional<int> HttpStatusOf(int call, bool any_pos) const;
  std::pair<bool, std::optional<int>> HttpClass(std::string_view callee, std::string_view last) const;
  bool LocallyBound(const std::string& name, int scope) const;
  // The file is the warnings module itself (or a copy of it): it defines, at module
  // level, `def warn(message, category=None, ...)`, which its own bare `warn(msg,
  // DeprecationWarning)` calls (warnings._deprecated).
  bool DefinesWarningsWarn() const;
  // `def f(..., error=ImportError): ... raise error(msg)`: the default class of the
  // parameter `name` raises through, when the function never rebinds it.
  std::optional<std::string> ParamDefaultClass(const std::string& name, int scope) const;
  std::string LastName(int node) const;
  int ParseAssignValue(const Assign& a);
  std::string Src(int node) const { return std::string(parser_.Seg(node)); }

  // evaluation (oracle Evaluator)
  // A callee's parameter bound to its caller's argument (EvReturns).
  struct Binding {
    std::string_view name;
    int node;
    int scope;
    std::pair<int, int> pos;
  };
  struct Eval {
    Eval(int s, std::pair<int, int> p) : scope(s), pos(p) {}
    int scope;
    std::pair<int, int> pos;
    std::string resolution = "literal";
    std::string flags;
    const std::vector<Binding>* bindings = nullptr;
  };
  std::optional<Found> Lookup(Eval& ev, const std::string& name, std::pair<int, int> pos);
  // `SomeError(x)` with one positional argument: x (what str() of it prints); else -1.
  int ExceptionArgument(int node) const;
  // `raise X(*args)` whose args the callers fill (Ev's kStarred): that argument, else -1.
  int StarredMessage(int call, const Pending& p);
  // How `earlier` relates to `later`, a later plain assignment of the same name, as
  // seen from a use at `use` after the if statement: kSibling, each in a branch of one
  // if/elif/else; kOverridden, `earlier` before an `if` whose branch holds `later`;
  // kNone otherwise (later always replaces earlier, or the use is inside a branch).
  enum class Branching { kNone, kSibling, kOverridden };
  Branching BranchingOf(const Assign& earlier, const Assign& later, std::pair<int, int> use) const;
  // Where an assignment sits: its logical line, the if/elif/else header of its block
  // (-1: none) and whether that if has ended by `use` (the name read after it).
  struct IfPlace {
    int line = -1, header = -1;
    bool ended = false;
  };
  IfPlace PlaceInIf(const Assign& a, std::pair<int, int> use) const;
  int LineOf(const Assign& a) const;
  int Indent(int logical_line) const;
  int HeaderOf(int logical_line) const;  // the nearest line before it indented less; -1 none
  bool StartsWithWord(int logical_line, std::string_view word) const;
  MaybeSegs Ev(Eval& ev, int node, int depth, std::pair<int, int> pos);
  MaybeSegs Ev(Eval& ev, int node) { return Ev(ev, node, 0, ev.pos); }
  Segs EvOrHole(Eval& ev, int node, int depth, std::pair<int, int> pos);
  MaybeSegs EvCall(Eval& ev, int node, int depth, std::pair<int, int> pos);
  // The template a text is formatted from (`tmpl.format(...)`, `tmpl % x`): as Ev,
  // and a parameter there reads as its default (ParamDefaultText).
  MaybeSegs EvTemplate(Eval& ev, int node, int depth, std::pair<int, int> pos);
  MaybeSegs ParamDefaultText(Eval& ev, const std::string& name, int depth);
  MaybeSegs EvTextFunction(Eval& ev, const std::vector<int>& args, bool no_kw, bool dedent, int depth,
                           std::pair<int, int> pos);
  std::string HoleText(int node) const { return parser_.Unparse(node); }
  std::string FvText(int fv) const;
  MaybeSegs ApplyPercent(const Segs& segs, const std::vector<int>& positional, const std::vector<int>* dict,
                         bool unknown_tuple);
  MaybeSegs ApplyPercentRight(const Segs& segs, int right);
  MaybeSegs ApplyFormat(const Segs& segs, int call);
  // A string or number literal given to .format() / % as a plain field: its text
  // (what Python prints), else nullopt. Sets literal_args_ when it does.
  std::optional<std::string> LiteralArg(int node, char conv, std::string_view spec);
  // Past the oracle's rules (tests/diff/diff_oracle.py tolerates these): literal
  // arguments of .format()/% written into the text, gettext calls read as their
  // literal. Reset by SetMessage, appended to messageResolution.
  bool literal_args_ = false;
  bool gettext_ = false;

  std::string_view path_;
  std::string_view text_;
  py::Tokens& toks_;  // per-thread buffer reused across files
  py::Parser parser_;
  std::vector<Scope> scopes_;
  std::vector<Block> stack_;
  std::vector<std::pair<uint32_t, uint32_t>> chain_arena_;
  std::vector<std::pair<std::string_view, int>> functions_;  // def name -> scope
  std::vector<Pending> pending_;
  std::unordered_map<std::string, std::string> imports_;
  PythonExtractResult result_;
  std::vector<std::pair<size_t, std::string>> factories_pending_;  // site index -> factory name
  bool in_tests_ = false;
  const ExtractLimits limits_;
  // Class messages (class_messages.h): what an __init__ statement tells.
  void NoteInitStatement(uint32_t b, uint32_t e);
  MaybeSegs EvInScope(int scope, int node, std::pair<int, int> pos);
  // Calls that may pass a raising helper its message: `f(...)` and `self.f(...)` /
  // `cls.f(...)` (callee token, receiver-or-callee token, statement end, scope).
  struct HelperCall {
    std::string_view name;
    uint32_t start = 0, end = 0;
    int scope = 0;
    bool other_receiver = false;  // `context._raise_error(` rather than `self.` / `cls.`
  };
  std::vector<HelperCall> helper_calls_;
  bool following_callers_ = false;  // CallerMessages is evaluating a caller's argument
  bool whole_message_ = false;      // SetMessage is evaluating a message argument
  std::unordered_map<std::string_view, std::vector<uint32_t>> calls_by_name_;  // built on first use
  // (function scope, param) -> the callers' texts, and whether some caller's was not read
  std::map<std::pair<int, std::string>, std::pair<MaybeSegs, bool>> caller_messages_;
  MaybeSegs CallerMessages(int fscope, std::string_view param, int depth, bool* open);
  // A message built by a function of this file: `msg = self._formatMessage(msg,
  // "%s is not true" % safe_repr(expr))` -- the texts its return statements give with
  // the call's arguments bound to its parameters. One level.
  MaybeSegs EvReturns(Eval& ev, int call, int depth, std::pair<int, int> pos);
  // `self.X` / `cls.X` where the enclosing class body binds X to a class (`failureException
  // = AssertionError`): that class's name.
  std::optional<std::string> ClassAttributeClass(const Node& fn, int scope);
  bool in_returns_ = false;
  // The scopes of the file's defs of `name` (module-level, nested and methods); empty if none.
  const std::vector<int>& FunctionsNamed(std::string_view name);
  std::unordered_map<std::string_view, std::vector<int>> functions_by_name_;  // FunctionsNamed's, built on first use
  // Binds a raise's arguments into its class's message template; false when the
  // class has none.
  bool BindClassTemplate(Site& site, int call, const Pending& p, const std::string& cls);
  // The function of this file a call names: `f(...)` a module-level or nested def,
  // `self.f(...)` / `cls.f(...)` a method; -1 when there is none or more than one.
  // `other_receivers`: also `source.f(...)` on another object, when the file's
  // classes define one method of that name (re's `raise source.error(msg)`).
  int LocalFunction(int callee_node, bool other_receivers = false);
  // `raise error(msg, ...)` with `error` a lower-case exception class (re's, socket's):
  // the repository's class table has a class of that name, and neither the scope nor
  // the file's functions (its methods, for `x.error(...)`) bind the name otherwise.
  bool LowerCaseClass(const std::string& name, bool attribute, int scope);
  // The callee's parameters bound to a call's arguments (EvReturns, BindFactory);
  // false when the call passes *args / **kwargs or more arguments than it takes.
  bool BindArgs(const Scope& callee, bool method, int call, int scope, std::pair<int, int> pos,
                std::vector<Binding>* out);
  // `raise self.unexpected()` / `raise suffixed_err(src, pos, "Invalid key")` where the
  // function of this file returns one construction of one exception class (`return
  // GraphQLSyntaxError(src, pos, f"Unexpected {desc}.")`): that construction's class
  // and message, the factory's parameters bound to the raise's arguments. Past the
  // oracle ("+factory": tests/diff/diff_oracle.py compares those sites on their class).
  bool BindFactory(Site& site, int call, const Pending& p);
  // Set while BindFactory reads the factory's return: messages are evaluated in the
  // factory's scope, its parameters bound to the raise's arguments.
  struct FactoryFrame {
    int scope;
    std::pair<int, int> pos;
    const std::vector<Binding>* bindings;
  };
  const FactoryFrame* factory_frame_ = nullptr;
  // Where a statement's message expressions are evaluated: the statement's scope, or
  // the factory's while BindFactory reads one.
  Eval EvalAt(const Pending& p) const;

 public:
  std::vector<py::ClassMessage> CollectClasses();
  // The tokens [b, e) spell `self.args[0] % self.args[1:]` (or `% tuple(self.args[1:])`).
  bool ReturnsArgsPercent(uint32_t b, uint32_t e) const;
  std::vector<py::ClassMessage> RunCollect();
  void SetClassTable(const py::ClassMessageTable* t) { classes_ = t; }
  void CollectOnly() { collect_classes_ = true; }

 private:
  bool collect_classes_ = false;
  std::unordered_set<std::string> logger_names_;  // names bound to getLogger(...) and kin in this file
  const py::ClassMessageTable* classes_ = nullptr;

  // Past limits_.max_sites queued statements: counts one more left out.
  bool AtSiteLimit() {
    if (pending_.size() < limits_.max_sites) return false;
    ++result_.sites_left_out;
    return true;
  }
  std::optional<std::string> FactoryInfo(const Scope& fs);
  Site BaseSite(const Pending& p, uint32_t end_tok) const;
  // After a failed parse of statement `p`'s `what`: when the parser hit its depth
  // or height limit, a diagnostic saying so (true); else nothing (false).
  bool NoteTooDeep(const Pending& p, const char* what);
};

}  // namespace errdex::pyx
