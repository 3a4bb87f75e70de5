// Message evaluation of the C/C++ front end (see cpp_walker.h): a message
// expression rebuilt as segments (literal text and {expr} holes) and
// alternatives, from string literals (adjacent ones, "%" PRId64 macro names
// between them, branches of an #if inside one), `+` concatenation, `c ? a : b`,
// c10::str / absl::StrCat concatenation, fmt/std::format `{}` and printf-style
// (absl::StrFormat, fmtstr, string_format) formats, and locals (cpp_locals.cc);
// and a sink's prefix template (@c @a @b @v). Bounded by depth and bytes.
#include "extract/cpp/cpp_walker.h"

#include <algorithm>
#include <optional>
#include <string>

#include "model/utf8.h"

namespace errdex::cpp {

namespace {

constexpr int kMaxEvalDepth = 32;

// The value of a C/C++ string or character literal token (prefix, quotes and
// raw delimiters removed, escapes decoded to UTF-8).
std::string DecodeLiteral(std::string_view tok) {
  size_t q = tok.find_first_of("\"'");
  if (q == std::string_view::npos) return std::string(tok);
  std::string_view prefix = tok.substr(0, q);
  char quote = tok[q];
  std::string_view body = tok.substr(q + 1);
  if (!prefix.empty() && prefix.back() == 'R' && quote == '"') {
    size_t paren = body.find('(');
    if (paren == std::string_view::npos) return std::string(body);
    std::string_view delim = body.substr(0, paren);
    std::string close = ")" + std::string(delim) + "\"";
    std::string_view inner = body.substr(paren + 1);
    if (inner.size() >= close.size() && inner.substr(inner.size() - close.size()) == close)
      inner.remove_suffix(close.size());
    return std::string(inner);
  }
  if (!body.empty() && body.back() == quote) body.remove_suffix(1);
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out.push_back(c);
      continue;
    }
    char e = body[++i];
    switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'a': out.push_back('\a'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'v': out.push_back('\v'); break;
      case 'e': out.push_back('\x1b'); break;
      case '\n': break;  // line continuation inside a literal
      case 'x': {
        uint32_t v = 0;
        size_t k = i + 1;
        while (k < body.size() && HexDigitValue(body[k]) >= 0) v = v * 16 + static_cast<uint32_t>(HexDigitValue(body[k++]));
        if (k == i + 1) {
          out.push_back('x');
        } else {
          if (prefix.empty() || prefix == "u8") out.push_back(static_cast<char>(v & 0xFF));
          else AppendUtf8(out, v > 0x10FFFF ? 0xFFFD : v);
          i = k - 1;
        }
        break;
      }
      case 'u':
      case 'U': {
        size_t count = e == 'u' ? 4 : 8;
        uint32_t v = 0;
        size_t k = i + 1;
        for (; k < body.size() && k < i + 1 + count && HexDigitValue(body[k]) >= 0; ++k)
          v = v * 16 + static_cast<uint32_t>(HexDigitValue(body[k]));
        if (k != i + 1 + count) {
          out.push_back(e);
        } else {
          AppendUtf8OrReplacement(out, v);
          i = k - 1;
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = static_cast<uint32_t>(e - '0');
          size_t k = i + 1;
          for (int d = 0; d < 2 && k < body.size() && body[k] >= '0' && body[k] <= '7'; ++d, ++k)
            v = v * 8 + static_cast<uint32_t>(body[k] - '0');
          if (prefix.empty() || prefix == "u8") out.push_back(static_cast<char>(v & 0xFF));
          else AppendUtf8(out, v);
          i = k - 1;
        } else {
          out.push_back(e);  // \" \' \\ \? and unknown escapes
        }
        break;
    }
  }
  return out;
}

}  // namespace

