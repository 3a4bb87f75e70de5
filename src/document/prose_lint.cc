// document/prose_lint.cc: see prose_lint.h. Tested by tests/prose/prose_lint_test.cc.
#include "document/prose_lint.h"

#include <algorithm>
#include <cctype>

#include "document/facts.h"
#include "document/knowledge.h"
#include "document/message_hints.h"
#include "document/text.h"
#include "extract/common/ts_front_end.h"

namespace errdex::doc {
namespace {

// The `...` spans of a text.
std::vector<std::string> Spans(std::string_view s) {
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    size_t b = s.find('`', p);
    if (b == std::string_view::npos) break;
    size_t e = s.find('`', b + 1);
    if (e == std::string_view::npos) break;
    out.emplace_back(s.substr(b + 1, e - b - 1));
    p = e + 1;
  }
  return out;
}

std::string Joined(const std::vector<std::string>& ws) {
  std::string o;
  for (const auto& w : ws) {
    if (!o.empty()) o += ' ';
    o += w;
  }
  return o;
}

// " a b c " form of a text's words, for contiguous-substring tests.
std::string WordLine(std::string_view s) { return " " + Joined(Words(s)) + " "; }

// The guard's atoms as text: "not (T)" unwrapped, split at top-level and/or.
std::vector<std::string> GuardAtoms(const std::string& guard) {
  std::string g = OneLine(guard);
  if (StartsWith(g, "not (") && EndsWith(g, ")")) g = g.substr(5, g.size() - 6);
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  size_t b = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    char c = g[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (depth == 0 && c == ' ') {
      size_t len = g.compare(i, 5, " and ") == 0 ? 5 : g.compare(i, 4, " or ") == 0 ? 4 : 0;
      if (len) {
        out.push_back(Trim(g.substr(b, i - b)));
        b = i + len;
        i += len - 1;
      }
    }
  }
  out.push_back(Trim(g.substr(b)));
  for (auto& a : out) {
    while (a.size() >= 2 && a.front() == '(' && a.back() == ')') a = Trim(a.substr(1, a.size() - 2));
  }
  return out;
}

// The tested expression of an atom: the text before its comparison operator.
std::string AtomSubject(const std::string& atom) {
  std::string a = atom;
  if (StartsWith(a, "not ")) a = Trim(a.substr(4));
  for (const char* op : {" is not ", " not in ", " == ", " != ", " <= ", " >= ", " < ", " > ", " is ", " in "}) {
    size_t p = a.find(op);
    if (p != std::string::npos) return Trim(a.substr(0, p));
  }
  return a;
}

bool LooksLikeSetting(const std::string& span) {
  return StartsWith(span, "--") || StartsWith(span, "pip ") || (span.find('=') != std::string::npos && IsUpperName(span.substr(0, span.find('='))));
}

// "a" contains a quote of the message that starts or ends inside a word.
bool TruncatedQuote(const std::string& text, const std::string& msg, std::string* quote) {
  size_t p = 0;
  while (true) {
    size_t b = text.find('"', p);
    if (b == std::string::npos) return false;
    size_t e = text.find('"', b + 1);
    if (e == std::string::npos) return false;
    std::string q = text.substr(b + 1, e - b - 1);
    p = e + 1;
    if (q.size() < 8) continue;
    bool found = false, clean = false;
    for (size_t at = msg.find(q); at != std::string::npos; at = msg.find(q, at + 1)) {
      found = true;
      bool left = at == 0 || !IsWordChar(msg[at - 1]) || !IsWordChar(q.front());
      size_t end = at + q.size();
      bool right = end >= msg.size() || !IsWordChar(msg[end]) || !IsWordChar(q.back());
      if (left && right) clean = true;
    }
    if (found && !clean) {
      *quote = q;
      return true;
    }
  }
}

// The text a solution gives after a colon ("Use what the message says is supported:
// ed for fp8 quantization."): a piece of the message that starts mid-word.
bool TruncatedAfterColon(const std::string& text, const std::string& msg, std::string* piece) {
  for (size_t c = text.find(": "); c != std::string::npos; c = text.find(": ", c + 2)) {
    size_t b = c + 2, e = text.find(". ", b);
    std::string q = Trim(text.substr(b, e == std::string::npos ? std::string::npos : e - b));
    while (!q.empty() && q.back() == '.') q.pop_back();
    if (q.size() < 8 || q.find('`') != std::string::npos || !IsWordChar(q.front())) continue;
    bool found = false, clean = false;
    for (size_t at = msg.find(q); at != std::string::npos; at = msg.find(q, at + 1)) {
      found = true;
      if (at == 0 || !IsWordChar(msg[at - 1])) clean = true;
    }
    if (found && !clean) {
      *piece = q;
      return true;
    }
  }
  return false;
}

// A record without its facts (a JSON Lines file written without --facts) is test code
// by its path, as the front ends decide it: their test directories (PathLooksLikeTests:
// Java's src/test/, Go's testdata/, JS's __tests__/) and test files (Python's test_*.py,
// Go's *_test.go).
bool InTestsPath(const std::string& path) {
  if (PathLooksLikeTests(path)) return true;
  size_t slash = path.rfind('/');
  std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  return StartsWith(file, "test_") || EndsWith(file, "_test.py") || file == "conftest.py" || EndsWith(file, "_test.go");
}

const char* const kImperativeVerbs[] = {
    "ensure", "try", "use", "set", "pass", "install", "upgrade", "update", "downgrade", "specify", "add", "enable",
    "disable", "remove", "check", "run", "switch", "reduce", "increase", "lower", "choose", "select", "provide",
    "unset", "export", "consider", "call", "change", "avoid", "rename", "replace", "restart", "configure",
    "define", "register", "make", "do", "don't", "modify", "raise", "decrease", "delete", "install", "launch",
    "start", "retry", "wait", "contact", "report", "open", "file", "refer", "see", "convert", "cast", "move", "put",
    "increase", "reinstall", "rebuild", "recompile", "fix", "adjust", "align", "turn", "drop", "supply", "give"};

}  // namespace

