// extract/rust/rust_error_types.cc: see rust_error_types.h. Tested by
// rust_error_types_test.cc (a generated multi-crate workspace).
#include "extract/rust/rust_error_types.h"

#include <algorithm>
#include <cctype>

namespace errdex::rust {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string> SplitPath(std::string_view p) {
  std::vector<std::string> out;
  p = Trim(p);
  if (p.substr(0, 2) == "::") p.remove_prefix(2);
  size_t start = 0;
  while (start <= p.size()) {
    size_t at = p.find("::", start);
    std::string_view seg = Trim(p.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    // Generic arguments (`E::<T>` / `E<T>`) are not part of the name.
    size_t lt = seg.find('<');
    if (lt != std::string_view::npos) seg = Trim(seg.substr(0, lt));
    if (!seg.empty()) out.emplace_back(seg);
    if (at == std::string_view::npos) break;
    start = at + 2;
  }
  return out;
}

std::string Join(const std::vector<std::string>& segs, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < segs.size(); ++i) {
    if (!out.empty()) out += "::";
    out += segs[i];
  }
  return out;
}

// The top-level commas of a `{...}` list's inside.
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '{') ++depth;
    else if (s[i] == '}') --depth;
    else if (s[i] == ',' && depth == 0) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

void AddUse(std::string prefix, std::string_view tree, UseMap* uses, int depth) {
  if (depth > 16) return;
  tree = Trim(tree);
  if (tree.empty()) return;
  size_t brace = tree.find('{');
  if (brace != std::string_view::npos) {
    std::string_view head = Trim(tree.substr(0, brace));
    if (head.size() >= 2 && head.substr(head.size() - 2) == "::") head.remove_suffix(2);
    std::string base = prefix;
    if (!head.empty()) base += (base.empty() ? "" : "::") + std::string(Trim(head));
    size_t close = tree.rfind('}');
    if (close == std::string_view::npos || close < brace) return;
    for (std::string_view part : SplitTopLevel(tree.substr(brace + 1, close - brace - 1))) AddUse(base, part, uses, depth + 1);
    return;
  }
  std::string_view path = tree, alias;
  size_t as = tree.find(" as ");
  if (as != std::string_view::npos) {
    path = Trim(tree.substr(0, as));
    alias = Trim(tree.substr(as + 4));
  }
  std::string full = prefix;
  std::vector<std::string> segs = SplitPath(path);
  if (segs.empty()) return;
  if (segs.back() == "self") {  // `a::{self}`: the module a itself
    segs.pop_back();
    if (segs.empty() && !prefix.empty()) {
      std::vector<std::string> p = SplitPath(prefix);
      if (!alias.empty() && alias != "_") (*uses)[std::string(alias)] = prefix;
      else if (!p.empty()) (*uses)[p.back()] = prefix;
      return;
    }
  }
  for (const std::string& s : segs) full += (full.empty() ? "" : "::") + s;
  if (segs.back() == "*") {
    std::string& globs = (*uses)["*"];
    if (!globs.empty()) globs += '\n';
    globs += full.substr(0, full.size() - std::min<size_t>(full.size(), 3));
    return;
  }
  if (alias == "_") return;
  std::vector<std::string> all = SplitPath(full);
  if (all.empty()) return;
  (*uses)[alias.empty() ? all.back() : std::string(alias)] = full;
}

}  // namespace

void AddUseTree(std::string_view tree, UseMap* uses) { AddUse(std::string(), tree, uses, 0); }

std::vector<ErrorType> ReexportsIn(std::string_view file, std::string_view text) {
  std::vector<ErrorType> out;
  for (size_t at = text.find("pub"); at != std::string_view::npos; at = text.find("pub", at + 3)) {
    size_t line = text.rfind('\n', at);
    line = line == std::string_view::npos ? 0 : line + 1;
    if (!Trim(text.substr(line, at - line)).empty()) continue;  // not the line's first word (a comment, say)
    size_t k = at + 3;
    if (k < text.size() && text[k] == '(') {  // pub(crate), pub(super), pub(in path)
      size_t close = text.find(')', k);
      if (close == std::string_view::npos || close - k > 64) continue;
      k = close + 1;
    }
    std::string_view rest = text.substr(k);
    size_t b = rest.find_first_not_of(" \t");
    if (b == 0 || b == std::string_view::npos || rest.substr(b, 4) != "use " ) continue;
    size_t semi = rest.find(';', b);
    if (semi == std::string_view::npos || semi - b > 4096) continue;
    UseMap names;
    AddUseTree(rest.substr(b + 4, semi - b - 4), &names);
    std::vector<ErrorType> found;
    for (auto& [name, target] : names) {
      if (name == "*" || name.empty() || name[0] < 'A' || name[0] > 'Z') continue;  // only a type names an error type
      ErrorType r;
      r.file = std::string(file);
      r.name = name;
      r.reexport_of = target;
      found.push_back(std::move(r));
    }
    // The map's order is no order: the table's cache bytes are the same on every run.
    std::sort(found.begin(), found.end(), [](const ErrorType& x, const ErrorType& y) { return x.name < y.name; });
    for (ErrorType& r : found) out.push_back(std::move(r));
  }
  return out;
}

