// Rust, Go, Java and C++ error reports -> exception sections (see foreign_traces.h).
#include "match/foreign_traces.h"

#include <cstring>
#include <string>

namespace errdex {

namespace {

constexpr size_t kMaxFollow = 256;  // lines followed after one report's first line

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view LTrim(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

int ToInt(std::string_view s) {
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' || v > 100000000) break;
    v = v * 10 + (c - '0');
  }
  return v;
}

// "path:12:5" or "path:12" -> (path, 12); false when there is no line number.
bool SplitLocation(std::string_view loc, std::string& file, int& line) {
  size_t c2 = loc.rfind(':');
  if (c2 == std::string_view::npos) return false;
  std::string_view last = loc.substr(c2 + 1);
  std::string_view head = loc.substr(0, c2);
  size_t c1 = head.rfind(':');
  if (c1 != std::string_view::npos && IsDigits(head.substr(c1 + 1)) && IsDigits(last)) {
    line = ToInt(head.substr(c1 + 1));
    head = head.substr(0, c1);
  } else if (IsDigits(last)) {
    line = ToInt(last);
  } else {
    return false;
  }
  if (StartsWith(head, "./")) head.remove_prefix(2);
  if (head.empty()) return false;
  file = std::string(head);
  return true;
}

struct Cursor {
  const std::vector<const NormalizedLine*>& lines;
  std::vector<bool>& consumed;
  bool Has(size_t i) const { return i < lines.size() && !consumed[i]; }
  std::string_view Text(size_t i) const { return lines[i]->text; }
};

// Message lines after a header: until a blank line or a line `stop` accepts.
template <typename Stop>
size_t TakeMessageLines(Cursor& c, size_t from, size_t max_lines, ExceptionSection& sec, Stop&& stop) {
  size_t j = from;
  while (c.Has(j) && sec.message_lines.size() < max_lines) {
    std::string_view t = c.Text(j);
    if (t.empty() || stop(t)) break;
    sec.message_lines.emplace_back(j, 0);
    c.consumed[j] = true;
    ++j;
  }
  return j;
}

// ---------------------------------------------------------------------------
// Rust.

// crate::module::Type::method -> Type.method; crate::f -> f (closures and generic
// arguments dropped), as the Rust front end names functions.
std::string RustFunction(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t k = path.find("::", i);
    std::string_view p = path.substr(i, k == std::string_view::npos ? std::string_view::npos : k - i);
    if (!p.empty() && p[0] != '{' && p[0] != '<') parts.push_back(p);
    if (k == std::string_view::npos) break;
    i = k + 2;
  }
  if (parts.empty()) return {};
  std::string fn(parts.back());
  if (parts.size() >= 2 && !parts[parts.size() - 2].empty() && parts[parts.size() - 2][0] >= 'A' &&
      parts[parts.size() - 2][0] <= 'Z')
    fn = std::string(parts[parts.size() - 2]) + "." + fn;
  return fn;
}

bool ParseRust(Cursor& c, size_t i, size_t max_lines, std::vector<ExceptionSection>& out) {
  std::string_view t = c.Text(i);
  if (!StartsWith(t, "thread '")) return false;
  size_t at = t.find(" panicked at ");
  if (at == std::string_view::npos) return false;
  ExceptionSection sec;
  sec.printed_class = "panic";
  sec.short_class = "panic";
  sec.class_line = i;
  c.consumed[i] = true;
  size_t rest_begin = at + 13;
  std::string_view rest = t.substr(rest_begin);
  std::string_view loc;
  size_t j = i + 1;
  if (!rest.empty() && rest[0] == '\'') {  // before Rust 1.73: 'message', file:line:col
    size_t q = rest.rfind("', ");
    if (q != std::string_view::npos && q > 0) {
      loc = rest.substr(q + 3);
      sec.message_lines.emplace_back(i, rest_begin + 1);
    } else {
      sec.message_lines.emplace_back(i, rest_begin + 1);
    }
  } else {
    loc = rest;
    if (!loc.empty() && loc.back() == ':') loc.remove_suffix(1);
    j = TakeMessageLines(c, i + 1, max_lines, sec, [](std::string_view x) {
      return StartsWith(x, "note: ") || StartsWith(x, "stack backtrace:");
    });
  }
  TracebackFrame where;
  if (SplitLocation(loc, where.file, where.line)) sec.frames.push_back(where);
  // stack backtrace:  N: path::fn  /  at file:line:col  ...  note: ...
  if (c.Has(j) && StartsWith(c.Text(j), "stack backtrace:")) {
    c.consumed[j++] = true;
    std::string function;
    for (size_t k = 0; k < kMaxFollow && c.Has(j); ++k, ++j) {
      std::string_view x = LTrim(c.Text(j));
      size_t colon = x.find(": ");
      if (StartsWith(x, "at ")) {
        TracebackFrame f;
        if (SplitLocation(x.substr(3), f.file, f.line) && f.file.find("/rustc") == std::string::npos &&
            f.file.find("rustc-") == std::string::npos) {
          f.function = function;
          sec.frames.insert(sec.frames.begin(), f);  // printed innermost first
        }
      } else if (colon != std::string_view::npos && IsDigits(x.substr(0, colon))) {
        function = RustFunction(x.substr(colon + 2));
      } else if (StartsWith(x, "note: ")) {
        c.consumed[j++] = true;
        break;
      } else {
        break;
      }
      c.consumed[j] = true;
    }
  } else if (c.Has(j) && StartsWith(c.Text(j), "note: ")) {
    c.consumed[j] = true;
  }
  out.push_back(std::move(sec));
  return true;
}

// ---------------------------------------------------------------------------
// Go.

// main.(*Server).pick -> Server.pick; main.main.func1 -> main; pkg/sub.F -> F.
std::string GoFunction(std::string_view name) {
  size_t slash = name.rfind('/');
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  size_t dot = name.find('.');
  if (dot == std::string_view::npos) return std::string(name);
  std::string s(name.substr(dot + 1));
  for (std::string_view junk : {"(*", ")"}) {
    for (size_t p; (p = s.find(junk)) != std::string::npos;) s.erase(p, junk.size());
  }
  // closures: f.func1, f.func1.2
  for (;;) {
    size_t d = s.rfind('.');
    if (d == std::string::npos) break;
    std::string_view tail(s.data() + d + 1, s.size() - d - 1);
    if (IsDigits(tail) || (StartsWith(tail, "func") && IsDigits(tail.substr(4)))) s.resize(d);
    else break;
  }
  return s;
}

bool ParseGo(Cursor& c, size_t i, size_t max_lines, std::vector<ExceptionSection>& out) {
  std::string_view t = c.Text(i);
  if (!StartsWith(t, "panic: ")) return false;
  ExceptionSection sec;
  sec.printed_class = "panic";
  sec.short_class = "panic";
  sec.class_line = i;
  c.consumed[i] = true;
  sec.message_lines.emplace_back(i, 7);
  size_t j = TakeMessageLines(c, i + 1, max_lines > 0 ? max_lines - 1 : 0, sec,
                              [](std::string_view x) { return StartsWith(x, "goroutine "); });
  while (c.Has(j) && c.Text(j).empty()) c.consumed[j++] = true;
  if (c.Has(j) && StartsWith(c.Text(j), "goroutine ")) {
    c.consumed[j++] = true;
    std::string function;
    for (size_t k = 0; k < kMaxFollow && c.Has(j); ++k, ++j) {
      std::string_view raw = c.Text(j);
      std::string_view x = LTrim(raw);
      if (raw.empty()) {
        c.consumed[j] = true;
        if (c.Has(j + 1) && StartsWith(c.Text(j + 1), "goroutine ")) continue;
        ++j;
        break;
      }
      if (raw[0] == '\t' || raw[0] == ' ') {  // \t/path/file.go:30 +0x12d
        size_t go = x.find(".go:");
        if (go == std::string_view::npos) break;
        size_t end = go + 4;
        while (end < x.size() && x[end] >= '0' && x[end] <= '9') ++end;
        TracebackFrame f;
        f.file = std::string(x.substr(0, go + 3));
        f.line = ToInt(x.substr(go + 4, end - go - 4));
        f.function = function;
        sec.frames.insert(sec.frames.begin(), std::move(f));  // printed innermost first
      } else if (StartsWith(x, "goroutine ") || StartsWith(x, "created by ") || StartsWith(x, "exit status")) {
        function.clear();
      } else {
        size_t paren = x.rfind('(');
        if (paren == std::string_view::npos || paren == 0) break;
        function = GoFunction(x.substr(0, paren));
      }
      c.consumed[j] = true;
    }
  }
  out.push_back(std::move(sec));
  return true;
}

// ---------------------------------------------------------------------------
// Java.

bool IsJavaClassName(std::string_view s) {
  if (s.empty() || s.size() > 300) return false;
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '$' ||
          ch == '.'))
      return false;
  return true;
}