std::vector<std::string> ImperativeSentences(const std::string& message) {
  std::vector<std::string> out;
  for (const std::string& sent : Sentences(message)) {
    // The sentence itself, and the clause after a leading "X: " (e.g. "Unsupported
    // backend: use Y instead").
    std::vector<std::string> clauses = {sent};
    size_t colon = sent.find(": ");
    if (colon != std::string::npos && colon > 0) clauses.push_back(Trim(sent.substr(colon + 2)));
    size_t dash = sent.find(" - ");
    if (dash != std::string::npos) clauses.push_back(Trim(sent.substr(dash + 3)));
    size_t paren = sent.find(" (");
    if (paren != std::string::npos && paren + 2 < sent.size()) {
      // "... (retry close() on all ranks): {err}": the parenthesis only, as the writer reads it.
      clauses.push_back(Trim(UpToClosingParen(std::string_view(sent).substr(paren + 2))));
    }
    // "check Ollama account: {err}" (Go's fmt.Errorf("...: %w", err)): what the code
    // was doing when the wrapped error came -- a report, not advice.
    std::string after_colon = colon == std::string::npos ? "" : Trim(sent.substr(colon + 2));
    const bool wraps_an_error = after_colon.size() >= 2 && after_colon.front() == '{' && after_colon.back() == '}' &&
                                after_colon.find('{', 1) == std::string::npos;
    for (const std::string& c : clauses) {
      std::vector<std::string> w = Words(c);
      // A sentence starting with a {hole} is not an imperative of the message.
      if (w.empty() || TrimView(c).substr(0, 1) == "{") continue;
      if (wraps_an_error && &c == &clauses[0] && w[0] != "please" && w[0] != "you") continue;  // polite: advice
      size_t i = 0;
      bool polite = false;
      if (w[0] == "please") i = 1, polite = true;
      else if (w[0] == "you" && w.size() > 2 && (w[1] == "can" || w[1] == "may" || w[1] == "should" || w[1] == "must" || w[1] == "need" || w[1] == "might"))
        i = w[1] == "need" && w.size() > 3 && w[2] == "to" ? 3 : 2, polite = true;
      else if (w[0] == "try" && w.size() > 2 && w[1] == "to") i = 2;
      if (i >= w.size()) {
        if (polite) out.push_back(c);
        continue;
      }
      const std::string& v = w[i];
      std::string next = i + 1 < w.size() ? w[i + 1] : "";
      bool verb = false;
      for (const char* iv : kImperativeVerbs)
        if (v == iv) verb = true;
      // Nouns and past forms that look like verbs: "Use of", "Check failed", "Set size".
      if (verb && (next == "of" || next == "failed" || next == "error" || next == "is" || next == "was" || next == "are" ||
                   next == "has" || next == "not" || next == "must" || next == "size" || next == "id" || next == "for" ||
                   next == "should" || next == "can" || next == "cannot" || next == "will" || next == "may")) {
        if (!(v == "do" && next == "not")) verb = false;
      }
      if (v == "make" && next != "sure") verb = false;
      if (v == "do" && next != "not") verb = false;
      if (v == "file" || v == "open" || v == "see" || v == "start" || v == "raise") verb = verb && polite;
      // "Call aclnnHcPost failed", "Run step 3 errored": a report of what failed, not advice.
      if (verb && !polite)
        for (size_t k = i + 1; k < w.size() && k <= i + 3; ++k)
          if (w[k] == "failed" || w[k] == "fails" || w[k] == "failure" || w[k] == "error" || w[k] == "errors" || w[k] == "errored" ||
              w[k] == "exception" || w[k] == "crashed")
            verb = false;
      if (verb || (polite && i > 0)) {
        out.push_back(c);
        break;
      }
    }
  }
  return out;
}

