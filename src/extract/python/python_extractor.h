// The Python front end: a purpose-built tokenizer-level extractor (no full AST)
// that finds every raise / assert / HTTP-error / error-response / warning-log
// site of one file and rebuilds its message. Designed for throughput: the whole
// file is tokenized once; only statements that can produce an error are parsed
// further. Validated against CPython's ast (../shared/tools/oracle_py.py) by
// tests/diff/diff_oracle.py.
//
// Thread-safety: ExtractPython is a pure function; call it from any thread.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"
#include "extract/common/limits.h"
#include "extract/python/class_messages.h"
#include "extract/python/tokenizer.h"
#include "model/site.h"

namespace errdex {

struct PythonExtractResult {
  std::vector<Site> sites;              // ordered by (line, column)
  std::vector<Diagnostic> diagnostics;  // tokenizer/parse problems; sites may still be partial
  bool failed = false;                  // the file could not be tokenized at all (nothing extracted)
  size_t sites_left_out = 0;            // statements past limits.max_sites (the first ones are kept)
  // The file's tokens (diagnostics moved out), so the document stage reads the file
  // without tokenizing it again. Null when the file could not be tokenized.
  std::shared_ptr<py::Tokens> tokens;
};

// `path` is the repo-relative path recorded in each Site; `text` the file's bytes
// (UTF-8 expected; invalid bytes are tolerated, never crash). Each site is kept
// within `limits` (guards: the innermost max_guards, each cut to max_guard_bytes).
// `classes`, when given, holds the message templates of the repository's exception
// classes (class_messages.h): a raise of such a class gets the message the class
// builds from its arguments.
PythonExtractResult ExtractPython(std::string_view path, std::string_view text,
                                  const ExtractLimits& limits = ExtractLimits{},
                                  const py::ClassMessageTable* classes = nullptr);

// The exception classes of one file and how each builds its message, for a
// repository's ClassMessageTable. Cheap for files that define none.
std::vector<py::ClassMessage> CollectPythonClassMessages(std::string_view path, std::string_view text);

}  // namespace errdex
