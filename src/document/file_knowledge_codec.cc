// document/file_knowledge_codec.cc: one file's knowledge (FileKnowledge: the
// settings data of documenter.h, before the repository-wide merge) as bytes and
// back, every field, so that a catalog can keep it with the file's unit and a
// later scan builds the repository's knowledge without reading the file again.
// Tested by documenter_test.cc (round trip of real files) and, end to end, by
// the store's history test (an incremental scan writes what a fresh one does).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "document/documenter.h"
#include "document/knowledge.h"

namespace errdex {

namespace {

// Bytes: a version, then each field as length-prefixed strings and varints (a
// binary form: a scan reads every file's knowledge back, so this is on the
// incremental scan's path).
// 2: ConfigField's Annotated metadata (choices_expr, has_meta, inner_type, aliases,
// cli_name, action, no_cli), FieldWalker::function, SettingsData's all_bases and
// class_calls (merge-time only in the repository's JSON, but a file's knowledge
// is merged again from these bytes).
constexpr uint8_t kVersion = 3;  // 3: requirement_constants

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}
  void Num(uint64_t v) {
    while (v >= 0x80) {
      out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_->push_back(static_cast<char>(v));
  }
  void Int(int v) { Num(static_cast<uint64_t>(static_cast<uint32_t>(v))); }
  void Bool(bool b) { out_->push_back(b ? 1 : 0); }
  void Str(std::string_view s) {
    Num(s.size());
    out_->append(s);
  }
  void Opt(const std::optional<std::string>& s) {
    Bool(s.has_value());
    if (s) Str(*s);
  }
  void List(const std::vector<std::string>& v) {
    Num(v.size());
    for (const std::string& s : v) Str(s);
  }

 private:
  std::string* out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return pos_ == in_.size(); }
  uint64_t Num() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && ok_; shift += 7) {
      if (pos_ >= in_.size()) break;
      uint8_t b = static_cast<uint8_t>(in_[pos_++]);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok_ = false;
    return 0;
  }
  // A count of items each at least one byte long: no more than the bytes left.
  size_t Count() {
    uint64_t n = Num();
    if (n > in_.size() - pos_) ok_ = false;
    return ok_ ? static_cast<size_t>(n) : 0;
  }
  int Int() { return static_cast<int>(static_cast<uint32_t>(Num())); }
  bool Bool() {
    if (pos_ >= in_.size()) {
      ok_ = false;
      return false;
    }
    return in_[pos_++] != 0;
  }
  std::string Str() {
    uint64_t n = Num();
    if (!ok_ || n > in_.size() - pos_) {
      ok_ = false;
      return std::string();
    }
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  std::optional<std::string> Opt() {
    if (!Bool()) return std::nullopt;
    return Str();
  }
  std::vector<std::string> List() {
    std::vector<std::string> v(Count());
    for (std::string& s : v) s = Str();
    return v;
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

void Put(Writer& w, const doc::Flag& f) {
  w.List(f.options);
  w.Str(f.negative);
  w.Str(f.dest);
  w.Str(f.type);
  w.List(f.choices);
  w.Str(f.choices_from);
  w.Str(f.choices_expr);
  w.Opt(f.default_value);
  w.Bool(f.default_is_literal);
  w.Str(f.action);
  w.Str(f.nargs);
  w.Str(f.help);
  w.Str(f.origin);
  w.Str(f.env);
  w.Str(f.class_name);
  w.Str(f.file);
  w.Int(f.line);
  w.Bool(f.kwargs);
}
doc::Flag GetFlag(Reader& r) {
  doc::Flag f;
  f.options = r.List();
  f.negative = r.Str();
  f.dest = r.Str();
  f.type = r.Str();
  f.choices = r.List();
  f.choices_from = r.Str();
  f.choices_expr = r.Str();
  f.default_value = r.Opt();
  f.default_is_literal = r.Bool();
  f.action = r.Str();
  f.nargs = r.Str();
  f.help = r.Str();
  f.origin = r.Str();
  f.env = r.Str();
  f.class_name = r.Str();
  f.file = r.Str();
  f.line = r.Int();
  f.kwargs = r.Bool();
  return f;
}

void Put(Writer& w, const doc::ConfigField& f) {
  w.Str(f.class_name);
  w.Str(f.name);
  w.Str(f.type);
  w.Opt(f.default_value);
  w.List(f.choices);
  w.Str(f.choices_from);
  w.Str(f.choices_expr);
  w.Str(f.help);
  w.Bool(f.has_meta);
  w.Str(f.inner_type);
  w.List(f.aliases);
  w.Str(f.cli_name);
  w.Str(f.action);
  w.Bool(f.no_cli);
  w.Str(f.file);
  w.Int(f.line);
}
doc::ConfigField GetField(Reader& r) {
  doc::ConfigField f;
  f.class_name = r.Str();
  f.name = r.Str();
  f.type = r.Str();
  f.default_value = r.Opt();
  f.choices = r.List();
  f.choices_from = r.Str();
  f.choices_expr = r.Str();
  f.help = r.Str();
  f.has_meta = r.Bool();
  f.inner_type = r.Str();
  f.aliases = r.List();
  f.cli_name = r.Str();
  f.action = r.Str();
  f.no_cli = r.Bool();
  f.file = r.Str();
  f.line = r.Int();
  return f;
}

void Put(Writer& w, const doc::EnvVar& e) {
  w.Str(e.name);
  w.Str(e.type);
  w.Opt(e.default_value);
  w.List(e.choices);
  w.Str(e.reader);
  w.Str(e.file);
  w.Int(e.line);
}
doc::EnvVar GetEnv(Reader& r) {
  doc::EnvVar e;
  e.name = r.Str();
  e.type = r.Str();
  e.default_value = r.Opt();
  e.choices = r.List();
  e.reader = r.Str();
  e.file = r.Str();
  e.line = r.Int();
  return e;
}

void Put(Writer& w, const doc::FieldWalker& x) {
  w.Str(x.file);
  w.Str(x.function);
  w.List(x.classes);
  w.Bool(x.kebab);
  w.Bool(x.underscore_alias);
  w.Bool(x.boolean_optional);
  w.Str(x.origin);
}
doc::FieldWalker GetWalker(Reader& r) {
  doc::FieldWalker x;
  x.file = r.Str();
  x.function = r.Str();
  x.classes = r.List();
  x.kebab = r.Bool();
  x.underscore_alias = r.Bool();
  x.boolean_optional = r.Bool();
  x.origin = r.Str();
  return x;
}

template <typename T>
void PutAll(Writer& w, const std::vector<T>& v) {
  w.Num(v.size());
  for (const T& x : v) Put(w, x);
}
template <typename T, typename F>
std::vector<T> GetAll(Reader& r, F get) {
  std::vector<T> v;
  size_t n = r.Count();
  v.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) v.push_back(get(r));
  return v;
}

void PutMap(Writer& w, const std::map<std::string, std::vector<std::string>>& m) {
  w.Num(m.size());
  for (const auto& [k, v] : m) {
    w.Str(k);
    w.List(v);
  }
}
std::map<std::string, std::vector<std::string>> GetMapOfLists(Reader& r) {
  std::map<std::string, std::vector<std::string>> m;
  size_t n = r.Count();
  for (size_t i = 0; i < n && r.ok(); ++i) {
    std::string k = r.Str();
    m[k] = r.List();
  }
  return m;
}
void PutMap(Writer& w, const std::map<std::string, std::string>& m) {
  w.Num(m.size());
  for (const auto& [k, v] : m) {
    w.Str(k);
    w.Str(v);
  }
}
std::map<std::string, std::string> GetMapOfStrings(Reader& r) {
  std::map<std::string, std::string> m;
  size_t n = r.Count();
  for (size_t i = 0; i < n && r.ok(); ++i) {
    std::string k = r.Str();
    m[k] = r.Str();
  }
  return m;
}

bool Empty(const doc::SettingsData& d) {
  return d.flags.empty() && d.fields.empty() && d.envs.empty() && d.walkers.empty() && d.list_constants.empty() && d.requirement_constants.empty() &&
         d.literal_aliases.empty() && d.enums.empty() && d.env_prefixes.empty() && d.class_bases.empty() &&
         d.settings_classes.empty() && d.mentioned_flags.empty() && d.all_bases.empty() && d.class_calls.empty();
}

}  // namespace

