// check/cx.cc: text form of the compact trees (see cx.h). Tested by cx_test.cc.
#include "check/cx.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>

#include "model/utf8.h"

namespace errdex::check {

namespace {

struct HeadEntry {
  Head head;
  const char* name;
};
constexpr HeadEntry kHeads[] = {
    {Head::kOpaque, "?"},     {Head::kAttr, "."},      {Head::kCall, "call"},   {Head::kKw, "kw"},
    {Head::kStar, "*"},       {Head::kStarStar, "**"}, {Head::kSub, "[]"},      {Head::kSlice, "slice"},
    {Head::kCmp, "cmp"},      {Head::kAnd, "and"},     {Head::kOr, "or"},       {Head::kNot, "not"},
    {Head::kNeg, "neg"},      {Head::kPos, "pos"},     {Head::kInv, "inv"},     {Head::kBin, "bin"},
    {Head::kIfx, "ifx"},      {Head::kTuple, "tuple"}, {Head::kList, "list"},   {Head::kSet, "set"},
    {Head::kDict, "dict"},    {Head::kWalrus, "walrus"}, {Head::kIf, "if"},     {Head::kWhile, "while"},
    {Head::kFor, "for"},      {Head::kTry, "try"},     {Head::kExcept, "except"}, {Head::kWith, "with"},
    {Head::kAssign, "="},     {Head::kAug, "aug"},     {Head::kExpr, "e"},      {Head::kRet, "ret"},
    {Head::kRaise, "raise"},  {Head::kAssert, "assert"}, {Head::kBreak, "brk"}, {Head::kContinue, "cont"},
    {Head::kBlock, "blk"},
};
// Statements written after the compound statement they continue (program.cc writes one
// line at a time); ParseBody folds them in: (elif L T (body)) (else L (body)) (finally L (body)).
constexpr const char* kMarkers[] = {"elif", "else", "finally"};

bool HeadFromName(std::string_view s, Head* h) {
  for (const auto& e : kHeads)
    if (s == e.name) {
      *h = e.head;
      return true;
    }
  for (const char* m : kMarkers)
    if (s == m) {
      *h = Head::kMarker;
      return true;
    }
  return false;
}

// Heads whose second item is an operator symbol kept in `text`.
bool HasOpText(Head h) { return h == Head::kBin || h == Head::kAug; }

bool IsDelim(char c) { return c == '(' || c == ')' || c == '\'' || c == ' ' || c == '\n' || c == '\t'; }

// A string atom: single quotes, backslash escapes for \\ \' and control characters, so
// that the text needs (almost) no escaping when it is stored inside JSON.
}  // namespace

void WriteCxString(std::string_view s, std::string* out) {
  out->push_back('\'');
  for (char c : s) {
    unsigned char u = (unsigned char)c;
    if (c == '\\' || c == '\'') {
      out->push_back('\\');
      out->push_back(c);
    } else if (c == '\n') {
      out->append("\\n");
    } else if (c == '\t') {
      out->append("\\t");
    } else if (c == '\r') {
      out->append("\\r");
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out->append(buf);
    } else {
      out->push_back(c);
    }
  }
  out->push_back('\'');
}

namespace {

void WriteAtom(const Cx& x, std::string* out) {
  switch (x.atom) {
    case AtomKind::kName: out->append(x.text); break;
    case AtomKind::kStr: WriteCxString(x.text, out); break;
    case AtomKind::kInt: out->append(std::to_string(x.i)); break;
    case AtomKind::kFloat: {
      char buf[40];
      if (std::isnan(x.f)) std::snprintf(buf, sizeof buf, "#nan");
      else if (std::isinf(x.f)) std::snprintf(buf, sizeof buf, x.f > 0 ? "#inf" : "#-inf");
      else {
        std::snprintf(buf, sizeof buf, "%.17g", x.f);
        if (!std::strpbrk(buf, ".eE")) std::strcat(buf, ".0");
      }
      out->append(buf);
      break;
    }
    case AtomKind::kNoneConst: out->append("#none"); break;
    case AtomKind::kTrue: out->append("#true"); break;
    case AtomKind::kFalse: out->append("#false"); break;
    case AtomKind::kEllipsis: out->append("#ellipsis"); break;
  }
}

void Write(const Cx& x, std::string* out, int depth) {
  if (x.head == Head::kRaw) {
    out->append(x.text);
    return;
  }
  if (x.IsAtom()) {
    WriteAtom(x, out);
    return;
  }
  if (depth >= kMaxCxDepth) {
    out->append("(? '...')");
    return;
  }
  out->push_back('(');
  bool first = true;
  if (x.head != Head::kSeq) {
    out->append(x.head == Head::kMarker ? x.text.c_str() : HeadName(x.head));
    first = false;
    if (x.head == Head::kOpaque || x.head == Head::kCmp || HasOpText(x.head)) {
      // kOpaque: the source; kBin/kAug: the operator; kCmp: ops interleave kids (below).
      if (x.head == Head::kOpaque) {
        out->push_back(' ');
        WriteCxString(x.text, out);
      } else if (x.head != Head::kCmp) {
        out->push_back(' ');
        out->append(x.text);
      }
    }
  }
  if (x.head == Head::kCmp) {
    // text holds the operators separated by ' '; kids are the operands.
    size_t pos = 0;
    for (size_t k = 0; k < x.kids.size(); ++k) {
      if (k > 0) {
        size_t sp = x.text.find(' ', pos);
        out->push_back(' ');
        out->append(x.text.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos));
        pos = sp == std::string::npos ? x.text.size() : sp + 1;
      }
      out->push_back(' ');
      Write(x.kids[k], out, depth + 1);
    }
    out->push_back(')');
    return;
  }
  for (const Cx& k : x.kids) {
    if (!first) out->push_back(' ');
    first = false;
    Write(k, out, depth + 1);
  }
  out->push_back(')');
}

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  Status Read(Cx* out, int depth) {
    Skip();
    if (pos_ >= s_.size()) return Err("unexpected end");
    if (depth > kMaxCxDepth) return Err("tree too deep");
    char c = s_[pos_];
    if (c == ')') return Err("unexpected ')'");
    if (c == '\'') return ReadString(&out->text) ? (out->atom = AtomKind::kStr, Status::Ok()) : Err("bad string");
    if (c != '(') return ReadAtom(out);
    ++pos_;
    Skip();
    if (pos_ < s_.size() && (s_[pos_] == '(' || s_[pos_] == ')')) {
      out->head = Head::kSeq;
    } else {
      std::string_view sym = Symbol();
      if (!HeadFromName(sym, &out->head)) return Err("unknown head '" + std::string(sym) + "'");
      if (out->head == Head::kMarker) out->text = std::string(sym);
      if (out->head == Head::kOpaque) {
        Skip();
        if (pos_ >= s_.size() || s_[pos_] != '\'' || !ReadString(&out->text)) return Err("bad opaque text");
      } else if (HasOpText(out->head)) {
        Skip();
        out->text = std::string(Symbol());
        if (out->text.empty()) return Err("missing operator");
      }
    }
    bool cmp = out->head == Head::kCmp;
    while (true) {
      Skip();
      if (pos_ >= s_.size()) return Err("unclosed '('");
      if (s_[pos_] == ')') {
        ++pos_;
        break;
      }
      if (cmp && !out->kids.empty()) {  // an operator before each operand after the first
        std::string_view op = Symbol();
        if (op.empty()) return Err("missing comparison operator");
        if (!out->text.empty()) out->text.push_back(' ');
        out->text.append(op);
        Skip();
      }
      out->kids.emplace_back();
      if (Status st = Read(&out->kids.back(), depth + 1); !st.ok()) return st;
    }
    return Status::Ok();
  }

