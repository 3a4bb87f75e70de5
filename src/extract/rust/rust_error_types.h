// extract/rust/rust_error_types: the thiserror types of a whole Rust workspace,
// so that a construction `MyError::NotFound(path)` in one file gets the
// `#[error("not found: {0}")]` template of an enum declared in another file or
// another crate (scan/rust_error_table.h builds the table; ExtractRust takes it).
//
// A type is known by its crate (the package name of the nearest Cargo.toml, `-`
// as `_`, or its directory when no manifest is known), its module path inside
// the crate (from the file's path: src/a/b.rs is a::b, mod.rs and lib.rs name
// their directory) and its name. A use site names a type by the path it is
// written with, after the file's `use` declarations are applied: `crate::`,
// `self::`, `super::` and `other_crate::` paths are made absolute and picked
// among the types of that name. A bare name no `use` brings in resolves to
// its crate's only type of that name (or, with a glob import, the workspace's
// only one); when a name has several types, only a path
// that singles one out resolves it -- a wrong template is worse than none. A path
// to a module that re-exports the name (`pub use errors::Error;` in lib.rs makes
// `app::Error`) is followed to the type the re-export names (a few hops at most).
//
// Thread-safety: a built table is read-only and safe to share.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace errdex::rust {

// One variant's #[error(...)] attribute (or a struct's).
struct ErrorVariant {
  std::string template_text;            // the literal, decoded
  bool transparent = false;             // #[error(transparent)]: the wrapped error's message
  std::vector<std::string> extra_args;  // #[error("{} x", .0)]: the extra arguments as written
};

// A thiserror enum (or struct, whose one "variant" has its own name), or a `pub use` of
// a type name (`reexport_of` set, no variants): a module that re-exports a type names it
// too, and `app::Error` must find `app::errors::Error` through lib.rs's `pub use`.
struct ErrorType {
  std::string file;    // the records' filePath of its file
  std::string crate;   // set by the table (CrateOf); "" in a file's own list
  std::string module;  // inline modules of its file (`a::b`), then the table prepends the file's module
  std::string name;    // a re-export: the name it gives (its `as` alias or last segment)
  std::map<std::string, ErrorVariant> variants;
  std::string reexport_of;  // a re-export: the path it names, as written (`errors::Error`)
};

// A file's `use` declarations: the local name each brings into scope (its last
// segment or its `as` alias) -> the path it names, as written (`crate::errors::E`).
// Globs (`use x::*`) are kept under "*" (several, separated by '\n').
using UseMap = std::unordered_map<std::string, std::string>;

// Adds the names of one `use` tree (the text after `use`, without the `;`):
// `a::{b, c as d, e::*}`.
void AddUseTree(std::string_view tree, UseMap* uses);

// The `pub use` re-exports of type names (capitalized) in a file's text: `pub use
// errors::Error;`, `pub(crate) use a::{B, C as D};`, each an ErrorType with
// `reexport_of` set, in the file's own module. A hand scan of the declarations
// that start a line, not a parse: most files that re-export declare no error
// type and are not parsed for the table (a re-export in an inline module is
// taken as the file's; a glob is not followed).
std::vector<ErrorType> ReexportsIn(std::string_view file, std::string_view text);

// Where a crate's files are: a Cargo.toml's directory ("" for the top) and the
// name other crates write for it.
struct CrateRoot {
  std::string dir;
  std::string name;
};

class ErrorTypeTable {
 public:
  // `manifests`: every crate root of the workspace (from its Cargo.toml files).
  explicit ErrorTypeTable(std::vector<CrateRoot> manifests);
  // Takes a file's types and re-exports (ErrorType::file set), fills their crate and module.
  void Add(std::vector<ErrorType> types);
  size_t size() const { return size_; }  // types, not re-exports
  // Does `text` spell the name of any type of the table? (A file that does not
  // holds no construction of one.)
  bool MentionedIn(std::string_view text) const;

  // The crate and module path of a file (the module's segments joined by "::").
  void Locate(std::string_view file, std::string* crate, std::string* module) const;

  // The type named by `type_path` (as written at a use site in `file`: `E`,
  // `errors::E`, `crate::errors::E`, `Self` already replaced by the impl's
  // name) under the file's `uses`; null when none or when ambiguous.
  const ErrorType* Resolve(std::string_view file, std::string_view type_path, const UseMap& uses) const {
    return ResolveAt(file, type_path, uses, 0);
  }

 private:
  // `hops`: re-exports followed so far (a cycle of them ends).
  const ErrorType* ResolveAt(std::string_view file, std::string_view type_path, const UseMap& uses, int hops) const;

  std::vector<CrateRoot> roots_;  // longest dir first
  std::unordered_map<std::string, std::vector<ErrorType>> by_name_;
  std::unordered_map<std::string, std::vector<ErrorType>> reexports_;  // by the name they give
  size_t size_ = 0;
};

}  // namespace errdex::rust
