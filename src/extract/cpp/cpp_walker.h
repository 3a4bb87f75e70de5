// The C/C++/CUDA front end's walk over one file's expanded tokens (internal:
// cpp_extractor.h is the interface). One class, Walker, implemented by concept:
//   cpp_walker.cc    the walk itself (Run: braces, statements, if/else/while
//                    headers, catch clauses, calls to sinks) and the token
//                    helpers (bracket matching, argument splitting, spelling);
//   cpp_context.cc   the context stack: enclosing functions, classes and
//                    namespaces (Site.function), if/else/while guards and catch
//                    clauses; a new Site takes its context from it (NewSite);
//   cpp_locals.cc    local data flow for messages built in locals
//                    (std::string msg = ...; msg += ...; std::ostringstream oss;
//                    oss << ...), read back by the message evaluator;
//   cpp_messages.cc  message evaluation: literals (adjacent, split by #if),
//                    `+` concatenation, `c ? a : b`, c10::str/StrCat,
//                    fmt/std::format `{}` and printf formats, locals;
//   cpp_sites.cc     the sites: each sink call (cpp_sinks) with its message
//                    rule and `<<` stream, and each `throw`.
// A Walker belongs to one thread and one file. Tested by cpp_extractor_test.cc
// and tests/diff/cpp_oracle.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "extract/common/limits.h"
#include "extract/common/message.h"
#include "extract/cpp/cpp_lexer.h"
#include "extract/cpp/cpp_macros.h"
#include "extract/cpp/cpp_sinks.h"
#include "model/site.h"

namespace errdex::cpp {

// Messages as segments (literal text and holes) and their alternatives: the
// shared forms of extract/common/message.h.
using msg::Alts;
using msg::Seg;
using msg::Segs;

// True for the C/C++ keywords (and __attribute__-like names) that are never
// the name of a function or a local: `if (`, `sizeof (`, `return x`.
bool IsKeyword(std::string_view s);

enum class CtxKind : uint8_t { kFunction, kClass, kNamespace, kBlock, kGuard, kCatch };

struct Ctx {
  CtxKind kind;
  bool brace = false;        // closed by a '}' (else: a statement, closed by ';')
  uint32_t depth = 0;        // brace depth where it was opened (statement guards)
  bool from_macro = false;   // a guard written inside a macro body
  bool is_if = false;        // an if-guard (its text feeds a following else)
  std::string text;          // name, guard text, catch header
  std::string catch_param;   // kCatch: the parameter's name
  uint32_t chain = 0;        // a guard from a macro body: the expansion that wrote it (Token::chain)
};

struct Local {
  bool stream = false;
  std::optional<Alts> value;  // nullopt: unknown
};

class Walker {
 public:
  Walker(std::string_view path, std::string_view text, const std::vector<Token>& toks, const cpp::Expander& exp,
         const ExtractLimits& limits);
  void Run();
  std::vector<Site> sites;
  size_t sites_left_out = 0;  // past the collection bound of Add

 private:
  // Keeps a site within the limits as it is made (memory stays bounded: a macro
  // expanding to a 60 KB literal, used 20,000 times, made 7 GB of sites). A copy
  // of a site already made (a block a dispatch macro pastes into each of its
  // cases: flashinfer's mixed_comm.cu makes 9,000 copies of 71 sites) is dropped
  // here, before the bound, so copies never push distinct sites out. Collects at
  // most twice max_sites distinct sites (the first max_sites in the file are
  // kept); past that only counts.
  void Add(Site site) {
    CapSite(site, limits_);
    const std::string key = std::to_string(site.line) + ':' + std::to_string(site.column) + ':' +
                            SiteKindName(site.kind) + '\0' + site.error_class.value_or("") + '\0' +
                            site.message_pattern.value_or("") + '\0' + site.error_message.value_or("") + '\0' +
                            site.message_expr.value_or("");
    if (!seen_.insert(std::hash<std::string>{}(key)).second) return;  // 64-bit hash: the set stays small
    if (sites.size() >= 2 * limits_.max_sites) {
      ++sites_left_out;
      return;
    }
    sites.push_back(std::move(site));
  }
  std::unordered_set<size_t> seen_;  // hashes of the sites made (see Add)

