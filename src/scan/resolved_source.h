// scan/resolved_source: what a scan reads, and which repository and commit it
// is -- ScanOptions' path opened as a FileSource (a directory, a work tree in
// git, or a commit read straight from git, bare repositories too), with the
// prefix that makes listed paths repo-relative. Apart from pipeline.cc because
// it is the one place that asks git about the scanned path; the pipeline only
// runs over what this resolved.
//
// Thread-compatible: ResolveSource reads the file system and git, nothing shared.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "extract/common/file_source.h"
#include "model/status.h"
#include "scan/scanner.h"

namespace errdex {

// The tree a scan reads: `source` is ScanOptions::source (a test's) or `owned`.
struct ResolvedSource {
  FileSource* source = nullptr;
  std::unique_ptr<FileSource> owned;
  std::string prefix;  // prepended to every listed path ("" or "sub/dir/")
  std::optional<std::string> repo, sha;
  std::string root;    // the scanned path, absolute ("" for a test source)
  int64_t commit_time = 0;
};

// kNotFound for a missing path, kInvalidArgument for one that is not a
// directory (or --rev outside git), else the error of opening the git tree or
// the directory.
Result<ResolvedSource> ResolveSource(const ScanOptions& o);

}  // namespace errdex