std::optional<Alts> Walker::Eval(size_t b, size_t e, int depth) {
  if (b >= e || depth > kMaxEvalDepth) return std::nullopt;
  // Outer parentheses.
  while (IsP(b, '(') && Close(b) == e - 1) {
    ++b;
    --e;
    if (b >= e) return std::nullopt;
  }
  // Ternary at depth 0.
  {
    int d = 0;
    for (size_t k = b; k < e; ++k) {
      const Token& u = T(k);
      if (u.type != TokType::kPunct) continue;
      if (u.text.size() == 1 && (u.text[0] == '(' || u.text[0] == '[' || u.text[0] == '{')) ++d;
      else if (u.text.size() == 1 && (u.text[0] == ')' || u.text[0] == ']' || u.text[0] == '}')) --d;
      else if (d == 0 && u.IsPunct('?')) {
        int dd = 0, nested = 0;
        for (size_t c = k + 1; c < e; ++c) {
          const Token& v = T(c);
          if (v.type != TokType::kPunct || v.text.size() != 1) continue;
          char ch = v.text[0];
          if (ch == '(' || ch == '[' || ch == '{') ++dd;
          else if (ch == ')' || ch == ']' || ch == '}') --dd;
          else if (dd == 0 && ch == '?') ++nested;
          else if (dd == 0 && ch == ':') {
            if (nested > 0) {
              --nested;
              continue;
            }
            std::optional<Alts> x = Eval(k + 1, c, depth + 1);
            std::optional<Alts> y = Eval(c + 1, e, depth + 1);
            if (!x && !y) return std::nullopt;
            Alts out = x ? *x : Part(k + 1, c, depth + 1);
            Alts more = y ? *y : Part(c + 1, e, depth + 1);
            for (Segs& s : more)
              if (out.size() < msg::kMaxAlternatives) out.push_back(std::move(s));
            return out;
          }
        }
        return std::nullopt;
      }
    }
  }
  // Binary + at depth 0.
  {
    std::vector<size_t> plus;
    int d = 0;
    for (size_t k = b; k < e; ++k) {
      const Token& u = T(k);
      if (u.type != TokType::kPunct) continue;
      if (u.text.size() == 1 && (u.text[0] == '(' || u.text[0] == '[' || u.text[0] == '{')) ++d;
      else if (u.text.size() == 1 && (u.text[0] == ')' || u.text[0] == ']' || u.text[0] == '}')) --d;
      else if (d == 0 && u.IsPunct('+') && k > b) {
        const Token& p = T(k - 1);
        if (p.type == TokType::kIdent || p.type == TokType::kNumber || p.type == TokType::kString ||
            p.type == TokType::kChar || p.IsPunct(')') || p.IsPunct(']'))
          plus.push_back(k);
      } else if (d == 0 && (u.Is("<<") || u.Is("==") || u.Is("&&") || u.Is("||") || u.IsPunct(','))) {
        return std::nullopt;  // not a string expression
      }
    }
    if (!plus.empty()) {
      std::vector<std::pair<size_t, size_t>> ops;
      size_t s = b;
      for (size_t k : plus) {
        ops.emplace_back(s, k);
        s = k + 1;
      }
      ops.emplace_back(s, e);
      bool any = false;
      std::vector<std::optional<Alts>> vals;
      for (auto& [x, y] : ops) {
        vals.push_back(Eval(x, y, depth + 1));
        if (vals.back()) any = true;
      }
      if (!any) return std::nullopt;
      Alts out{Segs{}};
      for (size_t k = 0; k < ops.size(); ++k) {
        out = msg::Concat(out, vals[k] ? *vals[k] : Part(ops[k].first, ops[k].second, depth + 1));
        if (msg::Bytes(out) > msg::kMaxMessageBytes) return std::nullopt;
      }
      return out;
    }
  }
  // Adjacent literals (and macro names between them, e.g. "%" PRId64). A
  // literal split by #if/#else ("a" #if X "b" #else "c" #endif) is one message
  // per build: alternatives.
  if (T(b).type == TokType::kString) {
    Alts out{Segs{}};
    for (size_t k = b; k < e; ++k) {
      const Token& u = T(k);
      if (u.type == TokType::kIf) {
        std::vector<Segs> branches(1);
        int d = 0;
        size_t q = k + 1;
        for (; q < e; ++q) {
          const Token& v = T(q);
          if (v.type == TokType::kIf) ++d;
          if (v.type == TokType::kEndif && d-- == 0) break;
          if (v.type == TokType::kElse && d == 0) {
            branches.emplace_back();
            continue;
          }
          if (d > 0) continue;
          if (v.type == TokType::kString) msg::Append(branches.back(), msg::Lit(DecodeLiteral(v.text)));
          else if (v.type == TokType::kIdent) msg::Append(branches.back(), msg::Hole(std::string(v.text)));
          else return std::nullopt;
        }
        if (branches.size() == 1) branches.emplace_back();  // #if without #else: with or without it
        out = msg::Concat(out, Alts(branches.begin(), branches.end()));
        k = q;
        continue;
      }
      if (u.type == TokType::kElse || u.type == TokType::kEndif) continue;
      if (u.type == TokType::kString) {
        out = msg::Concat(out, Alts{Segs{msg::Lit(DecodeLiteral(u.text))}});
      } else if (u.type == TokType::kIdent) {
        out = msg::Concat(out, Alts{Segs{msg::Hole(std::string(u.text))}});
      } else {
        return std::nullopt;
      }
    }
    return out;
  }
  if (T(b).type != TokType::kIdent && !T(b).Is("::")) return std::nullopt;
  // A qualified callee and a call spanning the whole range?
  size_t k = b;
  if (T(k).Is("::")) ++k;
  while (k + 2 < e && T(k).type == TokType::kIdent && T(k + 1).Is("::")) k += 2;
  if (k >= e || T(k).type != TokType::kIdent) return std::nullopt;
  std::string qual;
  for (size_t q = b; q < k; ++q) qual += T(q).text;
  while (qual.size() >= 2 && qual.substr(0, 2) == "::") qual.erase(0, 2);
  if (qual.size() >= 2 && qual.compare(qual.size() - 2, 2, "::") == 0) qual.resize(qual.size() - 2);
  std::string_view name = T(k).text;
  // A local: msg / msg.c_str() / oss.str() / oss.str().c_str() / std::string(msg)
  if (qual.empty()) {
    if (Local* l = FindLocal(name)) {
      size_t q = k + 1;
      bool ok = false;
      if (q == e) ok = !l->stream;
      else if (IsP(q, '.') && IsW(q + 1, "str") && IsP(q + 2, '(') && IsP(q + 3, ')') && l->stream) {
        q += 4;
        ok = q == e || (IsP(q, '.') && IsW(q + 1, "c_str") && IsP(q + 2, '(') && IsP(q + 3, ')') && q + 4 == e);
      } else if (IsP(q, '.') && (IsW(q + 1, "c_str") || IsW(q + 1, "data")) && IsP(q + 2, '(') && IsP(q + 3, ')') &&
                 q + 4 == e && !l->stream) {
        ok = true;
      }
      if (ok) return l->value;
      return std::nullopt;
    }
  }
  if (!IsP(k + 1, '(') && !IsP(k + 1, '{')) return std::nullopt;
  size_t close = Close(k + 1);
  if (close + 1 != e) {
    // std::string("a").c_str() and friends
    if (close < e && IsP(close + 1, '.') && IsW(close + 2, "c_str") && close + 5 == e) {
    } else {
      return std::nullopt;
    }
  }
  auto args = SplitArgs(k + 1, close);
  bool is_std = qual == "std" || qual.empty();
  if ((name == "string" || name == "string_view") && is_std) {
    if (args.size() != 1) return std::nullopt;
    return Eval(args[0].first, args[0].second, depth + 1);
  }
  if ((name == "str" && (qual == "c10" || qual == "at")) || (name == "StrCat" && (qual == "absl" || qual.empty() || qual == "strings"))) {
    Alts out{Segs{}};
    for (auto& [x, y] : args) out = msg::Concat(out, Part(x, y, depth + 1));
    return out;
  }
  bool braces = (name == "format" && (qual == "fmt" || qual == "std")) || (name == "sprintf" && qual == "fmt" && false);
  bool printf = (name == "StrFormat" && (qual == "absl" || qual.empty())) || name == "fmtstr" ||
                (name == "sprintf" && qual == "fmt") || name == "string_format" || name == "Sprintf";
  if ((braces || printf) && !args.empty()) {
    std::optional<Alts> f = Eval(args[0].first, args[0].second, depth + 1);
    if (!f) return std::nullopt;
    std::vector<Segs> rest;
    for (size_t a = 1; a < args.size(); ++a) rest.push_back(PartSegs(args[a].first, args[a].second, depth + 1));
    Alts out;
    for (const Segs& s : *f)
      out.push_back(braces ? msg::ApplyBraces(s, rest, msg::Braces::kFmt) : msg::ApplyPrintf(s, rest, msg::Printf::kC));
    return out;
  }
  return std::nullopt;
}

