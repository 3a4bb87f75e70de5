// match/explain_test_util.h: a Matcher built from a few catalog entries written
// in the test, and an ExplainSession run over a text, for the explain tests
// (explain_test.cc, fallback_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "match/evidence.h"
#include "match/explain.h"

namespace errdex {

// One catalog entry as a test writes it.
struct TestEntry {
  std::string cls, file, function;
  int line;
  std::string message, pattern;
  uint8_t flags = 0;  // besides PathFlags
};

inline std::unique_ptr<Matcher> MakeMatcher(const std::vector<TestEntry>& given) {
  // The entries are views: the matcher keeps a copy of their strings alive (callers
  // pass temporaries).
  auto es = std::make_shared<const std::vector<TestEntry>>(given);
  std::vector<std::string> patterns;
  std::vector<MatchEntry> entries;
  for (const TestEntry& e : *es) {
    MatchEntry m{e.cls, e.file, e.function, e.line, e.message, -1};
    m.flags = PathFlags(e.file) | e.flags;  // as the catalog sets them
    if (!e.pattern.empty()) {
      m.pattern = static_cast<int>(patterns.size());
      patterns.push_back(e.pattern);
    }
    entries.push_back(m);
  }
  auto db = PatternDatabase::Build(patterns, MatcherOptions{});
  EXPECT_TRUE(db.ok());
  return std::make_unique<Matcher>(std::move(db).value(), std::move(entries), es);
}

inline std::vector<ExplainHit> Explain(const Matcher& m, std::string_view input, ExplainOptions o = {}, size_t chunk = 0) {
  std::vector<ExplainHit> hits;
  ExplainSession s(m, o);
  HitSink sink = [&](const ExplainHit& h) { hits.push_back(h); };
  if (chunk == 0) chunk = input.size() + 1;
  for (size_t i = 0; i < input.size(); i += chunk) EXPECT_TRUE(s.Feed(input.substr(i, chunk), sink).ok());
  EXPECT_TRUE(s.Finish(sink).ok());
  return hits;
}

}  // namespace errdex
