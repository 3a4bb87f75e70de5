#include "extract/cpp/cpp_macros.h"

#include <algorithm>

#include "extract/cpp/cpp_sinks.h"

namespace errdex::cpp {

namespace {

// The qualifier written before body[i] ("a::b" for a::b::name), "" for none.
std::string QualifierBefore(const std::vector<Token>& body, size_t i) {
  std::string q;
  size_t k = i;
  while (k >= 2 && body[k - 1].Is("::") && body[k - 2].type == TokType::kIdent) {
    q = std::string(body[k - 2].text) + (q.empty() ? "" : "::" + q);
    k -= 2;
  }
  return q;
}

// Does a body, by itself, raise/abort/log? (`throw`, or a sink call.)
bool BodyHasSink(const MacroDef& def) {
  for (size_t i = 0; i < def.body.size(); ++i) {
    const Token& t = def.body[i];
    if (t.type != TokType::kIdent) continue;
    if (t.text == "throw") return true;
    if (IsSinkName(t.text) && FindSink(t.text, QualifierBefore(def.body, i))) return true;
  }
  return false;
}

size_t CommonDirPrefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size()), common = 0;
  for (size_t i = 0; i < n && a[i] == b[i]; ++i)
    if (a[i] == '/') common = i + 1;
  return common;
}

bool IsHeaderName(std::string_view path) {
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return true;  // no extension
  std::string_view ext = path.substr(dot);
  for (std::string_view src : {".c", ".cc", ".cpp", ".cxx", ".c++", ".cu"})
    if (ext == src) return false;
  return true;
}

const Token kComma{",", 0, 0, TokType::kPunct, false, true, 0};

}  // namespace

void MacroTable::Add(std::vector<MacroDef> defs) {
  for (MacroDef& d : defs) {
    defs_.push_back(std::move(d));
    const MacroDef* p = &defs_.back();
    by_name_[p->name].push_back(p);
  }
}

void MacroTable::AddFile(std::string path, LexResult scanned) {
  files_.push_back(std::move(path));
  const std::string& p = files_.back();
  for (MacroDef& d : scanned.macros) d.file = p;
  Add(std::move(scanned.macros));
  includes_[p] = std::move(scanned.includes);
  for (size_t i = 0; i <= p.size(); ++i)
    if (i == 0 || p[i - 1] == '/') by_suffix_[std::string_view(p).substr(i)].push_back(&p);
}

const std::string* MacroTable::Resolve(std::string_view from, std::string_view include) const {
  // "x/../y.h" and "./y.h" as a compiler normalizes them.
  auto normalize = [](std::string_view dir, std::string_view inc) {
    std::vector<std::string_view> parts;
    auto push = [&](std::string_view s) {
      size_t start = 0;
      while (start <= s.size()) {
        size_t slash = s.find('/', start);
        std::string_view c = s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (c == "..") {
          if (!parts.empty()) parts.pop_back();
        } else if (!c.empty() && c != ".") {
          parts.push_back(c);
        }
        if (slash == std::string_view::npos) break;
        start = slash + 1;
      }
    };
    push(dir);
    push(inc);
    std::string out;
    for (std::string_view c : parts) {
      if (!out.empty()) out.push_back('/');
      out.append(c);
    }
    return out;
  };
  size_t slash = from.rfind('/');
  std::string_view dir = slash == std::string_view::npos ? std::string_view{} : from.substr(0, slash);
  std::string rel = normalize(dir, include);
  auto it = by_suffix_.find(rel);
  if (it != by_suffix_.end()) {
    for (const std::string* f : it->second)
      if (*f == rel) return f;
  }
  std::string plain = normalize("", include);
  it = by_suffix_.find(plain);
  if (it == by_suffix_.end()) return nullptr;
  const std::string* best = nullptr;
  size_t best_len = 0;
  for (const std::string* f : it->second) {
    size_t len = 0;
    while (len < f->size() && len < from.size() && (*f)[len] == from[len]) ++len;
    if (!best || len > best_len || (len == best_len && f->size() < best->size())) {
      best = f;
      best_len = len;
    }
  }
  return best;
}