const std::vector<std::string>& ProseLinter::CheckNames() {
  static const std::vector<std::string> names = {"restated-guard",       "constant-guard", "repeated-field",
                                                 "unfilled-placeholder", "truncated-hint", "identical-fix",
                                                 "imperative-dropped",   "flag-as-attribute"};
  return names;
}

ProseLinter::ProseLinter(std::map<std::string, std::vector<std::string>> flag_files) : flag_files_(std::move(flag_files)) {
  for (const auto& n : CheckNames()) stats_.by_check[n] = 0;
}

bool ProseLinter::IsFlagFor(const std::string& dest, const std::string& file) const {
  auto it = flag_files_.find(dest);
  if (it == flag_files_.end()) return false;
  for (const std::string& f : it->second)
    if (f.empty() || FlagFileReaches(f, file)) return true;
  return false;
}

ProseLinter::ProseLinter(std::set<std::string> flag_dests) {
  for (const std::string& d : flag_dests) flag_files_[d].push_back("");
  for (const auto& n : CheckNames()) stats_.by_check[n] = 0;
}

void ProseLinter::Add(const Record& r, const std::string& check, const std::string& field, const std::string& text) {
  ++stats_.by_check[check];
  findings_.push_back({r.id, r.file_path + ":" + std::to_string(r.line_number), check, field, Clip(text, 300)});
}

