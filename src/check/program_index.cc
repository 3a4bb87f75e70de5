// check/program_index.cc: see program_index.h.
#include "check/program_index.h"

#include <algorithm>
#include <deque>

namespace errdex::check {

namespace {

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  while (true) {
    size_t e = s.find(sep, b);
    out.emplace_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

std::string Dirname(std::string_view p) {
  size_t s = p.rfind('/');
  return s == std::string_view::npos ? std::string() : std::string(p.substr(0, s));
}

bool EndsWith(std::string_view s, std::string_view suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// Names a module body binds at its top level (assignments, for targets, with targets), in any block.
void CollectGlobals(const Cx& body, std::set<std::string, std::less<>>* out, int depth = 0) {
  if (depth > 8) return;
  auto target = [&](const Cx& t, auto&& self) -> void {
    if (t.IsName()) out->insert(t.text);
    else if (t.head == Head::kTuple || t.head == Head::kList || t.head == Head::kStar)
      for (const Cx& k : t.kids) self(k, self);
  };
  for (const Cx& st : body.kids) {
    switch (st.head) {
      case Head::kAssign:
        for (size_t k = 1; k + 1 < st.kids.size(); ++k) target(st.kids[k], target);
        break;
      case Head::kAug:
        if (st.kids.size() >= 2) target(st.kids[1], target);
        break;
      case Head::kFor:
        if (st.kids.size() >= 2) target(st.kids[1], target);
        for (size_t k = 3; k < st.kids.size(); ++k) CollectGlobals(st.kids[k], out, depth + 1);
        break;
      case Head::kIf:
      case Head::kWhile:
        for (size_t k = 2; k < st.kids.size(); ++k) CollectGlobals(st.kids[k], out, depth + 1);
        break;
      case Head::kTry:
        for (size_t k = 1; k < st.kids.size(); ++k) {
          if (k == 2) {
            for (const Cx& h : st.kids[k].kids)
              if (h.kids.size() == 4) CollectGlobals(h.kids[3], out, depth + 1);
          } else {
            CollectGlobals(st.kids[k], out, depth + 1);
          }
        }
        break;
      case Head::kWith:
      case Head::kBlock:
        if (st.kids.size() >= 2) CollectGlobals(st.kids[1], out, depth + 1);
        break;
      default: break;
    }
  }
}

}  // namespace

ProgramIndex::ProgramIndex(const Section& s) : s_(s) {
  size_t n = s_.paths.size();
  indexed_.assign(n, 0);
  fn_by_qual_.resize(n);
  class_by_qual_.resize(n);
  globals_.resize(n);
  std::set<std::string> paths(s_.paths.begin(), s_.paths.end());
  for (size_t i = 0; i < n; ++i) {
    std::string p = s_.paths[i];
    if (!EndsWith(p, ".py")) continue;
    p.resize(p.size() - 3);
    std::vector<std::string> parts = Split(p, '/');
    if (!parts.empty() && parts.back() == "__init__") parts.pop_back();
    // Every dotted name that starts at a directory outside any package (a sys.path root):
    // python/sglang/srt/x.py is "sglang.srt.x" when python/ has no __init__.py.
    std::string dotted;
    for (size_t k = parts.size(); k-- > 0;) {
      dotted = dotted.empty() ? parts[k] : parts[k] + "." + dotted;
      std::string dir;
      for (size_t j = 0; j < k; ++j) dir += (j ? "/" : "") + parts[j];
      if (!paths.count(dir.empty() ? "__init__.py" : dir + "/__init__.py")) module_files_.emplace(dotted, (int)i);
    }
  }
  // Settings classes (see header), among the files that define the flags: those the
  // flags were generated from, those whose methods call add_argument, and those most of
  // whose annotated fields are flags. Subclasses: IsSettingsClass.
  std::set<std::string> dests, generated;
  std::set<int> flag_files;
  for (const auto& fl : s_.flags) {
    if (!fl.Language().empty()) continue;  // a Rust or Go program's flag: not this Python program's
    dests.insert(fl.dest);
    dests_.insert(fl.dest);
    if (!fl.class_name.empty()) generated.insert(fl.class_name);
    if (int f = s_.Find(fl.file); f >= 0) flag_files.insert(f);
  }
  for (int i : flag_files) {
    const Section::File& f = file(i);
    for (int c = 0; c < (int)f.classes.size(); ++c) {
      const ClassFacts& cf = f.classes[(size_t)c];
      bool settings = generated.count(cf.name) > 0;
      // add_argument calls inside the class's methods (sglang's ServerArgs.add_cli_args)
      for (const auto& fn : f.functions) {
        if (fn.cls != cf.qual) continue;
        for (const auto& [line, call] : f.add_arguments)
          if (line >= fn.line && line <= fn.end_line) settings = true;
      }
      size_t hits = 0;
      for (const auto& a : cf.annotated) hits += dests.count(a);
      if (hits >= 5 && hits * 5 >= cf.annotated.size() * 4) settings = true;
      if (settings) settings_classes_.insert({i, c});
    }
  }
}

const Section::File& ProgramIndex::file(int i) const {
  const Section::File& f = s_.Get(i);
  if (i >= 0 && (size_t)i < indexed_.size() && !indexed_[(size_t)i]) IndexFile(i);
  return f;
}

void ProgramIndex::IndexFile(int i) const {
  indexed_[(size_t)i] = 1;
  const Section::File& f = s_.Get(i);
  for (size_t k = 0; k < f.functions.size(); ++k) fn_by_qual_[(size_t)i].emplace(f.functions[k].qual, (int)k);
  for (size_t k = 0; k < f.classes.size(); ++k) class_by_qual_[(size_t)i].emplace(f.classes[k].qual, (int)k);
  auto body = ParseBody(f.module_body);
  if (body.ok()) CollectGlobals(*body, &globals_[(size_t)i]);
}

bool ProgramIndex::IsSettingsClass(ClassRef c) const {
  if (settings_classes_.count(c)) return true;
  if (auto it = settings_memo_.find(c); it != settings_memo_.end()) return it->second;
  settings_memo_[c] = false;  // cycles
  // A dataclass most of whose fields are flags, anywhere (a config built from the namespace).
  const ClassFacts& cf = klass(c);
  size_t hits = 0;
  for (const auto& a : cf.annotated) hits += dests_.count(a);
  bool r = hits >= 5 && hits * 5 >= cf.annotated.size() * 4;
  for (ClassRef b : Bases(c)) r = r || IsSettingsClass(b);
  settings_memo_[c] = r;
  return r;
}

int ProgramIndex::ModuleFile(std::string_view dotted, bool main) const {
  if (main) {
    int m = ModuleFile(std::string(dotted) + ".__main__");
    if (m >= 0) return m;
  }
  auto [b, e] = module_files_.equal_range(std::string(dotted));
  int best = -1;
  for (auto it = b; it != e; ++it) {
    int f = it->second;
    if (best < 0 || s_.paths[(size_t)f].size() < s_.paths[(size_t)best].size()) best = f;
  }
  return best;
}

int ProgramIndex::ScriptFile(std::string_view path) const {
  std::string p(path);
  while (p.compare(0, 2, "./") == 0) p = p.substr(2);
  int best = -1;
  for (int i = 0; i < (int)s_.paths.size(); ++i) {
    const std::string& fp = s_.paths[(size_t)i];
    bool match = fp == p || (EndsWith(p, "/" + fp)) || (EndsWith(fp, "/" + p));
    if (match && (best < 0 || fp.size() < s_.paths[(size_t)best].size())) best = i;
  }
  return best;
}

std::string ProgramIndex::ModuleName(int file) const {
  const std::string& path = s_.paths[(size_t)file];
  std::string p = EndsWith(path, ".py") ? path.substr(0, path.size() - 3) : path;
  std::vector<std::string> parts = Split(p, '/');
  if (!parts.empty() && parts.back() == "__init__") parts.pop_back();
  // the package root: the highest directory chain with __init__.py files
  size_t first = parts.empty() ? 0 : parts.size() - 1;
  std::string dir = Dirname(path);
  while (!dir.empty()) {
    bool has_init = s_.Find(dir + "/__init__.py") >= 0;
    if (!has_init || first == 0) break;
    --first;
    dir = Dirname(dir);
  }
  std::string out;
  for (size_t k = first; k < parts.size(); ++k) out += (out.empty() ? "" : ".") + parts[k];
  return out;
}

namespace {
// Imports resolve through Lookup and Lookup through imports (re-exports chain through __init__
// files; a package may import a name from itself): one depth bound for both ends every cycle.
thread_local int g_import_depth = 0;
struct ImportDepth {
  ImportDepth() { ++g_import_depth; }
  ~ImportDepth() { --g_import_depth; }
  static bool TooDeep() { return g_import_depth > 8; }
};
}  // namespace

int ProgramIndex::ResolveImport(int file, const ImportFacts& imp, std::string* external, std::string* name_in_module) const {
  name_in_module->clear();
  std::string module = imp.module;
  int target = -1;
  if (imp.level > 0) {
    std::string base = Dirname(s_.paths[(size_t)file]);
    for (int k = 1; k < imp.level; ++k) base = Dirname(base);
    std::string rel = module;
    std::replace(rel.begin(), rel.end(), '.', '/');
    std::string stem = rel.empty() ? base : (base.empty() ? rel : base + "/" + rel);
    auto find = [&](const std::string& p) { return s_.Find(p); };
    if (!imp.name.empty()) {
      std::string sub = stem.empty() ? imp.name : stem + "/" + imp.name;
      int f = find(sub + ".py");
      if (f < 0) f = find(sub + "/__init__.py");
      if (f >= 0) return f;  // `from . import submodule`
    }
    target = find(stem + ".py");
    if (target < 0) target = find(stem.empty() ? "__init__.py" : stem + "/__init__.py");
    if (target < 0) {
      *external = module.empty() ? imp.name : module + (imp.name.empty() ? "" : "." + imp.name);
      return -1;
    }
  } else {
    if (!imp.name.empty()) {
      int sub = ModuleFile(module + "." + imp.name);
      if (sub >= 0 && ModuleFile(module) < 0) return sub;
    }
    target = ModuleFile(module);
    if (target < 0) {
      *external = module + (imp.name.empty() ? "" : "." + imp.name);
      return -1;
    }
    if (!imp.name.empty()) {
      int sub = ModuleFile(module + "." + imp.name);
      if (sub >= 0) {
        if (ImportDepth::TooDeep()) return sub;
        ImportDepth guard;
        if (Lookup(target, imp.name).kind == Binding::Kind::kNone) return sub;
      }
    }
  }
  *name_in_module = imp.name;
  return target;
}

Binding ProgramIndex::Lookup(int file, std::string_view name) const {
  Binding b;
  if (file < 0 || file >= FileCount()) return b;
  const Section::File& f = this->file(file);
  if (auto it = fn_by_qual_[(size_t)file].find(name); it != fn_by_qual_[(size_t)file].end()) {
    b.kind = Binding::Kind::kFunction;
    b.fn = {file, it->second};
    return b;
  }
  if (auto it = class_by_qual_[(size_t)file].find(name); it != class_by_qual_[(size_t)file].end()) {
    b.kind = Binding::Kind::kClass;
    b.cls = {file, it->second};
    return b;
  }
  for (auto it = f.imports.rbegin(); it != f.imports.rend(); ++it) {
    if (it->local != name) continue;
    std::string external, inner;
    int target = ResolveImport(file, *it, &external, &inner);
    if (target < 0) {
      b.kind = Binding::Kind::kExternal;
      b.external = external;
      return b;
    }
    if (inner.empty()) {
      b.kind = Binding::Kind::kModule;
      b.module = target;
      return b;
    }
    if (ImportDepth::TooDeep() || target == file) return b;
    Binding r;
    {
      ImportDepth guard;
      r = Lookup(target, inner);
    }
    if (r.kind == Binding::Kind::kNone) {
      r.kind = Binding::Kind::kExternal;  // a name the module gets elsewhere (a star import, setattr)
      r.external = it->module + "." + inner;
    }
    return r;
  }
  if (globals_[(size_t)file].count(name)) {
    b.kind = Binding::Kind::kGlobal;
    b.module = file;
    b.external = std::string(name);
    return b;
  }
  return b;
}

FnRef ProgramIndex::FunctionByQual(int file, std::string_view qual) const {
  if (file < 0 || file >= FileCount()) return {};
  this->file(file);
  auto it = fn_by_qual_[(size_t)file].find(qual);
  return it == fn_by_qual_[(size_t)file].end() ? FnRef{} : FnRef{file, it->second};
}

std::optional<ClassRef> ProgramIndex::ClassByName(int file, std::string_view dotted) const {
  if (file < 0 || file >= FileCount()) return std::nullopt;
  this->file(file);
  size_t dot = dotted.rfind('.');
  if (auto it = class_by_qual_[(size_t)file].find(dotted); it != class_by_qual_[(size_t)file].end()) return ClassRef{file, it->second};
  if (dot == std::string_view::npos) {
    Binding b = Lookup(file, dotted);
    if (b.kind == Binding::Kind::kClass) return b.cls;
    return std::nullopt;
  }
  // mod.Class
  Binding m = Lookup(file, dotted.substr(0, dotted.find('.')));
  if (m.kind == Binding::Kind::kModule) {
    Binding c = Lookup(m.module, dotted.substr(dotted.find('.') + 1));
    if (c.kind == Binding::Kind::kClass) return c.cls;
  }
  return std::nullopt;
}

std::vector<ClassRef> ProgramIndex::Bases(ClassRef c) const {
  std::vector<ClassRef> out;
  for (const std::string& b : klass(c).bases)
    if (auto r = ClassByName(c.file, b); r && !(*r == c)) out.push_back(*r);
  return out;
}

std::vector<std::string> ProgramIndex::ExternalBases(ClassRef c) const {
  std::vector<std::string> out;
  for (const std::string& b : klass(c).bases)
    if (!ClassByName(c.file, b)) out.push_back(b.substr(b.rfind('.') == std::string::npos ? 0 : b.rfind('.') + 1));
  return out;
}

bool ProgramIndex::IsSubclass(ClassRef c, ClassRef base) const {
  std::vector<ClassRef> stack{c};
  std::set<ClassRef> seen;
  while (!stack.empty()) {
    ClassRef x = stack.back();
    stack.pop_back();
    if (x == base) return true;
    if (!seen.insert(x).second || seen.size() > 64) continue;
    for (ClassRef b : Bases(x)) stack.push_back(b);
  }
  return false;
}

bool ProgramIndex::IsDataclass(ClassRef c) const {
  for (const auto& d : klass(c).decorators)
    if (d == "dataclass" || EndsWith(d, ".dataclass")) return true;
  return false;
}

std::optional<FnRef> ProgramIndex::Method(ClassRef c, std::string_view name) const {
  std::vector<ClassRef> stack{c};
  std::set<ClassRef> seen;
  while (!stack.empty()) {
    ClassRef x = stack.front();
    stack.erase(stack.begin());
    if (!seen.insert(x).second || seen.size() > 64) continue;
    FnRef f = FunctionByQual(x.file, klass(x).qual + "." + std::string(name));
    if (f.ok()) return f;
    std::vector<ClassRef> bases = Bases(x);
    stack.insert(stack.begin(), bases.begin(), bases.end());
  }
  return std::nullopt;
}

std::optional<std::pair<ClassRef, std::string>> ProgramIndex::ClassAttr(ClassRef c, std::string_view name) const {
  std::vector<ClassRef> stack{c};
  std::set<ClassRef> seen;
  while (!stack.empty()) {
    ClassRef x = stack.front();
    stack.erase(stack.begin());
    if (!seen.insert(x).second || seen.size() > 64) continue;
    for (const auto& [n, v] : klass(x).attrs)
      if (n == name) return std::make_pair(x, v);
    std::vector<ClassRef> bases = Bases(x);
    stack.insert(stack.begin(), bases.begin(), bases.end());
  }
  return std::nullopt;
}

std::optional<ClassRef> ProgramIndex::ClassOf(FnRef f) const {
  const std::string& cls = function(f).cls;  // (indexes the file)
  if (cls.empty()) return std::nullopt;
  auto it = class_by_qual_[(size_t)f.file].find(cls);
  if (it == class_by_qual_[(size_t)f.file].end()) return std::nullopt;
  return ClassRef{f.file, it->second};
}

std::set<std::string> ProgramIndex::SettingsClassNames() const {
  std::set<std::string> out;
  for (ClassRef c : settings_classes_) out.insert(klass(c).name);
  return out;
}

const Cx* ProgramIndex::Body(FnRef f) {
  auto key = std::make_pair(f.file, f.fn);
  auto it = bodies_.find(key);
  if (it != bodies_.end()) return it->second.get();
  auto parsed = ParseBody(function(f).body);
  std::unique_ptr<Cx> p = parsed.ok() && parsed->head == Head::kSeq ? std::make_unique<Cx>(std::move(parsed.value())) : nullptr;
  const Cx* r = p.get();
  bodies_.emplace(key, std::move(p));
  return r;
}

const Cx* ProgramIndex::ModuleBody(int file) {
  auto it = module_bodies_.find(file);
  if (it != module_bodies_.end()) return it->second.get();
  auto parsed = ParseBody(this->file(file).module_body);
  std::unique_ptr<Cx> p = parsed.ok() && parsed->head == Head::kSeq ? std::make_unique<Cx>(std::move(parsed.value())) : nullptr;
  const Cx* r = p.get();
  module_bodies_.emplace(file, std::move(p));
  return r;
}

std::vector<int> ProgramIndex::ImportClosure(int root, bool* dynamic) const {
  std::vector<int> order;
  std::vector<char> seen(s_.paths.size(), 0);
  std::deque<int> queue{root};
  seen[(size_t)root] = 1;
  *dynamic = false;
  while (!queue.empty()) {
    int f = queue.front();
    queue.pop_front();
    order.push_back(f);
    const Section::File& file = this->file(f);
    if (file.dynamic_import) *dynamic = true;
    auto add = [&](int t) {
      if (t >= 0 && !seen[(size_t)t]) {
        seen[(size_t)t] = 1;
        queue.push_back(t);
      }
    };
    for (const ImportFacts& imp : file.imports) {
      std::string external, inner;
      int t = ResolveImport(f, imp, &external, &inner);
      add(t);
      // the packages on the way (their __init__ runs first)
      if (imp.level == 0) {
        std::vector<std::string> parts = Split(imp.module, '.');
        std::string dotted;
        for (const auto& p : parts) {
          dotted = dotted.empty() ? p : dotted + "." + p;
          add(ModuleFile(dotted));
        }
      }
    }
  }
  return order;
}

}  // namespace errdex::check
