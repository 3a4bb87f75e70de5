// scan/cache_entry.cc: see cache_entry.h. Tested through its users:
// py_classes_test.cc and tests/store_history_e2e_test.cc (incremental scans
// that read the tables' entries back equal fresh ones).
#include "scan/cache_entry.h"

#include <algorithm>
#include <cstdint>

#include "store/catalog_store.h"
#include "store/codec.h"

namespace errdex {
namespace {
constexpr int kCacheLevel = -5;
}  // namespace

std::string HexDigestOf(std::initializer_list<std::string_view> parts) {
  std::string k;
  store::ByteWriter w(&k);
  for (std::string_view p : parts) w.Bytes(p);
  return store::Hex(store::ContentHash(k));
}

std::string PackCacheValue(std::string_view raw) {
  std::string out;
  store::ByteWriter w(&out);
  w.Varint(raw.size());
  // At a negative level: zstd then leaves literals without Huffman coding, whose
  // tables each small frame built again on reading. An incremental scan reads
  // every unchanged file's entry (2,358 frames, 8.9 MB raw, on flashinfer):
  // 146 M instructions to decode at level 1, 42 M at -5, for 4.6 -> 7.1 MB
  // stored once per blob, not per commit. The frames are the same format, so
  // either binary reads the other's entries.
  auto c = store::Compress(raw, {}, kCacheLevel);
  return c.ok() ? out + *c : std::string();
}

bool UnpackCacheValue(std::string_view packed, std::string* raw) {
  store::ByteReader r(packed);
  uint64_t n = r.Varint();
  if (!r.ok()) return false;
  size_t header = 1;
  while (header < 10 && header <= packed.size() && (static_cast<unsigned char>(packed[header - 1]) & 0x80)) ++header;
  if (header > packed.size()) return false;
  auto d = store::Decompress(packed.substr(header), n);
  if (!d.ok()) return false;
  *raw = std::move(d).value();
  return true;
}

std::string PackFileEntry(std::string_view table, const std::vector<std::string_view>& identifiers) {
  std::string raw;
  store::ByteWriter w(&raw);
  w.Bytes(table);
  w.Varint(identifiers.size());
  for (std::string_view id : identifiers) w.Bytes(id);
  return PackCacheValue(raw);
}

bool UnpackFileEntry(std::string_view packed, std::string* raw, std::string_view* table,
                     std::vector<std::string_view>* identifiers) {
  if (!UnpackCacheValue(packed, raw)) return false;
  store::ByteReader r(*raw);
  *table = r.Bytes();
  uint64_t n = r.Varint();
  identifiers->clear();
  identifiers->reserve(std::min<uint64_t>(n, 1 << 16));
  for (uint64_t i = 0; i < n && r.ok(); ++i) identifiers->push_back(r.Bytes());
  return r.ok() && r.done();
}

Status LoadFileEntries(CatalogStore& store, std::mutex& mu, size_t n, const FileKeyOf& key_of,
                       std::vector<std::string>* entries, std::vector<char>* cached) {
  entries->assign(n, std::string());
  cached->assign(n, 0);
  std::lock_guard<std::mutex> l(mu);
  for (size_t k = 0; k < n; ++k) {
    std::string key = key_of(k);
    if (key.empty()) continue;
    auto v = store.GetCache(key);
    if (!v.ok()) return v.status();
    if (v->has_value()) {
      (*entries)[k] = std::move(**v);
      (*cached)[k] = 1;
    }
  }
  return Status::Ok();
}

Status StoreFileEntries(CatalogStore& store, std::mutex& mu, const FileKeyOf& key_of,
                        const std::vector<std::string>& entries, const std::vector<char>& cached,
                        const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::pair<std::string, const std::string*>> puts;  // (key, value) to write
  for (size_t k = 0; k < entries.size(); ++k)
    if (!cached[k] && !entries[k].empty())
      if (std::string key = key_of(k); !key.empty()) puts.emplace_back(std::move(key), &entries[k]);
  for (const auto& [key, value] : extra)
    if (!value.empty()) puts.emplace_back(key, &value);
  if (puts.empty()) return Status::Ok();
  std::lock_guard<std::mutex> l(mu);
  return store.InTransaction([&]() -> Status {
    for (const auto& [key, value] : puts)
      if (Status st = store.PutCache(key, *value); !st.ok()) return st;
    return Status::Ok();
  });
}

}  // namespace errdex
