// Format languages over evaluated arguments (extract/common/message.h): argument
// indices written in the message itself are input, so any number of digits is a
// missing argument, never an exception (found by the message_eval fuzz target).
#include "extract/common/message.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace errdex::msg {
namespace {

std::string Text(const Segs& s) {
  std::string out;
  for (const Seg& g : s) out += g.hole ? "<" + g.text + ">" : g.text;
  return out;
}

TEST(MessageArgIndex, HugeIndicesAreMissingArgumentsNotCrashes) {
  const std::vector<Segs> args = {{Lit("x")}, {Lit("y")}};
  const std::string huge(40, '6');
  for (Braces b : {Braces::kFmt, Braces::kRust, Braces::kMessageFormat}) {
    Segs out = ApplyBraces({Lit("{" + huge + "} then {1}")}, args, b);
    std::string t = Text(out);
    EXPECT_NE(t.find("then y"), std::string::npos) << t;  // the well-formed index still resolves
    EXPECT_EQ(t.find("then y"), t.size() - 6) << t;
  }
  Segs go = ApplyPrintf({Lit("%[" + huge + "]d then %[2]s")}, args, Printf::kGo);
  EXPECT_NE(Text(go).find("then y"), std::string::npos) << Text(go);
  Segs java = ApplyPrintf({Lit("%" + huge + "$s then %2$s")}, args, Printf::kJava);
  EXPECT_NE(Text(java).find("then y"), std::string::npos) << Text(java);
}

}  // namespace
}  // namespace errdex::msg
