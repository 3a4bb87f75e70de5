// What the tree-sitter front ends (src/extract/{rust,go,java,javascript}/) share:
// their options and result, one bounded parse (a CPU-time budget, an early
// give-up on text that is not code, one parser per thread), and, for Rust, Go
// and Java, TsWalker, the iterative walk over a tree that keeps the context stack
// every Site needs (enclosing functions and types, if/else/match/switch guards,
// catch clauses) and turns it into Site.function / guards / except_context.
// (JavaScript walks with a walker of its own, in javascript/: it also
// follows variable bindings by scope.)
//
// The walk uses a TSTreeCursor and heap stacks only: a 100,000-deep file cannot
// overflow the C++ stack. Message evaluation in the front ends recurses, each
// bounded by kMaxEvalDepth.
//
// Thread-safety: TsParse may be called from any number of threads at once (each
// keeps its own TSParser); a TsWalker belongs to one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"
#include "extract/common/limits.h"
#include "model/site.h"

#ifdef ERRDEX_HAVE_TREE_SITTER
#include <tree_sitter/api.h>
#endif

namespace errdex {

struct TsExtractOptions {
  // Files above this size are skipped with a diagnostic (default 16 MiB).
  std::size_t max_file_bytes = std::size_t{16} << 20;
  // A parse using more CPU time than parse_timeout + parse_timeout_per_mib * (file
  // size in MiB) is cancelled (defaults 5 s + 5 s per MiB, CPU time of the calling
  // thread, so a busy machine does not cancel ordinary files): hostile input cannot
  // hang a scan. A normal file parses at several MB per second.
  std::chrono::milliseconds parse_timeout{5000};
  std::chrono::milliseconds parse_timeout_per_mib{5000};
  // A parse that has met a syntax error and, after error_grace of CPU time, has
  // read less than min_error_mib_per_second is cancelled too: tree-sitter's error
  // recovery on text that is not code (8 MB of random printable bytes took 43 s
  // in JavaScript) is ten times slower than a parse of code.
  std::chrono::milliseconds error_grace{1000};
  double min_error_mib_per_second = 0.5;
  // Sites per file, guards per site (the innermost ones: a file of thousands of
  // nested ifs cannot make every site carry thousands of strings), bytes per guard
  // and per excerpt (extract/common/limits.h).
  ExtractLimits limits;
  // Site.function keeps at most this many names, the innermost ones, for the same reason.
  std::size_t max_name_parts = 32;
};

struct TsExtractResult {
  std::vector<Site> sites;              // ordered by (line, column)
  std::vector<Diagnostic> diagnostics;  // syntax errors, limits hit
  bool failed = false;                  // nothing extracted (no grammar, too big, timeout)
  size_t sites_left_out = 0;            // sites past limits.max_sites
};

// Depth bound of the recursive message evaluators.
inline constexpr int kMaxEvalDepth = 64;

// Does `text` contain one of `words`? A front end asks before it parses: a file that
// spells none of its sinks' words holds no site, and the parse is most of its time.
bool ContainsAnyOf(std::string_view text, std::initializer_list<std::string_view> words);

#ifdef ERRDEX_HAVE_TREE_SITTER

struct TsTreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using TsTree = std::unique_ptr<TSTree, TsTreeDeleter>;

// Parses `text` with `language` within the budget of `options`. On failure returns
// null and sets result.failed plus a diagnostic naming the limit (`what` names the
// language in it).
TsTree TsParse(const TSLanguage* language, std::string_view what, std::string_view path, std::string_view text,
               const TsExtractOptions& options, TsExtractResult& result);

// A Site of `kind` for the nodes `at`..`end`: kind, language, file_path, line,
// column and end_line set (an end at column 0 of a later line ends the line
// before); no context yet.
Site TsSiteAt(SiteKind kind, std::string language, std::string_view path, TSNode at, TSNode end);

// Site.function from the names of the enclosing functions and types, innermost
// first: "outermost.….innermost", or "<module>" for none.
std::string TsFunctionName(const std::vector<const std::string*>& innermost_first);

// Base of the front ends' walkers. Subclasses implement Enter(), which sees every
// node once (pre-order) with its field name in the parent, may push contexts
// (PushFunction/PushType/PushGuard/PushCatch: they last until the walk leaves the
// node) and may emit sites (NewSite + Finish).
class TsWalker {
 public:
  TsWalker(std::string_view path, std::string_view text, std::string language, const TsExtractOptions& options);
  virtual ~TsWalker() = default;
  TsWalker(const TsWalker&) = delete;
  TsWalker& operator=(const TsWalker&) = delete;

  void Run(TSNode root);
  // Moves the sites and a syntax-error diagnostic into `result`.
  void TakeInto(TsExtractResult& result);

 protected:
  // `field` is the node's field name in its parent ("" for none); ancestors()
  // holds the path from the root to the node's parent. Return false to skip the
  // node's children.
  virtual bool Enter(TSNode node, std::string_view field) = 0;

  std::string_view Text(TSNode n) const;
  // The ancestors of the node being entered: [0] the root ... back() its parent.
  const std::vector<TSNode>& ancestors() const { return ancestors_; }
  TSNode Parent(size_t up = 0) const;

  void PushFunction(std::string name);
  void PushType(std::string name);
  void PushGuard(std::string text);
  void PushCatch(std::string text);
  // Marks every site under the current node as test code.
  void PushTests();

  Site NewSite(SiteKind kind, TSNode at, TSNode end) const;
  // Keeps the site within the limits; past max_sites only counts it.
  void Finish(Site site);

  std::string_view path_;
  std::string_view text_;
  std::string language_;
  const TsExtractOptions& options_;
  bool file_in_tests_ = false;

 private:
  enum class CtxKind { kFunction, kType, kGuard, kCatch, kTests };
  struct Ctx {
    CtxKind kind;
    std::string text;
  };
  std::vector<Ctx> ctx_;
  std::vector<TSNode> ancestors_;
  std::vector<Site> sites_;
  size_t sites_left_out_ = 0;
  size_t syntax_errors_ = 0;
  TSPoint first_error_{0, 0};
};

// The named children of `n` (comments included), in O(children): ts_node_named_child(n, i)
// walks from the first child each time, quadratic on a node with thousands of them.
std::vector<TSNode> NamedChildren(TSNode n);

// Decodes the escapes of a C-family string body (between the quotes): \n \t \r
// \0 \\ \" \' \xHH \u{...} (Rust) / \uXXXX \UXXXXXXXX \ooo (Go, Java), and in
// Rust a backslash-newline that skips the next line's leading whitespace.
enum class EscapeDialect { kRust, kGo, kJava };
std::string DecodeEscapes(std::string_view body, EscapeDialect dialect);

#endif  // ERRDEX_HAVE_TREE_SITTER

// True for a path under a tests/ (test/, testing/, benches/) directory.
bool PathLooksLikeTests(std::string_view path);

}  // namespace errdex
