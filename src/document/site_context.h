// document/site_context: what a site's own file says around it, beyond the
// Site's facts -- the enclosing function and its parameters, the locals its
// guards test (as assigned on the path to the site), the earlier if/elif
// branches its else-guards come from, the site's own branch body, the callers
// in the file, the modules the file imports. Gathered once per site from the
// file index at scan time (file_index.h), stored in the catalog's knowledge
// blob keyed by record id, and read back by `errdex document`: both paths feed
// DocumentRecord the same SiteContext, so they write the same prose.
// Every string in it is clipped (kMaxContextText), every list bounded.
//
// Plain data; thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace errdex {

inline constexpr size_t kMaxContextText = 200;  // bytes of one right-hand side / test / call
inline constexpr int kMaxCallers = 5;           // callers named (callers_total counts all)

struct ParamInfo {
  std::string name;
  std::string annotation;     // source text, "" none
  std::string default_value;  // source text, "" none
  bool star = false;          // *args / **kwargs
};

// An if/elif branch: an earlier sibling of an else-guard (guard >= 0: which
// guard it explains) or the site's own enclosing branch (own = true).
struct BranchInfo {
  int guard = -1;
  bool own = false;
  int line = 0;
  std::string test;                                        // its condition, one line
  std::vector<std::pair<std::string, std::string>> sets;   // name = "literal" in its body (<= 4)
  bool warns = false, returns = false;
  std::string raises;                                      // the class its body raises, "" none
};

// `self.<attr> = <value>` in method `method`; value is the constant written (None,
// True, False, 0, ""), "param:<p>" for __init__'s `self.x = p` of its parameter p, or
// "" for anything else.
struct StateWrite {
  std::string attr, method, value;
  bool operator==(const StateWrite& o) const { return attr == o.attr && method == o.method && value == o.value; }
};

struct CallerInfo {
  std::string scope;  // "Class.method", "function", "class Class" (a class body), "<module>"
  int line = 0;
  std::string call;   // the calling line, one line, clipped
};

struct SiteContext {
  bool known = false;                 // false: no source was read (nothing below is known)
  int def_line = 0;                   // the enclosing def (0: module level or a class body)
  std::string def_name;
  std::string class_name;             // the class around that def, or the class body holding the site
  std::vector<std::string> decorators;  // of the def: staticmethod, classmethod, property, abstractmethod, ...;
                                        // Rust: "self" when the fn takes self (a method of its impl)
  bool Decorated(std::string_view word) const {
    for (const auto& d : decorators)
      if (d == word) return true;
    return false;
  }
  std::vector<ParamInfo> params;
  std::vector<std::pair<std::string, std::string>> assigned;  // local -> right-hand side on the path
  std::vector<BranchInfo> branches;
  std::vector<CallerInfo> callers;
  int callers_total = 0;
  std::vector<std::string> modules;   // names the guards use that the file imports as modules
  std::vector<std::string> class_bases;  // of class_name, as written
  // A site that runs after earlier `if T: return/raise/continue/break` statements of its
  // own block (no else) is reached only when each T is false: (line, T), nearest last.
  std::vector<std::pair<int, std::string>> exits;
  // self.<attr> tests: the other methods of the class that assign <attr> (__init__: only
  // from one of its parameters).
  std::vector<StateWrite> writes;
  // A web route around the def: @app.get("/items/{id}") -> ("GET", "/items/{id}").
  std::string route_method, route;
};

// JSON object (compact, keys in a fixed order) and back. FromJson of anything
// malformed gives a SiteContext with known = false.
std::string SiteContextToJson(const SiteContext& c);
SiteContext SiteContextFromJson(std::string_view json);
// The bytes of its strings: about the size of its JSON, without writing it (what
// the scan's spool counts a context held in memory as).
size_t SiteContextTextBytes(const SiteContext& c);

}  // namespace errdex
