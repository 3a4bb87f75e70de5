// scan/previous_check.h: the check section of a repository's latest stored
// scan, for an incremental scan to copy from.
//
// errdex check's section holds every Python file's source (compressed) and
// sites. A scan that reuses a stored unit for a file has the same text and the
// same sites as the scan that stored it, so the entry that scan's section
// wrote for the file is the entry this one would write: copying it saves
// reading the file from git and compressing it again (a third of a scan of
// the commit after a stored one). Tested by previous_check_test.cc and, end to
// end, by tests/check (an incremental catalog answers as a cold one).
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "check/section.h"
#include "store/catalog_store.h"

namespace errdex {

class PreviousCheck {
 public:
  // The latest scan of `repo` (by scan id) with a check section; nullopt when
  // there is none or it cannot be read (the scan then reads every file).
  // `store_mu`, when given, guards `store`: it is held only while the store is
  // read, not while the section is parsed (the scan loads this beside its
  // first pass, whose lookups need the store).
  static std::optional<PreviousCheck> Load(CatalogStore& store, const std::string& repo,
                                           std::mutex* store_mu = nullptr);

  // The entry that scan wrote for `path`, if it made it from one of `units`
  // (the stored units this scan reuses for the file); empty otherwise.
  std::string_view EntryFor(std::string_view path, const std::vector<StoredUnit>& units) const;

 private:
  check::Section section_;
  std::unordered_map<std::string, int64_t> unit_of_path_;  // the scan's tree
};

}  // namespace errdex