  bool AtEnd() {
    Skip();
    return pos_ >= s_.size();
  }

 private:
  Status Err(const std::string& what) const {
    return Status::ParseError("check facts: " + what + " at byte " + std::to_string(pos_));
  }
  void Skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t')) ++pos_;
  }
  std::string_view Symbol() {
    size_t b = pos_;
    while (pos_ < s_.size() && !IsDelim(s_[pos_])) ++pos_;
    return s_.substr(b, pos_ - b);
  }
  // A string atom at pos_ (as WriteString writes them).
  bool ReadString(std::string* out) {
    ++pos_;  // the quote
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '\'') return true;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      switch (e) {
        case '\'': out->push_back('\''); break;
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 6 <= s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
            pos_ += 2;
            uint32_t lo = 0;
            if (!Hex4(&lo)) return false;
            if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          AppendUtf8(*out, cp);
          break;
        }
        default: return false;
      }
    }
    return false;
  }
  bool Hex4(uint32_t* v) {
    if (pos_ + 4 > s_.size()) return false;
    for (int k = 0; k < 4; ++k) {
      char c = s_[pos_++];
      *v <<= 4;
      if (c >= '0' && c <= '9') *v |= (uint32_t)(c - '0');
      else if (c >= 'a' && c <= 'f') *v |= (uint32_t)(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') *v |= (uint32_t)(c - 'A' + 10);
      else return false;
    }
    return true;
  }
  Status ReadAtom(Cx* out) {
    std::string_view sym = Symbol();
    if (sym.empty()) return Err("empty atom");
    if (sym[0] == '#') {
      if (sym == "#none") out->atom = AtomKind::kNoneConst;
      else if (sym == "#true") out->atom = AtomKind::kTrue;
      else if (sym == "#false") out->atom = AtomKind::kFalse;
      else if (sym == "#ellipsis") out->atom = AtomKind::kEllipsis;
      else if (sym == "#nan") out->atom = AtomKind::kFloat, out->f = NAN;
      else if (sym == "#inf") out->atom = AtomKind::kFloat, out->f = INFINITY;
      else if (sym == "#-inf") out->atom = AtomKind::kFloat, out->f = -INFINITY;
      else return Err("unknown constant");
      return Status::Ok();
    }
    char c = sym[0];
    if ((c >= '0' && c <= '9') || (c == '-' && sym.size() > 1)) {
      std::string t(sym);
      char* end = nullptr;
      if (t.find_first_of(".eE") == std::string::npos) {
        errno = 0;
        long long v = std::strtoll(t.c_str(), &end, 10);
        if (*end != 0 || errno) return Err("bad integer");
        out->atom = AtomKind::kInt;
        out->i = v;
      } else {
        double v = std::strtod(t.c_str(), &end);
        if (*end != 0) return Err("bad number");
        out->atom = AtomKind::kFloat;
        out->f = v;
      }
      return Status::Ok();
    }
    out->atom = AtomKind::kName;
    out->text = std::string(sym);
    return Status::Ok();
  }

  std::string_view s_;
  size_t pos_ = 0;
};

