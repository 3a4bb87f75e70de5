// document/message_hints.cc: see message_hints.h. Tested by message_hints_test.cc.
#include "document/message_hints.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "document/text.h"
#include "model/pattern.h"

namespace errdex::doc {
namespace {

bool ValueChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '/' || c == '+' || c == '-'; }

// "a, b or c" / "a/b" / "a and b" -> values (single words only).
std::vector<std::string> SplitValues(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    std::string v = Trim(cur);
    cur.clear();
    while (!v.empty() && (v.back() == '.' || v.back() == '\'' || v.back() == '"' || v.back() == '`' || v.back() == ')' || v.back() == ']'))
      v.pop_back();
    while (!v.empty() && (v.front() == '\'' || v.front() == '"' || v.front() == '`' || v.front() == '(' || v.front() == '['))
      v.erase(v.begin());
    if (!v.empty() && v.find(' ') == std::string::npos && v.size() < 60) out.push_back(v);
  };
  std::vector<std::string> words;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == ',' || c == '/' || c == '|') {
      flush();
      ++i;
      continue;
    }
    if (c == ' ') {
      size_t j = i;
      while (j < s.size() && s[j] == ' ') ++j;
      std::string_view rest = s.substr(j);
      if (StartsWith(rest, "or ") || StartsWith(rest, "and ")) {
        flush();
        i = j + (rest[0] == 'o' ? 3 : 4);
        continue;
      }
      cur += ' ';
      i = j;
      continue;
    }
    cur += c;
    ++i;
  }
  flush();
  return out;
}

// string_views: a comparison with a word tests the length first (no strlen).
constexpr std::string_view kVerbs[] = {"pass", "use", "set", "specify", "add", "enable", "disable", "remove", "install", "upgrade",
                                       "update", "downgrade", "run", "switch", "reduce", "increase", "lower", "choose", "select",
                                       "provide", "ensure", "check", "unset", "export", "try", "consider", "call", "change",
                                       "avoid", "rename", "replace", "restart", "configure", "define", "register", "modify",
                                       "decrease", "delete", "reinstall", "rebuild", "recompile", "fix", "adjust", "align", "turn",
                                       "drop", "supply", "give", "convert", "cast", "move", "put", "launch", "retry", "wait",
                                       "contact", "report", "refer"};

// "{err}": one hole of a template and nothing else.
bool IsOneHole(const std::string& t) {
  return t.size() >= 2 && t.front() == '{' && t.back() == '}' && t.find('{', 1) == std::string::npos;
}

// The imperative clause of a sentence, or "".
std::string ImperativeClause(const std::string& sent) {
  std::vector<std::string> clauses = {sent};
  size_t colon = sent.find(": ");
  if (colon != std::string::npos && colon > 0) clauses.push_back(Trim(sent.substr(colon + 2)));
  size_t dash = sent.find(" - ");
  if (dash != std::string::npos) clauses.push_back(Trim(sent.substr(dash + 3)));
  // "Invalid calendar X for pandas, try using `use_cftime=True`": advice after a comma.
  const std::string low = sent.find(", ") != std::string::npos || sent.find("; ") != std::string::npos ? Lower(sent) : "";
  for (const char* lead : {", try ", ", please ", "; try ", "; please ", ", consider "}) {
    size_t at = low.find(lead);
    if (at != std::string::npos) clauses.push_back(Trim(sent.substr(at + 2)));
  }
  size_t paren = sent.find(" (");
  if (paren != std::string::npos && paren + 2 < sent.size()) {
    // "... (use --overwrite flag): {details}": the parenthesis only.
    clauses.push_back(Trim(UpToClosingParen(std::string_view(sent).substr(paren + 2))));
  }
  // "check Ollama account: {err}", Go's fmt.Errorf("create %s: %w", dir, err): what the
  // code was doing when the wrapped error came, not advice -- the sentence up to a
  // colon that only a value follows.
  const bool wraps_an_error = colon != std::string::npos && IsOneHole(Trim(sent.substr(colon + 2)));
  std::string arena;
  for (const std::string& c : clauses) {
    if (c.empty() || c[0] == '{') continue;
    std::vector<std::string_view> w = WordViews(c, 8, &arena);  // the verb and what follows it
    // ("Please define them in the class definition: {err}" is advice all the same.)
    if (wraps_an_error && &c == &clauses[0] && !w.empty() && w[0] != "please" && w[0] != "you") continue;
    if (w.empty()) continue;
    size_t i = 0;
    bool polite = false;
    if (w[0] == "please") i = 1, polite = true;
    else if (w[0] == "you" && w.size() > 2 &&
             (w[1] == "can" || w[1] == "may" || w[1] == "should" || w[1] == "must" || w[1] == "need" || w[1] == "might"))
      i = (w[1] == "need" && w.size() > 3 && w[2] == "to") ? 3 : 2, polite = true;
    else if (w[0] == "try" && w.size() > 2 && w[1] == "to") i = 2;
    if (i >= w.size()) {
      if (polite) return c;
      continue;
    }
    std::string_view v = w[i];
    std::string_view next = i + 1 < w.size() ? w[i + 1] : std::string_view();
    bool verb = false;
    for (std::string_view iv : kVerbs)
      if (v == iv) verb = true;
    if (v == "make" && next == "sure") verb = true;
    if ((v == "do" || v == "don't") && (next == "not" || v == "don't")) verb = true;
    static constexpr std::string_view kNotAfter[] = {"of", "failed", "error", "is", "was", "are", "has", "not", "must", "size", "id",
                                                    "for", "should", "can", "cannot", "will", "may"};
    if (verb && !(v == "do" || v == "don't"))
      for (std::string_view n : kNotAfter)
        if (next == n) verb = false;
    // "Call aclnnHcPost failed", "Run step 3 errored": a report of what failed, not advice.
    if (verb && !polite)
      for (size_t k = i + 1; k < w.size() && k <= i + 3; ++k)
        if (w[k] == "failed" || w[k] == "fails" || w[k] == "failure" || w[k] == "error" || w[k] == "errors" || w[k] == "errored" ||
            w[k] == "exception" || w[k] == "crashed")
          verb = false;
    if (verb || (polite && i > 0)) return c;
  }
  return "";
}

