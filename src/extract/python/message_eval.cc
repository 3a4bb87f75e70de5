// Segment algebra and rendering (see message_eval.h). Mirrors oracle_py.py's
// expand / per_alt / map_text / render_one / render and CPython's
// string.Formatter parsing and textwrap.dedent / inspect.cleandoc.
#include "extract/python/message_eval.h"

#include "model/pattern.h"

namespace errdex::py {

bool HasAlt(const Segs& segs) {
  for (const Seg& s : segs)
    if (s.type == Seg::kAlt) return true;
  return false;
}

std::vector<Segs> Expand(const Segs& segs) {
  std::vector<Segs> outs(1);
  for (const Seg& s : segs) {
    if (s.type == Seg::kAlt) {
      std::vector<Segs> subs;
      for (const Segs& o : s.options) {
        std::vector<Segs> e = Expand(o);
        for (Segs& x : e) subs.push_back(std::move(x));
      }
      size_t cap = outs.size() == 1 ? kMaxReadAlternatives : kMaxAlternatives;
      if (outs.size() * subs.size() > cap) {
        for (Segs& o : outs) o.push_back(Seg::Hole("..."));
        continue;
      }
      std::vector<Segs> next;
      for (const Segs& o : outs)
        for (const Segs& sub : subs) {
          Segs c = o;
          c.insert(c.end(), sub.begin(), sub.end());
          next.push_back(std::move(c));
        }
      outs = std::move(next);
    } else {
      for (Segs& o : outs) o.push_back(s);
    }
  }
  return outs;
}

MaybeSegs PerAlt(const Segs& segs, const std::function<MaybeSegs(const Segs&)>& fn) {
  if (!HasAlt(segs)) return fn(segs);
  Seg alt;
  alt.type = Seg::kAlt;
  for (const Segs& a : Expand(segs)) {
    MaybeSegs r = fn(a);
    if (!r) return std::nullopt;
    alt.options.push_back(std::move(*r));
  }
  return Segs{std::move(alt)};
}

Segs MapText(const Segs& segs, const std::function<std::string(const std::string&)>& fn) {
  std::string joined;
  std::vector<const Seg*> holes;
  for (const Seg& s : segs) {
    if (s.type == Seg::kHole) {
      joined.push_back('\x01');
      holes.push_back(&s);
    } else {
      if (s.text.find('\x01') != std::string::npos) return segs;
      joined += s.text;
    }
  }
  std::string res = fn(joined);
  Segs out;
  std::string buf;
  size_t k = 0;
  for (char c : res) {
    if (c == '\x01' && k < holes.size()) {
      if (!buf.empty()) out.push_back(Seg::Lit(std::move(buf)));
      buf.clear();
      out.push_back(*holes[k++]);
    } else {
      buf.push_back(c);
    }
  }
  if (!buf.empty()) out.push_back(Seg::Lit(std::move(buf)));
  return out;
}

namespace {
bool IsPySpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1f);
}
}  // namespace

std::string PyStrip(const std::string& s, bool left, bool right) {
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && IsPySpace(s[b])) ++b;
  if (right)
    while (e > b && IsPySpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string ReplaceAll(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) {
    // Python inserts `to` between every character (and at both ends)
    std::string out = to;
    for (char c : s) {
      out.push_back(c);
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {}
      out += to;
    }
    return out;
  }
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t f = s.find(from, pos);
    if (f == std::string::npos) break;
    out.append(s, pos, f - pos);
    out += to;
    pos = f + from.size();
  }
  out.append(s, pos, std::string::npos);
  return out;
}

std::string TextwrapDedent(const std::string& text) {
  // lines split on '\n' only (re MULTILINE semantics)
  std::vector<std::string> lines;
  size_t p = 0;
  while (true) {
    size_t q = text.find('\n', p);
    if (q == std::string::npos) {
      lines.push_back(text.substr(p));
      break;
    }
    lines.push_back(text.substr(p, q - p));
    p = q + 1;
  }
  // whitespace-only lines lose their whitespace
  for (std::string& l : lines) {
    bool ws = !l.empty();
    for (char c : l)
      if (c != ' ' && c != '\t') ws = false;
    if (ws) l.clear();
  }
  bool have = false;
  std::string margin;
  for (const std::string& l : lines) {
    size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i >= l.size()) continue;  // (blank) no content char
    std::string indent = l.substr(0, i);
    if (!have) {
      margin = indent;
      have = true;
    } else if (indent.compare(0, margin.size(), margin) == 0 && indent.size() >= margin.size()) {
    } else if (margin.compare(0, indent.size(), indent) == 0 && margin.size() >= indent.size()) {
      margin = indent;
    } else {
      size_t k = 0;
      while (k < margin.size() && k < indent.size() && margin[k] == indent[k]) ++k;
      margin = margin.substr(0, k);
    }
  }
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out.push_back('\n');
    const std::string& l = lines[i];
    if (!margin.empty() && l.compare(0, margin.size(), margin) == 0) out.append(l, margin.size(), std::string::npos);
    else out += l;
  }
  return out;
}

