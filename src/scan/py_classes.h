// scan/py_classes: a scan's Python files need the repository's exception-class
// message templates (extract/python/class_messages.h: a template in one module,
// raises of the class in others), and, with a catalog, each file's digest of the
// templates its records depend on, for its unit's key -- so a stored unit is
// never reused after a template it used changed in another file.
//
// What a file depends on: the ClassMessage entries of every class name its text
// mentions (all entries of that name, whatever their file: which one a raise
// binds to depends on where they are, ClassMessageTable::Resolve), and of the
// names their bases give, transitively. A file that mentions none gets ""; a
// template edit that changes none of a file's entries leaves its unit valid.
//
// With a catalog, each file's classes and identifiers are cached per
// (pipeline, path, blob): a scan of a commit that changes a few Python files
// reads those only (plus the files it parses).
//
// Thread-safety: Run from one thread; Table() from any once Run returned.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "extract/common/file_source.h"
#include "extract/python/class_messages.h"
#include "model/status.h"

namespace errdex {

class CatalogStore;

struct PyFile {
  std::string path;     // the records' filePath
  std::string listed;   // the source's name for it
  std::string blob_id;  // "" when the source does not know it (then computed from the bytes, with a store)
  std::string text;     // out: kept for extraction when read here (within a budget)
  bool has_text = false;
  std::string deps;     // out, with a store: the file's class-template digest ("" for none)
};

class PyClassTableBuilder {
 public:
  // `store` (guarded by `store_mu`) may be null: then no digest is computed.
  // Texts read here are kept for the extraction up to `keep_bytes` in total.
  PyClassTableBuilder(FileSource* source, CatalogStore* store, std::mutex* store_mu, int jobs, size_t keep_bytes)
      : source_(source), store_(store), store_mu_(store_mu), jobs_(jobs), keep_bytes_(keep_bytes) {}
  Status Run(std::vector<PyFile>& files);
  // The table; null when no file defines a class with a message of its own.
  std::shared_ptr<const py::ClassMessageTable> Table() const { return table_; }
  size_t files_read() const { return files_read_; }

 private:
  FileSource* source_;
  CatalogStore* store_;
  std::mutex* store_mu_;
  int jobs_;
  size_t keep_bytes_;
  std::shared_ptr<const py::ClassMessageTable> table_;
  size_t files_read_ = 0;
};

// One class's entry as bytes (every field: a hash of them names what a raise of
// it binds to) and a file's classes as bytes and back (`path` fills their file).
std::string EncodeClassMessage(const py::ClassMessage& c, bool with_file);
std::string EncodeClassMessages(const std::vector<py::ClassMessage>& classes);
bool DecodeClassMessages(std::string_view bytes, const std::string& path, std::vector<py::ClassMessage>* out);

// The digests of files mentioning given identifiers, over a table's entries.
class PyClassDependencies {
 public:
  explicit PyClassDependencies(const std::vector<const py::ClassMessage*>& classes);
  // 16 bytes, or "" when the file mentions no class of the table. `identifiers`:
  // the file's identifier-like words (SortedIdentifiers, unit_key.h), sorted.
  std::string Digest(const std::vector<std::string_view>& identifiers) const;
  std::string Digest(const std::vector<std::string>& identifiers) const;  // the same, over strings

 private:
  struct Name {
    std::string digest;               // of all entries of the name
    std::vector<std::string> bases;   // their bases' names
  };
  // Hashed: Digest looks up each of a file's ~hundreds of words, and an ordered
  // map's string compares were a tenth of a `scan --db` (perf, stdlib).
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, Name, Hash, std::equal_to<>> names_;
  // A bit per (length, first and last byte) of each name: most of a file's
  // words are no class's, and are turned away without hashing them.
  static size_t FilterBit(std::string_view s) {
    return (s.size() * 131 + static_cast<unsigned char>(s.front()) * 7 + static_cast<unsigned char>(s.back())) % 4096;
  }
  std::vector<uint64_t> filter_ = std::vector<uint64_t>(4096 / 64, 0);
};

}  // namespace errdex
