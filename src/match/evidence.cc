// match/evidence.cc: see evidence.h. Tested by evidence_test.cc.
#include "match/evidence.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <unordered_map>

#include "match/traceback.h"

namespace errdex {

namespace {

// Python's built-in exception tree (and a few stdlib classes users see often):
// child -> parent. Used to tell "a subclass" from "another class".
const std::unordered_map<std::string_view, std::string_view>& ClassParents() {
  static const std::unordered_map<std::string_view, std::string_view> m = {
      {"Exception", "BaseException"}, {"SystemExit", "BaseException"}, {"KeyboardInterrupt", "BaseException"},
      {"GeneratorExit", "BaseException"}, {"BaseExceptionGroup", "BaseException"},
      {"ExceptionGroup", "Exception"}, {"ArithmeticError", "Exception"}, {"FloatingPointError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"}, {"ZeroDivisionError", "ArithmeticError"},
      {"AssertionError", "Exception"}, {"AttributeError", "Exception"}, {"BufferError", "Exception"},
      {"EOFError", "Exception"}, {"ImportError", "Exception"}, {"ModuleNotFoundError", "ImportError"},
      {"LookupError", "Exception"}, {"IndexError", "LookupError"}, {"KeyError", "LookupError"},
      {"MemoryError", "Exception"}, {"NameError", "Exception"}, {"UnboundLocalError", "NameError"},
      {"OSError", "Exception"}, {"BlockingIOError", "OSError"}, {"ChildProcessError", "OSError"},
      {"ConnectionError", "OSError"}, {"BrokenPipeError", "ConnectionError"},
      {"ConnectionAbortedError", "ConnectionError"}, {"ConnectionRefusedError", "ConnectionError"},
      {"ConnectionResetError", "ConnectionError"}, {"FileExistsError", "OSError"}, {"FileNotFoundError", "OSError"},
      {"InterruptedError", "OSError"}, {"IsADirectoryError", "OSError"}, {"NotADirectoryError", "OSError"},
      {"PermissionError", "OSError"}, {"ProcessLookupError", "OSError"}, {"TimeoutError", "OSError"},
      {"ReferenceError", "Exception"}, {"RuntimeError", "Exception"}, {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"}, {"StopIteration", "Exception"}, {"StopAsyncIteration", "Exception"},
      {"SyntaxError", "Exception"}, {"IndentationError", "SyntaxError"}, {"TabError", "IndentationError"},
      {"SystemError", "Exception"}, {"TypeError", "Exception"}, {"ValueError", "Exception"},
      {"UnicodeError", "ValueError"}, {"UnicodeDecodeError", "UnicodeError"},
      {"UnicodeEncodeError", "UnicodeError"}, {"UnicodeTranslateError", "UnicodeError"},
      {"Warning", "Exception"}, {"UserWarning", "Warning"}, {"DeprecationWarning", "Warning"},
      {"PendingDeprecationWarning", "Warning"}, {"FutureWarning", "Warning"}, {"RuntimeWarning", "Warning"},
      {"SyntaxWarning", "Warning"}, {"ResourceWarning", "Warning"},
      {"JSONDecodeError", "ValueError"}, {"CalledProcessError", "SubprocessError"},
      {"SubprocessError", "Exception"}, {"TimeoutExpired", "SubprocessError"},
      {"BaseException", ""},
  };
  return m;
}

std::string_view CanonicalClass(std::string_view c) {
  if (c == "IOError" || c == "EnvironmentError" || c == "socket.error") return "OSError";
  return c;
}

// Path components from the end: Next() yields "decoder.py", then "json", ...
struct ReversePath {
  std::string_view rest;
  bool Next(std::string_view& out) {
    while (!rest.empty() && (rest.back() == '/' || rest.back() == '\\')) rest.remove_suffix(1);
    if (rest.empty()) return false;
    size_t i = rest.size();
    while (i > 0 && rest[i - 1] != '/' && rest[i - 1] != '\\') --i;
    out = rest.substr(i);
    rest = rest.substr(0, i);
    return true;
  }
};

bool IsTestComponent(std::string_view c) {
  return c == "test" || c == "tests" || c == "testing" || c == "idle_test" || c == "unittests" || c == "test_utils";
}
bool IsVendorComponent(std::string_view c) {
  return c == "_vendor" || c == "vendor" || c == "vendored" || c == "_vendored" || c == "third_party" ||
         c == "thirdparty" || c == "3rdparty" || c == "extern" || c == "externals";
}

}  // namespace

uint8_t PathFlags(std::string_view path) {
  uint8_t flags = 0;
  ReversePath rp{path};
  std::string_view c;
  bool file = true;
  while (rp.Next(c)) {
    if (file) {
      file = false;
      if ((c.size() > 8 && c.substr(0, 5) == "test_" && c.substr(c.size() - 3) == ".py") ||
          (c.size() > 8 && c.substr(c.size() - 8) == "_test.py") || c == "conftest.py" || c == "tests.py")
        flags |= kEntryInTests;
      continue;
    }
    if (IsTestComponent(c)) flags |= kEntryInTests;
    if (IsVendorComponent(c)) flags |= kEntryVendored;
  }
  return flags;
}

std::pair<double, int> ClassEvidence(std::string_view printed, std::string_view entry) {
  if (printed.empty() || entry.empty()) return {0, 0};
  printed = CanonicalClass(ShortClassName(printed));
  entry = CanonicalClass(ShortClassName(entry));
  if (printed == entry) return {20, 1};
  const auto& parents = ClassParents();
  std::string_view c = printed;
  for (int k = 0; k < 12; ++k) {
    auto it = parents.find(c);
    if (it == parents.end() || it->second.empty()) break;
    c = it->second;
    if (c == entry) return {12, 1};
  }
  bool printed_known = parents.count(printed) > 0;
  bool entry_known = parents.count(entry) > 0;
  // A warning category and an exception that is no warning: a subclass of a
  // Warning is named ...Warning (PEP 8, and every library we have seen), so
  // "re.error" printed is not the DeprecationWarning a `warnings.warn` emits with
  // the same text, nor is "SymPyDeprecationWarning" a ValueError.
  auto warning = [](std::string_view c) { return c.size() >= 7 && c.substr(c.size() - 7) == "Warning"; };
  if (warning(entry) != warning(printed) && (entry_known || printed_known)) return {-50, -1};
  if (!printed_known || !entry_known) return {-6, 0};  // maybe a subclass we cannot see
  return {-50, -1};
}

std::string FrozenModuleFile(std::string_view f) {
  constexpr std::string_view kFrozen = "<frozen ";
  if (f.size() <= kFrozen.size() + 1 || f.substr(0, kFrozen.size()) != kFrozen || f.back() != '>')
    return std::string(f);
  std::string mod(f.substr(kFrozen.size(), f.size() - kFrozen.size() - 1));
  std::replace(mod.begin(), mod.end(), '.', '/');
  return mod + ".py";
}

PathAgreement AgreePaths(std::string_view frame_file, std::string_view entry_path) {
  PathAgreement a;
  if (frame_file.empty() || entry_path.empty()) return a;
  std::string frozen;
  if (frame_file.front() == '<') {
    frozen = FrozenModuleFile(frame_file);
    frame_file = frozen;
  }
  ReversePath f{frame_file}, e{entry_path};
  std::string_view x, y;
  for (;;) {
    if (!e.Next(y)) {
      a.whole_entry = a.components > 0;
      return a;
    }
    if (!f.Next(x) || x != y) return a;
    ++a.components;
  }
}

bool FileMatches(std::string_view frame_file, std::string_view entry_path) {
  PathAgreement a = AgreePaths(frame_file, entry_path);
  return a.whole_entry || a.components >= 2;
}

bool FunctionMatches(std::string_view frame_fn, std::string_view entry_fn) {
  if (frame_fn.empty() || entry_fn.empty()) return false;
  return ShortClassName(frame_fn) == ShortClassName(entry_fn);
}

uint32_t CodeLineHash(std::string_view line) {
  uint32_t h = 2166136261u;
  bool any = false, space = false;
  for (char ch : line) {
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
      space = any;
      continue;
    }
    if (space) {
      h = (h ^ ' ') * 16777619u;
      space = false;
    }
    h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
    any = true;
  }
  return any ? (h == 0 ? 1 : h) : 0;
}

double Score(const CandidateEvidence& e) {
  double s = 0;
  const MessageEvidence& m = e.message;
  // Matching the whole message is worth most when the template's own text explains
  // it: "{msg} (at {pos})" matches every message of its shape, while a literal that
  // covers most of the message inside a longer line is the better evidence.
  if (m.kind == MessageEvidence::Kind::kFull) s += 45 + 55 * m.explained;
  else if (m.kind == MessageEvidence::Kind::kPartial) s += 20 + 50 * m.explained;
  s += 0.1 * std::min(m.literal, 120);
  s += e.class_score;
  const FrameEvidence& f = e.frames;
  if (f.raising_file) {
    s += f.raising_full_path ? 40 : 25;
    s += std::min(f.path_components, 6);  // the longest matching path suffix
    if (f.raising_function) s += 25;
    if (f.line_delta == 0) s += 40;
    else if (f.line_delta > 0 && f.line_delta <= 3) s += 15;
    else if (f.line_delta > 0 && f.line_delta <= 15) s += 5;
    // The same code line in another function is no evidence (`raise X(msg)` is
    // written in many places); in the raising function it survives moved lines.
    if (f.code && (f.raising_function || (f.line_delta >= 0 && f.line_delta <= 15))) s += 30;
    // The traceback says the error came from another function of this file: a
    // message that matches here too was raised there.
    if (f.function_known && !f.raising_function && (f.line_delta < 0 || f.line_delta > 15)) s -= 60;
  } else if (f.other_frame) {
    s += 10;
  }
  // Test code and vendored copies lose ties to library code, unless the
  // traceback says the error came from there.
  if ((e.flags & (kEntryInTests | kEntryVendored)) && !f.raising_file && !e.vendored_named) s -= 15;
  if (e.vendored_named) s += 6;
  if (e.foreign_class && !f.raising_file) s -= 45;
  if (e.package_hint) s += 6;
  if (e.class_only) s += 15;
  if (e.flags & kEntryOlderOnly) s -= 3;
  return s;
}

bool InsideWords(std::string_view t, size_t begin, size_t end) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (begin > end || end > t.size()) return false;
  if (begin > 0 && begin < t.size() && word(t[begin - 1]) && word(t[begin])) return false;
  if (end > 0 && end < t.size() && word(t[end - 1]) && word(t[end])) return false;
  // Inside a path: the whitespace-delimited token around either end holds a slash.
  auto token_has_slash = [&](size_t pos, bool backward) {
    if (backward) {
      for (size_t i = pos; i > 0; --i) {
        char c = t[i - 1];
        if (c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'') return false;
        if (c == '/' || c == '\\') return true;
      }
      return false;
    }
    for (size_t i = pos; i < t.size(); ++i) {
      char c = t[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'') return false;
      if (c == '/' || c == '\\') return true;
    }
    return false;
  };
  bool starts_mid_token = begin > 0 && t[begin - 1] != ' ' && t[begin - 1] != '\t' && t[begin - 1] != '\n';
  bool ends_mid_token = end < t.size() && t[end] != ' ' && t[end] != '\t' && t[end] != '\n';
  if (starts_mid_token && token_has_slash(begin, true)) return false;
  if (ends_mid_token && token_has_slash(end, false)) return false;
  return true;
}