// Python operator precedence for Unparse (higher binds tighter).
int BinPrec(std::string_view op) {
  if (op == "|") return 6;
  if (op == "^") return 7;
  if (op == "&") return 8;
  if (op == "<<" || op == ">>") return 9;
  if (op == "+" || op == "-") return 10;
  if (op == "**") return 13;
  return 11;  // * / // % @
}

void Un(const Cx& x, int prec, std::string* out, size_t max, int depth) {
  if (out->size() > max) return;
  if (depth > kMaxCxDepth) {
    out->append("...");
    return;
  }
  auto paren = [&](int mine, auto body) {
    bool p = mine < prec;
    if (p) out->push_back('(');
    body();
    if (p) out->push_back(')');
  };
  auto seq = [&](size_t from, const char* sep) {
    for (size_t k = from; k < x.kids.size(); ++k) {
      if (k > from) out->append(sep);
      Un(x.kids[k], 0, out, max, depth + 1);
    }
  };
  if (x.IsAtom()) {
    switch (x.atom) {
      case AtomKind::kName: out->append(x.text); break;
      case AtomKind::kStr: {
        out->push_back('\'');
        for (char c : x.text) {
          if (c == '\'' || c == '\\') out->push_back('\\');
          if (c == '\n') out->append("\\n");
          else out->push_back(c);
        }
        out->push_back('\'');
        break;
      }
      case AtomKind::kInt: out->append(std::to_string(x.i)); break;
      case AtomKind::kFloat: {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", x.f);
        out->append(buf);
        break;
      }
      case AtomKind::kNoneConst: out->append("None"); break;
      case AtomKind::kTrue: out->append("True"); break;
      case AtomKind::kFalse: out->append("False"); break;
      case AtomKind::kEllipsis: out->append("..."); break;
    }
    return;
  }
  switch (x.head) {
    case Head::kOpaque: out->append(x.text); break;
    case Head::kAttr:
      if (x.kids.size() == 2) {
        Un(x.kids[0], 16, out, max, depth + 1);
        out->push_back('.');
        out->append(x.kids[1].text);
      }
      break;
    case Head::kCall:
      if (!x.kids.empty()) {
        Un(x.kids[0], 16, out, max, depth + 1);
        out->push_back('(');
        seq(1, ", ");
        out->push_back(')');
      }
      break;
    case Head::kKw:
      if (x.kids.size() == 2) {
        out->append(x.kids[0].text).push_back('=');
        Un(x.kids[1], 0, out, max, depth + 1);
      }
      break;
    case Head::kStar: out->push_back('*'); seq(0, ""); break;
    case Head::kStarStar: out->append("**"); seq(0, ""); break;
    case Head::kSub:
      if (x.kids.size() == 2) {
        Un(x.kids[0], 16, out, max, depth + 1);
        out->push_back('[');
        Un(x.kids[1], 0, out, max, depth + 1);
        out->push_back(']');
      }
      break;
    case Head::kSlice:
      for (size_t k = 0; k < x.kids.size(); ++k) {
        if (k) out->push_back(':');
        if (!x.kids[k].IsNoneConst()) Un(x.kids[k], 0, out, max, depth + 1);
      }
      break;
    case Head::kCmp:
      paren(5, [&] {
        size_t pos = 0;
        for (size_t k = 0; k < x.kids.size(); ++k) {
          if (k) {
            size_t sp = x.text.find(' ', pos);
            std::string op = x.text.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos);
            pos = sp == std::string::npos ? x.text.size() : sp + 1;
            if (op == "notin") op = "not in";
            if (op == "isnot") op = "is not";
            out->append(" ").append(op).append(" ");
          }
          Un(x.kids[k], 6, out, max, depth + 1);
        }
      });
      break;
    case Head::kAnd:
    case Head::kOr: {
      int mine = x.head == Head::kAnd ? 3 : 2;
      paren(mine, [&] {
        for (size_t k = 0; k < x.kids.size(); ++k) {
          if (k) out->append(x.head == Head::kAnd ? " and " : " or ");
          Un(x.kids[k], mine + 1, out, max, depth + 1);
        }
      });
      break;
    }
    case Head::kNot:
      paren(4, [&] {
        out->append("not ");
        if (!x.kids.empty()) Un(x.kids[0], 4, out, max, depth + 1);
      });
      break;
    case Head::kNeg:
    case Head::kPos:
    case Head::kInv:
      paren(12, [&] {
        out->push_back(x.head == Head::kNeg ? '-' : x.head == Head::kPos ? '+' : '~');
        if (!x.kids.empty()) Un(x.kids[0], 12, out, max, depth + 1);
      });
      break;
    case Head::kBin: {
      int mine = BinPrec(x.text);
      paren(mine, [&] {
        if (x.kids.size() == 2) {
          Un(x.kids[0], mine, out, max, depth + 1);
          out->append(" ").append(x.text).append(" ");
          Un(x.kids[1], mine + 1, out, max, depth + 1);
        }
      });
      break;
    }
    case Head::kIfx:
      paren(1, [&] {
        if (x.kids.size() == 3) {
          Un(x.kids[1], 2, out, max, depth + 1);
          out->append(" if ");
          Un(x.kids[0], 2, out, max, depth + 1);
          out->append(" else ");
          Un(x.kids[2], 1, out, max, depth + 1);
        }
      });
      break;
    case Head::kTuple:
      out->push_back('(');
      seq(0, ", ");
      if (x.kids.size() == 1) out->push_back(',');
      out->push_back(')');
      break;
    case Head::kList: out->push_back('['); seq(0, ", "); out->push_back(']'); break;
    case Head::kSet: out->push_back('{'); seq(0, ", "); out->push_back('}'); break;
    case Head::kDict:
      out->push_back('{');
      for (size_t k = 0; k + 1 < x.kids.size(); k += 2) {
        if (k) out->append(", ");
        Un(x.kids[k], 0, out, max, depth + 1);
        out->append(": ");
        Un(x.kids[k + 1], 0, out, max, depth + 1);
      }
      out->push_back('}');
      break;
    case Head::kWalrus:
      if (x.kids.size() == 2) {
        out->push_back('(');
        Un(x.kids[0], 0, out, max, depth + 1);
        out->append(" := ");
        Un(x.kids[1], 0, out, max, depth + 1);
        out->push_back(')');
      }
      break;
    default: out->append("<statement>"); break;
  }
}

}  // namespace

