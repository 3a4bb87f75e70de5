// document/brace_context: the SiteContext of a site in a brace language (C, C++,
// CUDA, Java, Kotlin, C#, Go, Rust, JavaScript, TypeScript), read from the file's
// text around the site with language-generic rules, so the document stage works on
// every front end's Site facts without a front end of its own: the enclosing
// function's parameters (from the definition of the function the Site names) and
// what the locals its guards and checked condition test were assigned. Heuristic
// and bounded: at most kMaxLookBack lines are read back from a site.
//
// Thread-safety: one BraceFile per thread (Gather caches what it reads).
#pragma once

#include <map>
#include <string_view>
#include <vector>

#include "document/site_context.h"
#include "model/site.h"

namespace errdex::doc {

inline constexpr int kMaxLookBack = 400;  // lines searched back for the function's definition

class BraceFile {
 public:
  BraceFile(std::string_view text, std::string_view language);
  SiteContext Gather(const Site& site) const;

 private:
  std::string_view Line(int line) const;  // 1-based, without the newline
  // Whether a block the statement on `line` opens is still open where `site_line` begins.
  bool InsideBlockFrom(int line, int site_line) const;
  int LineOf(size_t offset) const;        // 1-based line of a byte offset
  // The offset just after the definition header `name(...)` of the function around
  // `line`, and its parameter text; false when none is found.
  bool FindDefinition(std::string_view name, int line, size_t* params_b, size_t* params_e, int* def_line) const;
  // A web route the function serves: `app.post("/users", createUser)` anywhere in the
  // file, a NestJS `@Post("users")` right above its definition, or (an anonymous
  // handler) the nearest `.get("/path", ...` above the site.
  void Route(std::string_view def, int def_line, int site_line, SiteContext* c) const;
  // Java: the fields of the class the site's method belongs to, and what its other
  // methods assign them (SiteContext::writes) -- a field declaration as a write of
  // method "", a constructor's `this.x = param` as "__init__" with "param:NAME".
  void ClassState(const SiteContext& c, int def_line, std::vector<StateWrite>* writes) const;
  // Per class line: the fields and writes of that class (read once per file and class).
  mutable std::map<int, std::vector<StateWrite>> class_state_;
  mutable std::map<int, int> class_line_of_def_;  // method's line -> its class's line (0: none)

  std::string_view text_;
  std::string_view language_;
  std::vector<size_t> starts_;  // byte offset of each line
  // Parameters per definition line: a function with many checks is read once.
  mutable std::map<int, std::vector<ParamInfo>> params_;
};

// Parameter names of a parameter list's text (`const at::Tensor& x, int64_t n = 2`,
// `name: string`, `a, b int`, `mut x: &str`), by the rules of `language`.
std::vector<ParamInfo> BraceParams(std::string_view params, std::string_view language);

}  // namespace errdex::doc