// "at java.base/p.App$Pool.pick(App.java:8)" -> frame {p/App.java, 8, App.Pool.pick}.
bool JavaFrame(std::string_view x, TracebackFrame& f) {
  if (!StartsWith(x, "at ")) return false;
  x.remove_prefix(3);
  size_t open = x.find('(');
  size_t close = x.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
  std::string_view qualified = x.substr(0, open);
  std::string_view where = x.substr(open + 1, close - open - 1);
  if (size_t slash = qualified.find('/'); slash != std::string_view::npos) qualified.remove_prefix(slash + 1);
  size_t dot = qualified.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view method = qualified.substr(dot + 1);
  std::string_view cls = qualified.substr(0, dot);
  if (StartsWith(method, "lambda$")) {  // lambda$m$0 -> m
    method.remove_prefix(7);
    method = method.substr(0, method.find('$'));
  }
  size_t pkg_end = cls.rfind('.');
  std::string_view pkg = pkg_end == std::string_view::npos ? std::string_view() : cls.substr(0, pkg_end);
  std::string simple(pkg_end == std::string_view::npos ? cls : cls.substr(pkg_end + 1));
  for (char& ch : simple)
    if (ch == '$') ch = '.';
  f.function = simple + "." + std::string(method);
  size_t colon = where.rfind(':');
  std::string_view file = colon == std::string_view::npos ? where : where.substr(0, colon);
  f.line = colon == std::string_view::npos ? 0 : ToInt(where.substr(colon + 1));
  std::string dir(pkg);
  for (char& ch : dir)
    if (ch == '.') ch = '/';
  f.file = dir.empty() ? std::string(file) : dir + "/" + std::string(file);
  return true;
}