// {expr} holes as `expr` (a solution must not hold an unfilled placeholder); the
// message's own braces stay (LiteralBraces). A hole inside the message's own `code
// span` ("`python {script}`") is written bare there: backticks do not nest.
std::string FillHoles(const std::string& s, const std::optional<std::string>& pattern) {
  std::string o;
  o.reserve(s.size() + 8);
  bool in_code = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '`') in_code = !in_code;
    if (s[i] == '{') {
      size_t e = s.find('}', i);
      if (e != std::string::npos && e - i < 200) {
        if (LiteralBraces(pattern, std::string_view(s).substr(i, e - i + 1))) {
          o.append(s, i, e - i + 1);
          i = e;
          continue;
        }
        std::string in = s.substr(i + 1, e - i - 1);
        size_t bang = in.find_first_of("!:");
        if (bang != std::string::npos && bang > 0) in = in.substr(0, bang);
        // A hole inside a name (`limit_{stage.prefix}_batches`): a placeholder the
        // reader fills, `limit_<prefix>_batches`, not the expression run into the name.
        // (After `=` the expression stays: `num_nodes=nnodes` is read as a keyword hint.)
        bool inside_name = (i > 0 && IsWordChar(s[i - 1])) || (e + 1 < s.size() && IsWordChar(s[e + 1]));
        // An expression with backticks of its own (`{'`, `'.join(keys)}` inside a code
        // span) cannot be quoted: the reader gets a placeholder.
        if (in.find('`') != std::string::npos) o += in_code ? "…" : "`…`";
        else if (in_code && inside_name && !Trim(in).empty()) o += "<" + LastComponent(Trim(in)) + ">";
        else if (in_code) o += in.empty() ? std::string("…") : Trim(in);
        else o += in.empty() ? std::string("`…`") : BT(Trim(in));
        i = e;
        continue;
      }
    }
    o += s[i];
  }
  return o;
}

// "--flag v1 or v2", "--flag=v", "--flag to v": the values after a flag at `p`. "to v"
// is a value only in a sentence that sets the flag (`to_sets`: "set --x to 4"); in "use
// --model to run" or "add --hidden to search" it is the sentence's purpose. A value
// never starts with '-' ("cmake --build --preset cpu": `--preset` is the next flag).
std::vector<std::string> ValuesAfterFlag(std::string_view s, size_t p, bool to_sets) {
  size_t i = p;
  while (i < s.size() && s[i] == ' ') ++i;
  if (i < s.size() && s[i] == '=') {
    ++i;
    // "use `--gpu_ids='all'`": one quoted value, as the shell would pass it.
    if (i < s.size() && (s[i] == '\'' || s[i] == '"')) {
      size_t close = s.find(s[i], i + 1);
      if (close == std::string_view::npos || close == i + 1) return {};
      std::string_view v = s.substr(i + 1, close - i - 1);
      if (!std::all_of(v.begin(), v.end(), ValueChar)) return {};
      return {std::string(v)};
    }
  } else if (StartsWith(s.substr(i), "to ")) {
    if (!to_sets) return {};
    i += 3;
  } else if (i == p) return {};
  if (i < s.size() && s[i] == '-') return {};
  size_t b = i;
  // value runs joined by ", or" / "," / " or " / "/".
  size_t e = b;
  while (e < s.size()) {
    size_t v = e;
    while (v < s.size() && ValueChar(s[v])) ++v;
    if (v == e) break;
    e = v;
    std::string_view rest = s.substr(e);
    size_t skip = StartsWith(rest, ", or ") ? 5 : StartsWith(rest, " or ") ? 4 : StartsWith(rest, ", ") ? 2 : StartsWith(rest, "/") ? 1 : 0;
    if (!skip || e + skip >= s.size() || !ValueChar(s[e + skip]) || s[e + skip] == '-') break;
    e += skip;
  }
  if (e == b) return {};
  return SplitValues(s.substr(b, e - b));
}