Alts Walker::Part(size_t b, size_t e, int depth) {
  if (std::optional<Alts> v = Eval(b, e, depth)) return *v;
  while (e > b + 2 && IsP(b, '(') && Close(b) == e - 1) {  // (4): the value, not the parentheses
    ++b;
    --e;
  }
  if (e == b + 1) {
    const Token& u = T(b);
    if (u.type == TokType::kNumber && std::all_of(u.text.begin(), u.text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return Alts{Segs{msg::Lit(std::string(u.text))}};
    if (u.type == TokType::kChar && u.text.front() == '\'') return Alts{Segs{msg::Lit(DecodeLiteral(u.text))}};
  }
  std::string s = Spell(b, e);
  if (s == "std::endl") return Alts{Segs{msg::Lit("\n")}};
  if (s == "std::flush") return Alts{Segs{}};
  return Alts{Segs{msg::Hole(s)}};
}

Segs Walker::Template(std::string_view tmpl, std::string_view c, std::string_view a, std::string_view b) const {
  Segs out;
  std::string lit;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '@' && i + 1 < tmpl.size()) {
      char k = tmpl[i + 1];
      if (k == 'c' || k == 'a' || k == 'b') {
        lit += k == 'c' ? c : k == 'a' ? a : b;
        ++i;
        continue;
      }
      if (k == 'v') {
        msg::Append(out, msg::Lit(std::move(lit)));
        lit.clear();
        msg::Append(out, msg::Hole("value"));
        ++i;
        continue;
      }
    }
    lit.push_back(tmpl[i]);
  }
  msg::Append(out, msg::Lit(std::move(lit)));
  return out;
}

}  // namespace errdex::cpp
