// The section's flag table, written directly (section.cc AppendFlag/AppendEnv),
// is what the nlohmann DOM it replaced dumped -- nlohmann's dump of it parsed is
// the same text -- and reads back with every member.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "check/section.h"

namespace errdex::check {
namespace {

using nlohmann::json;

TEST(CheckSection, FlagTableIsNlohmannsDumpOfItself) {
  doc::SettingsData d;
  const std::vector<std::string> hostile = {"", "plain", "q\"\\/", "\x01\t\n", "caf\xc3\xa9", "bad\xff", "del\x7f"};
  for (size_t i = 0; i < hostile.size(); ++i) {
    const std::string& s = hostile[i];
    doc::Flag f;
    f.options = {"--f" + std::to_string(i), s};
    f.dest = "f" + std::to_string(i);
    f.type = s;
    f.action = i % 2 ? "store_true" : "";
    f.nargs = s;
    f.origin = i == 2 ? "mentioned" : "argparse";  // mentioned flags stay out of the table
    f.file = s;
    f.line = static_cast<int>(i) - 2;
    if (i % 2) f.choices = {s, "x"};
    if (i % 3) f.default_value = s, f.default_is_literal = i % 2;
    if (i % 2) f.negative = "--no-" + s;
    if (i % 3 == 0) f.env = s;
    if (i % 4 == 0) f.class_name = s;
    f.kwargs = i % 2;
    d.flags.push_back(f);
    doc::EnvVar e;
    e.name = "E" + s;
    e.type = s;
    e.reader = "os.getenv";
    e.file = s;
    e.line = static_cast<int>(i);
    if (i % 2) e.default_value = s;
    if (i % 3) e.choices = {s};
    d.envs.push_back(e);
  }
  CheckFacts facts;
  facts.scripts = {{"app", "pkg.main:run"}};
  std::string section = BuildSection(facts, &d);
  json parsed = json::parse(section);
  // The object's own members are written in a fixed order; its arrays are the dumps.
  for (const char* k : {"flags", "envs"}) {
    std::string dumped = parsed[k].dump(-1, ' ', false, json::error_handler_t::replace);
    EXPECT_NE(section.find("\"" + std::string(k) + "\":" + dumped), std::string::npos) << k;
  }
  ASSERT_EQ(parsed["flags"].size(), hostile.size() - 1);
  auto back = ReadSection(WithCheckSection("", section));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->flags.size(), hostile.size() - 1);
  ASSERT_EQ(back->envs.size(), hostile.size());
  const doc::Flag& f5 = back->flags[4];  // hostile[5]: every optional member set but env and class
  EXPECT_EQ(f5.options, (std::vector<std::string>{"--f5", "bad\xef\xbf\xbd"}));
  EXPECT_EQ(f5.choices.size(), 2u);
  EXPECT_EQ(f5.default_value.value_or("?"), "bad\xef\xbf\xbd");
  EXPECT_TRUE(f5.default_is_literal);
  EXPECT_EQ(f5.negative, "--no-bad\xef\xbf\xbd");
  EXPECT_TRUE(f5.kwargs);
  EXPECT_EQ(f5.line, 3);
  EXPECT_EQ(back->flags[0].class_name, "");
  EXPECT_EQ(back->flags[0].env, "");
  EXPECT_EQ(back->flags[3].class_name, "caf\xc3\xa9");
  EXPECT_EQ(back->envs[3].default_value.value_or("?"), "\x01\t\n");
  EXPECT_EQ(back->envs[4].choices, (std::vector<std::string>{"caf\xc3\xa9"}));
}

}  // namespace
}  // namespace errdex::check
