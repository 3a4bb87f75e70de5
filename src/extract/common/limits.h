// extract/common/limits.h: the resource limits of extraction. A hostile or
// generated file (a minified bundle, a 20,000-branch elif chain, a 1 MB string
// reused by 5,000 raises) must not make the catalog or memory grow beyond them;
// each limit is a scan option (errdex scan --max-*; defaults documented in the
// README), chosen so that ordinary code never reaches one (on the 118,501 sites of
// a Python 3.11 tree with site-packages: at most 1,615 sites in a file, 38 guards
// on a site, a guard of 3,105 bytes, an excerpt of 54,844 bytes in one generated file).
//
// What is cut is recorded in the site (Site::truncated: the field and its size
// before the cut), so `--facts` shows it and the scan summary counts it. The
// other limits: files larger than --max-file-size are skipped (file_source.h),
// explain reads at most --max-input bytes, an imported line is at most 64 MiB
// (store/import.h); README "Limits" lists them all with their defaults.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/site.h"

namespace errdex {

struct ExtractLimits {
  // Sites of one file; past it a front end stops collecting (the first ones in the
  // file are kept) and says how many it left out.
  size_t max_sites = 5000;
  // Every text copied from the file into a site or record: sourceCode (the window
  // around the site loses its farthest lines first, then its own line is cut around
  // the site's column), errorMessage, messagePattern (cut where its prefix still
  // matches), messageExpr, errorClassExpr, assertCondition, cause, exceptContext,
  // function, and the interpolations / alternatives lists (in total).
  // 8 KiB: more than twice the largest sourceCode of a 23,010-site scan of a real
  // repository (flashinfer: p99 2.5 KB, max 3.4 KB); of the 118,549 sites of the
  // Python tree above, 53 are cut (their sourceCode only: a generated validator and
  // sympy tests with very long lines). A file's records take at most
  // about max_sites x 12 x max_excerpt_bytes (the texts of a record and its facts):
  // ~480 MB at the defaults, for a hostile file only.
  size_t max_excerpt_bytes = 8 << 10;
  // Guards of one site (the innermost are kept) and bytes of one guard.
  size_t max_guards = 64;
  size_t max_guard_bytes = 4 << 10;
};

// Cuts every text of `site` longer than its limit (never inside a UTF-8 sequence)
// and records each cut in site.truncated. Idempotent: a site already within the
// limits is unchanged. The front ends call it on each site as they make it (so
// that memory stays bounded); the scanner calls it again for any front end.
void CapSite(Site& site, const ExtractLimits& limits);

// Records a cut: `field` (a facts key) was `before` bytes (or items) long. Keeps
// the first size recorded for a field.
void NoteTruncated(Site& site, const char* field, uint64_t before);

}  // namespace errdex