std::string SerializeFileKnowledge(const FileKnowledge& k) {
  const doc::SettingsData& d = k.data;
  if (Empty(d)) return std::string();
  std::string out;
  Writer w(&out);
  out.push_back(static_cast<char>(kVersion));
  PutAll(w, d.flags);
  PutAll(w, d.fields);
  PutAll(w, d.envs);
  PutAll(w, d.walkers);
  PutMap(w, d.list_constants);
  PutMap(w, d.literal_aliases);
  w.Num(d.enums.size());
  for (const auto& [name, members] : d.enums) {
    w.Str(name);
    w.Num(members.size());
    for (const auto& [m, v] : members) {
      w.Str(m);
      w.Str(v);
    }
  }
  PutMap(w, d.env_prefixes);
  PutMap(w, d.class_bases);
  w.List(d.settings_classes);
  w.Num(d.mentioned_flags.size());
  for (const auto& [flag, line] : d.mentioned_flags) {
    w.Str(flag);
    w.Int(line);
  }
  PutMap(w, d.all_bases);
  w.Num(d.class_calls.size());
  for (const auto& [callee, cls] : d.class_calls) {
    w.Str(callee);
    w.Str(cls);
  }
  PutMap(w, d.requirement_constants);
  return out;
}

FileKnowledgePtr DeserializeFileKnowledge(std::string_view path, std::string_view bytes) {
  FileKnowledgePtr k(new FileKnowledge());
  k->path = std::string(path);
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kVersion) return k;
  Reader r(bytes.substr(1));
  doc::SettingsData d;
  d.flags = GetAll<doc::Flag>(r, GetFlag);
  d.fields = GetAll<doc::ConfigField>(r, GetField);
  d.envs = GetAll<doc::EnvVar>(r, GetEnv);
  d.walkers = GetAll<doc::FieldWalker>(r, GetWalker);
  d.list_constants = GetMapOfLists(r);
  d.literal_aliases = GetMapOfLists(r);
  size_t enums = r.Count();
  for (size_t i = 0; i < enums && r.ok(); ++i) {
    std::string name = r.Str();
    size_t members = r.Count();
    auto& list = d.enums[name];
    for (size_t j = 0; j < members && r.ok(); ++j) {
      std::string m = r.Str();
      list.emplace_back(std::move(m), r.Str());
    }
  }
  d.env_prefixes = GetMapOfStrings(r);
  d.class_bases = GetMapOfStrings(r);
  d.settings_classes = r.List();
  size_t mentioned = r.Count();
  for (size_t i = 0; i < mentioned && r.ok(); ++i) {
    std::string flag = r.Str();
    d.mentioned_flags.emplace_back(std::move(flag), r.Int());
  }
  d.all_bases = GetMapOfLists(r);
  size_t calls = r.Count();
  for (size_t i = 0; i < calls && r.ok(); ++i) {
    std::string callee = r.Str();
    d.class_calls.emplace_back(std::move(callee), r.Str());
  }
  d.requirement_constants = GetMapOfStrings(r);
  if (r.ok() && r.done()) k->data = std::move(d);  // else unreadable: the file teaches nothing
  return k;
}

}  // namespace errdex
