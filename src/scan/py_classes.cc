// scan/py_classes.cc: see py_classes.h. Tested by py_classes_test.cc (the
// encoding and the digests) and, end to end, by tests/store_history_e2e_test.cc
// (a class template changes in one file; a file raising the class, unchanged,
// gets the new message on an incremental scan as on a fresh one).
#include "scan/py_classes.h"

#include <algorithm>
#include <atomic>

#include "extract/python/python_extractor.h"
#include "scan/cache_entry.h"
#include "scan/parallel.h"
#include "scan/unit_key.h"
#include "store/catalog_store.h"
#include "store/codec.h"

namespace errdex {

namespace {

constexpr uint8_t kClassesVersion = 4;  // 2: kBaseCall and its base_args; 3: attr_ints, param_attrs, init_attrs, param_defaults; 4: kArgsPercent

// A file's cache entry: its classes and its identifiers.
std::string FileKey(std::string_view path, std::string_view blob_id) {
  return "py-classes:" + HexDigestOf({PipelineFingerprint(), path, blob_id});
}

void PutSegs(store::ByteWriter& w, const py::Segs& segs) {
  w.Varint(segs.size());
  for (const py::Seg& s : segs) {
    w.Byte(static_cast<uint8_t>(s.type));
    w.Bytes(s.text);
    w.Varint(s.options.size());
    for (const py::Segs& o : s.options) PutSegs(w, o);
  }
}

bool GetSegs(store::ByteReader& r, py::Segs* out, int depth) {
  if (depth > 64) return false;
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    py::Seg s;
    uint8_t type = r.Byte();
    if (type > py::Seg::kAlt) return false;
    s.type = static_cast<py::Seg::Type>(type);
    s.text = std::string(r.Bytes());
    uint64_t options = r.Varint();
    for (uint64_t k = 0; k < options && r.ok(); ++k) {
      py::Segs o;
      if (!GetSegs(r, &o, depth + 1)) return false;
      s.options.push_back(std::move(o));
    }
    out->push_back(std::move(s));
  }
  return r.ok();
}

void PutList(store::ByteWriter& w, const std::vector<std::string>& v) {
  w.Varint(v.size());
  for (const std::string& s : v) w.Bytes(s);
}
std::vector<std::string> GetList(store::ByteReader& r) {
  std::vector<std::string> v;
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) v.emplace_back(r.Bytes());
  return v;
}

void PutMap(store::ByteWriter& w, const std::map<std::string, std::string>& m) {
  w.Varint(m.size());
  for (const auto& [k, v] : m) {
    w.Bytes(k);
    w.Bytes(v);
  }
}
std::map<std::string, std::string> GetMap(store::ByteReader& r) {
  std::map<std::string, std::string> m;
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    std::string key(r.Bytes());
    m[key] = std::string(r.Bytes());
  }
  return m;
}

void PutClass(store::ByteWriter& w, const py::ClassMessage& c, bool with_file) {
  if (with_file) w.Bytes(c.file);
  w.Bytes(c.name);
  PutList(w, c.bases);
  w.Byte(static_cast<uint8_t>(c.source));
  PutList(w, c.params);
  PutSegs(w, c.text);
  w.Bytes(c.format_attr);
  PutMap(w, c.attr_strings);
  w.Varint(c.base_args.size());
  for (const py::Segs& a : c.base_args) PutSegs(w, a);
  PutMap(w, c.attr_ints);
  PutMap(w, c.param_attrs);
  PutList(w, c.init_attrs);
  PutMap(w, c.param_defaults);
}

std::string EncodeFileEntry(const std::vector<py::ClassMessage>& classes,
                            const std::vector<std::string_view>& identifiers) {
  return PackFileEntry(EncodeClassMessages(classes), identifiers);
}

// `raw` keeps the bytes `identifiers` point into (cache_entry.h).
bool DecodeFileEntry(std::string_view packed, const std::string& path, std::vector<py::ClassMessage>* classes,
                     std::string* raw, std::vector<std::string_view>* identifiers) {
  std::string_view c;
  return UnpackFileEntry(packed, raw, &c, identifiers) && DecodeClassMessages(c, path, classes);
}

}  // namespace

std::string EncodeClassMessage(const py::ClassMessage& c, bool with_file) {
  std::string out;
  store::ByteWriter w(&out);
  PutClass(w, c, with_file);
  return out;
}

std::string EncodeClassMessages(const std::vector<py::ClassMessage>& classes) {
  std::string out;
  store::ByteWriter w(&out);
  w.Byte(kClassesVersion);
  w.Varint(classes.size());
  for (const py::ClassMessage& c : classes) PutClass(w, c, /*with_file=*/false);
  return out;
}

bool DecodeClassMessages(std::string_view bytes, const std::string& path, std::vector<py::ClassMessage>* out) {
  store::ByteReader r(bytes);
  if (r.Byte() != kClassesVersion) return false;
  std::vector<py::ClassMessage> classes;
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    py::ClassMessage c;
    c.file = path;
    c.name = std::string(r.Bytes());
    c.bases = GetList(r);
    uint8_t source = r.Byte();
    if (source > static_cast<uint8_t>(py::ClassMessage::Source::kArgsPercent)) return false;
    c.source = static_cast<py::ClassMessage::Source>(source);
    c.params = GetList(r);
    if (!GetSegs(r, &c.text, 0)) return false;
    c.format_attr = std::string(r.Bytes());
    c.attr_strings = GetMap(r);
    uint64_t base_args = r.Varint();
    for (uint64_t k = 0; k < base_args && r.ok(); ++k) {
      py::Segs a;
      if (!GetSegs(r, &a, 0)) return false;
      c.base_args.push_back(std::move(a));
    }
    c.attr_ints = GetMap(r);
    c.param_attrs = GetMap(r);
    c.init_attrs = GetList(r);
    c.param_defaults = GetMap(r);
    classes.push_back(std::move(c));
  }
  if (!r.ok() || !r.done()) return false;
  *out = std::move(classes);
  return true;
}

