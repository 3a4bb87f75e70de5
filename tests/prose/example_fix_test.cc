// exampleFix on real-style code scanned by the real binary (tests/prose/fixtures/):
// the call with a value the check rejects and one it accepts, for checks a caller
// meets through the arguments it passes. Each "after" value is one the whole guard
// accepts; where no such value is known the field stays null.
#include <gtest/gtest.h>

#include "prose/fixture_scan.h"

namespace errdex {
namespace {

using namespace prosetest;

// `x <= 0 or x % 16 != 0`, `n % 8 != 0 or k % _K_ALIGN != 0`, `a <= 0 or b <= 0`: every
// argument the disjunction tests gets a value none of its tests rejects (the smallest
// positive multiple, the default when it passes, a module constant read as its value);
// the failing call changes only the first. A modulus that is itself an argument, a guard
// no integer passes, and the negated test of an earlier `if ...: return`, give no call.
TEST(ExampleFix, IntArgumentsOfADisjunction) {
  Scanned s = ScanFixture("call_args");
  ASSERT_EQ(s.exit_code, 0);
  const Record* t = Find(s, "tile_size must be a positive multiple of 16");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->example_fix.value_or(""), "# before\nlaunch_tiles(tile_size=0)\n# after\nlaunch_tiles(tile_size=16)") << Dump(t);
  const Record* b = Find(s, "block_size must be a positive multiple of 32");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->example_fix.value_or(""),
            "# before\nlaunch_blocks(block_size=0)\n# after\nlaunch_blocks(block_size=128)  # the default")
      << Dump(b);
  const Record* g = Find(s, "n must be a multiple of 8 and k a multiple of");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->example_fix.value_or(""), "# before\ngrouped_gemm(n=12, k=16)\n# after\ngrouped_gemm(n=8, k=16)") << Dump(g);
  const Record* w = Find(s, "total_tasks and sm_count must be positive");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->example_fix.value_or(""),
            "# before\nsplit_work(total_tasks=0, sm_count=1)\n# after\nsplit_work(total_tasks=1, sm_count=1)")
      << Dump(w);
  const Record* p = Find(s, "rows must be a positive multiple of align");
  ASSERT_TRUE(p);
  EXPECT_FALSE(Has(p->example_fix, "pad_rows(rows=")) << Dump(p);
  const Record* n = Find(s, "no split count works here");
  ASSERT_TRUE(n);
  EXPECT_FALSE(Has(n->example_fix, "pick_split(")) << Dump(n);
  // `src_type != 2 or dst_type != 0` is the negated test of an earlier `if ...: return`: a
  // value that fails it (src_type=1, dst_type=0) meets another such return first.
  const Record* c = Find(s, "is not implemented");
  ASSERT_TRUE(c);
  EXPECT_FALSE(Has(c->example_fix, "src_type=1, dst_type=0")) << Dump(c);
  ExpectCleanProse(s);
}

// `x not in NAME` where NAME is a literal tuple, list, set or dict (its keys) assigned at
// module level or in the function: the call with a member. A table that is itself an
// argument, one built by a comprehension, or one the file changes gives no call.
TEST(ExampleFix, MemberOfALiteralTable) {
  Scanned s = ScanFixture("call_args");
  ASSERT_EQ(s.exit_code, 0);
  const Record* p = Find(s, "page_size must be one of");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->example_fix.value_or(""),
            "# before\nmake_mla_config(page_size=65)  # not 32 or 64\n# after\nmake_mla_config(page_size=32)")
      << Dump(p);
  const Record* q = Find(s, "quant_type must be one of");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->example_fix.value_or(""),
            "# before\ninterleave_weights(quant_type=\"other\")  # not \"fp4\" or \"int4\"\n# after\n"
            "interleave_weights(quant_type=\"fp4\")")
      << Dump(q);
  const Record* t = Find(s, "unknown backend");
  ASSERT_TRUE(t);
  EXPECT_FALSE(Has(t->example_fix, "lookup_backend(name=")) << Dump(t);
  const Record* a = Find(s, "unsupported activation");
  ASSERT_TRUE(a);
  EXPECT_FALSE(Has(a->example_fix, "pick_activation(activation=")) << Dump(a);
  // A set the module extends (`valid_whence.add(os.SEEK_HOLE)`) holds more than its literal:
  // a value outside the literal may pass, so no call is shown.
  const Record* w = Find(s, "invalid whence");
  ASSERT_TRUE(w);
  EXPECT_FALSE(Has(w->example_fix, "seek_to(whence=")) << Dump(w);
  ExpectCleanProse(s);
}

}  // namespace
}  // namespace errdex
