// store/catalog_diff: what changed between two stored scans (errdex diff) and
// the commits that hold a record (errdex history).
//
// Records pair by id (ids are stable across commits: repo, file, kind, class,
// message template, occurrence); the rest pair by message -- the same message
// and class in another file is a record that moved (a renamed file), a similar
// message of the same class in the same file (more readily in the same
// function) is a reworded error ("changed message"). Prose that differs only
// by the file and line it names is the same prose. Units both scans share are skipped without reading them: their
// records differ only by commit.
//
// Thread-compatible (uses the store it is given).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/record.h"
#include "model/status.h"
#include "store/catalog_store.h"

namespace errdex {

struct RecordChange {
  enum class Kind { kAdded, kRemoved, kChanged, kMoved };
  Kind kind = Kind::kChanged;
  std::optional<CatalogLine> before, after;  // the record in each scan (added: after only; removed: before only)
  // kChanged: the parts that differ, of "message", "class", "guards", "prose",
  // "pattern", "severity"; kMoved/kChanged may also have moved ("file", "line").
  std::vector<std::string> changed;
  bool moved = false;  // file or line differs
  double similarity = 1;  // of the messages, for a pair made by message
};

struct CatalogDiff {
  ScanInfo from, to;
  std::vector<RecordChange> changes;  // by file and line (of the newer side when both)
  int64_t added = 0, removed = 0, changed = 0, moved = 0, unchanged = 0;
  int64_t units_shared = 0;  // units both scans hold (not read)
};

// `from` and `to` are scan ids. Moves within a file (only the line changed)
// count as moved; a record whose only change is its source window (code around
// it edited) is unchanged.
Result<CatalogDiff> DiffScans(CatalogStore& store, int64_t from, int64_t to);

// The similarity of two messages in [0, 1] (1 - edit distance / longer length,
// over their first 256 bytes).
double MessageSimilarity(const std::string& a, const std::string& b);

// One record across the commits that hold it.
struct RecordHistory {
  std::string id;
  Record newest;  // its newest version
  struct Seen {
    ScanInfo scan;
    std::string file;
    int line = 0;
    std::optional<std::string> message;
  };
  std::vector<Seen> commits;          // oldest first (commit time, then dataset version, then scan id)
  std::vector<ScanInfo> absent_from;  // scans of the same repo between the first and the last commit without it
};

// By id or slug (a slug may name several records: one history each, by id).
Result<std::vector<RecordHistory>> HistoryOf(CatalogStore& store, const std::string& id_or_slug);

}  // namespace errdex
