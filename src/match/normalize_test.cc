#include "match/normalize.h"

#include <gtest/gtest.h>

#include "match/traceback.h"

namespace errdex {
namespace {

NormalizedLine N(std::string_view raw) {
  LineNormalizer n;
  NormalizedLine out;
  n.Normalize(raw, out);
  return out;
}

TEST(Normalize, StripsCommonPrefixes) {
  EXPECT_EQ(N("[2025-03-10 14:17:52 TP6] ValueError: x").text, "ValueError: x");
  EXPECT_EQ(N("[2025-03-10 14:17:52 TP6] ValueError: x").source, "TP6");
  EXPECT_EQ(N("(EngineCore_DP0 pid=123) ERROR 03-10 14:17:52 [core.py:12] boom").text, "boom");
  EXPECT_EQ(N("(EngineCore_DP0 pid=123) ERROR 03-10 14:17:52 [core.py:12] boom").source, "EngineCore_DP0 pid=123");
  EXPECT_EQ(N("[rank0]: RuntimeError: y").text, "RuntimeError: y");
  EXPECT_EQ(N("vllm-1  | [rank1]: KeyError: 'a'").text, "KeyError: 'a'");
  EXPECT_EQ(N("vllm-1  | [rank1]: KeyError: 'a'").source, "vllm-1/rank1");
  EXPECT_EQ(N("2025-03-10T14:17:52.123Z ERROR something failed").text, "something failed");
  EXPECT_EQ(N("2025-03-10 14:17:52,123 - app.db - ERROR - bad thing").text, "bad thing");
  EXPECT_EQ(N("ERROR:root:it broke").text, "it broke");
  EXPECT_TRUE(N("ERROR:root:it broke").record_start);
  EXPECT_FALSE(N("  File \"x.py\", line 1, in f").record_start);
}

TEST(Normalize, KeepsIndentationAfterAPrefix) {
  EXPECT_EQ(N("[rank0]:   File \"x.py\", line 3, in f").text, "  File \"x.py\", line 3, in f");
  EXPECT_EQ(N("[2025-03-10 14:17:52 TP6]     raise ValueError(").text, "    raise ValueError(");
}

TEST(Normalize, PlainTextIsUntouched) {
  EXPECT_EQ(N("a | b is not a docker prefix").text, "a | b is not a docker prefix");
  EXPECT_EQ(N("Discarded 2025 items").text, "Discarded 2025 items");
  std::string bad = "caf\xc3 \xff\xfe bytes";
  EXPECT_EQ(N(bad).text, bad);
}

TEST(Normalize, AnsiAndCarriageReturnWithOffsets) {
  std::string raw = "\x1b[31mValueError\x1b[0m: bad \x1b]0;title\x07value\r";
  NormalizedLine l = N(raw);
  EXPECT_EQ(l.text, "ValueError: bad value");
  // Each normalized byte maps back to the same byte of the raw line.
  for (size_t i = 0; i < l.text.size(); ++i) EXPECT_EQ(raw[l.RawOffset(i)], l.text[i]) << i;
  NormalizedLine p = N("progress 10%\rprogress 100%\rDone: ok");
  EXPECT_EQ(p.text, "Done: ok");
  std::string pre = "[rank3]: \x1b[1mKeyError\x1b[0m: 'x'";
  NormalizedLine q = N(pre);
  EXPECT_EQ(q.text, "KeyError: 'x'");
  for (size_t i = 0; i < q.text.size(); ++i) EXPECT_EQ(pre[q.RawOffset(i)], q.text[i]) << i;
}

TEST(Normalize, MoreKnownPrefixes) {
  EXPECT_EQ(N("2026-10-12T19:54:57.879123456+00:00 stderr F ValueError: x").text, "ValueError: x");
  EXPECT_EQ(N("2026-10-12T19:54:57.879Z ERROR router |   File \"a.py\", line 1, in f").text,
            "  File \"a.py\", line 1, in f");
  EXPECT_EQ(N("Dec 03 10:11:12 gpu-node-4 vllm-serve[2318]: ValueError: x").text, "ValueError: x");
  EXPECT_EQ(N("Dec 03 10:11:12 gpu-node-4 vllm-serve[2318]: ValueError: x").source, "vllm-serve");
  EXPECT_EQ(N("E1203 10:11:12.123456  1234 server.py:212] ValueError: x").text, "ValueError: x");
  EXPECT_EQ(N("[pod/vllm-0/engine] ValueError: x").text, "ValueError: x");
  EXPECT_EQ(N("[01:01:20] KeyError: 'k'").text, "KeyError: 'k'");
  EXPECT_EQ(N("ERROR 10-23 23:20:26 registry.py:272]   File \"r.py\", line 1, in f").text,
            "  File \"r.py\", line 1, in f");
}

// A prefix no rule knows, learned from the traceback it stands in front of.
TEST(Normalize, LearnsThePastesOwnPrefix) {
  LineNormalizer n;
  std::vector<std::string> tb = {
      "[worker-7] Traceback (most recent call last):",
      "[worker-7]   File \"/srv/a.py\", line 3, in <module>",
      "[worker-7]     main()",
      "[worker-7]   File \"/srv/b.py\", line 9, in main",
      "[worker-7] ValueError: x",
  };
  EXPECT_TRUE(n.LearnPrefix(tb));
  EXPECT_TRUE(n.has_learned_prefix());
  NormalizedLine out;
  n.Normalize("[worker-12]   File \"/srv/b.py\", line 9, in main", out);  // digits may differ
  EXPECT_EQ(out.text, "  File \"/srv/b.py\", line 9, in main");
  n.Normalize("[worker-3] ValueError: x", out);
  EXPECT_EQ(out.text, "ValueError: x");
  n.Normalize("ValueError: unprefixed", out);
  EXPECT_EQ(out.text, "ValueError: unprefixed");
  // Frame lines that start with "  File" need no prefix; differing shapes teach nothing.
  LineNormalizer m;
  EXPECT_FALSE(m.LearnPrefix({"Traceback (most recent call last):", "  File \"a.py\", line 1, in f"}));
  EXPECT_FALSE(m.LearnPrefix({"x:   File \"a.py\", line 1, in f", "yy:   File \"b.py\", line 2, in g"}));
}

TEST(SplitClassPrefix, StrictAndLoose) {
  auto s = SplitClassPrefix("json.decoder.JSONDecodeError: Expecting value", true);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.class_end, 28u);
  EXPECT_EQ(s.message_begin, 30u);
  EXPECT_FALSE(SplitClassPrefix("Note: this is prose", true).ok);
  EXPECT_TRUE(SplitClassPrefix("KeyboardInterrupt", true).ok);
  EXPECT_TRUE(SplitClassPrefix("MyThing: x", false).ok);
}

}  // namespace
}  // namespace errdex