// Programs a message tells the user to run.
constexpr const char* kPrograms[] = {"pip", "pip3", "uv", "conda", "apt", "apt-get", "git", "docker",
                                     "cmake", "npm", "cargo", "brew", "nvcc", "gcc", "make"};

// A line that is a command to run ("pip uninstall multipart", "export X=1"), not prose.
bool IsCommandLine(std::string_view line) {
  line = TrimView(line);
  size_t sp = line.find(' ');
  if (sp == std::string_view::npos || line.size() > 200) return false;
  std::string_view first = line.substr(0, sp);
  // The next word is an argument ("pip install", "npm -g"), not prose ("npm (Node.js): ...").
  char next = sp + 1 < line.size() ? line[sp + 1] : ' ';
  if (!(std::islower((unsigned char)next) || next == '-' || next == '.')) return false;
  if (first == "export" || first == "python" || first == "python3") return true;
  for (const char* prog : kPrograms)
    if (first == prog) return true;
  return false;
}

// Is the flag at `p` an option of another program the sentence runs, unquoted ("Upgrade:
// pip install --upgrade nvidia-cudnn-cu12")? Such a program's name is among the three
// words before the flag.
bool AfterOtherProgram(std::string_view s, size_t p) {
  size_t b = p;
  for (int words = 0; words < 3 && b > 0; ++words) {
    size_t e = b;
    while (e > 0 && s[e - 1] == ' ') --e;
    b = e;
    while (b > 0 && s[b - 1] != ' ') --b;
    std::string_view w = s.substr(b, e - b);
    while (!w.empty() && (w.front() == '`' || w.front() == '(' || w.front() == '"' || w.front() == '\'')) w.remove_prefix(1);
    for (const char* prog : kPrograms)
      if (w == prog) return true;
    if (w.empty() || w.back() == '.' || w.back() == ':' || w.back() == ';') break;  // a sentence or clause ends
  }
  return false;
}

bool Ci(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower((unsigned char)a[i]) != std::tolower((unsigned char)b[i])) return false;
  return true;
}

// Is the flag at `p` inside a quoted command -- a quote (' ` or ") open at `p` with a
// word between it and the flag ("Run 'cmake --build --preset cpu'")? Quotes pair up from
// the sentence's start; one after a letter is an apostrophe ("don't"), not an opening.
bool InQuotedCommand(std::string_view s, size_t p) {
  char open = 0;
  size_t at = 0;
  for (size_t i = 0; i < p && i < s.size(); ++i) {
    char c = s[i];
    if (c != '\'' && c != '`' && c != '"') continue;
    if (open == c) open = 0;
    else if (!open && (i == 0 || !IsWordChar(s[i - 1]))) open = c, at = i;
  }
  if (!open) return false;
  std::string between = Trim(std::string(s.substr(at + 1, p - at - 1)));
  return !between.empty() && between.front() != '-';
}

// Is position `p` of `s` inside the parentheses of a call, `name(... p`?
bool InsideCall(std::string_view s, size_t p) {
  int depth = 0;
  for (size_t i = p; i-- > 0;) {
    if (s[i] == ')') ++depth;
    else if (s[i] == '(') {
      if (depth == 0) return i > 0 && IsWordChar(s[i - 1]);
      --depth;
    }
  }
  return false;
}

// The end of the run of name characters (word, `.`, `-`, `(`, `)`) from `b`.
size_t NameRunEnd(const std::string& msg, size_t b) {
  size_t e = b;
  while (e < msg.size() && (IsWordChar(msg[e]) || msg[e] == '.' || msg[e] == '-' || msg[e] == '(' || msg[e] == ')')) ++e;
  return e;
}

// A word written as code, not English: a.b, a_b, --x, f(); CamelCase when `camel_case`.
bool IsCodeShaped(const std::string& x, bool camel_case) {
  bool camel = camel_case && x.size() > 2 && std::isupper((unsigned char)x[0]) &&
               std::any_of(x.begin() + 1, x.end(), [](char c) { return std::islower((unsigned char)c); }) &&
               std::any_of(x.begin() + 1, x.end(), [](char c) { return std::isupper((unsigned char)c); });
  return x.find('.') != std::string::npos || x.find('_') != std::string::npos || StartsWith(x, "--") ||
         x.find('(') != std::string::npos || camel;
}