FrameEvidence FramesFor(std::string_view entry_path, std::string_view entry_function, int entry_line,
                        uint32_t entry_code_hash, const std::vector<TracebackFrame>& frames) {
  FrameEvidence ev;
  if (frames.empty() || entry_path.empty()) return ev;
  const TracebackFrame& r = frames.back();
  PathAgreement a = AgreePaths(r.file, entry_path);
  if (a.whole_entry || a.components >= 2) {
    ev.raising_file = true;
    ev.raising_full_path = a.whole_entry;
    ev.path_components = a.components;
    ev.raising_function = FunctionMatches(r.function, entry_function);
    ev.function_known = !r.function.empty() && !entry_function.empty() && r.function != "<module>" &&
                        entry_function != "<module>";
    ev.line_delta = entry_line > 0 && r.line > 0 ? std::abs(r.line - entry_line) : -1;
    ev.code = entry_code_hash != 0 && entry_code_hash == CodeLineHash(r.code);
    return ev;
  }
  for (size_t i = 0; i + 1 < frames.size(); ++i) {
    if (FileMatches(frames[i].file, entry_path) && FunctionMatches(frames[i].function, entry_function)) {
      ev.other_frame = true;
      break;
    }
  }
  return ev;
}

bool AnyFrameNames(const std::vector<TracebackFrame>& frames, std::string_view entry_path) {
  for (const TracebackFrame& f : frames)
    if (FileMatches(f.file, entry_path)) return true;
  return false;
}

