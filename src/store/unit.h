// store/unit: the content-addressed piece of a catalog. A Unit is a group of
// records stored once and referred to by every scan that holds it:
//
//   kDerived   the records of one file version as a scan made them -- named by
//              (pipeline, repo, path, blob, limits) and the hash of the
//              repository-wide facts their prose consulted (`variant`). The
//              records carry no commit: analyzedSha, analyzedAt, githubUrl and
//              datasetVersion are filled from the scan that reads them
//              (Materialize), so the same unit serves every commit that has
//              the same file. Each record keeps its facts (Site) and the
//              SiteContext the document stage gathered.
//   kVerbatim  catalog lines kept exactly as given (import, PutScan, prose
//              rewritten by `errdex document`, catalogs migrated from schema 2).
//
// The payload (EncodePayload) is what is compressed and stored; the unit's
// knowledge, deps and stats are kept beside it so a scan can decide to reuse a
// unit without reading its payload.
//
// Thread-compatible (values).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/record.h"
#include "model/site.h"
#include "model/status.h"

namespace errdex {

// kEdited: kDerived records whose prose `errdex document` rewrote. Read like
// kDerived; never reused by a scan (a fresh scan would not write that prose).
enum class UnitKind : int { kDerived = 0, kVerbatim = 1, kEdited = 3 };
inline bool IsDerived(UnitKind k) { return k == UnitKind::kDerived || k == UnitKind::kEdited; }

struct SiteContext;  // document/site_context.h

struct UnitRecord {
  CatalogLine line;     // kDerived: no commit fields, dataset_version ""; facts set
  std::string context;  // SiteContextToJson of the site ("" when none)
  // The same context as the scan gathered it, while the unit stays in memory
  // between the scan's two passes: spares the document stage parsing `context`
  // back (a fifth of its instructions on the stdlib). Never stored; null after
  // a spill or a load.
  std::shared_ptr<const SiteContext> gathered_context;
};

// What reading and extracting the file gave, beyond its records (the scan's
// summary counts them for reused units too).
struct UnitStats {
  uint64_t bytes = 0;          // of the file
  bool skipped = false;        // unreadable / too large / failed to parse
  bool too_large = false;      // of those, larger than --max-file-size
  int64_t sites_left_out = 0;  // past --max-sites-per-file
  std::vector<int64_t> sites_by_kind;  // indexed by SiteKind (shorter: zeros)
  int64_t excerpts_cut = 0;    // records with a text cut by --max-excerpt-bytes
  int64_t guards_cut = 0;      // records with guards cut
  struct Note {                // a soft error (extract/common/diagnostic.h's Diagnostic)
    std::string path;
    int line = 0, column = 0;
    std::string message;
  };
  std::vector<Note> diagnostics;
};

struct Unit {
  UnitKind kind = UnitKind::kDerived;
  std::string key;       // 16 bytes (UnitKey for kDerived; ContentHash of the payload for kVerbatim)
  uint64_t variant = 0;  // kDerived: the hash of the knowledge its prose consulted; 0 for kVerbatim
  std::string repo;      // "" when unknown
  std::string path;      // repo-relative file ("" for kVerbatim units spanning files)
  std::vector<UnitRecord> records;
  std::string knowledge;  // the file's knowledge for the document stage (SerializeFileKnowledge), "" none
  std::string deps;       // the knowledge entries the records' prose consulted (scan/ encodes them)
  UnitStats stats;
};

// The commit a scan read, for Materialize.
struct CommitFields {
  std::optional<std::string> sha;
  std::string dataset_version;
};

// The payload: records, in order, and stats. Deterministic bytes.
std::string EncodePayload(const Unit& unit);
// Fills unit->records and unit->stats (kind from the payload). kIoError on damage.
Status DecodePayload(std::string_view payload, Unit* unit);
// What errdex check keeps of a stored record (check/scan_hook.h): its id and
// its site's line, kind and class. Records without facts are left out.
struct UnitSiteRef {
  std::string id;
  int line = 0;
  std::string kind;         // SiteKindName
  std::string error_class;  // "" none
};
// Reads only those from a payload: each JSON object is read up to the keys it
// needs and no further (an incremental scan reads every stored Python file's
// sites for check's section; decoding whole records was half its time).
Status DecodeSiteRefs(std::string_view payload, std::vector<UnitSiteRef>* out);
// The stats alone, for the `info` column (small, uncompressed).
std::string EncodeStats(const UnitStats& stats);
UnitStats DecodeStats(std::string_view bytes);

// The line a unit's record is at `commit`: kDerived records get analyzedSha,
// analyzedAt, githubUrl and datasetVersion; kVerbatim lines stay as stored.
CatalogLine Materialize(UnitKind kind, const UnitRecord& r, const CommitFields& commit);
// The record of a unit's line with the commit fields a kDerived unit leaves out
// cleared (the inverse of Materialize).
void ClearCommitFields(CatalogLine* line);

// What the search index keeps of a record (the entries table): the fields a
// search filters or ranks on, and the hash that names that combination.
struct EntryFields {
  std::string record_id;
  std::optional<std::string> slug, error_message, error_class, severity;
  std::string tags;  // "\n" + each tag + "\n" ... ("" when none): a tag t matches "\n" t "\n"
  std::string hash;  // 16 bytes over all of the above
};
EntryFields EntryOf(const Record& r);

// A unit's key when its records cannot be derived again (kVerbatim): the hash
// of its payload.
std::string VerbatimKey(std::string_view payload);

}  // namespace errdex