std::unordered_map<std::string_view, int> MacroTable::IncludeClosure(std::string_view from_file,
                                                                     const std::vector<std::string>& includes) const {
  std::unordered_map<std::string_view, int> rank;
  // `from_file`'s own includes are resolved here (they need not be the table's
  // list for it); every file reached after it by its edges as Finish resolved
  // them, the same files in the same order.
  std::vector<const std::string*> first;
  first.reserve(includes.size());
  for (const std::string& inc : includes) first.push_back(Resolve(from_file, inc));
  std::vector<const std::vector<const std::string*>*> queue{&first};
  std::deque<std::vector<const std::string*>> unfinished;  // a table not Finish()ed: resolved here
  for (size_t q = 0; q < queue.size() && rank.size() < 4096; ++q) {
    for (const std::string* r : *queue[q]) {
      if (!r || *r == from_file || rank.count(*r)) continue;
      rank.emplace(*r, static_cast<int>(rank.size()));
      if (auto it = resolved_.find(*r); it != resolved_.end()) {
        queue.push_back(&it->second);
      } else if (auto inc = includes_.find(*r); inc != includes_.end()) {
        std::vector<const std::string*> edges;
        for (const std::string& i : inc->second) edges.push_back(Resolve(*r, i));
        unfinished.push_back(std::move(edges));
        queue.push_back(&unfinished.back());
      }
    }
  }
  return rank;
}

void MacroTable::Finish(const MacroTable* fallback) {
  // Each file's #includes resolved once: IncludeClosure walks them for every
  // C-family file of the repository, and resolving an edge each time it was
  // walked was 10% of the instructions of flashinfer's scan of the commit after
  // a stored one (876 closures, each re-resolving the headers it reaches).
  for (const auto& [file, incs] : includes_) {
    std::vector<const std::string*>& edges = resolved_[file];
    edges.reserve(incs.size());
    for (const std::string& inc : incs) edges.push_back(Resolve(file, inc));
  }
  // Names used in each body, once.
  std::unordered_map<std::string_view, std::vector<std::string_view>> uses;
  std::vector<std::string_view> work;
  for (const auto& [name, defs] : by_name_) {
    if (IsStrongSinkName(name)) continue;  // never expanded: their meaning is the library's
    bool direct = false;
    for (const MacroDef* d : defs) {
      if (BodyHasSink(*d)) direct = true;
      for (const Token& t : d->body) {
        if (t.type != TokType::kIdent || t.text == name) continue;
        uses[t.text].push_back(name);
        if (fallback && fallback->Reaches(t.text)) direct = true;
      }
    }
    if (direct && reaching_.insert(name).second) work.push_back(name);
  }
  while (!work.empty()) {
    std::string_view n = work.back();
    work.pop_back();
    auto it = uses.find(n);
    if (it == uses.end()) continue;
    for (std::string_view user : it->second)
      if (reaching_.insert(user).second) work.push_back(user);
  }
  // Which definitions themselves reach (`#ifdef NDEBUG #define X(c) ((void)0)
  // #else #define X(c) <check> #endif`: Find prefers the one that can fail).
  for (const MacroDef& d : defs_) {
    if (!reaching_.count(d.name)) continue;
    bool r = BodyHasSink(d);
    for (const Token& t : d.body)
      if (!r && t.type == TokType::kIdent && t.text != d.name &&
          (reaching_.count(t.text) || IsStrongSinkName(t.text) || (fallback && fallback->Reaches(t.text))))
        r = true;
    if (r) reaching_defs_.insert(&d);
  }
}

const MacroDef* MacroTable::Find(std::string_view name, std::string_view from_file,
                                 const std::unordered_map<std::string_view, int>* visible) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return nullptr;
  const auto& defs = it->second;
  if (defs.size() == 1 && (defs[0]->file == from_file || IsHeaderName(defs[0]->file) ||
                           (visible && visible->count(defs[0]->file))))
    return defs[0];
  auto better = [this](const MacroDef* a, const MacroDef* b) {  // same place: the one that can fail
    return reaching_defs_.count(a) > reaching_defs_.count(b);
  };
  const MacroDef* own = nullptr;
  for (const MacroDef* d : defs)
    if (d->file == from_file && (!own || better(d, own))) own = d;
  if (own) return own;
  if (visible && !visible->empty()) {
    const MacroDef* first = nullptr;
    int first_rank = INT32_MAX;
    for (const MacroDef* d : defs) {
      auto r = visible->find(d->file);
      if (r == visible->end()) continue;
      if (r->second < first_rank || (r->second == first_rank && better(d, first))) {
        first = d;
        first_rank = r->second;
      }
    }
    if (first) return first;
  }
  const MacroDef* best = nullptr;
  size_t best_len = 0;
  for (const MacroDef* d : defs) {
    // A source file's own #define is seen by that file alone (nothing includes a
    // .cu); a header's, by whatever may include it.
    if (d->file != from_file && !IsHeaderName(d->file)) continue;
    size_t len = CommonDirPrefix(d->file, from_file);
    if (!best || len > best_len || (len == best_len && d->file == best->file && better(d, best))) {
      best = d;
      best_len = len;
    }
  }
  return best;
}

