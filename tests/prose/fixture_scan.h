// Scanning a fixture tree of tests/prose/fixtures/ with the real binary, and the
// checks the prose tests share (flag_idioms_test.cc, example_fix_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "document/prose_lint.h"
#include "e2e_util.h"
#include "model/record.h"

namespace errdex::prosetest {

using e2e::TempDir;

struct Scanned {
  std::vector<CatalogLine> lines;
  int exit_code = -1;
};

// Scans a copy of tests/prose/fixtures/<name> (so paths are the fixture's own).
inline Scanned ScanFixture(const std::string& name) {
  TempDir dir;
  std::filesystem::copy(std::string(ERRDEX_SOURCE_DIR) + "/tests/prose/fixtures/" + name, dir / "repo",
                        std::filesystem::copy_options::recursive);
  std::string out = dir / "out.jsonl";
  std::string cmd = std::string(ERRDEX_BINARY) + " scan " + e2e::Quote(dir / "repo") + " --repo fixture/" + name +
                    " --facts --quiet -o " + e2e::Quote(out) + " 2>/dev/null";
  Scanned s;
  int rc = std::system(cmd.c_str());
  s.exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::istringstream in(e2e::ReadFile(out));
  std::string line;
  while (std::getline(in, line)) {
    auto cl = ParseCatalogLine(line);
    EXPECT_TRUE(cl.ok()) << line;
    if (cl.ok()) s.lines.push_back(std::move(cl.value()));
  }
  return s;
}

// The record whose message contains `msg`.
inline const Record* Find(const Scanned& s, const std::string& msg) {
  for (const auto& l : s.lines)
    if (l.record.error_message && l.record.error_message->find(msg) != std::string::npos) return &l.record;
  ADD_FAILURE() << "no record with message containing: " << msg;
  return nullptr;
}

inline bool Has(const std::optional<std::string>& s, const std::string& x) { return s && s->find(x) != std::string::npos; }
inline bool AnyHas(const std::optional<std::vector<std::string>>& v, const std::string& x) {
  if (!v) return false;
  for (const auto& s : *v)
    if (s.find(x) != std::string::npos) return true;
  return false;
}
inline std::string Dump(const Record* r) { return r ? RecordToJson(*r) : "(none)"; }

// No finding of the prose checker in any record of the scan.
inline void ExpectCleanProse(const Scanned& s) {
  doc::ProseLinter linter;
  for (const auto& l : s.lines) linter.Check(l.record, l.facts ? &*l.facts : nullptr);
  linter.Finish();
  for (const auto& f : linter.findings()) ADD_FAILURE() << f.file << ": " << f.check << ": " << f.field << ": " << f.text;
}

}  // namespace errdex::prosetest
