// merge.h: folding one catalog into another (`errdex merge SHARD... --db CATALOG`).
// A shard is a catalog file (`errdex scan ... -o shard.errdex`): the same
// content-addressed form. Each of its scans lands in the target as a tree of
// units the target stores once (a unit it already holds is found, not copied),
// with the scan's knowledge text and its own dataset version, so the target's
// export of that commit equals the shard's.
//
// Idempotent: a scan whose key the target already holds with the same dataset
// version, the same tree and the same knowledge is left alone, so merging a
// shard twice changes nothing. A scan of the key that differs replaces it (as a
// scan would). Each scan lands in its own transaction: a merge killed midway
// leaves whole scans or none.
#pragma once

#include <cstdint>

#include "model/status.h"
#include "store/catalog_store.h"

namespace errdex::store {

struct MergeStats {
  int64_t scans = 0;          // scans of the shard
  int64_t scans_written = 0;  // new or replaced in the target
  int64_t scans_same = 0;     // already in the target as they are
  int64_t units_read = 0;     // distinct units of the shard read
};

Status MergeCatalog(CatalogStore& from, CatalogStore& into, MergeStats* stats);

}  // namespace errdex::store