namespace {
std::string ExpandTabs(const std::string& s) {
  std::string out;
  size_t col = 0;
  for (char c : s) {
    if (c == '\t') {
      size_t n = 8 - col % 8;
      out.append(n, ' ');
      col += n;
    } else if (c == '\n' || c == '\r') {
      out.push_back(c);
      col = 0;
    } else {
      out.push_back(c);
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++col;
    }
  }
  return out;
}
}  // namespace

std::string InspectCleandoc(const std::string& doc) {
  std::string t = ExpandTabs(doc);
  std::vector<std::string> lines;
  size_t p = 0;
  while (true) {
    size_t q = t.find('\n', p);
    if (q == std::string::npos) {
      lines.push_back(t.substr(p));
      break;
    }
    lines.push_back(t.substr(p, q - p));
    p = q + 1;
  }
  size_t margin = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::string content = PyStrip(lines[i], true, false);
    if (!content.empty()) margin = std::min(margin, lines[i].size() - content.size());
  }
  if (!lines.empty()) lines[0] = PyStrip(lines[0], true, false);
  if (margin != std::string::npos)
    for (size_t i = 1; i < lines.size(); ++i) lines[i] = lines[i].size() > margin ? lines[i].substr(margin) : "";
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  std::string out;
  for (size_t i = first; i < lines.size(); ++i) {
    if (i > first) out.push_back('\n');
    out += lines[i];
  }
  return out;
}

namespace {
struct One {
  std::optional<std::string> msg, pat;
  bool tmpl = false;
  std::vector<std::string> holes;
};
One RenderOne(const Segs& segs) {
  One r;
  bool any_lit = false;
  for (const Seg& s : segs)
    if (s.type == Seg::kLit && !s.text.empty()) any_lit = true;
  if (!any_lit) return r;
  std::string msg, pat;
  bool prev_hole = false;
  for (const Seg& s : segs) {
    if (s.type == Seg::kHole) {
      r.tmpl = true;
      msg += "{" + s.text + "}";
      r.holes.push_back(s.text);
      if (!prev_hole) pat += kHoleGroup;
      prev_hole = true;
    } else if (!s.text.empty()) {
      msg += s.text;
      pat += EscapePatternLiteral(s.text);
      prev_hole = false;
    }
  }
  r.msg = std::move(msg);
  r.pat = std::move(pat);
  return r;
}
}  // namespace

Rendered Render(const MaybeSegs& segs) {
  Rendered out;
  if (!segs) return out;
  std::vector<Segs> alts = Expand(*segs);
  std::vector<One> rendered;
  rendered.reserve(alts.size());
  for (const Segs& a : alts) rendered.push_back(RenderOne(a));
  const One* first_good = nullptr;
  size_t n_good = 0;
  for (const One& r : rendered)
    if (r.msg) {
      if (!first_good) first_good = &r;
      ++n_good;
    }
  if (!first_good) return out;
  if (rendered.size() == 1) {
    out.message = rendered[0].msg;
    out.pattern = rendered[0].pat;
    out.is_template = rendered[0].tmpl;
    out.holes = rendered[0].holes;
    return out;
  }
  std::vector<std::string> pats;
  for (const One& r : rendered) {
    std::string p = r.msg ? *r.pat : std::string(kHoleGroup);
    bool seen = false;
    for (const std::string& x : pats) seen |= x == p;
    if (!seen) pats.push_back(std::move(p));
  }
  std::vector<std::string> msgs;
  bool tmpl = n_good < rendered.size();
  for (const One& r : rendered) {
    if (!r.msg) continue;
    tmpl |= r.tmpl;
    bool seen = false;
    for (const std::string& x : msgs) seen |= x == *r.msg;
    if (!seen) msgs.push_back(*r.msg);
  }
  std::string pattern;
  if (pats.size() == 1) {
    pattern = pats[0];
  } else {
    pattern = "(?:";
    for (size_t i = 0; i < pats.size(); ++i) {
      if (i) pattern.push_back('|');
      pattern += pats[i];
    }
    pattern.push_back(')');
  }
  out.message = first_good->msg;
  out.pattern = std::move(pattern);
  out.is_template = tmpl;
  out.holes = first_good->holes;
  if (msgs.size() > 1) out.alternatives = std::move(msgs);
  return out;
}

