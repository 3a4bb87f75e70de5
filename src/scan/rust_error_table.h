// scan/rust_error_table: a scan's Rust files need the workspace's thiserror
// types (extract/rust/rust_error_types.h: an enum's #[error] templates in one
// crate, its constructions in others), and, with a catalog, each file's digest
// of the types its records depend on, for its unit's key -- so a stored unit is
// never reused after a template it used changed in another file. The same
// design as scan/py_classes.h.
//
// What a file depends on: every type whose name its text mentions (all types of
// that name, wherever they are: which one a construction resolves to depends on
// the paths and crates) and every `pub use` re-export of that name (an alias's
// digest takes in its target's), and the workspace's crate roots (they decide
// what a path names). A file that mentions none gets "".
//
// With a catalog, each file's types and identifiers are cached per (pipeline,
// path, blob): a scan of a commit that changes a few Rust files reads those
// only (plus the files it parses, and the Cargo.toml files).
//
// Thread-safety: Run from one thread; Table() from any once Run returned.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "extract/common/file_source.h"
#include "extract/rust/rust_error_types.h"
#include "model/status.h"

namespace errdex {

class CatalogStore;

struct RustFile {
  std::string path;     // the records' filePath
  std::string listed;   // the source's name for it
  std::string blob_id;  // "" when the source does not know it (then computed from the bytes, with a store)
  std::string deps;     // out, with a store: the file's error-type digest ("" for none)
};

class RustErrorTableBuilder {
 public:
  // `store` (guarded by `store_mu`) may be null: then no digest is computed.
  RustErrorTableBuilder(FileSource* source, CatalogStore* store, std::mutex* store_mu, int jobs)
      : source_(source), store_(store), store_mu_(store_mu), jobs_(jobs) {}
  // `manifests`: the Cargo.toml files as the source lists them; `prefix`: what
  // the records' filePath puts before a listed path.
  Status Run(std::vector<RustFile>& files, const std::vector<std::string>& manifests, const std::string& prefix);
  // The table; null when no file declares a thiserror type.
  std::shared_ptr<const rust::ErrorTypeTable> Table() const { return table_; }
  size_t files_read() const { return files_read_; }

 private:
  FileSource* source_;
  CatalogStore* store_;
  std::mutex* store_mu_;
  int jobs_;
  std::shared_ptr<const rust::ErrorTypeTable> table_;
  size_t files_read_ = 0;
};

// The name other crates write for a Cargo.toml's crate: its [lib] name, else
// its [package] name, `-` as `_`; "" for a virtual workspace manifest.
std::string CrateNameOfManifest(std::string_view toml);

// A file's types as bytes and back (`path` fills their file).
std::string EncodeRustErrorTypes(const std::vector<rust::ErrorType>& types);
bool DecodeRustErrorTypes(std::string_view bytes, const std::string& path, std::vector<rust::ErrorType>* out);

}  // namespace errdex
