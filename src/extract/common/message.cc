#include "extract/common/message.h"

#include <algorithm>
#include <cctype>

#include "model/pattern.h"

namespace errdex::msg {

void Append(Segs& segs, Seg seg) {
  if (!seg.hole && seg.text.empty()) return;
  if (!seg.hole && !segs.empty() && !segs.back().hole) {
    segs.back().text += seg.text;
    return;
  }
  segs.push_back(std::move(seg));
}

void AppendAll(Segs& segs, const Segs& more) {
  for (const Seg& s : more) Append(segs, s);
}

Alts Concat(const Alts& a, const Alts& b) {
  Alts out;
  for (const Segs& x : a) {
    for (const Segs& y : b) {
      if (out.size() >= kMaxAlternatives) return out;
      Segs s = x;
      AppendAll(s, y);
      out.push_back(std::move(s));
    }
  }
  return out;
}

size_t Bytes(const Alts& alts) {
  size_t most = 0;
  for (const Segs& a : alts) {
    size_t n = 0;
    for (const Seg& s : a) n += s.text.size();
    most = std::max(most, n);
  }
  return most;
}

bool IsEmpty(const Segs& segs) {
  for (const Seg& s : segs)
    if (s.hole || !s.text.empty()) return false;
  return true;
}

bool HasLiteral(const Segs& segs) {
  for (const Seg& s : segs)
    if (!s.hole && !s.text.empty()) return true;
  return false;
}

Segs Single(const Alts& alts, std::string_view expr) {
  if (alts.size() == 1) return alts[0];
  return Segs{Hole(std::string(expr))};
}

namespace {

struct Rendered {
  std::optional<std::string> message;
  std::string pattern;
  std::vector<std::string> holes;
};

Rendered RenderOne(const Segs& segs) {
  Rendered r;
  bool prev_hole = false;
  std::string text;
  for (const Seg& s : segs) {
    if (s.hole) {
      text += "{" + s.text + "}";
      if (!prev_hole) r.pattern += kHoleGroup;
      prev_hole = true;
      r.holes.push_back(s.text);
    } else if (!s.text.empty()) {
      text += s.text;
      r.pattern += EscapePatternLiteral(s.text);
      prev_hole = false;
    }
  }
  if (HasLiteral(segs)) r.message = std::move(text);
  return r;
}

}  // namespace

void RenderInto(Site& site, const Alts& alts) {
  std::vector<Rendered> rendered;
  rendered.reserve(alts.size());
  for (const Segs& a : alts) rendered.push_back(RenderOne(a));
  const Rendered* first = nullptr;
  for (const Rendered& r : rendered)
    if (r.message && !first) first = &r;
  if (!first) return;
  site.error_message = *first->message;
  site.interpolations = first->holes;
  std::vector<std::string> patterns, messages;
  for (const Rendered& r : rendered) {
    std::string p = r.message ? r.pattern : std::string(kHoleGroup);
    if (std::find(patterns.begin(), patterns.end(), p) == patterns.end()) patterns.push_back(std::move(p));
    if (r.message && std::find(messages.begin(), messages.end(), *r.message) == messages.end())
      messages.push_back(*r.message);
  }
  if (patterns.size() == 1) {
    site.message_pattern = patterns[0];
  } else {
    std::string p = "(?:";
    for (size_t i = 0; i < patterns.size(); ++i) p += (i ? "|" : "") + patterns[i];
    site.message_pattern = p + ")";
  }
  if (messages.size() > 1) site.message_alternatives = std::move(messages);
}

// ---------------------------------------------------------------------------
// printf dialects.

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// An argument index written in a message ("{12}", "%2$s", "%[3]d"): digits only,
// saturating at a value no call has as many arguments (std::stoul threw
// out_of_range on "{66666666666666666666}" and the scan died: found by fuzzing).
size_t ArgIndex(std::string_view digits) {
  constexpr size_t kMax = 1u << 20;
  size_t v = 0;
  for (char c : digits) {
    v = v * 10 + static_cast<size_t>(c - '0');
    if (v > kMax) return kMax;
  }
  return v;
}
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Text of an argument as one hole (a conversion that does not print it as is).
Seg AsHole(const Segs& arg) {
  if (arg.size() == 1 && arg[0].hole) return arg[0];
  std::string t;
  for (const Seg& s : arg) t += s.hole ? "{" + s.text + "}" : s.text;
  return Hole(t);
}

// Go's strconv.Quote of a string known in full (ASCII escapes; UTF-8 kept).
std::string GoQuote(const Segs& value) {
  std::string q = "\"";
  for (const Seg& s : value) {
    for (char ch : s.text) {
      unsigned char c = static_cast<unsigned char>(ch);
      switch (ch) {
        case '"': q += "\\\""; break;
        case '\\': q += "\\\\"; break;
        case '\n': q += "\\n"; break;
        case '\r': q += "\\r"; break;
        case '\t': q += "\\t"; break;
        case '\a': q += "\\a"; break;
        case '\b': q += "\\b"; break;
        case '\f': q += "\\f"; break;
        case '\v': q += "\\v"; break;
        default:
          if (c < 0x20 || c == 0x7f) {
            static const char kHex[] = "0123456789abcdef";
            q += "\\x";
            q.push_back(kHex[c >> 4]);
            q.push_back(kHex[c & 15]);
          } else {
            q.push_back(ch);
          }
      }
    }
  }
  return q + "\"";
}

// Conversions that print a string argument as it is.
bool PrintsAsIs(char conv, Printf dialect) {
  switch (dialect) {
    case Printf::kC: return conv == 's' || conv == 'd' || conv == 'i' || conv == 'u' || conv == 'S' || conv == 'U';
    case Printf::kGo: return conv == 's' || conv == 'v' || conv == 'd';
    case Printf::kJava: return conv == 's' || conv == 'S' || conv == 'd';
    case Printf::kGuava: return true;
  }
  return false;
}

}  // namespace

