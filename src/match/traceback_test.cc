// Python tracebacks in normalized lines (traceback.h).
#include "match/traceback.h"

#include <gtest/gtest.h>

#include "match/normalize.h"

namespace errdex {
namespace {

struct Parsed {
  std::vector<NormalizedLine> lines;
  std::vector<ExceptionSection> sections;
  std::vector<bool> consumed;
};

Parsed Parse(const std::string& text) {
  Parsed p;
  LineNormalizer n;
  size_t b = 0;
  while (b <= text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    if (b == text.size()) break;
    p.lines.emplace_back();
    n.Normalize(std::string_view(text).substr(b, e - b), p.lines.back());
    b = e + 1;
  }
  std::vector<const NormalizedLine*> ptrs;
  for (const NormalizedLine& l : p.lines) ptrs.push_back(&l);
  p.consumed.assign(ptrs.size(), false);
  p.sections = ParseTracebacks(ptrs, 20, p.consumed);
  return p;
}

TEST(Traceback, ChainPositionsAndTheirKind) {
  Parsed p = Parse(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 1, in f\n"
      "KeyError: 'x'\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"b.py\", line 2, in g\n"
      "    raise ValueError('y') from e\n"
      "ValueError: y\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"c.py\", line 3, in h\n"
      "RuntimeError: z\n"
      "Traceback (most recent call last):\n"
      "  File \"d.py\", line 4, in k\n"
      "OSError: unrelated\n");
  ASSERT_EQ(p.sections.size(), 4u);
  EXPECT_EQ(p.sections[0].chain_id, p.sections[2].chain_id);
  EXPECT_EQ(p.sections[0].chain_len, 3u);
  EXPECT_EQ(p.sections[2].chain_pos, 2u);
  EXPECT_TRUE(p.sections[1].cause_is_direct);
  EXPECT_FALSE(p.sections[2].cause_is_direct);
  EXPECT_NE(p.sections[3].chain_id, p.sections[0].chain_id);  // no chaining sentence
  EXPECT_EQ(p.sections[3].chain_len, 1u);
  // The code line under a frame is kept, carets are not.
  EXPECT_EQ(p.sections[1].frames[0].code, "raise ValueError('y') from e");
}

TEST(Traceback, CodeLineSkipsCarets) {
  Parsed p = Parse(
      "Traceback (most recent call last):\n"
      "  File \"m.py\", line 90, in forward\n"
      "    assert x.shape == y.shape\n"
      "           ^^^^^^^^^^^^^^^^^^\n"
      "AssertionError\n");
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].frames[0].code, "assert x.shape == y.shape");
  EXPECT_EQ(p.sections[0].short_class, "AssertionError");
}

TEST(Traceback, HeaderlessTailAndCutOffTraceback) {
  // The tail of a traceback pasted without its header.
  Parsed tail = Parse(
      "  File \"/x/llama_cpp.py\", line 79, in _load_shared_library\n"
      "    raise FileNotFoundError(\n"
      "FileNotFoundError: Shared library with base name 'llama' not found\n");
  ASSERT_EQ(tail.sections.size(), 1u);
  EXPECT_EQ(tail.sections[0].frames.size(), 1u);
  EXPECT_EQ(tail.sections[0].short_class, "FileNotFoundError");
  // A traceback cut before its exception line: a section without a message.
  Parsed cut = Parse(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 1, in f\n"
      "    g()\n"
      "  File \"b.py\", line 2, in g\n");
  ASSERT_EQ(cut.sections.size(), 1u);
  EXPECT_TRUE(cut.sections[0].cut_off);
  EXPECT_TRUE(cut.sections[0].message_lines.empty());
  EXPECT_EQ(cut.sections[0].frames.back().file, "b.py");
}

TEST(Traceback, EmbeddedClassInProse) {
  EmbeddedClass e = FindEmbeddedClass("Getting `ValueError: bad value 3` when calling it");
  ASSERT_TRUE(e.ok);
  std::string_view t = "Getting `ValueError: bad value 3` when calling it";
  EXPECT_EQ(t.substr(e.class_begin, e.class_end - e.class_begin), "ValueError");
  EXPECT_EQ(t.substr(e.message_begin, e.message_end - e.message_begin), "bad value 3");
  EmbeddedClass title = FindEmbeddedClass("[Bug]: x --> requests.exceptions.HTTPError: 404 Client Error");
  ASSERT_TRUE(title.ok);
  EXPECT_FALSE(FindEmbeddedClass("no class here: at all").ok);
  // A writer's "Error:" label before a printed class is not the class.
  std::string_view label = "Error: botocore.exceptions.ParamValidationError: Parameter validation failed: when run";
  EmbeddedClass inner = FindEmbeddedClass(label);
  ASSERT_TRUE(inner.ok);
  EXPECT_EQ(label.substr(inner.class_begin, inner.class_end - inner.class_begin),
            "botocore.exceptions.ParamValidationError");
  std::string_view own = "Error: the section is missing";  // a class named Error, with its message
  EmbeddedClass error = FindEmbeddedClass(own);
  ASSERT_TRUE(error.ok);
  EXPECT_EQ(own.substr(error.class_begin, error.class_end - error.class_begin), "Error");
  // A class qualified by its module is one whatever its name ends in; a file name or
  // a bare word is not.
  EXPECT_TRUE(SplitClassPrefix("networkx.exception.NodeNotFound: Target 9 is not in G", true).ok);
  EXPECT_TRUE(SplitClassPrefix("pexpect.exceptions.TIMEOUT: Timeout exceeded.", true).ok);
  EXPECT_TRUE(SplitClassPrefix("re.error: bad escape", true).ok);
  EXPECT_TRUE(SplitClassPrefix("_queue.Empty", true).ok);
  EXPECT_FALSE(SplitClassPrefix("setup.py: not found", true).ok);
  EXPECT_FALSE(SplitClassPrefix("NodeNotFound: x", true).ok);
  EXPECT_FALSE(SplitClassPrefix("Note: this is prose", true).ok);
  EXPECT_TRUE(LooksLikeFrameLine("02:08:15:app.py:   File \"x.py\", line 3, in f"));
  EXPECT_FALSE(LooksLikeFrameLine("File not found"));
}

}  // namespace
}  // namespace errdex