// The name a message quotes or writes at `b`: 'x', `x`, "x" (anything but a space
// inside), else a code-shaped word (a.b, a_b, --x, f(), CamelCase). *end is past it.
std::string NameAt(const std::string& msg, size_t b, size_t* end) {
  *end = b;
  if (b >= msg.size()) return "";
  char q = msg[b];
  if (q == '\'' || q == '`' || q == '"') {
    size_t e = msg.find(q, b + 1);
    if (e == std::string::npos || e == b + 1 || e - b > 60) return "";
    std::string x = msg.substr(b + 1, e - b - 1);
    if (x.find(' ') != std::string::npos || x.find('{') != std::string::npos) return "";
    *end = e + 1;
    return x;
  }
  size_t e = NameRunEnd(msg, b);
  while (e > b && msg[e - 1] == '.') --e;
  std::string x = msg.substr(b, e - b);
  if (x.empty() || !IsCodeShaped(x, true) || x.find('{') != std::string::npos) return "";
  *end = e;
  return x;
}

// "use Y instead (of X)", "X is deprecated, use Y" / "'X' will be removed ... Use 'Y'
// instead": the replacement and, when the message names it, what it replaces.
void ReadReplacement(const std::string& msg, const std::string& lower, Hints* h) {
  static const char* const kRetired[] = {" is deprecated", " are deprecated", " has been deprecated", " have been deprecated",
                                         " was deprecated", " will be removed", " has been removed", " has been renamed",
                                         " has merged", " is no longer supported"};
  size_t retired_at = std::string::npos;
  for (const char* w : kRetired) retired_at = std::min(retired_at, lower.find(w));
  const bool retired = retired_at != std::string::npos || Has(lower, "deprecated");
  for (size_t p = lower.find("use "); p != std::string::npos; p = lower.find("use ", p + 4)) {
    if (p > 0 && IsWordChar(lower[p - 1])) continue;
    size_t e;
    std::string x = NameAt(msg, p + 4, &e);
    if (x.empty()) continue;
    size_t after = e;
    while (after < msg.size() && msg[after] == ' ') ++after;
    // "use `window_left` and `window_right` instead": two names replace one; neither alone
    // is the replacement.
    if (lower.compare(after, 4, "and ") == 0 || lower.compare(after, 3, "or ") == 0 || (after > e && msg[e] == ',')) continue;
    if (lower.compare(after, 9, "directly ") == 0) after += 9;
    bool instead = lower.compare(after, 7, "instead") == 0;
    if (!instead && !retired) continue;
    h->replacement = x;
    size_t of = lower.find("instead of ", after);
    if (instead && of != std::string::npos) {
      size_t unused;
      h->replaced = NameAt(msg, of + 11, &unused);
      if (h->replaced.empty())  // an unquoted plain word: "instead of foo"
        h->replaced = msg.substr(of + 11, NameRunEnd(msg, of + 11) - of - 11);
      return;
    }
    if (!retired) return;
    // What is retired: the name right before " is deprecated" ("a.b is deprecated"), else
    // the first name the message quotes ("The 'filename' attribute will be removed").
    if (retired_at != std::string::npos && retired_at < p) {
      size_t b2 = retired_at;
      while (b2 > 0 && (IsWordChar(msg[b2 - 1]) || msg[b2 - 1] == '.' || msg[b2 - 1] == '-' || msg[b2 - 1] == '(' ||
                        msg[b2 - 1] == ')' || msg[b2 - 1] == '`' || msg[b2 - 1] == '\''))
        --b2;
      std::string old_name = msg.substr(b2, retired_at - b2);
      while (!old_name.empty() && (old_name.front() == '`' || old_name.front() == '\'')) old_name.erase(old_name.begin());
      while (!old_name.empty() && (old_name.back() == '`' || old_name.back() == '\'')) old_name.pop_back();
      if (!old_name.empty() && old_name.front() != '.' &&  // ".plan()" after a hole: not the whole name
          IsCodeShaped(old_name, false)) {
        h->replaced = old_name;
        return;
      }
    }
    for (size_t q = 0; q < p; ++q) {
      if (msg[q] != '\'' && msg[q] != '`') continue;
      if (q > 0 && IsWordChar(msg[q - 1])) continue;  // an apostrophe: "can't"
      size_t qe;
      std::string old_name = NameAt(msg, q, &qe);
      if (!old_name.empty() && old_name != x) {
        h->replaced = old_name;
        return;
      }
      if (qe > q) q = qe - 1;
    }
    return;
  }
}

}  // namespace

bool LiteralBraces(const std::optional<std::string>& pattern, std::string_view text) {
  return pattern && pattern->find(EscapePatternLiteral(text)) != std::string::npos;
}