PyClassDependencies::PyClassDependencies(const std::vector<const py::ClassMessage*>& classes) {
  // A name's entries in a fixed order (by their bytes, file included), whatever
  // order the files came in.
  std::map<std::string, std::vector<std::string>, std::less<>> entries;
  for (const py::ClassMessage* c : classes) {
    entries[c->name].push_back(EncodeClassMessage(*c, /*with_file=*/true));
    Name& n = names_.try_emplace(c->name).first->second;
    n.bases.insert(n.bases.end(), c->bases.begin(), c->bases.end());
    if (!c->name.empty()) filter_[FilterBit(c->name) / 64] |= uint64_t{1} << (FilterBit(c->name) % 64);
  }
  for (auto& [name, list] : entries) {
    std::sort(list.begin(), list.end());
    std::string bytes;
    store::ByteWriter w(&bytes);
    for (const std::string& e : list) w.Bytes(e);
    Name& n = names_.find(name)->second;
    n.digest = store::ContentHash(bytes);
    std::sort(n.bases.begin(), n.bases.end());
    n.bases.erase(std::unique(n.bases.begin(), n.bases.end()), n.bases.end());
  }
}

std::string PyClassDependencies::Digest(const std::vector<std::string>& identifiers) const {
  return Digest(std::vector<std::string_view>(identifiers.begin(), identifiers.end()));
}

std::string PyClassDependencies::Digest(const std::vector<std::string_view>& identifiers) const {
  if (names_.empty()) return std::string();
  std::vector<const std::string*> queue;
  std::map<std::string_view, const Name*> reached;  // sorted: the digest does not depend on the order found
  auto visit = [&](std::string_view word) {
    if (!word.empty() && !(filter_[FilterBit(word) / 64] >> (FilterBit(word) % 64) & 1)) return;
    auto it = names_.find(word);
    if (it == names_.end() || reached.count(it->first)) return;
    reached.emplace(it->first, &it->second);
    queue.push_back(&it->first);
  };
  for (std::string_view id : identifiers) visit(id);
  for (size_t i = 0; i < queue.size(); ++i)
    for (const std::string& b : names_.find(*queue[i])->second.bases) visit(b);
  if (reached.empty()) return std::string();
  std::string bytes;
  store::ByteWriter w(&bytes);
  w.Bytes("py-classes-1");
  for (const auto& [name, n] : reached) {
    w.Bytes(name);
    w.Bytes(n->digest);
  }
  return store::ContentHash(bytes);
}

Status PyClassTableBuilder::Run(std::vector<PyFile>& files) {
  const size_t n = files.size();
  std::vector<std::vector<py::ClassMessage>> classes(n);
  // Each file's identifiers, as views into `raws` (its cache entry, decoded)
  // or `words` (read here).
  std::vector<std::vector<std::string_view>> identifiers(n);
  std::vector<std::string> raws(n);
  std::vector<std::vector<std::string>> words(n);
  std::vector<std::string> entries(n);  // cached or to cache
  std::vector<char> cached(n, 0);
  auto key_of = [&](size_t k) { return files[k].blob_id.empty() ? std::string() : FileKey(files[k].path, files[k].blob_id); };
  if (store_)
    if (Status st = LoadFileEntries(*store_, *store_mu_, n, key_of, &entries, &cached); !st.ok()) return st;
  std::atomic<size_t> read{0};
  std::atomic<size_t> kept{0};
  ParallelFor(
      n, jobs_,
      [&](size_t k) {
        PyFile& f = files[k];
        if (cached[k] && DecodeFileEntry(entries[k], f.path, &classes[k], &raws[k], &identifiers[k])) {
          std::string().swap(entries[k]);  // only what is computed here is written back
          return;
        }
        cached[k] = 0;
        entries[k].clear();
        classes[k].clear();
        auto text = source_->Read(f.listed);
        read.fetch_add(1);
        if (!text.ok()) return;  // unreadable: the first pass reports it
        classes[k] = CollectPythonClassMessages(f.path, *text);
        if (store_) {
          if (f.blob_id.empty()) f.blob_id = GitBlobId(*text);
          words[k] = SortedIdentifiers(*text, /*non_ascii_letters=*/true);
          identifiers[k].assign(words[k].begin(), words[k].end());
          entries[k] = EncodeFileEntry(classes[k], identifiers[k]);
        }
        // Kept for the extraction while within the budget (else read again then).
        if (kept.fetch_add(text->size()) + text->size() <= keep_bytes_) {
          f.text = std::move(text).value();
          f.has_text = true;
        }
      },
      nullptr);
  files_read_ = read.load();

  if (store_) {
    // Each file's digest over every file's classes (before the table takes them).
    std::vector<const py::ClassMessage*> all;
    for (const auto& list : classes)
      for (const py::ClassMessage& c : list) all.push_back(&c);
    PyClassDependencies deps(all);
    ParallelFor(n, jobs_, [&](size_t k) { files[k].deps = deps.Digest(identifiers[k]); }, nullptr);
  }
  auto table = std::make_shared<py::ClassMessageTable>();
  for (auto& c : classes) table->Add(std::move(c));
  if (table->size() > 0) table_ = table;
  if (!store_) return Status::Ok();

  // What was computed here, for the next scan.
  return StoreFileEntries(*store_, *store_mu_, key_of, entries, cached);
}

}  // namespace errdex
