// document/prose_lint: checks the prose of records against what "good" means
// for a user (docs/document.md, "What the checker flags"). It is written apart
// from the writers, with its own text rules, so it can judge any catalog -- ours,
// an older errdex's, or records imported from elsewhere. What `errdex lint-docs`
// runs. Checks (names are stable; they appear in --json output):
//   restated-guard        a solution restates a guard ("Make `x != y` false", a
//                         guard's code as the thing to change, "... does not hold")
//   constant-guard        prose treats a constant (`True`, `1`, `while True`) as a condition
//   repeated-field        a field repeats another (commonSituations inside
//                         triggerScenarios, a solution that is also a preventionTip,
//                         a list item twice, documentation == triggerScenarios)
//   unfilled-placeholder  a solution holds a `{placeholder}` of the message
//   truncated-hint        a quoted piece of the message starts or ends mid-word
//   identical-fix         exampleFix's `# before` and `# after` are the same
//   imperative-dropped    an imperative sentence of the message ("Ensure …", "Please
//                         …", "Use …", "Set …", "Pass …", "Install …", "Upgrade …", "Try …")
//                         that no solution carries
//   flag-as-attribute     a setting named as a code attribute (`cfg.deepep_mode`,
//                         `ServerArgs.deepep_mode`, `deepep_mode="x"`) although the
//                         repository maps it to a flag (--deepep-mode)
// Thread-safety: a ProseLinter is used from one thread.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/record.h"
#include "model/site.h"

namespace errdex::doc {

struct LintFinding {
  std::string record_id;
  std::string file;  // filePath:lineNumber
  std::string check;
  std::string field;
  std::string text;  // the offending text (clipped)
};

struct LintStats {
  int records = 0;
  int user_records = 0;           // non-assert records outside tests
  int user_with_example_fix = 0;
  int user_with_solutions = 0;
  int imperatives = 0;            // imperative sentences in messages
  int imperatives_carried = 0;
  int shared_documentation = 0;   // records whose documentation equals another record's
  std::map<std::string, int> by_check;  // every check listed, 0 included
};

// The imperative sentences of a message (the lint's own rule).
std::vector<std::string> ImperativeSentences(const std::string& message);

class ProseLinter {
 public:
  // `flag_dests`: attribute names the repository maps to flags (deepep_mode), from
  // the catalog's knowledge; may be empty.
  // `flag_dests`: the repository's flags by dest, each reaching every file.
  explicit ProseLinter(std::set<std::string> flag_dests = {});
  // dest -> the files defining it: a flag reaches a record as the documenter's
  // lookups let it (KnowledgeIndex::FindFlagFrom: an example's flag is not the library's).
  explicit ProseLinter(std::map<std::string, std::vector<std::string>> flag_files);
  // `facts` may be null (records without stored facts).
  void Check(const Record& r, const Site* facts);
  // Call once after the last Check (counts shared documentation).
  void Finish();
  const std::vector<LintFinding>& findings() const { return findings_; }
  const LintStats& stats() const { return stats_; }
  static const std::vector<std::string>& CheckNames();

 private:
  void Add(const Record& r, const std::string& check, const std::string& field, const std::string& text);
  bool IsFlagFor(const std::string& dest, const std::string& file) const;
  std::map<std::string, std::vector<std::string>> flag_files_;
  std::vector<LintFinding> findings_;
  LintStats stats_;
  std::map<std::string, int> docs_;  // documentation -> records having it
};

}  // namespace errdex::doc
