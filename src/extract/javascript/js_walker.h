// The JavaScript front end's walk over one file's tree (internal:
// js_extractor.h is the interface). One class, Walker, implemented by concept:
//   js_walker.cc    the walk itself (an iterative TSTreeCursor walk, so a
//                   100,000-deep file cannot overflow the stack) and the context
//                   stack it keeps: enclosing functions/classes (Site.function),
//                   if/else/while/switch guards, catch clauses, and the variable
//                   bindings of each scope; a new Site takes its context from it;
//   js_messages.cc  message evaluation: the text of a message expression (string
//                   and template literals, `+`, `c ? "a" : "b"`, util.format
//                   placeholders, variables bound earlier in scope), and which
//                   argument or object key holds the message;
//   js_sites.cc     the sites: throw statements, console/logger calls, HTTP errors
//                   and error responses made Sites (class, message, status).
// A Walker belongs to one thread and one file.
#pragma once

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

#include "extract/common/limits.h"
#include "extract/common/message.h"
#include "extract/javascript/js_extractor.h"
#include "extract/javascript/js_grammar.h"
#include "model/site.h"

namespace errdex::js {

// Messages as segments (literal text and holes), their alternatives and their
// rendering into a Site: the shared forms of extract/common/message.h.
using msg::Alts;
using msg::Seg;
using msg::Segs;

enum class CtxKind { kFunction, kClass, kGuard, kCatch, kScope };

struct Binding {
  enum Kind { kValue, kOpaque, kCatchParam };
  std::string_view name;
  Kind kind = kOpaque;
  TSNode value{};            // kValue: the assigned expression
  std::vector<TSNode> aug;   // later `name += expr` pieces
  int assigns = 1;           // `=` seen so far (declaration included)
};

struct Ctx {
  const void* owner;  // the node whose subtree this context covers
  CtxKind kind;
  std::string text;   // guard text, function/class name, catch header
  bool module = false;
  std::vector<Binding> bindings;
};

class Walker {
 public:
  Walker(std::string_view path, std::string_view text, bool typescript, const TSLanguage* lang,
         const JsExtractOptions& options)
      : path_(path), text_(text), typescript_(typescript), limits_(options.limits),
        max_name_parts_(options.max_name_parts), fields_(lang),
        kinds_(KindTable::For(lang)) {
    in_tests_ = InTests(path);
  }

  void Run(TSNode root);

  std::vector<Site> sites;  // ordered by (line, column) after Run
  size_t sites_left_out = 0;
  int syntax_errors = 0;
  TSPoint first_error{0, 0};

 private:
  std::string_view Text(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > text_.size() || e > text_.size() || e < b) return {};
    return text_.substr(b, e - b);
  }
  static TSNode Field(TSNode n, TSFieldId id) {
    return id == 0 ? TSNode{} : ts_node_child_by_field_id(n, id);
  }
  // The last name of `a.b.C` / `C`; empty for anything else.
  std::string_view LastName(TSNode n) const {
    n = Unwrap(n);
    if (Is(n, "identifier") || Is(n, "property_identifier") || Is(n, "type_identifier") ||
        Is(n, "private_property_identifier") || Is(n, "this"))
      return Text(n);
    if (Is(n, "member_expression")) return Text(Field(n, fields_.property));
    return {};
  }

  // The walk and its context stack (js_walker.cc).
  static bool InTests(std::string_view path);
  bool Enter(TSNode node, Kind kind, TSNode parent, Kind parent_kind, TSNode grandparent, Kind grandparent_kind,
             TSFieldId field);
  void Leave(TSNode node) {
    while (!ctx_.empty() && ctx_.back().owner == node.id) ctx_.pop_back();
  }
  void Push(TSNode owner, CtxKind kind, std::string text) {
    ctx_.push_back(Ctx{owner.id, kind, std::move(text), false, {}});
  }
  std::string ConditionText(TSNode stmt);
  std::string FunctionName(TSNode fn, TSNode parent);
  void BindParams(TSNode fn, Ctx& ctx, Binding::Kind kind);
  void BindPattern(TSNode pattern, Ctx& ctx, Binding::Kind kind, int depth);
  void Declare(TSNode declarator, bool is_var);
  void Assign(TSNode assignment, bool augmented);
  Binding* Lookup(std::string_view name, bool* in_module, bool* crossed_function);
  // A site at `at`..`end` with its context (function, guards, catch, inTests).
  Site NewSite(SiteKind kind, TSNode at, TSNode end) const;
  // Keeps the site within the limits; past max_sites only counts it.
  void Finish(Site site) {
    if (sites.size() >= limits_.max_sites) {
      ++sites_left_out;
      return;
    }
    CapSite(site, limits_);
    sites.push_back(std::move(site));
  }

  // Message evaluation (js_messages.cc).
  // Evaluates one message expression from a fresh state; nullopt when it is not
  // a string expression or a work/size bound was hit.
  std::optional<Alts> EvaluateMessage(TSNode n);
  std::optional<Alts> Evaluate(TSNode n, int depth);
  Alts EvaluatePart(TSNode n, int depth);
  std::optional<Alts> EvaluateTemplate(TSNode n, int depth);
  // `format_args`: the arguments after `msg` when it is a util.format-style format.
  void SetMessage(Site& site, TSNode msg, const std::vector<TSNode>* format_args = nullptr,
                  bool append_rest = false);
  Alts ApplyFormat(const Alts& fmt, const std::vector<TSNode>& args, bool append_rest, int depth);
  TSNode PickKey(TSNode object, int depth);  // {error: msg} / {message: msg}
  TSNode PickMessageArg(const std::vector<TSNode>& args, size_t skip_status_index);

  // Sites (js_sites.cc).
  void HandleThrow(TSNode stmt);
  void HandleCall(TSNode call);
  void HandleNew(TSNode expr);
  // Class + message of `new C(args)` / `C(args)`.
  void FillConstructed(Site& site, TSNode callee, TSNode args_node);
  // An HTTP error class (HttpException, NestJS NotFoundException, Response with a
  // 4xx/5xx status): fills kind, status and message; false for any other class.
  bool FillHttpConstructed(Site& site, std::string_view cls, const std::vector<TSNode>& args);
  void FillCreateError(Site& site, TSNode callee, const std::vector<TSNode>& args);
  std::optional<int> StatusValue(TSNode n) const;
  std::optional<int> StatusInInit(TSNode init) const;  // {status: 404}
  bool Consumed(TSNode n) const {
    return consumed_.count(n.id) != 0;
  }

  std::string_view path_;
  std::string_view text_;
  bool typescript_;
  ExtractLimits limits_;
  size_t max_name_parts_;
  bool in_tests_ = false;
  FieldIds fields_;
  const KindTable& kinds_;
  std::vector<Ctx> ctx_;
  std::unordered_set<const void*> consumed_;  // call/new nodes already turned into a site by a throw
  // Per-message evaluation state.
  std::string resolution_;
  int variable_hops_ = 0;
  int eval_steps_left_ = 0;  // Evaluate() calls left for this message (see kMaxEvalSteps)
  bool exhausted_ = false;   // a bound was hit: the message is unknown
};

}  // namespace errdex::js

#endif  // ERRDEX_HAVE_TREE_SITTER