std::string SpellTokens(const Token* b, const Token* e) {
  std::string out;
  for (const Token* t = b; t < e; ++t) {
    if (t->type >= TokType::kIf) continue;
    if (t != b && t->space_before && !out.empty()) out.push_back(' ');
    out.append(t->text);
  }
  return out;
}

const MacroDef* Expander::Lookup(std::string_view name) const {
  if (local_ && local_->Reaches(name)) return local_->Find(name, path_);
  if (local_ && local_->Find(name, path_)) return nullptr;  // the file's own definition reaches nothing
  if (repo_ && repo_->Reaches(name)) return repo_->Find(name, path_, &visible_);
  return nullptr;
}

const Token* Expander::Constant(std::string_view name) const {
  const MacroDef* d = local_ ? local_->Find(name, path_) : nullptr;
  if (!d && repo_) d = repo_->Find(name, path_, &visible_);
  if (!d || d->function_like) return nullptr;
  const std::vector<Token>& b = d->body;
  if (b.size() == 1 && (b[0].type == TokType::kNumber || b[0].type == TokType::kString)) return &b[0];
  if (b.size() == 3 && b[0].IsPunct('(') && b[1].type == TokType::kNumber && b[2].IsPunct(')')) return &b[1];
  return nullptr;
}

const Expander::Meaning& Expander::MeaningOf(std::string_view name) {
  auto [it, fresh] = meanings_.try_emplace(name);
  if (!fresh) return it->second;
  Meaning& m = it->second;
  m.strong_sink = IsStrongSinkName(name);
  if (m.strong_sink) return m;
  m.def = Lookup(name);
  if (!m.def) m.constant = Constant(name);
  return m;
}

std::vector<Token> Expander::Expand(const std::vector<Token>& in) {
  std::vector<Token> out;
  out.reserve(in.size() + in.size() / 8);
  std::vector<const MacroDef*> active;
  produced_ = 0;
  ExpandRange(in.data(), in.data() + in.size(), out, active, 0, 0);
  return out;
}

void Expander::ExpandRange(const Token* b, const Token* e, std::vector<Token>& out,
                           std::vector<const MacroDef*>& active, uint32_t chain, int depth) {
  for (const Token* i = b; i < e; ++i) {
    const Token& t = *i;
    if (t.type != TokType::kIdent || depth >= kMaxDepth || produced_ >= kMaxTokens) {
      out.push_back(t);
      continue;
    }
    const Meaning& meaning = MeaningOf(t.text);
    if (meaning.strong_sink) {
      out.push_back(t);
      continue;
    }
    const MacroDef* def = meaning.def;
    if (!def) {
      // A constant (`#define HEAD_DIM 128`, `#define PREFIX "x: "`): its value, as
      // the compiler sees it in a message.
      if (const Token* c = meaning.constant) {
        Token v = *c;
        v.line = t.line;
        v.column = t.column;
        v.space_before = t.space_before;
        v.from_macro = true;
        v.chain = chain;
        out.push_back(v);
        continue;
      }
    }
    if (!def || std::find(active.begin(), active.end(), def) != active.end()) {
      out.push_back(t);
      continue;
    }
    std::vector<std::vector<Token>> args;
    const Token* after = i + 1;
    if (def->function_like) {
      if (after >= e || !after->IsPunct('(')) {  // a function-like name without '(' is no use
        out.push_back(t);
        continue;
      }
      int depth_paren = 0;
      const Token* k = after;
      args.emplace_back();
      for (; k < e; ++k) {
        if (k->type >= TokType::kIf) continue;  // #if markers inside arguments
        if (k->IsPunct('(')) {
          if (depth_paren++ == 0) continue;
        } else if (k->IsPunct(')')) {
          if (--depth_paren == 0) break;
        } else if (k->IsPunct(',') && depth_paren == 1) {
          args.emplace_back();
          continue;
        }
        args.back().push_back(*k);
      }
      if (k >= e) {  // unbalanced: leave the use alone
        out.push_back(t);
        continue;
      }
      after = k + 1;
    }
    uint32_t id = static_cast<uint32_t>(chains_.size());
    chains_.push_back(chain ? chains_[chain] + " > " + def->name : def->name);
    std::vector<Token> body = Substitute(*def, args, t, id);
    produced_ += body.size();
    active.push_back(def);
    ExpandRange(body.data(), body.data() + body.size(), out, active, id, depth + 1);
    active.pop_back();
    i = after - 1;
  }
}