bool ParseJava(Cursor& c, size_t i, size_t max_lines, std::vector<ExceptionSection>& out) {
  std::string_view t = LTrim(c.Text(i));
  std::string_view rest;
  bool chained = false;
  if (StartsWith(t, "Exception in thread \"")) {
    size_t q = t.find("\" ", 21);
    if (q == std::string_view::npos) return false;
    rest = t.substr(q + 2);
  } else if (StartsWith(t, "Caused by: ")) {
    rest = t.substr(11);
    chained = true;
  } else if (StartsWith(t, "Suppressed: ")) {
    rest = t.substr(12);
    chained = true;
  } else {
    // A logged exception: "pkg.SomeException: message" right before "at" lines.
    TracebackFrame probe;
    if (!c.Has(i + 1) || !JavaFrame(LTrim(c.Text(i + 1)), probe)) return false;
    rest = t;
  }
  size_t colon = rest.find(": ");
  std::string_view cls = colon == std::string_view::npos ? rest : rest.substr(0, colon);
  if (!IsJavaClassName(cls) || cls.find('.') == std::string_view::npos) return false;
  ExceptionSection sec;
  sec.printed_class = std::string(cls);
  sec.short_class = std::string(ShortClassName(cls));
  sec.class_line = i;
  sec.chained = chained;
  c.consumed[i] = true;
  if (colon != std::string_view::npos) {
    size_t offset = static_cast<size_t>(rest.data() - c.Text(i).data()) + colon + 2;
    sec.message_lines.emplace_back(i, offset);
  }
  size_t j = TakeMessageLines(c, i + 1, colon == std::string_view::npos ? 0 : max_lines - 1, sec, [](std::string_view x) {
    std::string_view y = LTrim(x);
    return StartsWith(y, "at ") || StartsWith(y, "Caused by: ") || StartsWith(y, "... ");
  });
  for (size_t k = 0; k < kMaxFollow && c.Has(j); ++k, ++j) {
    std::string_view x = LTrim(c.Text(j));
    TracebackFrame f;
    if (JavaFrame(x, f)) {
      sec.frames.insert(sec.frames.begin(), std::move(f));  // printed innermost first
    } else if (!(StartsWith(x, "... ") && x.find(" more") != std::string_view::npos)) {
      break;
    }
    c.consumed[j] = true;
  }
  out.push_back(std::move(sec));
  return true;
}

// ---------------------------------------------------------------------------
// C++.

// What Python (and the catalog's TORCH_CHECK entries) call the c10 exceptions.
std::string CppPrintedClass(std::string_view cls) {
  static const std::pair<std::string_view, std::string_view> kC10[] = {
      {"c10::Error", "RuntimeError"}, {"c10::ValueError", "ValueError"}, {"c10::TypeError", "TypeError"},
      {"c10::IndexError", "IndexError"}, {"c10::NotImplementedError", "NotImplementedError"},
      {"c10::LinAlgError", "LinAlgError"}, {"c10::OutOfMemoryError", "OutOfMemoryError"},
      {"c10::EnforceFiniteError", "RuntimeError"}, {"c10::DistError", "RuntimeError"}};
  for (const auto& [k, v] : kC10)
    if (cls == k) return std::string(v);
  return std::string(cls);
}

// "Exception raised from check at k.cpp:4 (most recent call first):"
bool CppRaisedFrom(std::string_view x, TracebackFrame& f) {
  if (!StartsWith(x, "Exception raised from ")) return false;
  x.remove_prefix(22);
  size_t at = x.find(" at ");
  if (at == std::string_view::npos) return false;
  f.function = std::string(x.substr(0, at));
  std::string_view loc = x.substr(at + 4);
  if (size_t sp = loc.find(" ("); sp != std::string_view::npos) loc = loc.substr(0, sp);
  return SplitLocation(loc, f.file, f.line);
}

