// document/py_tokens.cc: see py_tokens.h. Tested by py_tokens_test.cc.
#include "document/py_tokens.h"

#include <algorithm>

namespace errdex::doc {

Toks Toks::File(std::string_view text) {
  py::Tokens tk;
  py::Tokenize(text, py::TokenizeOptions{}, &tk);
  return FromTokens(text, std::move(tk));
}

Toks Toks::FromTokens(std::string_view text, py::Tokens&& tk) {
  Toks t;
  t.text_ = text;
  t.t_ = std::move(tk.tokens);
  t.lines_ = std::move(tk.lines);
  t.line_starts_ = std::move(tk.line_starts);
  t.ComputeDepth();
  return t;
}

int Toks::EndLine(size_t i) const {
  if (i >= t_.size() || line_starts_.empty()) return line(i);
  uint32_t last = t_[i].end > t_[i].begin ? t_[i].end - 1 : t_[i].begin;
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), last);
  return (int)(it - line_starts_.begin());
}

Toks Toks::Expression(std::string_view text) {
  Toks t;
  t.text_ = text;
  py::TokenizeExpression(text, 0, (uint32_t)text.size(), &t.t_);
  if (t.t_.empty() || t.t_.back().kind != py::TokenKind::kEnd) {
    py::Token end;
    end.kind = py::TokenKind::kEnd;
    end.begin = end.end = (uint32_t)text.size();
    t.t_.push_back(end);
  }
  t.ComputeDepth();
  return t;
}

void Toks::ComputeDepth() {
  // Runs over every token of every file: plain pointers, so the loop bounds are not
  // reloaded after each store.
  const size_t n = t_.size();
  depth_.reset(new int[n]);
  int* out = depth_.get();
  const py::Token* tk = t_.data();
  const char* src = text_.data();
  int d = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = d;
    if (tk[i].kind != py::TokenKind::kOp || tk[i].end - tk[i].begin != 1) continue;
    char c = src[tk[i].begin];
    if (c == '(' && i > 0 && tk[i - 1].kind == py::TokenKind::kName) call_names_.push_back((uint32_t)(i - 1));
    if (c == '(' || c == '[' || c == '{') ++d;
    else if ((c == ')' || c == ']' || c == '}') && d > 0) {
      --d;
      out[i] = d;  // a closing bracket sits at its opener's depth
    }
  }
}

bool Toks::StringAt(size_t i, std::string* out) const {
  if (!IsString(i)) return false;
  py::StringInfo si = py::AnalyzeString(text_, t_[i]);
  if (si.fstring || si.bytes) return false;
  *out = py::DecodeStringBody(text_.substr(si.body_begin, si.body_end - si.body_begin), si.raw);
  return true;
}

bool Toks::FStringAt(size_t i) const { return IsString(i) && py::AnalyzeString(text_, t_[i]).fstring; }

size_t Toks::MatchBracket(size_t open) const {
  int base = depth(open);
  for (size_t i = open + 1; i < t_.size(); ++i) {
    if (t_[i].kind == py::TokenKind::kEnd) return i;
    if (depth_[i] == base && t_[i].kind == py::TokenKind::kOp) {
      char c = text_[t_[i].begin];
      if (c == ')' || c == ']' || c == '}') return i;
    }
  }
  return t_.empty() ? 0 : t_.size() - 1;
}

bool Toks::StringValue(size_t b, size_t e, std::string* out) const {
  if (b >= e) return false;
  std::string v;
  for (size_t i = b; i < e; ++i) {
    std::string part;
    if (!StringAt(i, &part)) return false;
    v += part;
  }
  *out = std::move(v);
  return true;
}

bool Toks::StringList(size_t b, size_t e, std::vector<std::string>* out) const {
  if (b >= e) return false;
  std::vector<std::string> vals;
  size_t lb = b, le = e;
  if ((IsOp(b, "[") || IsOp(b, "(") || IsOp(b, "{")) && MatchBracket(b) == e - 1) {
    lb = b + 1;
    le = e - 1;
  }
  for (auto [pb, pe] : SplitTopLevel(lb, le)) {
    if (pb >= pe) continue;  // trailing comma
    std::string v;
    if (!StringValue(pb, pe, &v)) return false;
    vals.push_back(std::move(v));
  }
  if (vals.empty()) return false;
  *out = std::move(vals);
  return true;
}

std::vector<std::pair<size_t, size_t>> Toks::SplitTopLevel(size_t b, size_t e, std::string_view sep) const {
  std::vector<std::pair<size_t, size_t>> out;
  if (b >= e) return out;
  int base = depth(b);
  size_t start = b;
  for (size_t i = b; i < e; ++i) {
    if (depth_[i] != base) continue;
    if (Text(i) == sep && (t_[i].kind == py::TokenKind::kOp || t_[i].kind == py::TokenKind::kName)) {
      out.emplace_back(start, i);
      start = i + 1;
    }
  }
  out.emplace_back(start, e);
  return out;
}

std::string_view Toks::Span(size_t b, size_t e) const {
  if (b >= e || e > t_.size()) return {};
  uint32_t from = t_[b].begin, to = t_[e - 1].end;
  return to > from ? text_.substr(from, to - from) : std::string_view();
}

}  // namespace errdex::doc
