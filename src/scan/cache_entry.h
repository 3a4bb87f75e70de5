// scan/cache_entry: the byte form of what the scan's repository-wide tables
// (cpp_table.h: every C-family file's #defines; py_classes.h: every Python
// file's exception-class templates) keep in the catalog's cache
// (CatalogStore::PutCache) -- keys hashed from their parts, values compressed
// with their size in front, a file's entry: its table bytes and its
// identifiers, and the reading and writing back of every file's entry. In one
// place so that the tables (also rust_error_table.h) write and read them alike.
//
// Thread-safe: pure functions, and the store's calls under the mutex given.
#pragma once

#include <functional>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/status.h"

namespace errdex {

class CatalogStore;

// Lower-case hex of the content hash of `parts`, each written as
// store::ByteWriter::Bytes writes it (length, then the bytes).
std::string HexDigestOf(std::initializer_list<std::string_view> parts);

// zstd of `raw` with its size in front (store/codec.h); "" when compression fails.
std::string PackCacheValue(std::string_view raw);
// What PackCacheValue was given; false for a damaged value.
bool UnpackCacheValue(std::string_view packed, std::string* raw);

// A file's entry: `table` (the file's #defines or classes, as its table
// encodes them) and its identifiers (SortedIdentifiers, unit_key.h), packed.
std::string PackFileEntry(std::string_view table, const std::vector<std::string_view>& identifiers);
// What PackFileEntry was given; false for a damaged entry. `raw` keeps the
// bytes `table` and `identifiers` point into: views, since a file's identifiers
// are hundreds of words, and a string each was most of reading the cache
// entries of an incremental scan's unchanged files (perf, flashinfer).
bool UnpackFileEntry(std::string_view packed, std::string* raw, std::string_view* table,
                     std::vector<std::string_view>* identifiers);

// A table's files' entries, key_of(k) file k's key ("" for a file whose blob is
// still unknown: neither read nor written). LoadFileEntries reads them, under
// `mu`: entries[k] the value found and cached[k] 1, or "" and 0.
using FileKeyOf = std::function<std::string(size_t)>;
Status LoadFileEntries(CatalogStore& store, std::mutex& mu, size_t n, const FileKeyOf& key_of,
                       std::vector<std::string>* entries, std::vector<char>* cached);
// Writes back, in one transaction under `mu`, the entries computed by this scan
// (not cached, not empty; keys taken again, as reading a file gives its blob id)
// and the `extra` (key, value) pairs with a value; nothing when there is none.
Status StoreFileEntries(CatalogStore& store, std::mutex& mu, const FileKeyOf& key_of,
                        const std::vector<std::string>& entries, const std::vector<char>& cached,
                        const std::vector<std::pair<std::string, std::string>>& extra = {});

}  // namespace errdex