bool ParseCpp(Cursor& c, size_t i, size_t max_lines, std::vector<ExceptionSection>& out) {
  std::string_view t = c.Text(i);
  constexpr std::string_view kTerminate = "terminate called after throwing an instance of '";
  if (!StartsWith(t, kTerminate)) return false;
  size_t q = t.find('\'', kTerminate.size());
  if (q == std::string_view::npos) return false;
  ExceptionSection sec;
  sec.printed_class = CppPrintedClass(t.substr(kTerminate.size(), q - kTerminate.size()));
  sec.short_class = sec.printed_class;
  sec.class_line = i;
  c.consumed[i] = true;
  size_t j = i + 1;
  if (c.Has(j)) {
    std::string_view w = c.Text(j);
    size_t what = w.find("what():");
    if (what != std::string_view::npos) {
      size_t b = what + 7;
      while (b < w.size() && w[b] == ' ') ++b;
      sec.message_lines.emplace_back(j, b);
      c.consumed[j++] = true;
      j = TakeMessageLines(c, j, max_lines > 0 ? max_lines - 1 : 0, sec, [](std::string_view x) {
        return StartsWith(x, "Exception raised from ") || StartsWith(x, "frame #");
      });
    }
  }
  TracebackFrame f;
  if (c.Has(j) && CppRaisedFrom(c.Text(j), f)) {
    sec.frames.push_back(std::move(f));
    c.consumed[j++] = true;
  }
  for (size_t k = 0; k < kMaxFollow && c.Has(j) && StartsWith(c.Text(j), "frame #"); ++k) c.consumed[j++] = true;
  out.push_back(std::move(sec));
  return true;
}

// Marks the line holding `pos` and, with `follow`, the lines after it up to a blank
// line (at most kMaxFollow); with `previous`, the line before it too.
void MarkLines(std::string_view text, size_t pos, bool follow, bool previous, std::vector<size_t>& out) {
  size_t b = pos;
  while (b > 0 && text[b - 1] != '\n') --b;
  if (previous && b > 0) {
    size_t p = b - 1;
    while (p > 0 && text[p - 1] != '\n') --p;
    out.push_back(p);
  }
  out.push_back(b);
  if (!follow) return;
  size_t e = text.find('\n', b);
  for (size_t k = 0; k < kMaxFollow && e != std::string_view::npos && e + 1 < text.size(); ++k) {
    size_t nb = e + 1;
    size_t ne = text.find('\n', nb);
    std::string_view line = text.substr(nb, (ne == std::string_view::npos ? text.size() : ne) - nb);
    if (line.empty() || line == "\r") {
      // a Go trace goes on after a blank line with the next goroutine
      if (!StartsWith(text.substr(ne == std::string_view::npos ? text.size() : ne + 1), "goroutine ")) break;
    }
    out.push_back(nb);
    e = ne;
  }
}

}  // namespace

std::vector<size_t> ForeignTraceLines(std::string_view text) {
  std::vector<size_t> out;
  struct Needle {
    std::string_view bytes;
    bool follow, previous;
  };
  static constexpr Needle kNeedles[] = {
      {" panicked at ", true, false},      {"panic: ", true, false},          {"Exception in thread \"", true, false},
      {"Caused by: ", true, false},        {"\tat ", false, true},            {"terminate called after throwing", true, false},
  };
  for (const Needle& n : kNeedles) {
    size_t pos = 0;
    for (size_t guard = 0; guard < 100000; ++guard) {
      const void* p = memmem(text.data() + pos, text.size() - pos, n.bytes.data(), n.bytes.size());
      if (!p) break;
      size_t at = static_cast<size_t>(static_cast<const char*>(p) - text.data());
      MarkLines(text, at, n.follow, n.previous, out);
      size_t next = text.find('\n', at);
      if (next == std::string_view::npos) break;
      pos = next + 1;
    }
  }
  return out;
}

void ParseForeignTraces(const std::vector<const NormalizedLine*>& lines, size_t max_message_lines,
                        std::vector<bool>& consumed, std::vector<ExceptionSection>& out) {
  Cursor c{lines, consumed};
  size_t max_lines = max_message_lines > 0 ? max_message_lines : 1;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (consumed[i]) continue;
    if (ParseRust(c, i, max_lines, out) || ParseGo(c, i, max_lines, out) || ParseJava(c, i, max_lines, out) ||
        ParseCpp(c, i, max_lines, out))
      continue;
  }
}

}  // namespace errdex