void ProseLinter::Check(const Record& r, const Site* facts) {
  ++stats_.records;
  const std::string msg = r.error_message.value_or("");
  bool is_assert = facts ? facts->kind == SiteKind::kAssert : r.error_type.value_or("") == "assertion";
  bool in_tests = facts ? facts->in_tests : InTestsPath(r.file_path);
  if (!is_assert && !in_tests) {
    ++stats_.user_records;
    if (r.example_fix) ++stats_.user_with_example_fix;
    if (r.solutions && !r.solutions->empty()) ++stats_.user_with_solutions;
  }
  if (r.documentation) ++docs_[*r.documentation];
  const std::vector<std::string> empty;
  const std::vector<std::string>& sols = r.solutions ? *r.solutions : empty;
  const std::vector<std::string>& tips = r.prevention_tips ? *r.prevention_tips : empty;

  // Guards (from the facts) as atoms and constants.
  std::vector<std::string> atoms, subjects, constants;
  if (facts) {
    for (const auto& g : facts->guards) {
      std::string one = OneLine(g);
      std::string inner = StartsWith(one, "not (") && EndsWith(one, ")") ? one.substr(5, one.size() - 6) : one;
      if (IsConstantExpr(inner)) constants.push_back(Trim(inner));
      if (one.size() > 2000) continue;  // an atom that long is never quoted whole
      for (auto& a : GuardAtoms(g)) {
        if (a.size() < 3) continue;
        atoms.push_back(a);
        subjects.push_back(AtomSubject(a));
      }
    }
  }

  // restated-guard: a solution whose action is a guard itself ("Make `x != y` false",
  // "Ensure `cond`", "`cond` must not hold", "Avoid `x is None`"). Quoting the code as
  // the check being explained ("... (the check is `f()`)") is no restatement; the
  // message's own advice is the message's, whatever its words.
  for (const auto& s : sols) {
    if (EndsWith(s, "(the message's advice)") || EndsWith(s, "(the message's own hint).")) continue;
    std::string low = Lower(s);
    bool make = StartsWith(low, "make ") || StartsWith(low, "ensure ") || Has(low, " make ") || StartsWith(low, "keep ") ||
                StartsWith(low, "avoid ") || Has(low, " so that ");
    bool restated = false;
    std::vector<std::string> spans = Spans(s);
    size_t pos = 0;
    for (size_t si = 0; si < spans.size(); ++si) {
      const std::string& sp = spans[si];
      size_t at = s.find("`" + sp + "`", pos);
      if (at == std::string::npos) continue;
      std::string before = Lower(Trim(s.substr(pos, at - pos)));
      pos = at + sp.size() + 2;
      std::string after = Lower(s.substr(pos, 24));
      if (make && (StartsWith(after, " false") || StartsWith(after, " true") || StartsWith(after, " is false") ||
                   StartsWith(after, " is true") || StartsWith(after, " holds") || StartsWith(after, " hold")))
        restated = true;
      if (StartsWith(after, " no longer holds") || StartsWith(after, " does not hold") || StartsWith(after, " must not hold"))
        restated = true;
      if (LooksLikeSetting(sp)) continue;
      // The object of the sentence's verb: the first span, right after one verb.
      bool object = si == 0 && !before.empty() && before.find(' ') == std::string::npos;
      if (!object) continue;
      std::string one = OneLine(sp);
      bool plain = IsDotted(one) || (StartsWith(one, "not ") && IsDotted(one.substr(4)));
      for (const auto& a : atoms)
        if (!plain && (one == a || one == "not " + a || "not " + one == a)) restated = true;
      if (make)
        for (const auto& subj : subjects)
          if (one == subj) restated = true;
    }
    if (restated) Add(r, "restated-guard", "solutions", s);
  }

  // constant-guard
  auto check_constants = [&](const std::string& field, const std::string& text) {
    for (const char* lead : {"when `", "while `", "Make `", "with `"}) {
      for (size_t p = text.find(lead); p != std::string::npos; p = text.find(lead, p + 1)) {
        size_t b = p + std::char_traits<char>::length(lead);
        size_t e = text.find('`', b);
        if (e == std::string::npos) break;
        std::string span = text.substr(b, e - b);
        bool constant = span == "True" || span == "1" || span == "while True" || span == "not False" || span == "not 0";
        for (const auto& c : constants)
          if (span == c) constant = true;
        if (constant) {
          Add(r, "constant-guard", field, text);
          return;
        }
      }
    }
    for (const auto& c : constants) {
      if (c == "__debug__") continue;
      if (Has(text, "`" + c + "` false") || Has(text, "`" + c + "` is") || Has(text, "`not " + c + "`")) {
        Add(r, "constant-guard", field, text);
        return;
      }
    }
  };
  if (r.documentation) check_constants("documentation", *r.documentation);
  if (r.trigger_scenarios) check_constants("triggerScenarios", *r.trigger_scenarios);
  if (r.common_situations) check_constants("commonSituations", *r.common_situations);
  for (const auto& s : sols) check_constants("solutions", s);

  // repeated-field
  if (r.common_situations && r.trigger_scenarios) {
    std::string trig = WordLine(*r.trigger_scenarios);
    std::string cs = *r.common_situations;
    std::vector<std::string> items;
    size_t b = 0;
    for (size_t i = 0; i <= cs.size(); ++i)
      if (i == cs.size() || cs[i] == ';' || (cs[i] == '.' && (i + 1 == cs.size() || cs[i + 1] == ' '))) {
        items.push_back(cs.substr(b, i - b));
        b = i + 1;
      }
    for (const auto& it : items) {
      std::vector<std::string> w = Words(it);
      if (w.size() >= 4 && Has(trig, " " + Joined(w) + " ")) {
        Add(r, "repeated-field", "commonSituations", it);
        break;
      }
    }
  }
  if (r.documentation && r.trigger_scenarios && WordLine(*r.documentation) == WordLine(*r.trigger_scenarios))
    Add(r, "repeated-field", "triggerScenarios", *r.trigger_scenarios);
  {
    std::set<std::string> seen_sol;
    for (const auto& s : sols) {
      std::string w = WordLine(s);
      if (!seen_sol.insert(w).second) Add(r, "repeated-field", "solutions", s);
    }
    std::set<std::string> seen_tip;
    for (const auto& t : tips) {
      std::string w = WordLine(t);
      if (seen_sol.count(w)) Add(r, "repeated-field", "preventionTips", t);
      else if (!seen_tip.insert(w).second) Add(r, "repeated-field", "preventionTips", t);
    }
  }

  // unfilled-placeholder
  for (const auto& s : sols) {
    bool hit = false;
    for (size_t b = s.find('{'); b != std::string::npos && !hit; b = s.find('{', b + 1)) {
      size_t e = s.find('}', b);
      if (e == std::string::npos) break;
      if (LiteralBraces(r.message_pattern, std::string_view(s).substr(b, e - b + 1))) {
        b = e;  // the message's own braces ("python {{myscript.py}}"), as it prints them
        continue;
      }
      std::string in = s.substr(b + 1, e - b - 1);
      if (in.empty() || (in.size() < 80 && in.find(' ') == std::string::npos && in.find('"') == std::string::npos &&
                         (std::isalpha((unsigned char)in[0]) || in[0] == '_' || in[0] == '!' || in[0] == ':')))
        hit = true;
    }
    if (hit) Add(r, "unfilled-placeholder", "solutions", s);
  }

  // truncated-hint
  if (!msg.empty()) {
    std::string q;
    for (const auto& s : sols)
      if (TruncatedQuote(s, msg, &q) || TruncatedAfterColon(s, msg, &q)) Add(r, "truncated-hint", "solutions", q);
    if (r.try_catch_pattern && TruncatedQuote(*r.try_catch_pattern, msg, &q)) Add(r, "truncated-hint", "tryCatchPattern", q);
  }

  // identical-fix
  if (r.example_fix) {
    const std::string& f = *r.example_fix;
    size_t b = f.find("# before\n"), a = f.find("\n# after");
    if (b != std::string::npos && a != std::string::npos && a > b) {
      std::string before = Trim(f.substr(b + 9, a - b - 9));
      size_t nl = f.find('\n', a + 1);
      std::string after = nl == std::string::npos ? "" : Trim(f.substr(nl + 1));
      if (before == after) Add(r, "identical-fix", "exampleFix", f);
    }
  }

  // imperative-dropped
  for (const std::string& imp : ImperativeSentences(msg)) {
    ++stats_.imperatives;
    std::vector<std::string> w = Words(imp);
    if (!w.empty() && w[0] == "please") w.erase(w.begin());
    bool carried = w.empty();
    for (const auto& s : sols) {
      std::vector<std::string> sw = Words(s);
      size_t j = 0, matched = 0;
      bool first = false;
      for (size_t i = 0; i < w.size(); ++i) {
        for (size_t k = j; k < sw.size(); ++k)
          if (sw[k] == w[i]) {
            ++matched;
            j = k + 1;
            if (i == 0) first = true;
            break;
          }
      }
      if (first && matched * 10 >= w.size() * 8) carried = true;
    }
    if (carried) ++stats_.imperatives_carried;
    else Add(r, "imperative-dropped", "solutions", imp);
  }

  // flag-as-attribute: a Python site's (a C++ struct's `args.top_k` is no flag, and
  // other languages' flags are matched in their own idioms).
  bool python = facts ? facts->language == "python" : EndsWith(r.file_path, ".py") || EndsWith(r.file_path, ".pyi");
  if (!flag_files_.empty() && python) {
    auto named_as_attribute = [&](const std::string& text, std::string* what) {
      for (const auto& sp : Spans(text)) {
        if (StartsWith(sp, "--")) continue;
        size_t cut = sp.find_first_of(" =<>!([,");
        std::string head = sp.substr(0, cut);
        if (cut != std::string::npos && sp[cut] == '(') continue;  // a call (cfg.get("x")), not an attribute
        if (head.find('.') == std::string::npos || !IsDotted(head) || !IsFlagFor(LastComponent(head), r.file_path)) continue;
        // Only an attribute of a settings object names the setting: args.x, cfg.x,
        // self.server_args.x, ServerArgs.x -- not any object's attribute of that name
        // (the documenter's own test, doc::SettingsHolder; `self.x` needs the class,
        // which the record does not say).
        std::string base = head.substr(0, head.rfind('.'));
        static const SiteContext kNoClass;  // the record does not say which class `self` is
        if (doc::SettingsHolder(base, kNoClass)) {
          *what = sp;
          return true;
        }
      }
      return false;
    };
    std::string what;
    if (r.trigger_scenarios && named_as_attribute(*r.trigger_scenarios, &what)) Add(r, "flag-as-attribute", "triggerScenarios", what);
    if (r.common_situations && named_as_attribute(*r.common_situations, &what)) Add(r, "flag-as-attribute", "commonSituations", what);
    for (const auto& s : sols)
      if (named_as_attribute(s, &what)) Add(r, "flag-as-attribute", "solutions", what);
    for (const auto& t : tips)
      if (named_as_attribute(t, &what)) Add(r, "flag-as-attribute", "preventionTips", what);
    if (r.example_fix) {
      // exampleFix lines are what the user types: `dest="v"` or `Class.dest` there is the attribute form.
      std::string f = *r.example_fix;
      size_t b = 0;
      while (b < f.size()) {
        size_t e = f.find('\n', b);
        if (e == std::string::npos) e = f.size();
        std::string line = f.substr(b, e - b);
        b = e + 1;
        if (StartsWith(line, "#")) continue;
        std::string lhs = Trim(line.substr(0, line.find('=')));
        if (line.find('=') != std::string::npos && line.find("==") == std::string::npos && IsFlagFor(lhs, r.file_path)) {
          Add(r, "flag-as-attribute", "exampleFix", line);
          break;
        }
      }
    }
  }
}

void ProseLinter::Finish() {
  stats_.shared_documentation = 0;
  for (const auto& [doc, n] : docs_)
    if (n > 1) stats_.shared_documentation += n;
}

}  // namespace errdex::doc
