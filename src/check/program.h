// check/program: what `errdex check` keeps of one Python file, built at scan
// time from the file's text and its sites: the statements of every function
// and of the module body as compact trees (cx.h) -- control flow, assignments,
// calls, returns, raises and asserts (pointing at the file's sites) -- plus
// classes (bases, fields, decorators), imports and the add_argument calls
// (for what the settings map does not keep: positionals, required, const).
// Statements that cannot change a value or raise are dropped (docstrings,
// logging calls, pass), long literals are clipped.
//
// A FileProgram depends only on the file's path, text and sites, so it can be
// kept per file content. Built on the front end's tokenizer and expression
// parser (extract/python); one linear pass over the logical lines.
//
// Thread-safety: BuildFileProgram is a pure function.
// Tested by program_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "check/cx.h"
#include "model/site.h"
#include "model/status.h"

namespace errdex::check {

// One site of the file, as the catalog names it.
struct SiteRef {
  std::string id;      // the record id
  int line = 0;
  std::string kind;    // SiteKindName
  std::string error_class;
};

struct FunctionFacts {
  std::string qual;              // ServerArgs._handle_a2a_moe, outer.inner
  std::string name;              // _handle_a2a_moe
  std::string cls;               // the class whose method this is ("" otherwise)
  int line = 0, end_line = 0;
  std::vector<std::string> params;    // "self", "cfg", "*args", "**kw" (bare "*" and "/" dropped)
  std::vector<std::string> defaults;  // cx text per param, "" when none
  std::vector<std::string> annotations;  // per param, as written ("ServerArgs", "Optional[int]"), "" when none
  std::vector<std::string> decorators;  // dotted names as written: staticmethod, property, ...
  std::string body;              // cx text of the body: (stmt...)
};

struct ClassFacts {
  std::string qual, name;
  int line = 0;
  std::vector<std::string> bases;       // as written (dotted)
  std::vector<std::string> decorators;  // dataclass, dataclasses.dataclass, ...
  // Class-level names: annotated fields and plain assignments, with the value's cx text ("" none).
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<std::string> annotated;   // the attrs that carry an annotation (dataclass fields)
};

struct ImportFacts {
  std::string local;   // the name bound in the file
  std::string module;  // dotted, without the leading dots of a relative import
  std::string name;    // "" for `import module`
  int level = 0;       // leading dots
};

struct FileProgram {
  std::string path;
  std::string module_body;  // cx text of the module's statements
  std::vector<FunctionFacts> functions;
  std::vector<ClassFacts> classes;
  std::vector<ImportFacts> imports;
  std::vector<SiteRef> sites;
  std::vector<std::pair<int, std::string>> add_arguments;  // (line, cx text of the call)
  bool dynamic_import = false;  // importlib.import_module / __import__ with a computed name
  bool subcommands = false;     // argparse subparsers: add_subparsers() / add_parser()
};

// `sites` are the file's sites with their record ids (same order as ids).
FileProgram BuildFileProgram(std::string_view path, std::string_view text, const std::vector<SiteRef>& sites);

// Console scripts declared by a packaging file (pyproject.toml [project.scripts],
// setup.cfg [options.entry_points] console_scripts, setup.py entry_points):
// (script name, "module:function").
std::vector<std::pair<std::string, std::string>> ConsoleScripts(std::string_view path, std::string_view text);
// One Python expression as a cx tree (for --assume); kParseError when it is not one.
Result<Cx> ParsePythonExpression(std::string_view text);

// Test code (the front end's rule: a tests/ or test/ directory, test_*.py, *_test.py,
// conftest.py): no launch runs it, so the scan keeps no program facts for it.
bool IsTestPath(std::string_view path);

// True for the packaging files ConsoleScripts reads.
bool IsPackagingFile(std::string_view path);

}  // namespace errdex::check
