// The knowledge blob written directly (json_dump.h) is what nlohmann's dump of
// its DOM wrote, byte for byte: parsed and dumped again by nlohmann it does not
// change (key order, escapes, U+FFFD for invalid UTF-8), read back it holds
// every member, and HashDeps hashes each entry as the DOM's dump wrote it
// (variants stored by earlier scans must still match).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "document/json_dump.h"
#include "document/knowledge.h"

namespace errdex::doc {
namespace {

using nlohmann::json;

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Strings that escape: quotes, backslashes, every control character, DEL,
// valid UTF-8 and invalid bytes (a lone continuation, a cut sequence, an overlong).
std::vector<std::string> HostileStrings() {
  std::string controls;
  for (int c = 1; c < 0x20; ++c) controls.push_back(static_cast<char>(c));
  return {"", "plain", "q\"uote\\back/slash", controls, std::string("nul\0in", 6), "del\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
          "lone\x80", "cut\xe2\x82", "overlong\xc0\xaf", "mixed\xc3\xa9\xff\"\n"};
}

SettingsData RichData() {
  SettingsData d;
  std::vector<std::string> hs = HostileStrings();
  for (size_t i = 0; i < hs.size(); ++i) {
    const std::string& s = hs[i];
    Flag f;
    f.options = {"--x" + std::to_string(i), s};
    f.dest = "x" + std::to_string(i) + s;
    f.type = i % 2 ? "int" : s;
    if (i % 3) f.choices = {s, "b"};
    f.choices_from = i % 3 ? "choices" : "";
    if (i % 2) f.default_value = s;
    f.default_is_literal = i % 4 == 1;
    f.action = i % 5 ? "" : "store_true";
    f.nargs = s;
    f.help = s + " help";
    f.origin = i % 2 ? "argparse" : "dataclass";
    if (i % 2) f.negative = "--no-x" + s;
    if (i % 3 == 0) f.env = "ENV_" + s;
    if (i % 4 == 0) f.class_name = "Args" + s;
    f.file = "pkg/" + s + ".py";
    f.line = i == 3 ? -7 : static_cast<int>(i * 1000);
    d.flags.push_back(f);
    EnvVar e;
    e.name = "E" + s;
    e.type = s;
    if (i % 2) e.default_value = s;
    if (i % 3) e.choices = {s};
    e.reader = "os.environ";
    e.file = s;
    e.line = static_cast<int>(i);
    d.envs.push_back(e);
    ConfigField c;
    c.class_name = "ServerArgs" + s;
    c.name = "f" + s;
    c.type = s;
    if (i % 2) c.default_value = s;
    if (i % 3) c.choices = {"a", s}, c.choices_from = "Literal";
    if (i % 2) c.help = s;
    c.file = s;
    c.line = static_cast<int>(i);
    d.fields.push_back(c);
    d.list_constants[s + "L"] = {s, "v"};
    d.literal_aliases[s + "A"] = {};
    d.enums[s + "E"] = {{"RED", s}, {s, "blue"}};
    d.env_prefixes[s + "P"] = s;
    d.class_bases[s + "C"] = s;
    d.settings_classes.push_back(s);
  }
  return d;
}

TEST(JsonDump, StringsAsNlohmannDumpsThem) {
  for (const std::string& s : HostileStrings()) {
    std::string out;
    jsondump::String(out, s);
    EXPECT_EQ(out, Dump(json(s))) << s;
  }
}

TEST(JsonDump, ObjectMembersInNlohmannsKeyOrder) {
  jsondump::Object o;
  for (std::string k : {"b", "a", "B", "choicesFrom", "choices", "className", "_", "\xc3\xa9", "a\x01"})
    jsondump::String(o.Member(k), k);
  std::string out;
  o.AppendTo(out);
  EXPECT_EQ(out, Dump(json::parse(out)));
}

// SerializeChunks appends the sites' contexts after the dumped object (never
// part of the DOM): the object is the text without them.
std::string WithoutSites(std::string text) {
  const std::string tail = ",\"sites\":{}}";
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  text.resize(text.size() - tail.size());
  return text + "}";
}

// Where two texts first differ, for a readable failure.
std::string FirstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  size_t from = i < 60 ? 0 : i - 60;
  return "at " + std::to_string(i) + ": ..." + a.substr(from, 120) + "\n vs ..." + b.substr(from, 120);
}

TEST(JsonDump, KnowledgeBlobIsNlohmannsDumpOfItself) {
  std::map<std::string, std::map<std::string, std::string>> fcb = {{"a.py", {{"E", "ValueError"}}}, {"b\xff.py", {{"E", "Key\"Error"}}}};
  SettingsData data = RichData();
  data.enums["Empty"] = {};  // written [] (and not read back: no members, no enum)
  KnowledgeIndex k(data, fcb);
  std::string text = WithoutSites(k.SerializeChunks({}));
  std::string dumped = Dump(json::parse(text));
  EXPECT_EQ(text, dumped) << FirstDifference(text, dumped);
  // Every member is there: read back and written again, the same text.
  KnowledgeIndex rich(RichData(), fcb);
  std::string full = rich.SerializeChunks({});
  std::string again = RepoKnowledge::Deserialize(full)->SerializeChunks({});
  EXPECT_EQ(again, full) << FirstDifference(again, full);
  // Empty knowledge too.
  KnowledgeIndex empty(SettingsData{}, {});
  std::string none = WithoutSites(empty.SerializeChunks({}));
  EXPECT_EQ(none, Dump(json::parse(none)));
  EXPECT_EQ(none.substr(0, 14), "{\"knowledge\":{");
}

// HashDeps must hash an entry as FlagJson(...).dump() did: its text is the
// entry of ConsultedJson (the DOM) without the "kind" it adds.
TEST(JsonDump, HashDepsHashesTheDomsDump) {
  KnowledgeIndex k(RichData(), {});
  for (const Flag& f : k.data().flags) {
    DocDeps deps;
    deps.Add("flag", f.dest);
    json consulted = json::parse(k.ConsultedJson(deps));
    ASSERT_EQ(consulted.size(), 1u);
    consulted[0].erase("kind");
    XXH64_state_t* st = XXH64_createState();
    XXH64_reset(st, 0);
    for (const std::string& s : {std::string("flag"), f.dest, Dump(consulted[0])}) {
      XXH64_update(st, s.data(), s.size());
      XXH64_update(st, "\0", 1);
    }
    uint64_t want = XXH64_digest(st);
    XXH64_freeState(st);
    EXPECT_EQ(k.HashDeps(deps), want) << f.dest;
  }
}

// A name defined twice (an example's --r and the library's): the lookup from a
// site picks one by its file, so a change to either changes the hash; so does a
// change to a class's bases in the repository.
TEST(JsonDump, HashDepsSeesEveryDefinitionOfAName) {
  auto hash = [](SettingsData d, const char* kind, const char* name) {
    KnowledgeIndex k(std::move(d), {});
    DocDeps deps;
    deps.Add(kind, name);
    return k.HashDeps(deps);
  };
  SettingsData d;
  Flag lib, script;
  lib.dest = script.dest = "r";
  lib.options = script.options = {"--r"};
  lib.file = "pkg/args.py";
  script.file = "examples/train.py";
  script.default_value = "16";
  d.flags = {script, lib};
  SettingsData changed = d;
  changed.flags[1].default_value = "8";
  EXPECT_NE(hash(d, "flag", "r"), hash(changed, "flag", "r"));

  d.class_bases = {{"AdaConfig", "LoraConfig"}, {"LoraConfig", "object"}};
  changed = d;
  changed.class_bases["AdaConfig"] = "BaseConfig";
  changed.class_bases["BaseConfig"] = "object";
  EXPECT_NE(hash(d, "class", "AdaConfig"), hash(changed, "class", "AdaConfig"));
}

}  // namespace
}  // namespace errdex::doc