void PackageHints(const std::vector<TracebackFrame>& frames, std::string_view printed_class,
                  std::vector<std::string>* out) {
  auto add = [&](std::string_view p) {
    if (p.empty() || p.size() > 64) return;
    for (const std::string& have : *out)
      if (have == p) return;
    out->emplace_back(p);
  };
  for (const TracebackFrame& f : frames) {
    for (std::string_view marker : {std::string_view("site-packages/"), std::string_view("dist-packages/")}) {
      size_t p = f.file.find(marker);
      if (p == std::string::npos) continue;
      std::string_view rest = std::string_view(f.file).substr(p + marker.size());
      size_t slash = rest.find('/');
      std::string_view top = slash == std::string_view::npos ? rest : rest.substr(0, slash);
      if (top.size() > 3 && top.substr(top.size() - 3) == ".py") top.remove_suffix(3);
      add(top);
    }
  }
  size_t dot = printed_class.find('.');
  if (dot != std::string_view::npos && dot > 0) add(printed_class.substr(0, dot));
}

bool NamesPackage(const std::vector<std::string>& packages, std::string_view path, std::string_view repo) {
  if (packages.empty()) return false;
  size_t slash = repo.rfind('/');
  std::string_view repo_name = slash == std::string_view::npos ? repo : repo.substr(slash + 1);
  for (const std::string& p : packages) {
    if (repo_name == p) return true;
    ReversePath rp{path};
    std::string_view c;
    bool file = true;
    while (rp.Next(c)) {
      if (file) {  // "six.py" is the package six
        file = false;
        if (c.size() == p.size() + 3 && c.substr(0, p.size()) == p && c.substr(p.size()) == ".py") return true;
        continue;
      }
      if (c == p) return true;
    }
  }
  return false;
}