std::vector<Token> Expander::Substitute(const MacroDef& def, const std::vector<std::vector<Token>>& args_in,
                                        const Token& at, uint32_t chain) {
  // Map parameters to arguments; the variadic one takes the rest, commas kept.
  const size_t np = def.params.size();
  std::vector<std::vector<Token>> args(np);
  bool va_empty = true;
  for (size_t p = 0; p < np; ++p) {
    if (def.variadic && p + 1 == np) {
      for (size_t a = p; a < args_in.size(); ++a) {
        if (a > p) args[p].push_back(kComma);
        args[p].insert(args[p].end(), args_in[a].begin(), args_in[a].end());
      }
      va_empty = args[p].empty();
    } else if (p < args_in.size()) {
      args[p] = args_in[p];
    }
  }
  auto param_index = [&](const Token& t) -> int {
    if (t.type != TokType::kIdent) return -1;
    for (size_t p = 0; p < np; ++p)
      if (t.text == def.params[p]) return static_cast<int>(p);
    return -1;
  };
  auto body_token = [&](const Token& src) {
    Token t = src;
    t.line = at.line;
    t.column = at.column;
    t.from_macro = true;
    t.chain = chain;
    return t;
  };
  std::vector<Token> out;
  bool paste = false;  // the next token is glued to out.back()
  auto emit = [&](Token t) {
    if (paste && !out.empty()) {
      std::string joined = std::string(out.back().text) + std::string(t.text);
      Token base = out.back();
      out.pop_back();
      std::vector<Token> re;
      LexFragment(Keep(std::move(joined)), base.line, re);
      for (Token& r : re) {
        r.line = base.line;
        r.column = base.column;
        r.from_macro = base.from_macro;
        r.chain = base.chain;
        r.space_before = base.space_before;
        out.push_back(r);
      }
      paste = false;
      return;
    }
    paste = false;
    out.push_back(t);
  };
  const std::vector<Token>& body = def.body;
  for (size_t i = 0; i < body.size(); ++i) {
    const Token& t = body[i];
    if (t.Is("##")) {
      // `, ## __VA_ARGS__` with no variadic arguments drops the comma (GNU).
      if (def.variadic && i + 1 < body.size() && param_index(body[i + 1]) == static_cast<int>(np) - 1 &&
          !out.empty() && out.back().IsPunct(',')) {
        if (va_empty) out.pop_back();
        continue;
      }
      paste = true;
      continue;
    }
    if (t.IsPunct('#') && def.function_like && i + 1 < body.size() && param_index(body[i + 1]) >= 0) {
      const std::vector<Token>& arg = args[static_cast<size_t>(param_index(body[i + 1]))];
      std::string spelled = arg.empty() ? std::string() : SpellTokens(arg.data(), arg.data() + arg.size());
      std::string lit = "\"";
      // Escape '"' and '\' (the standard escapes them inside literals only;
      // outside literals neither can appear in a valid argument).
      for (char c : spelled) {
        if (c == '"' || c == '\\') lit.push_back('\\');
        lit.push_back(c);
      }
      lit.push_back('"');
      Token s = body_token(t);
      s.text = Keep(std::move(lit));
      s.type = TokType::kString;
      emit(s);
      ++i;
      continue;
    }
    if (t.Is("__VA_OPT__") && def.variadic && i + 1 < body.size() && body[i + 1].IsPunct('(')) {
      int d = 0;
      size_t k = i + 1;
      std::vector<Token> inner;
      for (; k < body.size(); ++k) {
        if (body[k].IsPunct('(') && d++ == 0) continue;
        if (body[k].IsPunct(')') && --d == 0) break;
        inner.push_back(body[k]);
      }
      if (!va_empty) {
        for (const Token& x : inner) {
          int p = param_index(x);
          if (p >= 0) {
            for (const Token& a : args[static_cast<size_t>(p)]) emit(a);
          } else {
            emit(body_token(x));
          }
        }
      }
      i = k;
      continue;
    }
    int p = param_index(t);
    if (p >= 0 && def.function_like) {
      const std::vector<Token>& arg = args[static_cast<size_t>(p)];
      if (arg.empty()) {
        paste = false;
        continue;
      }
      bool first = true;
      for (const Token& a : arg) {
        Token x = a;
        if (first) x.space_before = t.space_before;
        first = false;
        emit(x);
      }
      continue;
    }
    emit(body_token(t));
  }
  if (!out.empty()) out.front().space_before = at.space_before;
  return out;
}

}  // namespace errdex::cpp