PercentSpec MatchPercent(std::string_view s, size_t pos) {
  PercentSpec r;
  size_t n = s.size();
  size_t p = pos + 1;
  if (p < n && s[p] == '(') {
    size_t q = s.find(')', p + 1);
    if (q != std::string_view::npos) {
      r.has_name = true;
      r.name = std::string(s.substr(p + 1, q - p - 1));
      p = q + 1;
    }
  }
  while (p < n && (s[p] == '#' || s[p] == '0' || s[p] == '-' || s[p] == ' ' || s[p] == '+')) ++p;
  if (p < n && s[p] == '*') {
    ++p;
  } else {
    while (p < n && s[p] >= '0' && s[p] <= '9') ++p;
  }
  if (p + 1 < n && s[p] == '.' && (s[p + 1] == '*' || (s[p + 1] >= '0' && s[p + 1] <= '9'))) {
    ++p;
    if (s[p] == '*') ++p;
    else
      while (p < n && s[p] >= '0' && s[p] <= '9') ++p;
  }
  if (p < n && (s[p] == 'h' || s[p] == 'l' || s[p] == 'L')) ++p;
  if (p < n) {
    static constexpr std::string_view kConv = "diouxXeEfFgGcrsa%";
    if (kConv.find(s[p]) != std::string_view::npos) {
      r.conv = s[p];
      r.end = p + 1;
      return r;
    }
  }
  r.has_name = false;
  return r;
}

std::optional<std::vector<FormatPiece>> ParseFormatString(std::string_view s) {
  std::vector<FormatPiece> out;
  size_t n = s.size(), pos = 0;
  while (pos < n) {
    size_t start = pos;
    bool markup = false;
    char c = 0;
    while (pos < n) {
      c = s[pos++];
      if (c == '{' || c == '}') {
        markup = true;
        break;
      }
    }
    bool at_end = pos >= n;
    size_t len = pos - start;
    if (c == '}' && markup && (at_end || s[pos] != '}')) return std::nullopt;
    if (at_end && markup && c == '{') return std::nullopt;
    if (!at_end && markup) {
      if (s[pos] == c) {
        ++pos;
        markup = false;
      } else {
        --len;
      }
    }
    FormatPiece piece;
    piece.literal = std::string(s.substr(start, len));
    if (!markup) {
      out.push_back(std::move(piece));
      continue;
    }
    // the field: up to the matching '}'
    int count = 1;
    size_t fstart = pos;
    bool done = false;
    while (pos < n) {
      char d = s[pos++];
      if (d == '{') {
        ++count;
      } else if (d == '}') {
        if (--count <= 0) {
          done = true;
          break;
        }
      }
    }
    if (!done) return std::nullopt;
    std::string_view f = s.substr(fstart, pos - 1 - fstart);
    // parse_field
    size_t i = 0;
    char t = 0;
    while (i < f.size()) {
      t = f[i++];
      if (t == '{') return std::nullopt;
      if (t == '[') {
        while (i < f.size() && f[i] != ']') ++i;
        t = 0;
        continue;
      }
      if (t == '}' || t == ':' || t == '!') break;
      t = 0;
    }
    piece.has_field = true;
    if (t == '!' || t == ':') {
      piece.field = std::string(f.substr(0, i - 1));
      if (t == '!') {
        if (i >= f.size()) return std::nullopt;
        piece.conv = f[i++];
        if (i < f.size()) {
          char d = f[i++];
          if (d != ':') return std::nullopt;
        }
      }
      piece.spec = std::string(f.substr(i));
    } else {
      piece.field = std::string(f);
    }
    out.push_back(std::move(piece));
  }
  return out;
}

}  // namespace errdex::py
