// scan/parse_unit: one file's text into a new unit of the catalog (no prose yet) --
// the front end's sites sorted and capped, each a record with its source window,
// read back as the catalog would read it; with the document stage, the file's
// knowledge and each site's context, gathered while the text is in memory (one
// tokenization for both). Each context is also written as JSON (UnitRecord::context)
// only with `context_json`: the JSON is for the sinks that keep the knowledge's
// sites (the catalog); the document stage reads the gathered one. The first pass
// of the scan (pipeline.cc) runs it on N threads. Pure but for the front end.
// Tested by scanner_test.cc and tests/scan_e2e_test.cc.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "extract/common/limits.h"
#include "scan/scanner.h"
#include "store/unit.h"

namespace errdex {

struct ParsedFile {
  std::shared_ptr<Unit> unit;
  bool text = true;  // false: not source text (BinaryReason), a skipped unit without records
};

// Never fails: a binary file, or a front end that throws, gives a skipped unit
// with a diagnostic.
ParsedFile ParseUnit(const Extractor& extractor, const std::string& path, std::string_view text, const std::string& unit_key,
                     const std::optional<std::string>& repo, const ExtractLimits& limits, bool document,
                     bool context_json = true);

}  // namespace errdex