Segs ApplyPrintf(const Segs& format, const std::vector<Segs>& args, Printf dialect) {
  Segs out;
  size_t next = 0;  // next positional argument
  auto take = [&](size_t index) -> const Segs* {
    if (index < args.size()) return &args[index];
    return nullptr;
  };
  for (const Seg& seg : format) {
    if (seg.hole) {
      Append(out, seg);
      continue;
    }
    const std::string& t = seg.text;
    std::string lit;
    size_t i = 0, n = t.size();
    while (i < n) {
      char c = t[i];
      if (c != '%') {
        lit.push_back(c);
        ++i;
        continue;
      }
      if (i + 1 < n && t[i + 1] == '%') {
        lit.push_back('%');
        i += 2;
        continue;
      }
      if (dialect == Printf::kGuava) {
        if (i + 1 < n && t[i + 1] == 's' && next < args.size()) {
          Append(out, Lit(std::move(lit)));
          lit.clear();
          AppendAll(out, args[next++]);
          i += 2;
        } else {
          lit.push_back('%');
          ++i;
        }
        continue;
      }
      // Parse one conversion specification.
      size_t j = i + 1;
      std::optional<size_t> explicit_index;
      if (dialect == Printf::kJava) {
        size_t k = j;
        while (k < n && IsDigit(t[k])) ++k;
        if (k > j && k < n && t[k] == '$') {
          explicit_index = ArgIndex(std::string_view(t).substr(j, k - j)) - 1;
          j = k + 1;
        } else if (j < n && t[j] == '<') {
          explicit_index = next == 0 ? 0 : next - 1;
          ++j;
        }
      }
      while (j < n && (t[j] == '-' || t[j] == '+' || t[j] == ' ' || t[j] == '#' || t[j] == '0' ||
                       t[j] == '\'' || (dialect == Printf::kJava && (t[j] == ',' || t[j] == '(')))) ++j;
      if (dialect == Printf::kGo && j < n && t[j] == '[') {
        size_t k = j + 1;
        while (k < n && IsDigit(t[k])) ++k;
        if (k < n && t[k] == ']' && k > j + 1) {
          explicit_index = ArgIndex(std::string_view(t).substr(j + 1, k - j - 1)) - 1;
          j = k + 1;
        }
      }
      if (j < n && t[j] == '*') {
        if (dialect != Printf::kJava) ++next;
        ++j;
      } else {
        while (j < n && IsDigit(t[j])) ++j;
      }
      if (j < n && t[j] == '.') {
        ++j;
        if (j < n && t[j] == '*') {
          if (dialect != Printf::kJava) ++next;
          ++j;
        } else {
          while (j < n && IsDigit(t[j])) ++j;
        }
      }
      if (dialect == Printf::kC) {
        while (j < n && (t[j] == 'h' || t[j] == 'l' || t[j] == 'z' || t[j] == 'j' || t[j] == 't' || t[j] == 'L' ||
                         t[j] == 'q'))
          ++j;
      }
      if (j >= n || !IsAlpha(t[j])) {  // not a conversion: the '%' is text
        lit.push_back('%');
        ++i;
        continue;
      }
      char conv = t[j];
      if (dialect == Printf::kJava && (conv == 't' || conv == 'T') && j + 1 < n) ++j;  // %tY
      ++j;
      if (dialect == Printf::kJava && conv == 'n') {
        lit.push_back('\n');
        i = j;
        continue;
      }
      if (dialect == Printf::kC && conv == 'n') {  // writes, prints nothing
        i = j;
        continue;
      }
      Append(out, Lit(std::move(lit)));
      lit.clear();
      size_t index = explicit_index ? *explicit_index : next++;
      if (explicit_index && dialect == Printf::kGo) next = index + 1;
      const Segs* arg = take(index);
      if (!arg) {
        Append(out, Hole(t.substr(i, j - i)));
      } else if (dialect == Printf::kGo && conv == 'q' && std::none_of(arg->begin(), arg->end(), [](const Seg& s) {
                   return s.hole;
                 })) {
        Append(out, Lit(GoQuote(*arg)));  // %q of a known string: strconv.Quote
      } else if (PrintsAsIs(conv, dialect)) {
        AppendAll(out, *arg);
      } else {
        Append(out, AsHole(*arg));
      }
      i = j;
    }
    Append(out, Lit(std::move(lit)));
  }
  if (dialect == Printf::kGuava && next < args.size()) {
    Append(out, Lit(" ["));
    for (size_t k = next; k < args.size(); ++k) {
      if (k > next) Append(out, Lit(", "));
      AppendAll(out, args[k]);
    }
    Append(out, Lit("]"));
  }
  return out;
}