bool VendoredCopyNamed(std::string_view printed_class, std::string_view entry_path) {
  size_t last = printed_class.rfind('.');
  if (last == std::string_view::npos || last == 0) return false;
  std::string module(printed_class.substr(0, last));
  std::replace(module.begin(), module.end(), '.', '/');
  // The module is a package ("pip._vendor.tomli", re-exported) or a file of one
  // ("pip._vendor.pygments.util" is pip/_vendor/pygments/util.py, whose sites
  // share pip/_vendor/pygments/): its directory, else its parent's.
  for (int up = 0; up < 2; ++up) {
    std::string dir = module;
    if (up == 1) {
      size_t slash = dir.rfind('/');
      if (slash == std::string::npos) return false;
      dir.resize(slash);
    }
    dir += '/';
    size_t at = entry_path.find(dir);
    if (at == std::string_view::npos || (at > 0 && entry_path[at - 1] != '/')) continue;
    // Only a module path through the vendor directory itself says which copy.
    ReversePath rp{std::string_view(dir)};
    std::string_view c;
    while (rp.Next(c))
      if (IsVendorComponent(c)) return true;
    return false;
  }
  return false;
}

bool FramesCertain(const FrameEvidence& f, int class_agreement) {
  if (!f.raising_file || class_agreement < 0) return false;
  if (f.line_delta == 0 || (f.code && (f.raising_function || !f.function_known))) return true;
  // The raising function, a line or three away: the same statement in a version
  // whose lines moved a little.
  return f.raising_function && f.line_delta > 0 && f.line_delta <= 3;
}

}  // namespace errdex