Cx Cx::Name(std::string_view n) {
  Cx x;
  x.text = std::string(n);
  return x;
}
Cx Cx::Str(std::string_view s) {
  Cx x;
  x.atom = AtomKind::kStr;
  x.text = std::string(s);
  return x;
}
Cx Cx::Int(int64_t v) {
  Cx x;
  x.atom = AtomKind::kInt;
  x.i = v;
  return x;
}
Cx Cx::Float(double v) {
  Cx x;
  x.atom = AtomKind::kFloat;
  x.f = v;
  return x;
}
Cx Cx::Const(AtomKind k) {
  Cx x;
  x.atom = k;
  return x;
}
Cx Cx::Opaque(std::string_view source) {
  Cx x;
  x.head = Head::kOpaque;
  std::string t;
  bool space = false;
  for (char c : source) {  // one line, runs of whitespace collapsed
    bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (ws) {
      space = !t.empty();
      continue;
    }
    if (space) t.push_back(' ');
    space = false;
    t.push_back(c);
    if (t.size() > kMaxOpaqueText) break;
  }
  if (t.size() > kMaxOpaqueText) {
    t.resize(Utf8CutPoint(t, kMaxOpaqueText));
    t += "...";
  }
  x.text = std::move(t);
  return x;
}
Cx Cx::List(Head h, std::vector<Cx> kids) {
  Cx x;
  x.head = h;
  x.kids = std::move(kids);
  return x;
}