// ---------------------------------------------------------------------------
// {} dialects.

Segs ApplyBraces(const Segs& format, const std::vector<Segs>& args, Braces dialect,
                 const std::vector<NamedArg>& named) {
  Segs out;
  size_t next = 0;
  // Rust's {:?} of a string known in full prints it quoted, with escape_debug.
  auto append_arg = [&](const Segs& value, bool debug) {
    if (debug && std::none_of(value.begin(), value.end(), [](const Seg& s) { return s.hole; })) {
      std::string q = "\"";
      for (const Seg& s : value) {
        for (char ch : s.text) {
          switch (ch) {
            case '"': q += "\\\""; break;
            case '\\': q += "\\\\"; break;
            case '\n': q += "\\n"; break;
            case '\r': q += "\\r"; break;
            case '\t': q += "\\t"; break;
            case '\0': q += "\\0"; break;
            default: q.push_back(ch);
          }
        }
      }
      Append(out, Lit(q + "\""));
      return;
    }
    AppendAll(out, value);
  };
  bool debug = false;
  auto positional = [&](size_t index, std::string_view as_written) {
    if (index < args.size()) {
      append_arg(args[index], debug);
    } else {
      // shown as written: {0} / {} / {:?} rather than {{0}}
      std::string_view inner = as_written.size() >= 2 ? as_written.substr(1, as_written.size() - 2) : as_written;
      Append(out, Hole(std::string(inner)));
    }
  };
  for (const Seg& seg : format) {
    if (seg.hole) {
      Append(out, seg);
      continue;
    }
    const std::string& t = seg.text;
    std::string lit;
    size_t i = 0, n = t.size();
    while (i < n) {
      char c = t[i];
      if (dialect == Braces::kSlf4j) {
        if (c == '\\' && i + 2 < n && t[i + 1] == '{' && t[i + 2] == '}') {  // \{} prints {}
          lit += "{}";
          i += 3;
        } else if (c == '{' && i + 1 < n && t[i + 1] == '}') {
          Append(out, Lit(std::move(lit)));
          lit.clear();
          if (next < args.size()) {
            AppendAll(out, args[next++]);
          } else {
            lit += "{}";  // no argument left: SLF4J prints the braces
          }
          i += 2;
        } else {
          lit.push_back(c);
          ++i;
        }
        continue;
      }
      if (dialect == Braces::kMessageFormat && c == '\'') {
        if (i + 1 < n && t[i + 1] == '\'') {
          lit.push_back('\'');
          i += 2;
          continue;
        }
        size_t close = t.find('\'', i + 1);
        if (close == std::string::npos) close = n;
        lit += t.substr(i + 1, close - i - 1);
        i = close + 1;
        continue;
      }
      if (c == '{' && dialect != Braces::kMessageFormat && i + 1 < n && t[i + 1] == '{') {
        lit.push_back('{');
        i += 2;
        continue;
      }
      if (c == '}' && dialect != Braces::kMessageFormat && i + 1 < n && t[i + 1] == '}') {
        lit.push_back('}');
        i += 2;
        continue;
      }
      if (c != '{') {
        lit.push_back(c);
        ++i;
        continue;
      }
      size_t close = t.find('}', i + 1);
      if (close == std::string::npos) {  // malformed: text
        lit += t.substr(i);
        break;
      }
      std::string_view field(t.data() + i + 1, close - i - 1);
      std::string_view whole(t.data() + i, close - i + 1);
      size_t stop = field.find_first_of(dialect == Braces::kMessageFormat ? "," : ":");
      std::string_view id = field.substr(0, stop);
      std::string_view spec = stop == std::string_view::npos ? std::string_view{} : field.substr(stop + 1);
      while (!id.empty() && id.front() == ' ') id.remove_prefix(1);
      while (!id.empty() && id.back() == ' ') id.remove_suffix(1);
      Append(out, Lit(std::move(lit)));
      lit.clear();
      debug = dialect == Braces::kRust && !spec.empty() && spec.back() == '?';
      if (id.empty()) {
        if (dialect == Braces::kMessageFormat) {
          Append(out, Hole(std::string(whole)));
        } else {
          positional(next++, whole);
        }
      } else if (std::all_of(id.begin(), id.end(), [](char ch) { return IsDigit(ch); })) {
        positional(ArgIndex(id), whole);
      } else {
        bool found = false;
        for (const NamedArg& a : named) {
          if (a.name == id) {
            append_arg(a.value, debug);
            found = true;
            break;
          }
        }
        if (!found) Append(out, Hole(std::string(id)));
      }
      i = close + 1;
    }
    Append(out, Lit(std::move(lit)));
  }
  return out;
}

}  // namespace errdex::msg
