// scan/cache_entry: the byte form of what the scan's repository-wide tables
// (cpp_table.h: every C-family file's #defines; py_classes.h: every Python
// file's exception-class templates) keep in the catalog's cache
// (CatalogStore::PutCache) -- keys hashed from their parts, values compressed
// with their size in front, and a file's entry: its table bytes and its
// identifiers. In one place so that both tables write and read them alike.
//
// Thread-safe (pure functions).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

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

}  // namespace errdex
