// scan/cache_entry.cc: see cache_entry.h. Tested through its users:
// py_classes_test.cc and tests/store_history_e2e_test.cc (incremental scans
// that read the tables' entries back equal fresh ones).
#include "scan/cache_entry.h"

#include <algorithm>
#include <cstdint>

#include "store/catalog_store.h"
#include "store/codec.h"

namespace errdex {

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
  auto c = store::Compress(raw, {}, 1);
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

Status LoadFileEntries(CatalogStore& store, std::mutex& mu, const std::vector<std::string>& keys,
                       std::vector<std::string>* entries, std::vector<char>* cached) {
  entries->assign(keys.size(), std::string());
  cached->assign(keys.size(), 0);
  std::lock_guard<std::mutex> l(mu);
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].empty()) continue;
    auto v = store.GetCache(keys[k]);
    if (!v.ok()) return v.status();
    if (v->has_value()) {
      (*entries)[k] = std::move(**v);
      (*cached)[k] = 1;
    }
  }
  return Status::Ok();
}

Status StoreFileEntries(CatalogStore& store, std::mutex& mu, const std::vector<std::string>& keys,
                        const std::vector<std::string>& entries, const std::vector<char>& cached,
                        const std::vector<std::pair<std::string, std::string>>& extra) {
  auto computed = [&](size_t k) { return !cached[k] && !keys[k].empty() && !entries[k].empty(); };
  bool any = false;
  for (const auto& [key, value] : extra) any = any || !value.empty();
  for (size_t k = 0; k < keys.size() && !any; ++k) any = computed(k);
  if (!any) return Status::Ok();
  std::lock_guard<std::mutex> l(mu);
  return store.InTransaction([&]() -> Status {
    for (size_t k = 0; k < keys.size(); ++k)
      if (computed(k))
        if (Status st = store.PutCache(keys[k], entries[k]); !st.ok()) return st;
    for (const auto& [key, value] : extra)
      if (!value.empty())
        if (Status st = store.PutCache(key, value); !st.ok()) return st;
    return Status::Ok();
  });
}

}  // namespace errdex
