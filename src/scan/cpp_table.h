// scan/cpp_table: a scan's C-family files need the repository's #define table
// (a wrapper macro defined in one header is expanded in every .cu file), and,
// with a catalog, each file's dependency digest (unit_key.h CppDependencies)
// for its unit's key. Both come from the catalog's cache where they can: per
// blob its #defines and #includes, per (table, file, blob) its digest, and per
// tree (every C file's path and blob) all the digests -- so a scan of a commit
// that changes a few C files reads those files only, one that changes none
// reads one cache entry, and the table itself is built (its #defines read)
// only when a C file has to be extracted.
//
// Thread-safety: Run from one thread; Table() from any.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "extract/common/file_source.h"
#include "extract/cpp/cpp_macros.h"
#include "model/status.h"

namespace errdex {

class CatalogStore;

struct CppFile {
  std::string path;     // the records' filePath
  std::string listed;   // the source's name for it
  std::string blob_id;  // "" when the source does not know it (a directory: then every file is read)
  std::string text;     // read here when needed, kept for extraction
  bool has_text = false;
  std::string deps;     // out, with a store: the file's CppDependencies digest
};

class CppTableBuilder {
 public:
  // `store` (guarded by `store_mu`) may be null: then no digest is needed and
  // every file is read.
  CppTableBuilder(FileSource* source, CatalogStore* store, std::mutex* store_mu, int jobs)
      : source_(source), store_(store), store_mu_(store_mu), jobs_(jobs) {}
  Status Run(std::vector<CppFile>& files);
  // The table; built on the first call.
  std::shared_ptr<const cpp::MacroTable> Table();
  // Files read and digests computed (the rest came from the cache).
  size_t files_read() const { return files_read_; }

 private:
  FileSource* source_;
  CatalogStore* store_;
  std::mutex* store_mu_;
  int jobs_;
  std::once_flag built_;
  std::vector<std::pair<std::string, cpp::LexResult>> defines_;  // until the table is built
  // Set when Run took every digest from the cache: the files whose #defines
  // Table() reads first (without their text).
  std::vector<CppFile> lazy_files_;
  void ReadDefinesLate();
  std::shared_ptr<const cpp::MacroTable> table_;
  size_t files_read_ = 0;
};

// A file's #defines and #includes (cpp::LexDefines) as bytes and back: the name,
// parameters and body text of each definition (the body's tokens are lexed from
// it again, as LexDefines lexes them).
std::string EncodeLexResult(const cpp::LexResult& lexed);
bool DecodeLexResult(std::string_view bytes, const std::string& path, cpp::LexResult* out);

}  // namespace errdex
