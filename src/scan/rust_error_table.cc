// scan/rust_error_table.cc: see rust_error_table.h. Tested by
// rust_error_table_test.cc (the encoding, manifests, digests) and, end to end,
// by tests/store_history_e2e_test.cc (an enum's template changes in one crate;
// a construction in another crate, unchanged, gets the new message on an
// incremental scan as on a fresh one).
#include "scan/rust_error_table.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <unordered_map>

#include "extract/rust/rust_extractor.h"
#include "scan/cache_entry.h"
#include "scan/parallel.h"
#include "scan/unit_key.h"
#include "store/catalog_store.h"
#include "store/codec.h"

namespace errdex {

namespace {

constexpr uint8_t kTypesVersion = 2;  // 2: re-exports (ErrorType::reexport_of)

std::string FileKey(std::string_view path, std::string_view blob_id) {
  return "rust-error-types:" + HexDigestOf({PipelineFingerprint(), path, blob_id});
}

void PutType(store::ByteWriter& w, const rust::ErrorType& t) {
  w.Bytes(t.module);
  w.Bytes(t.name);
  w.Varint(t.variants.size());
  for (const auto& [name, v] : t.variants) {
    w.Bytes(name);
    w.Bytes(v.template_text);
    w.Byte(v.transparent ? 1 : 0);
    w.Varint(v.extra_args.size());
    for (const std::string& e : v.extra_args) w.Bytes(e);
  }
  w.Bytes(t.reexport_of);
}

// The value of `key = "..."` in a TOML section's lines (no multi-line strings:
// a crate's name is one quoted word).
std::string TomlString(std::string_view line) {
  size_t q = line.find('"');
  if (q == std::string_view::npos) q = line.find('\'');
  if (q == std::string_view::npos) return {};
  size_t e = line.find(line[q], q + 1);
  if (e == std::string_view::npos) return {};
  return std::string(line.substr(q + 1, e - q - 1));
}

}  // namespace

std::string CrateNameOfManifest(std::string_view toml) {
  std::string section, package, lib;
  size_t start = 0;
  while (start < toml.size()) {
    size_t nl = toml.find('\n', start);
    std::string_view line = toml.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? toml.size() : nl + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    if (line.front() == '[') {
      size_t close = line.find(']');
      section = std::string(line.substr(1, close == std::string_view::npos ? 0 : close - 1));
      continue;
    }
    if (line.substr(0, 4) != "name") continue;
    std::string_view rest = line.substr(4);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    if (rest.empty() || rest.front() != '=') continue;
    if (section == "package" && package.empty()) package = TomlString(rest);
    if (section == "lib" && lib.empty()) lib = TomlString(rest);
  }
  std::string name = lib.empty() ? package : lib;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::string EncodeRustErrorTypes(const std::vector<rust::ErrorType>& types) {
  std::string out;
  store::ByteWriter w(&out);
  w.Byte(kTypesVersion);
  w.Varint(types.size());
  for (const rust::ErrorType& t : types) PutType(w, t);
  return out;
}

bool DecodeRustErrorTypes(std::string_view bytes, const std::string& path, std::vector<rust::ErrorType>* out) {
  store::ByteReader r(bytes);
  if (r.Byte() != kTypesVersion) return false;
  std::vector<rust::ErrorType> types;
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    rust::ErrorType t;
    t.file = path;
    t.module = std::string(r.Bytes());
    t.name = std::string(r.Bytes());
    uint64_t variants = r.Varint();
    for (uint64_t k = 0; k < variants && r.ok(); ++k) {
      std::string name(r.Bytes());
      rust::ErrorVariant v;
      v.template_text = std::string(r.Bytes());
      v.transparent = r.Byte() != 0;
      uint64_t extra = r.Varint();
      for (uint64_t e = 0; e < extra && r.ok(); ++e) v.extra_args.emplace_back(r.Bytes());
      t.variants[name] = std::move(v);
    }
    t.reexport_of = std::string(r.Bytes());
    types.push_back(std::move(t));
  }
  if (!r.ok() || !r.done()) return false;
  *out = std::move(types);
  return true;
}

Status RustErrorTableBuilder::Run(std::vector<RustFile>& files, const std::vector<std::string>& manifests,
                                  const std::string& prefix) {
  const size_t n = files.size();
  // The crate roots first: a file's types are located by them.
  std::vector<rust::CrateRoot> roots;
  for (const std::string& m : manifests) {
    auto text = source_->Read(m);
    if (!text.ok()) continue;
    size_t slash = m.rfind('/');
    std::string dir = prefix + (slash == std::string::npos ? std::string() : m.substr(0, slash));
    if (!dir.empty() && dir.back() == '/') dir.pop_back();
    roots.push_back({dir, CrateNameOfManifest(*text)});
  }
  std::sort(roots.begin(), roots.end(), [](const rust::CrateRoot& a, const rust::CrateRoot& b) { return a.dir < b.dir; });

  std::vector<std::vector<rust::ErrorType>> types(n);
  std::vector<std::vector<std::string_view>> identifiers(n);
  std::vector<std::string> raws(n);
  std::vector<std::vector<std::string>> words(n);
  std::vector<std::string> entries(n);
  std::vector<char> cached(n, 0);
  auto key_of = [&](size_t k) { return files[k].blob_id.empty() ? std::string() : FileKey(files[k].path, files[k].blob_id); };
  if (store_)
    if (Status st = LoadFileEntries(*store_, *store_mu_, n, key_of, &entries, &cached); !st.ok()) return st;
  std::atomic<size_t> read{0};
  ParallelFor(
      n, jobs_,
      [&](size_t k) {
        RustFile& f = files[k];
        std::string_view table;
        if (cached[k] && UnpackFileEntry(entries[k], &raws[k], &table, &identifiers[k]) &&
            DecodeRustErrorTypes(table, f.path, &types[k])) {
          std::string().swap(entries[k]);  // only what is computed here is written back
          return;
        }
        cached[k] = 0;
        entries[k].clear();
        types[k].clear();
        identifiers[k].clear();
        auto text = source_->Read(f.listed);
        read.fetch_add(1);
        if (!text.ok()) return;  // unreadable: the first pass reports it
        types[k] = CollectRustErrorTypes(f.path, *text);
        if (store_) {
          if (f.blob_id.empty()) f.blob_id = GitBlobId(*text);
          words[k] = SortedIdentifiers(*text, /*non_ascii_letters=*/true);
          identifiers[k].assign(words[k].begin(), words[k].end());
          entries[k] = PackFileEntry(EncodeRustErrorTypes(types[k]), identifiers[k]);
        }
      },
      nullptr);
  files_read_ = read.load();

  if (store_) {
    // Each type name's digest over all its types (file and crate roots
    // included: they decide which one a path names), then each file's over the
    // names it mentions.
    std::string roots_bytes;
    store::ByteWriter rw(&roots_bytes);
    for (const rust::CrateRoot& r : roots) {
      rw.Bytes(r.dir);
      rw.Bytes(r.name);
    }
    std::map<std::string, std::vector<std::string>, std::less<>> entries_of;
    for (const auto& list : types)
      for (const rust::ErrorType& t : list) {
        std::string e;
        store::ByteWriter w(&e);
        w.Bytes(t.file);
        PutType(w, t);
        entries_of[t.name].push_back(std::move(e));
      }
    std::unordered_map<std::string_view, std::string> digest_of;
    for (auto& [name, list] : entries_of) {
      std::sort(list.begin(), list.end());
      std::string bytes;
      store::ByteWriter w(&bytes);
      for (const std::string& e : list) w.Bytes(e);
      digest_of[name] = store::ContentHash(bytes);
    }
    // An alias (`pub use errors::Error as ApiError`) stands for its target's types too: a
    // file that writes only `ApiError` changes with Error's templates.
    for (const auto& list : types)
      for (const rust::ErrorType& t : list) {
        size_t colons = t.reexport_of.rfind("::");
        std::string_view target = colons == std::string::npos ? std::string_view(t.reexport_of)
                                                              : std::string_view(t.reexport_of).substr(colons + 2);
        auto to = digest_of.find(target);
        if (t.reexport_of.empty() || target == t.name || to == digest_of.end()) continue;
        std::string& mine = digest_of[t.name];
        mine = store::ContentHash(mine + to->second);
      }
    ParallelFor(
        n, jobs_,
        [&](size_t k) {
          std::string bytes;
          store::ByteWriter w(&bytes);
          bool any = false;
          for (std::string_view id : identifiers[k]) {  // sorted: the digest does not depend on order
            auto it = digest_of.find(id);
            if (it == digest_of.end()) continue;
            if (!any) {
              w.Bytes("rust-error-types-1");
              w.Bytes(roots_bytes);
              any = true;
            }
            w.Bytes(id);
            w.Bytes(it->second);
          }
          files[k].deps = any ? store::ContentHash(bytes) : std::string();
        },
        nullptr);
  }
  auto table = std::make_shared<rust::ErrorTypeTable>(std::move(roots));
  for (size_t k = 0; k < n; ++k) table->Add(std::move(types[k]));
  if (table->size() > 0) table_ = table;
  if (!store_) return Status::Ok();

  return StoreFileEntries(*store_, *store_mu_, key_of, entries, cached);
}

}  // namespace errdex