ErrorTypeTable::ErrorTypeTable(std::vector<CrateRoot> manifests) : roots_(std::move(manifests)) {
  std::stable_sort(roots_.begin(), roots_.end(),
                   [](const CrateRoot& a, const CrateRoot& b) { return a.dir.size() > b.dir.size(); });
}

void ErrorTypeTable::Locate(std::string_view file, std::string* crate, std::string* module) const {
  std::string_view rest = file;
  crate->clear();
  bool found = false;
  for (const CrateRoot& r : roots_) {
    if (r.dir.empty()) {
      *crate = r.name;
      found = true;
      break;
    }
    if (file.size() > r.dir.size() && file.compare(0, r.dir.size(), r.dir) == 0 && file[r.dir.size()] == '/') {
      *crate = r.name;
      rest = file.substr(r.dir.size() + 1);
      found = true;
      break;
    }
  }
  // No manifest known: the directory above src/ stands for the crate.
  if (!found) {
    size_t src = file.rfind("src/");
    while (src != std::string_view::npos && src > 0 && file[src - 1] != '/')
      src = src == 0 ? std::string_view::npos : file.rfind("src/", src - 1);
    if (src != std::string_view::npos) {
      std::string_view dir = file.substr(0, src == 0 ? 0 : src - 1);
      size_t slash = dir.rfind('/');
      *crate = std::string(slash == std::string_view::npos ? dir : dir.substr(slash + 1));
      rest = file.substr(src);
    }
  }
  std::replace(crate->begin(), crate->end(), '-', '_');
  if (rest.substr(0, 4) == "src/") rest.remove_prefix(4);
  if (rest.size() >= 3 && rest.substr(rest.size() - 3) == ".rs") rest.remove_suffix(3);
  std::vector<std::string> segs;
  size_t start = 0;
  while (start <= rest.size()) {
    size_t slash = rest.find('/', start);
    segs.emplace_back(rest.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (!segs.empty() && (segs.back() == "lib" || segs.back() == "main" || segs.back() == "mod")) segs.pop_back();
  *module = Join(segs, 0, segs.size());
}

void ErrorTypeTable::Add(std::vector<ErrorType> types) {
  for (ErrorType& t : types) {
    std::string module;
    Locate(t.file, &t.crate, &module);
    if (!t.module.empty()) module += (module.empty() ? "" : "::") + t.module;
    t.module = std::move(module);
    if (!t.reexport_of.empty()) {
      reexports_[t.name].push_back(std::move(t));
      continue;
    }
    by_name_[t.name].push_back(std::move(t));
    ++size_;
  }
}

bool ErrorTypeTable::MentionedIn(std::string_view text) const {
  // Each identifier of the text looked up once: a search of the text per type name
  // was quadratic on Debian's crate registry (thousands of types, a third of the scan).
  auto word_char = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
  std::string word;
  for (size_t i = 0; i < text.size();) {
    if (!word_char(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() && word_char(static_cast<unsigned char>(text[j]))) ++j;
    word.assign(text.data() + i, j - i);
    i = j;
    if (by_name_.count(word)) return true;
    // An alias (`pub use errors::Error as ApiError`) of a type's name.
    auto alias = reexports_.find(word);
    if (alias == reexports_.end()) continue;
    for (const ErrorType& r : alias->second) {
      std::vector<std::string> target = SplitPath(r.reexport_of);
      if (!target.empty() && by_name_.count(target.back())) return true;
    }
  }
  return false;
}

const ErrorType* ErrorTypeTable::ResolveAt(std::string_view file, std::string_view type_path, const UseMap& uses,
                                           int hops) const {
  std::vector<std::string> segs = SplitPath(type_path);
  if (segs.empty()) return nullptr;
  // A `use` brings the first segment into scope: `E` or `errors::E`.
  auto used = uses.find(segs[0]);
  if (used != uses.end() && segs[0] != "*") {
    std::vector<std::string> head = SplitPath(used->second);
    head.insert(head.end(), segs.begin() + 1, segs.end());
    segs = std::move(head);
  }
  auto named = by_name_.find(segs.back());
  auto reexported = reexports_.find(segs.back());
  if (named == by_name_.end() && reexported == reexports_.end()) return nullptr;
  static const std::vector<ErrorType> kNoTypes;
  const std::vector<ErrorType>& candidates = named == by_name_.end() ? kNoTypes : named->second;
  std::string here_crate, here_module;
  Locate(file, &here_crate, &here_module);

  // The crate and module a path names, made absolute; false when it cannot name a workspace type.
  auto absolute = [&](std::vector<std::string> p, std::string* crate, std::string* module) {
    std::vector<std::string> mods;
    size_t i = 0;
    if (p[0] == "crate") {
      *crate = here_crate;
      i = 1;
    } else if (p[0] == "self" || p[0] == "super") {
      *crate = here_crate;
      mods = SplitPath(here_module);
      for (; i + 1 < p.size() && (p[i] == "self" || p[i] == "super"); ++i)
        if (p[i] == "super") {
          if (mods.empty()) return false;
          mods.pop_back();
        }
    } else {
      bool is_crate = std::any_of(roots_.begin(), roots_.end(), [&](const CrateRoot& r) {
        std::string n = r.name;
        std::replace(n.begin(), n.end(), '-', '_');
        return !n.empty() && n == p[0];
      });
      if (is_crate || std::any_of(candidates.begin(), candidates.end(), [&](const ErrorType& t) { return t.crate == p[0]; })) {
        *crate = p[0];
        i = 1;
      } else {
        // Relative to this module (a `mod errors;` child): must match exactly.
        *crate = here_crate;
        mods = SplitPath(here_module);
      }
    }
    for (; i + 1 < p.size(); ++i) mods.push_back(p[i]);
    *module = Join(mods, 0, mods.size());
    return true;
  };
  auto pick = [&](const std::string& crate, const std::string& module, bool exact) -> const ErrorType* {
    const ErrorType* in_crate = nullptr;
    int n_crate = 0;
    const ErrorType* in_module = nullptr;
    int n_module = 0;
    for (const ErrorType& t : candidates) {
      if (t.crate != crate) continue;
      ++n_crate, in_crate = &t;
      if (t.module == module) ++n_module, in_module = &t;
    }
    if (n_module == 1) return in_module;
    if (exact) return nullptr;
    // Re-exported (`pub use errors::E` at the crate root): the crate's only type of the name.
    return n_crate == 1 ? in_crate : nullptr;
  };

  // The one type the file's glob imports (`use x::*`) give `tail` (null when none or several).
  auto via_globs = [&](const std::vector<std::string>& tail) -> const ErrorType* {
    auto globs = uses.find("*");
    if (globs == uses.end()) return nullptr;
    const ErrorType* found = nullptr;
    size_t start = 0;
    std::string_view all = globs->second;
    while (start <= all.size()) {
      size_t nl = all.find('\n', start);
      std::vector<std::string> p =
          SplitPath(all.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
      p.insert(p.end(), tail.begin(), tail.end());
      std::string crate, module;
      if (p.size() > 1 && absolute(p, &crate, &module)) {
        if (const ErrorType* t = pick(crate, module, true)) {
          if (found && found != t) return nullptr;
          found = t;
        }
      }
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
    return found;
  };

  // The type a `pub use` in module `module` of `crate` gives the name, followed from the
  // re-exporting file (its own `use`s are not kept: a re-export's path is written in full
  // or relative to its module, as a rule).
  auto via_reexport = [&](const std::string& crate, const std::string& module) -> const ErrorType* {
    if (reexported == reexports_.end() || hops >= 4) return nullptr;
    for (const ErrorType& r : reexported->second)
      if (r.crate == crate && r.module == module) return ResolveAt(r.file, r.reexport_of, UseMap(), hops + 1);
    return nullptr;
  };

  if (segs.size() > 1) {
    std::string crate, module;
    if (!absolute(segs, &crate, &module)) return nullptr;
    bool relative = segs[0] != "crate" && segs[0] != "self" && segs[0] != "super" && crate == here_crate &&
                    segs[0] != here_crate;
    if (const ErrorType* t = pick(crate, module, relative)) return t;
    if (const ErrorType* t = via_reexport(crate, module)) return t;
    // `config::E` where a glob brought `config` in.
    if (relative) return via_globs(segs);
    // `other_crate::E` naming a type the crate re-exports from a dependency.
    return candidates.size() == 1 ? &candidates[0] : nullptr;
  }
  // A bare name no `use` brings in is of this crate (a glob import, a parent
  // module's) unless a glob names another crate's.
  if (const ErrorType* t = pick(here_crate, here_module, false)) return t;
  if (uses.find("*") == uses.end()) return nullptr;
  if (candidates.size() == 1) return &candidates[0];
  return via_globs(segs);
}

}  // namespace errdex::rust
