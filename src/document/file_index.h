// document/file_index: the structure of one Python file, indexed once so that
// every question the document stage asks about a site costs time independent
// of the file's size: the block tree (def/class/if/elif/else/while/for/try/
// with, with each if/elif/else chain linked), assignments by name, calls by
// name, imported names. Built in one pass over the front end's tokens
// (py_tokens.h); Gather answers for one site in O(log n) plus bounded work
// (at most kMaxGuards guards, kMaxCallers callers, 64 assignment candidates).
//
// Thread-safety: one FileIndex per thread (Gather builds a range-min table
// and the parameters of defs on first use).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "document/py_tokens.h"
#include "document/site_context.h"
#include "model/site.h"

namespace errdex::doc {

inline constexpr size_t kMaxGuards = 12;  // innermost guards a site's prose considers

class FileIndex {
 public:
  // What the sites of the file will ask about: the names their functions are called
  // by, and the identifiers their guards use (locals, self attributes). Only these
  // are indexed (a file with few sites costs little); null indexes everything.
  struct Wanted {
    std::unordered_set<std::string_view> callees, names;
  };
  // REQUIRES: `toks` (and `wanted`'s strings) outlive the index.
  explicit FileIndex(const Toks& toks, const Wanted* wanted = nullptr);
  // The Wanted of `sites` (views into the sites' strings).
  static Wanted WantedBy(const std::vector<const Site*>& sites);
  SiteContext Gather(const Site& site) const;

 private:
  enum Kind { kIf, kElif, kElse, kWhile, kFor, kTry, kExcept, kFinally, kWith, kDef, kClass, kMatch, kCase };
  struct LogLine {
    uint32_t first = 0, last = 0;  // tokens [first, last)
    int indent = 0;
    int start = 0, end = 0;        // physical lines
    int block = -1;                // innermost block around it (not the one it opens)
    int opens = -1;                // the block this line opens (one-liners included)
  };
  struct Block {
    Kind kind = kIf;
    int ll = 0;                  // header logical line
    int start = 0, end = 0;      // physical lines, body included
    int indent = 0;
    int parent = -1;
    uint32_t test_b = 0, test_e = 0;  // if/elif/while: the test's tokens
    uint32_t body_b = 0;         // first body token (after the header's ':')
    int chain_prev = -1;         // elif/else: the previous branch of its chain
    std::string_view name;       // def/class
  };

  // The block kind a statement keyword opens, -1 none (`match`/`case`: checked by the caller).
  static int KeywordKind(std::string_view w);
  int LogLineAt(int line) const;
  int InnermostBlock(int li) const;
  int DefOf(int block) const;  // the innermost def at or above `block`, -1 none
  std::string ScopeName(int block) const;
  int MinIndent(int from, int to) const;  // over logical lines [from, to]
  std::string RhsOf(int li) const;
  // `n.add(...)`, `n.append(...)`, `n[k] = v`, `n += ...`, `del n[k]` anywhere in the file.
  bool MutatedContainer(std::string_view n) const;  // ScanMutated, remembered per name
  bool ScanMutated(std::string_view n) const;
  void Summarize(const Block& b, int until_line, BranchInfo* out) const;
  // Does every path through the body of block `bi` end in return/raise/continue/break?
  bool AlwaysExits(int bi) const;
  // The tests of earlier exiting `if` chains of the site's own block (SiteContext::exits).
  void Exits(int li, int inner, SiteContext* c) const;
  // Methods of the site's class that give self.<attr> (tested by a guard) a value.
  void Setters(const Site& site, int def, SiteContext* c) const;
  // @dataclass (or @x.dataclass) on class block `cls`; `name: T` in its body.
  bool IsDataclass(int cls) const;
  bool DataclassField(int cls, const std::string& name) const;
  // @app.get("/path") / @app.route("/path", methods=["POST"]) on the def.
  void Route(const Block& def, SiteContext* c) const;
  std::vector<ParamInfo> Params(const Block& def) const;
  // Params(blocks_[def]), read once per def: the sites of one function share it.
  const std::vector<ParamInfo>& ParamsOf(int def) const;

  const Toks& t_;
  std::vector<LogLine> ll_;
  std::vector<Block> blocks_;
  std::unordered_map<std::string_view, std::vector<int>> assigns_;  // name -> logical lines
  std::unordered_map<std::string_view, std::vector<int>> self_assigns_;  // self.<attr> = ... -> logical lines
  std::unordered_map<std::string_view, std::vector<uint32_t>> calls_;  // name -> tokens
  std::unordered_set<std::string_view> imports_;
  mutable std::vector<int> seg_;  // range-min over ll_ indents, built on first use
  mutable std::vector<std::optional<std::vector<ParamInfo>>> params_;  // by block, filled on first use (ParamsOf)
  mutable std::map<std::string, bool, std::less<>> mutated_;            // MutatedContainer's answers
};

}  // namespace errdex::doc