  // Tokens (cpp_walker.cc).
  const Token& T(size_t i) const { return t_[i]; }
  size_t N() const { return t_.size(); }
  bool IsP(size_t i, char c) const { return i < N() && t_[i].IsPunct(c); }
  bool IsW(size_t i, std::string_view w) const { return i < N() && t_[i].text == w && t_[i].type == TokType::kIdent; }
  // Index of the bracket closing the one at i ('(' '[' '{'), or N() when unbalanced.
  size_t Close(size_t i) const;
  // Index of the '(' opening the ')' at i, scanning back; npos when none.
  size_t OpenBack(size_t i) const;
  // End (exclusive) of the expression starting at i: the first ';' or an
  // unmatched closer at depth 0.
  size_t ExprEnd(size_t i) const;
  std::vector<std::pair<size_t, size_t>> SplitArgs(size_t open, size_t close) const;
  std::string Spell(size_t b, size_t e) const;

  // The context stack (cpp_context.cc).
  void OpenBrace(size_t i);
  void CloseBrace();
  void EndStatement();
  std::string FunctionNameAt(size_t brace) const;
  bool ClassNameAt(size_t brace, CtxKind* kind, std::string* name) const;

  // Locals (cpp_locals.cc).
  bool TryLocal(size_t i, size_t* next);
  Local* FindLocal(std::string_view name) {
    auto it = locals_.find(name);
    return it == locals_.end() ? nullptr : &it->second;
  }

  // Sites: a new site takes its function, guards and catch from the context
  // stack (NewSite, cpp_context.cc); the sinks and throws (cpp_sites.cc).
  Site NewSite(SiteKind kind, size_t at) const;
  void HandleSink(size_t i, size_t name_begin, const cpp::Sink& sink);
  void HandleThrow(size_t i);
  bool Terminates(size_t from) const;

  // Messages (cpp_messages.cc).
  std::optional<Alts> Eval(size_t b, size_t e, int depth);
  Alts Part(size_t b, size_t e, int depth);
  Segs PartSegs(size_t b, size_t e, int depth) { return msg::Single(Part(b, e, depth), Spell(b, e)); }
  Segs Template(std::string_view tmpl, std::string_view c, std::string_view a, std::string_view b) const;

  std::string_view path_;
  std::string_view text_;
  const std::vector<Token>& t_;
  const cpp::Expander& exp_;
  const ExtractLimits& limits_;
  bool in_tests_;
  std::string language_ = "cpp";

  std::vector<Ctx> ctx_;
  uint32_t depth_ = 0;  // brace depth
  struct Snapshot {
    std::vector<Ctx> at_if;
    uint32_t depth_at_if = 0;
    bool has_else = false;
    std::vector<Ctx> after_first;
    uint32_t depth_after_first = 0;
  };
  std::vector<Snapshot> pp_;
  // Pending header of the next '{' or statement.
  enum class Pending : uint8_t { kNone, kGuard, kCatch, kPlain };
  Pending pending_ = Pending::kNone;
  std::string pending_text_;
  std::vector<std::string> pending_extra_;  // "not (c)" of an else before this if
  bool pending_from_macro_ = false;
  uint32_t pending_chain_ = 0;
  bool pending_is_if_ = false;
  std::string catch_param_;
  std::string last_if_;           // the condition of the if whose branch just ended
  uint32_t last_if_depth_ = UINT32_MAX;
  bool stmt_start_ = true;
  bool case_label_ = false;  // between `case` and its ':'
  std::unordered_map<std::string_view, Local> locals_;
  std::vector<std::string> local_names_;  // owned names for locals_ keys made from macro tokens
};

}  // namespace errdex::cpp
