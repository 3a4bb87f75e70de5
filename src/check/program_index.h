// check/program_index: the check section indexed for the interpreter: which
// file a module name or a script path is, what a name in a file refers to
// (a function, a class, an import), class bases and methods, which classes
// hold the program's settings, and each function's statements parsed on
// first use.
//
// Thread-compatible (the lazy parse mutates; one index per check run).
// Tested through interp_test.cc and tests/check/.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "check/cx.h"
#include "check/section.h"

namespace errdex::check {

struct FnRef {
  int file = -1, fn = -1;
  bool ok() const { return file >= 0; }
};
struct ClassRef {
  int file = -1, cls = -1;
  bool ok() const { return file >= 0; }
  bool operator<(const ClassRef& o) const { return file != o.file ? file < o.file : cls < o.cls; }
  bool operator==(const ClassRef& o) const { return file == o.file && cls == o.cls; }
};

// What a name bound in a file's module scope is.
struct Binding {
  enum class Kind { kNone, kFunction, kClass, kModule, kExternal, kGlobal };
  Kind kind = Kind::kNone;
  FnRef fn;
  ClassRef cls;
  int module = -1;       // kModule: file index; kGlobal: the file whose module body assigns it
  std::string external;  // kExternal: dotted name outside the repository ("torch", "os.path.exists");
                         // kGlobal: the name in `module` (an import may rename it)
};

class ProgramIndex {
 public:
  explicit ProgramIndex(const Section& s);

  const Section& section() const { return s_; }
  int FileCount() const { return (int)s_.paths.size(); }
  const std::string& path(int i) const { return s_.paths[(size_t)i]; }
  // The file's facts (decoded and indexed on first use).
  const Section::File& file(int i) const;
  const FunctionFacts& function(FnRef r) const { return file(r.file).functions[(size_t)r.fn]; }
  const ClassFacts& klass(ClassRef r) const { return file(r.file).classes[(size_t)r.cls]; }

  // The file of a dotted module (`sglang.launch_server` -> .../sglang/launch_server.py or
  // .../launch_server/__init__.py; `pkg` run with -m -> pkg/__main__.py when main=true), -1 when none.
  // Several candidates: the shortest path.
  int ModuleFile(std::string_view dotted, bool main = false) const;
  // The file whose path ends with `path` (a script given on the command line), -1 when none.
  int ScriptFile(std::string_view path) const;
  // The dotted module name of a file (best guess: from its package root).
  std::string ModuleName(int file) const;

  // The module-level binding of `name` in `file` (function, class, import); kGlobal when the
  // module body assigns it; kNone otherwise.
  Binding Lookup(int file, std::string_view name) const;
  // A top-level function or class of a file by qualified name.
  FnRef FunctionByQual(int file, std::string_view qual) const;

  // The method `name` of a class, searched along its bases (repository classes, depth-first,
  // as Python's MRO for single inheritance). nullopt when not found in the repository part.
  std::optional<FnRef> Method(ClassRef c, std::string_view name) const;
  // The class-level attribute `name` (field default or class attribute) along the bases: (class, cx text).
  std::optional<std::pair<ClassRef, std::string>> ClassAttr(ClassRef c, std::string_view name) const;
  std::vector<ClassRef> Bases(ClassRef c) const;  // repository bases resolved
  std::vector<std::string> ExternalBases(ClassRef c) const;  // bases outside the repository, by name
  bool IsSubclass(ClassRef c, ClassRef base) const;
  bool IsDataclass(ClassRef c) const;
  std::optional<ClassRef> ClassByName(int file, std::string_view dotted) const;
  // The class a method's qual names (ServerArgs._handle -> ServerArgs in the same file).
  std::optional<ClassRef> ClassOf(FnRef f) const;

  // Classes whose instances are the program's settings (see interp.h): flags were generated
  // from their fields, or most of their annotated fields are flag dests; and their subclasses.
  bool IsSettingsClass(ClassRef c) const;
  const std::set<ClassRef>& settings_classes() const { return settings_classes_; }
  std::set<std::string> SettingsClassNames() const;

  // Parsed statements (a kSeq) of a function / a module body; nullptr when malformed.
  const Cx* Body(FnRef f);
  const Cx* ModuleBody(int file);

  // The files a file imports (resolved), transitively from `root`, in breadth-first order.
  std::vector<int> ImportClosure(int root, bool* dynamic) const;

 private:
  int ResolveImport(int file, const ImportFacts& imp, std::string* external, std::string* name_in_module) const;
  void IndexFile(int i) const;

  const Section& s_;
  std::multimap<std::string, int> module_files_;  // every dotted suffix of a file's module path -> file
  // Per file, filled when it is first used (IndexFile).
  mutable std::vector<char> indexed_;
  mutable std::vector<std::map<std::string, int, std::less<>>> fn_by_qual_, class_by_qual_;
  mutable std::vector<std::set<std::string, std::less<>>> globals_;  // names the module body assigns
  std::set<ClassRef> settings_classes_;
  mutable std::map<ClassRef, bool> settings_memo_;
  std::set<std::string> dests_;  // every flag's dest
  std::map<std::pair<int, int>, std::unique_ptr<Cx>> bodies_;
  std::map<int, std::unique_ptr<Cx>> module_bodies_;
};

}  // namespace errdex::check
