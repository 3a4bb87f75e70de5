// The macro side of the C/C++ front end: the repository-wide table of
// function-like #defines, which of them reach an error sink (directly, by a
// `throw`, or through other such macros: a fixed point over the table), and the
// expansion of their uses with the preprocessor's rules (#x stringizing, ##
// pasting, __VA_ARGS__, `, ## __VA_ARGS__` and __VA_OPT__), so that
// `CHECK_DIM(3, q)` becomes the TVM_FFI_ICHECK_EQ(...) << "q must be a 3D
// tensor" the compiler sees.
//
// MacroTable is built once per scan (Add from any number of files, then
// Finish) and then read by all extraction threads (const methods only).
// Tested by cpp_extractor_test.cc.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "extract/cpp/cpp_lexer.h"

namespace errdex::cpp {

class MacroTable {
 public:
  // REQUIRES: not yet Finish()ed.
  void Add(std::vector<MacroDef> defs);
  // A file's #defines and #include names (LexDefines), so that a file's
  // includes pick the definitions it sees.
  void AddFile(std::string path, LexResult scanned);
  // Computes which names reach a sink. Call once, after the last Add. A body
  // using a name `fallback` says reaches counts as reaching (a file's own
  // wrappers of the repository's wrappers).
  void Finish(const MacroTable* fallback = nullptr);
  // The definition of `name` a file at `from_file` most likely sees: one from
  // the same file; else from the file it includes first (breadth-first over
  // `visible`, the include closure, see IncludeClosure); else the one whose
  // file shares the longest directory prefix with it (several projects in one
  // tree define CHECK_CUDA each their own way).
  const MacroDef* Find(std::string_view name, std::string_view from_file,
                       const std::unordered_map<std::string_view, int>* visible = nullptr) const;
  // The files `includes` (of a file at `from_file`) reach, transitively, each
  // with its breadth-first rank; resolved as a compiler would, against the
  // files added: the including file's directory first, then the file whose
  // path ends with the name and shares the longest prefix with `from_file`.
  std::unordered_map<std::string_view, int> IncludeClosure(std::string_view from_file,
                                                           const std::vector<std::string>& includes) const;
  // True when a use of `name` can raise, abort or log (reaches a sink).
  bool Reaches(std::string_view name) const { return reaching_.count(name) != 0; }
  size_t size() const { return defs_.size(); }

 private:
  const std::string* Resolve(std::string_view from, std::string_view include) const;

  std::deque<MacroDef> defs_;
  std::deque<std::string> files_;                                     // paths added by AddFile
  std::unordered_map<std::string_view, std::vector<std::string>> includes_;  // file -> its #includes
  // file -> its #includes as Resolve finds them (null: none), filled by Finish
  std::unordered_map<std::string_view, std::vector<const std::string*>> resolved_;
  std::unordered_map<std::string_view, std::vector<const std::string*>> by_suffix_;
  std::unordered_map<std::string_view, std::vector<const MacroDef*>> by_name_;
  std::unordered_set<std::string_view> reaching_;
  std::unordered_set<const MacroDef*> reaching_defs_;
};

// Expands the wrapper macros of one file's token stream. The file's own
// #defines (`local`) come before the repository's (`repo`, may be null).
class Expander {
 public:
  // `includes`: the file's #include names (the repository definitions it sees first).
  Expander(std::string_view path, const MacroTable* local, const MacroTable* repo,
           const std::vector<std::string>& includes = {})
      : path_(path), local_(local), repo_(repo) {
    if (repo_) visible_ = repo_->IncludeClosure(path_, includes);
  }

  // Copies `in` to the result, each use of a macro that reaches a sink replaced
  // by its expansion (recursively, at most kMaxDepth deep and kMaxTokens
  // produced in all; past that, uses stay as they are). Tokens of a macro
  // body take the line/column of the use; tokens of its arguments keep theirs.
  std::vector<Token> Expand(const std::vector<Token>& in);

  // The macros whose expansion produced `t` (a token of the last Expand()),
  // outermost first ("CHECK_INPUT > CHECK_CUDA"); empty when written in the file.
  const std::string& ChainOf(const Token& t) const { return chains_[t.chain < chains_.size() ? t.chain : 0]; }

  // True when the file or the repository defines `name` (as any macro).
  bool Defines(std::string_view name) const {
    return (local_ && local_->Find(name, path_)) || (repo_ && repo_->Find(name, path_, &visible_));
  }

  static constexpr int kMaxDepth = 32;
  static constexpr size_t kMaxTokens = 4u << 20;

 private:
  // What an identifier is to this file, looked up once per name: a file sees
  // the same definitions all the way through, and ExpandRange asks for every
  // identifier token (several hash lookups, and path hashes for the include
  // closure, each time without this).
  struct Meaning {
    bool strong_sink = false;         // IsStrongSinkName: never expanded
    const MacroDef* def = nullptr;    // a macro that reaches a sink (Lookup)
    const Token* constant = nullptr;  // else an object-like constant's value (Constant)
  };
  const Meaning& MeaningOf(std::string_view name);
  const MacroDef* Lookup(std::string_view name) const;
  // The value token of an object-like macro that is one number or string literal.
  const Token* Constant(std::string_view name) const;
  // Expands in[b, e) into out; `active` holds the macros being expanded.
  void ExpandRange(const Token* b, const Token* e, std::vector<Token>& out, std::vector<const MacroDef*>& active,
                   uint32_t chain, int depth);
  // Substitutes `args` into `def`'s body at the use `at`.
  std::vector<Token> Substitute(const MacroDef& def, const std::vector<std::vector<Token>>& args, const Token& at,
                                uint32_t chain);
  std::string_view Keep(std::string s) {
    arena_.push_back(std::move(s));
    return arena_.back();
  }

  std::string_view path_;
  const MacroTable* local_;
  const MacroTable* repo_;
  std::unordered_map<std::string_view, int> visible_;  // include closure of the file
  std::unordered_map<std::string_view, Meaning> meanings_;  // MeaningOf's memo
  std::deque<std::string> arena_;       // text of tokens made here (stringized, pasted)
  std::vector<std::string> chains_{""};  // chain id -> "A > B"
  size_t produced_ = 0;
};

// The spelling of tokens as the preprocessor's # operator gives it: one space
// where there was whitespace, none elsewhere.
std::string SpellTokens(const Token* b, const Token* e);

}  // namespace errdex::cpp