const char* HeadName(Head h) {
  for (const auto& e : kHeads)
    if (e.head == h) return e.name;
  return "";
}

void WriteCx(const Cx& x, std::string* out) { Write(x, out, 0); }

std::string CxText(const Cx& x) {
  std::string out;
  Write(x, &out, 0);
  return out;
}

Result<Cx> ParseCx(std::string_view text) {
  Reader r(text);
  Cx out;
  if (Status st = r.Read(&out, 0); !st.ok()) return st;
  if (!r.AtEnd()) return Status::ParseError("check facts: text after the tree");
  return out;
}

namespace {

bool IsHead(const Cx& x, Head h) { return x.head == h; }
bool IsMarker(const Cx& x, const char* name) { return x.head == Head::kMarker && x.text == name; }

// The if statement an `elif`/`else` continues: the last one reachable through else
// branches that hold exactly one if (which is what an elif is).
Cx* ChainTail(Cx* head) {
  Cx* t = head;
  while (t->kids.size() >= 4 && t->kids[3].kids.size() == 1 && IsHead(t->kids[3].kids[0], Head::kIf)) t = &t->kids[3].kids[0];
  return t;
}

Status Fold(Cx* seq, int depth) {
  if (depth > kMaxCxDepth) return Status::ParseError("check facts: blocks too deep");
  std::vector<Cx> out;
  out.reserve(seq->kids.size());
  auto body_of = [](Cx& m) -> Cx { return m.kids.empty() ? Cx::List(Head::kSeq) : std::move(m.kids.back()); };
  for (Cx& k : seq->kids) {
    Cx* prev = out.empty() ? nullptr : &out.back();
    if (IsMarker(k, "elif") && prev && IsHead(*prev, Head::kIf) && k.kids.size() == 3) {
      Cx* tail = ChainTail(prev);
      tail->kids[3].kids.push_back(Cx::List(Head::kIf, {std::move(k.kids[0]), std::move(k.kids[1]), std::move(k.kids[2]),
                                                        Cx::List(Head::kSeq)}));
      continue;
    }
    if (IsMarker(k, "else") && prev) {
      if (IsHead(*prev, Head::kIf)) {
        ChainTail(prev)->kids[3] = body_of(k);
        continue;
      }
      if (IsHead(*prev, Head::kFor) || IsHead(*prev, Head::kWhile) || IsHead(*prev, Head::kTry)) {
        prev->kids[IsHead(*prev, Head::kFor) ? 4 : 3] = body_of(k);
        continue;
      }
    }
    if (IsHead(k, Head::kExcept) && prev && IsHead(*prev, Head::kTry)) {
      prev->kids[2].kids.push_back(std::move(k));
      continue;
    }
    if (IsMarker(k, "finally") && prev && IsHead(*prev, Head::kTry)) {
      prev->kids[4] = body_of(k);
      continue;
    }
    if (k.head == Head::kMarker) return Status::ParseError("check facts: a stray " + k.text);
    // The written forms lack the parts folded in later: add them empty.
    if (IsHead(k, Head::kIf) || IsHead(k, Head::kWhile)) {
      while (k.kids.size() < 4) k.kids.push_back(Cx::List(Head::kSeq));
    } else if (IsHead(k, Head::kFor)) {
      while (k.kids.size() < 5) k.kids.push_back(Cx::List(Head::kSeq));
    } else if (IsHead(k, Head::kTry)) {
      while (k.kids.size() < 5) k.kids.push_back(Cx::List(Head::kSeq));
    }
    out.push_back(std::move(k));
  }
  seq->kids = std::move(out);
  // Nested bodies.
  for (Cx& st : seq->kids) {
    for (Cx& part : st.kids) {
      if (part.head == Head::kSeq) {
        if (Status s = Fold(&part, depth + 1); !s.ok()) return s;
      }
    }
    if (IsHead(st, Head::kTry) && st.kids.size() >= 3)
      for (Cx& h : st.kids[2].kids)
        if (h.kids.size() >= 4)
          if (Status s = Fold(&h.kids[3], depth + 1); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

Result<Cx> ParseBody(std::string_view text) {
  auto x = ParseCx(text);
  if (!x.ok()) return x.status();
  if (x->head != Head::kSeq) return Status::ParseError("check facts: a body is not a statement list");
  if (Status s = Fold(&x.value(), 0); !s.ok()) return s;
  return std::move(x.value());
}

std::string Unparse(const Cx& x, size_t max_bytes) {
  std::string out;
  Un(x, 0, &out, max_bytes, 0);
  if (out.size() > max_bytes) {
    out.resize(Utf8CutPoint(out, max_bytes));
    out += "...";
  }
  return out;
}

}  // namespace errdex::check