bool IsKnownPackage(const std::string& w, const std::vector<std::string>& imported) {
  static const char* const kKnown[] = {"torch", "numpy", "transformers", "triton", "flashinfer", "vllm", "sglang",
                                       "pydantic", "fastapi", "jax", "tensorflow", "cuda-python", "accelerate",
                                       "safetensors", "xformers", "deepspeed", "setuptools", "pip", "pandas", "scipy",
                                       "xarray", "dask", "flask", "werkzeug", "starlette", "httpx", "requests",
                                       "torch_npu", "torchvision", "onnx", "onnxruntime", "peft", "bitsandbytes",
                                       "huggingface_hub", "tokenizers", "protobuf", "grpcio", "ray", "numba",
                                       "cupy", "matplotlib", "zarr", "netcdf4", "h5py", "h5netcdf", "cftime"};
  std::string l = Lower(w);
  for (const char* k : kKnown)
    if (l == k) return true;
  return std::find(imported.begin(), imported.end(), w) != imported.end();
}

Hints ReadHints(const Site& site, const KnowledgeIndex* k, DocDeps* deps) {
  Hints h;
  if (!site.error_message) return h;
  const std::string msg = site.error_message->substr(0, kMaxHintBytes);
  const std::vector<std::string> sents = Sentences(msg);
  for (size_t i = 0; i < sents.size(); ++i) {
    std::string c = ImperativeClause(sents[i]);
    if (c.empty() || h.sentences.size() >= 8) continue;
    // "You can install it with:" / "pip install python-multipart": the command the
    // sentence introduces, on the next line, is its end.
    if (c.back() == ':' && i + 1 < sents.size() && IsCommandLine(sents[i + 1])) {
      std::string cmd = Trim(sents[i + 1]);
      // A full stop ends the sentence; `pip install -e .` keeps its argument.
      if (cmd.size() >= 2 && cmd.back() == '.' && cmd[cmd.size() - 2] != ' ') cmd.pop_back();
      c += " `" + cmd + "`";
    }
    h.sentences.push_back(FillHoles(c, site.message_pattern));
  }
  // --flag values inside the imperative sentences.
  for (const std::string& s : h.sentences) {
    for (size_t p = s.find("--"); p != std::string::npos; p = s.find("--", p + 2)) {
      if (p > 0 && (IsWordChar(s[p - 1]) || s[p - 1] == '-')) continue;
      size_t q = p + 2;
      while (q < s.size() && (std::islower((unsigned char)s[q]) || std::isdigit((unsigned char)s[q]) || s[q] == '-' || s[q] == '_')) ++q;
      if (q == p + 2) continue;
      std::string flag = s.substr(p, q - p);
      while (!flag.empty() && flag.back() == '-') flag.pop_back();
      // A flag inside a quoted command ("Run 'cmake -S llama/server --preset cpu'") is that
      // program's, not one this repository's users pass.
      if (InQuotedCommand(s, p) || AfterOtherProgram(s, p)) continue;
      std::vector<std::string> words = Words(s);
      size_t verb_at = !words.empty() && words[0] == "please" && words.size() > 1 ? 1 : 0;
      const std::string verb = words.empty() ? "" : words[verb_at];
      bool sets = verb == "set" || verb == "change" || verb == "switch" || verb == "lower" || verb == "raise" ||
                  verb == "increase" || verb == "reduce" || verb == "decrease" || verb == "configure" || verb == "update";
      std::vector<std::string> vals = ValuesAfterFlag(s, q, sets);
      const Flag* fi = k ? k->FindFlagFor(site.language, flag, deps) : nullptr;
      // "Drop --x or pick ...": no values ("or" is English), and none for a flag that takes none.
      bool removes = !words.empty() && (words[0] == "drop" || words[0] == "remove" || words[0] == "disable" ||
                                        words[0] == "unset" || words[0] == "avoid" || words[0] == "omit");
      if (removes || (fi && fi->IsBool())) vals.clear();
      // "Consider adding -H/--hidden to search hidden files": a switch of this repository
      // the message says to add.
      if (!removes && fi && fi->IsBool() && std::find(h.switches.begin(), h.switches.end(), flag) == h.switches.end() &&
          h.switches.size() < 4)
        h.switches.push_back(flag);
      vals.erase(std::remove_if(vals.begin(), vals.end(),
                                [](const std::string& v) {
                                  // English after the flag, not its value: "--base-tag manually",
                                  // "--x flag", "--x explicitly".
                                  bool adverb = v.size() > 4 && EndsWith(v, "ly") &&
                                                std::all_of(v.begin(), v.end(), [](char c) { return std::islower((unsigned char)c); });
                                  return adverb || v == "or" || v == "and" || v == "to" || v == "if" || v == "in" || v == "with" ||
                                         v == "for" || v == "the" || v == "a" || v == "when" || v == "is" || v == "instead" ||
                                         v == "flag" || v == "option" || v == "argument" || v == "parameter" || v == "first" ||
                                         v == "again" || v == "as" || v == "on" || v == "at" || v == "also" ||
                                         v == "so" || v == "that" || v == "then" || v == "but" || v == "not" ||
                                         v == "by" || v == "from" || v == "than" || v == "until" || v == "which";
                                }),
                 vals.end());
      if (fi && !fi->choices.empty()) {
        std::vector<std::string> ok;
        for (auto& v : vals)
          if (std::find(fi->choices.begin(), fi->choices.end(), v) != fi->choices.end()) ok.push_back(v);
        vals = ok;
      }
      if (!vals.empty() && !words.empty()) h.flag_verbs.emplace(flag, verb);
      auto& dst = h.flag_values[flag];
      for (auto& v : vals)
        if (std::find(dst.begin(), dst.end(), v) == dst.end() && dst.size() < 8) dst.push_back(v);
      p = q - 2;
    }
    // set X=1 / export X=1 / X=1
    for (size_t p = s.find('='); p != std::string::npos; p = s.find('=', p + 1)) {
      size_t b = p;
      while (b > 0 && IsWordChar(s[b - 1])) --b;
      size_t e = p + 1;
      if (e < s.size() && (s[e] == '"' || s[e] == '\'')) {
        // export SOC_VERSION="ascend910b1": the quoted value, quotes kept as typed.
        size_t q = s.find(s[e], e + 1);
        e = q != std::string::npos && q - p < 80 && s.find(' ', e) > q ? q + 1 : p + 1;
      } else {
        while (e < s.size() && ValueChar(s[e])) ++e;
      }
      std::string name = s.substr(b, p - b);
      while (e > p + 1 && (s[e - 1] == '.' || s[e - 1] == ',')) --e;
      if (IsUpperName(name) && e > p + 1 && name.find('_') != std::string::npos && h.env_sets.size() < 4)
        h.env_sets.push_back(s.substr(b, e - b));
      // "try using `use_cftime=True`": a keyword argument and its value -- not one inside
      // a call the message writes out ("use other_fn(..., quant_mode='w4a16')"), which
      // belongs to that other function.
      else if (IsIdent(name) && !IsUpperName(name) && e > p + 1 && (p + 1 >= s.size() || s[p + 1] != '=') &&
               (b == 0 || s[b - 1] != '.') && h.kwargs.size() < 4 && !InsideCall(s, b))
        h.kwargs.emplace_back(name, s.substr(p + 1, e - p - 1));
    }
    // "Please set the ANTHROPIC_API_KEY environment variable" / "export HF_TOKEN": a
    // variable to give a value, without one.
    std::vector<std::string> w = Words(s, 12);
    for (size_t i = 0; i + 1 < w.size() && h.env_names.size() < 4; ++i) {
      if (w[i] != "set" && w[i] != "export" && w[i] != "define") continue;
      size_t j = i + 1;
      if (j < w.size() && (w[j] == "the" || w[j] == "your")) ++j;
      if (j >= w.size()) break;
      std::string upper = w[j];
      for (auto& c : upper) c = (char)std::toupper((unsigned char)c);
      // The word as the message spells it: upper case, with an underscore, not `X=v`.
      size_t at = s.find(upper);
      if (at == std::string::npos || upper.find('_') == std::string::npos || !IsUpperName(upper)) continue;
      if (at + upper.size() < s.size() && s[at + upper.size()] == '=') continue;
      h.env_names.push_back(upper);
    }
  }
  // Every `--flag value` of the message (its context: "--quantization nvfp4_online supports only ...").
  for (size_t p = msg.find("--"); p != std::string::npos && h.named_flags.size() < 8; p = msg.find("--", p + 2)) {
    if (p > 0 && (IsWordChar(msg[p - 1]) || msg[p - 1] == '-')) continue;
    size_t q = p + 2;
    while (q < msg.size() && (std::islower((unsigned char)msg[q]) || std::isdigit((unsigned char)msg[q]) || msg[q] == '-' || msg[q] == '_')) ++q;
    if (q == p + 2 || q >= msg.size() || msg[q] != ' ') continue;
    size_t v = q + 1, ve = v;
    while (ve < msg.size() && ValueChar(msg[ve])) ++ve;
    while (ve > v && (msg[ve - 1] == '.' || msg[ve - 1] == ',')) --ve;
    if (ve == v || msg[v] == '-') continue;
    std::string flag = msg.substr(p, q - p), value = msg.substr(v, ve - v);
    const Flag* fi = k ? k->FindFlagFor(site.language, flag, deps) : nullptr;
    if (fi && !fi->choices.empty() && std::find(fi->choices.begin(), fi->choices.end(), value) == fi->choices.end()) continue;
    if (!fi && value.find('_') == std::string::npos && value.find('-') == std::string::npos) continue;  // "--x is" is prose
    h.named_flags.emplace_back(flag, value);
  }
  std::string lower = Lower(msg);
  // Allowed values.
  static const char* const kAllowed[] = {"supports only", "only supports", "only support", "only supported on",
                                          "only supported for", "only supported with", "supported only on",
                                          "supported only for", "supported only with", "must be one of", "expected one of",
                                          "should be one of", "choose from", "valid values are", "valid options are",
                                          "valid choices are", "allowed values are", "only accepts", "accepts only",
                                          "supported values are", "supported options are", "possible values are"};
  for (const char* phrase : kAllowed) {
    // A whole phrase: "only support" is not the start of "only supported for", whose
    // values would begin mid-word ("ed for fp8 quantization").
    const size_t n = std::char_traits<char>::length(phrase);
    size_t p = lower.find(phrase);
    while (p != std::string::npos && p + n < lower.size() && std::isalnum((unsigned char)lower[p + n]))
      p = lower.find(phrase, p + 1);
    if (p == std::string::npos) continue;
    size_t b = p + n;
    while (b < msg.size() && (msg[b] == ' ' || msg[b] == ':')) ++b;
    size_t e = b;
    while (e < msg.size() && msg[e] != ';' && msg[e] != '\n' &&
           !(msg[e] == '.' && (e + 1 >= msg.size() || !std::isdigit((unsigned char)msg[e + 1]))))
      ++e;
    std::string list = msg.substr(b, e - b);
    if (StartsWith(list, "--")) {
      size_t sp = list.find(' ');
      if (sp != std::string::npos) {
        h.allowed_flag = list.substr(0, sp);
        list = Trim(list.substr(sp + 1));
      }
    }
    std::vector<std::string> vals = SplitValues(list);
    bool idents = !vals.empty() && list.find('{') == std::string::npos;
    for (auto& v : vals)
      for (char ch : v)
        if (!(std::isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '+' || ch == '-')) idents = false;
    if (idents) {
      h.allowed = vals;
    } else {
      h.allowed_flag.clear();
      if (!Trim(list).empty() && list.find('{') == std::string::npos) h.allowed = {Trim(list)};
    }
    break;
  }
  // pkg>=1.2 / pkg==1.2 / pkg~=1.2 / pkg > 1.2
  for (const char* op : {">=", "==", "~=", ">"}) {
    size_t p = msg.find(op);
    while (p != std::string::npos) {
      size_t b = p;
      while (b > 0 && msg[b - 1] == ' ') --b;
      size_t ne = b;
      while (b > 0 && (std::isalnum((unsigned char)msg[b - 1]) || msg[b - 1] == '_' || msg[b - 1] == '-' || msg[b - 1] == '.')) --b;
      size_t v = p + std::char_traits<char>::length(op);
      while (v < msg.size() && msg[v] == ' ') ++v;
      if (v < msg.size() && msg[v] == 'v') ++v;
      size_t ve = v;
      while (ve < msg.size() && (std::isdigit((unsigned char)msg[ve]) || msg[ve] == '.')) ++ve;
      while (ve > v && msg[ve - 1] == '.') --ve;
      std::string pkg = msg.substr(b, ne - b);
      // A package the message requires: a well-known one, or a distribution name
      // (lower case with a hyphen: "cupti-python >= 13 is required") in a sentence
      // about requiring or installing -- not `q_len >= 1`.
      bool distribution = pkg.find('-') != std::string::npos && pkg.front() != '-' &&
                          std::all_of(pkg.begin(), pkg.end(), [](char c) {
                            return std::islower((unsigned char)c) || std::isdigit((unsigned char)c) || c == '-' || c == '_' || c == '.';
                          }) &&
                          (Has(lower, "require") || Has(lower, "install") || Has(lower, "need")) &&
                          (ve - v >= 2);  // a version ("13", "2.1"), not a bound like `>= 1`
      if (ve > v && std::isdigit((unsigned char)msg[v]) && !pkg.empty() && std::isalpha((unsigned char)pkg[0]) &&
          (IsKnownPackage(pkg, {}) || distribution)) {
        h.package = pkg;
        h.version_op = op;
        h.version = msg.substr(v, ve - v);
        break;
      }
      p = msg.find(op, p + 2);
    }
    if (!h.package.empty()) break;
  }
  for (const char* w : {"upgrade ", "update "}) {
    size_t p = lower.find(w);
    if (p == std::string::npos) continue;
    size_t b = p + std::char_traits<char>::length(w);
    for (const char* skip : {"your ", "the "})
      if (lower.compare(b, std::char_traits<char>::length(skip), skip) == 0) b += std::char_traits<char>::length(skip);
    if (b < msg.size() && msg[b] == '`') ++b;
    size_t e = b;
    while (e < msg.size() && (std::isalnum((unsigned char)msg[e]) || msg[e] == '_' || msg[e] == '-' || msg[e] == '.')) ++e;
    while (e > b && msg[e - 1] == '.') --e;
    std::string name = msg.substr(b, e - b);
    if (!name.empty() && name != "to" && name != "the" && IsKnownPackage(name, {})) {
      h.upgrade = name;
      break;
    }
  }
  for (const char* w : {"pip install ", "pip3 install "}) {
    size_t p = msg.find(w);
    if (p == std::string::npos) continue;
    size_t b = p + std::char_traits<char>::length(w);
    for (const char* opt : {"-U ", "--upgrade ", "-u "})
      if (msg.compare(b, std::char_traits<char>::length(opt), opt) == 0) b += std::char_traits<char>::length(opt);
    size_t e = b;
    if (b < msg.size() && (msg[b] == '\'' || msg[b] == '"')) {
      // pip install 'lm-eval[anthropic]': the quoted requirement, quotes kept as typed.
      size_t q = msg.find(msg[b], b + 1);
      if (q != std::string::npos && q - b < 120 && msg.find(' ', b) > q) e = q + 1;
    } else {
      while (e < msg.size() && msg[e] != ' ' && msg[e] != '\'' && msg[e] != '"' && msg[e] != '`' && msg[e] != '\n') ++e;
      while (e > b && (msg[e - 1] == '.' || msg[e - 1] == ',' || msg[e - 1] == ')')) --e;
    }
    if (e > b) h.pip = msg.substr(b, e - b);
    break;
  }
  ReadReplacement(msg, lower, &h);
  // "X must be called first" / "X must be called before ..." / "call X first".
  for (const char* w : {" must be called first", " must be called before", " should be called first", " needs to be called first"}) {
    size_t p = lower.find(w);
    if (p == std::string::npos) continue;
    size_t e = p;
    while (e > 0 && msg[e - 1] == '`') --e;
    size_t b = e;
    while (b > 0 && (IsWordChar(msg[b - 1]) || msg[b - 1] == '.' || msg[b - 1] == '(' || msg[b - 1] == ')')) --b;
    std::string name = msg.substr(b, e - b);
    if (EndsWith(name, "()")) name = name.substr(0, name.size() - 2);
    if (!name.empty() && IsDotted(name) && name.size() < 80 && Has(name, "_")) h.call_first = name;
    break;
  }
  // "Call X first" / "please call X before forward".
  for (size_t p = lower.find("call "); h.call_first.empty() && p != std::string::npos; p = lower.find("call ", p + 5)) {
    if (p > 0 && IsWordChar(lower[p - 1])) continue;
    size_t b = p + 5, e;
    if (b < msg.size() && msg[b] == '`') ++b;
    e = b;
    while (e < msg.size() && (IsWordChar(msg[e]) || msg[e] == '.')) ++e;
    std::string name = msg.substr(b, e - b);
    if (lower.compare(e, 2, "()") == 0) e += 2;
    if (e < msg.size() && msg[e] == '`') ++e;
    if (lower.compare(e, 6, " first") != 0 && lower.compare(e, 7, " before") != 0) continue;
    if (!name.empty() && IsDotted(name) && name.size() < 80 && Has(name, "_")) h.call_first = name;
  }
  // "Please install scipy" / "try installing cftime": a package to install, when no
  // `pip install` line says it already.
  for (size_t p = lower.find("install"); h.pip.empty() && p != std::string::npos; p = lower.find("install", p + 7)) {
    if (p > 0 && IsWordChar(lower[p - 1])) continue;
    size_t b = p + 7;
    if (lower.compare(b, 3, "ing") == 0) b += 3;
    if (b >= msg.size() || msg[b] != ' ') continue;
    ++b;
    if (lower.compare(b, 4, "the ") == 0) b += 4;
    if (b < msg.size() && (msg[b] == '`' || msg[b] == '\'' || msg[b] == '"')) ++b;
    size_t e = b;
    while (e < msg.size() && (std::isalnum((unsigned char)msg[e]) || msg[e] == '_' || msg[e] == '-' || msg[e] == '.')) ++e;
    while (e > b && msg[e - 1] == '.') --e;
    std::string name = msg.substr(b, e - b);
    if (name.empty() || !IsKnownPackage(name, {})) continue;
    h.pip = Lower(name);
    // "Install Flask with the 'async' extra": the extra in brackets, quoted for the shell.
    if (lower.compare(e, 10, " with the ") == 0) {
      size_t xe;
      std::string extra = NameAt(msg, e + 10, &xe);
      if (!extra.empty() && IsIdent(extra) && lower.compare(xe, 6, " extra") == 0) h.pip = "\"" + h.pip + "[" + extra + "]\"";
    }
  }
  (void)Ci;
  return h;
}

}  // namespace errdex::doc
