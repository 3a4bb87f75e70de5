// Fuzz target: the Python tokenizer (extract/python/tokenizer.h) on a whole file,
// with and without comments, plus the helpers the front end and the document
// stage call on its tokens. Properties: tokens are in order, inside the text, and
// end with kEnd; every logical line's tokens exist.
#include "extract/python/tokenizer.h"
#include "fuzz/fuzz_util.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = fuzz::Bytes(data, size);
  for (bool comments : {false, true}) {
    py::TokenizeOptions o;
    o.keep_comments = comments;
    py::Tokens t = py::Tokenize(text, o);
    fuzz::Check(!t.tokens.empty() && t.tokens.back().kind == py::TokenKind::kEnd, "ends with kEnd");
    uint32_t prev = 0;
    for (const py::Token& k : t.tokens) {
      fuzz::Check(k.begin <= k.end && k.end <= text.size(), "token inside the text");
      fuzz::Check(k.begin >= prev, "tokens in order");
      prev = k.begin;
      if (k.kind == py::TokenKind::kString) {
        py::StringInfo s = py::AnalyzeString(text, k);
        fuzz::Check(s.body_begin <= s.body_end && s.body_end <= text.size(), "string body inside the text");
        std::string decoded = py::DecodeStringBody(text.substr(s.body_begin, s.body_end - s.body_begin), s.raw);
        (void)decoded;
        std::vector<py::Token> inner;
        if (s.fstring) py::TokenizeExpression(text, s.body_begin, s.body_end, &inner);
      }
    }
    for (const py::LogicalLine& l : t.lines)
      fuzz::Check(l.first <= l.last && l.last <= t.tokens.size(), "logical line inside the tokens");
    if (!text.empty()) (void)t.LineOf(static_cast<uint32_t>(text.size() - 1));
  }
  for (size_t pos = 0; pos < text.size() && pos < 64; ++pos)
    fuzz::Check(py::StringLiteralEnd(text, pos) <= text.size(), "StringLiteralEnd inside the text");
  return 0;
}
