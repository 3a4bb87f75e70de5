// A file's knowledge through SerializeFileKnowledge and back is the same
// knowledge: on every file of the machine's Python standard library and on a
// file with every settings idiom, each file's bytes and the repository's merged
// knowledge are equal before and after.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "document/documenter.h"
#include "document/knowledge.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;

constexpr const char* kIdioms = R"py(
import argparse, dataclasses, os
from dataclasses import dataclass, field
from typing import Literal, Optional
import click
from pydantic_settings import BaseSettings

MODES = ["fast", "safe"]
Backend = Literal["cuda", "rocm"]

class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"

@dataclass
class ServerArgs:
    mode: Literal["a", "b"] = "a"
    backend: Backend = "cuda"
    workers: int = 4
    verbose: bool = False

    @staticmethod
    def add_cli_args(parser):
        for f in dataclasses.fields(ServerArgs):
            parser.add_argument(f"--{f.name.replace('_', '-')}", default=f.default)

class Settings(BaseSettings):
    timeout: int = 30
    class Config:
        env_prefix = "APP_"

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=MODES, default="safe", help="how to run")
    p.add_argument("--no-cache", action="store_true", dest="no_cache")
    p.add_argument("--color", type=Color, choices=list(Color))
    debug = os.environ.get("APP_DEBUG", "0")
    level = int(os.getenv("APP_LEVEL", 3))
    if "--legacy-flag" in debug:
        pass

@click.command()
@click.option("--fast/--slow", default=True, envvar="APP_FAST", help="speed")
def cli(fast):
    pass

class AppError(ValueError):
    pass
)py";

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FileKnowledgeCodec, RoundTripsEveryFileAndTheMergedKnowledge) {
  std::vector<std::pair<std::string, std::string>> files = {{"pkg/idioms.py", kIdioms}};
  for (const auto& dir : fs::directory_iterator("/usr/lib")) {
    std::string name = dir.path().filename().string();
    if (name.rfind("python3.", 0) != 0 || !fs::is_directory(dir.path())) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir.path(), fs::directory_options::skip_permission_denied)) {
      if (!e.is_regular_file() || e.path().extension() != ".py") continue;
      files.emplace_back(fs::relative(e.path(), dir.path()).string(), Slurp(e.path()));
    }
    break;
  }
  ASSERT_GT(files.size(), 500u) << "no Python standard library under /usr/lib";
  std::vector<FileKnowledgePtr> before, after;
  size_t with_knowledge = 0;
  for (const auto& [path, text] : files) {
    FileKnowledgePtr k = CollectFileKnowledge(path, text);
    std::string bytes = SerializeFileKnowledge(*k);
    FileKnowledgePtr back = DeserializeFileKnowledge(path, bytes);
    ASSERT_EQ(SerializeFileKnowledge(*back), bytes) << path;
    if (!bytes.empty()) ++with_knowledge;
    before.push_back(std::move(k));
    after.push_back(std::move(back));
  }
  EXPECT_GT(with_knowledge, 100u);
  std::string merged_before = RepoKnowledge::Build(std::move(before))->Serialize();
  std::string merged_after = RepoKnowledge::Build(std::move(after))->Serialize();
  EXPECT_EQ(merged_after, merged_before);
  EXPECT_NE(merged_before.find("--mode"), std::string::npos);
  EXPECT_NE(merged_before.find("APP_DEBUG"), std::string::npos);
  // Bytes that are not a file's knowledge give a file that teaches nothing.
  EXPECT_EQ(SerializeFileKnowledge(*DeserializeFileKnowledge("x.py", "{not json")), "");
  EXPECT_EQ(SerializeFileKnowledge(*DeserializeFileKnowledge("x.py", std::string("\x01\x05", 2))), "");
}

// The fields main's settings idioms added (issue 10: Annotated metadata, field
// walkers given their classes by calls, every base of a class) survive the bytes:
// a repository whose flags come from `add_cli_args_from_dataclass(parser,
// ServerArgs)` merges from the decoded files into the same knowledge, with those
// flags in it.
TEST(FileKnowledgeCodec, RoundTripsAnnotatedFieldsWalkersAndClassCalls) {
  const fs::path fixture = fs::path(ERRDEX_SOURCE_DIR) / "tests/prose/fixtures/dataclass_helper";
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& e : fs::recursive_directory_iterator(fixture))
    if (e.is_regular_file() && e.path().extension() == ".py")
      files.emplace_back(fs::relative(e.path(), fixture).string(), Slurp(e.path()));
  files.emplace_back("srv/extra_args.py", R"py(
import dataclasses
from srv.arg_groups.arg_utils import A, Arg, add_cli_args_from_dataclass

@dataclasses.dataclass
class ExtraArgs(Base, Mixin):
    log_level: A[str, Arg(help="Logging level.", cli_name="--log", action="store")] = "info"
    mode: A[str, Arg(help="Mode.", choices=MODES)] = "a"

def register(parser):
    add_cli_args_from_dataclass(parser, ExtraArgs)
)py");
  ASSERT_GE(files.size(), 3u);
  std::vector<FileKnowledgePtr> before, after;
  bool meta = false, cli_name = false, action = false, aliases = false, no_cli = false, choices_expr = false;
  bool function = false, calls = false, bases = false;
  for (const auto& [path, text] : files) {
    FileKnowledgePtr k = CollectFileKnowledge(path, text);
    std::string bytes = SerializeFileKnowledge(*k);
    FileKnowledgePtr back = DeserializeFileKnowledge(path, bytes);
    ASSERT_EQ(SerializeFileKnowledge(*back), bytes) << path;
    const doc::SettingsData& a = k->data;
    const doc::SettingsData& b = back->data;
    ASSERT_EQ(a.fields.size(), b.fields.size()) << path;
    for (size_t i = 0; i < a.fields.size(); ++i) {
      const doc::ConfigField& x = a.fields[i];
      const doc::ConfigField& y = b.fields[i];
      EXPECT_EQ(x.choices_expr, y.choices_expr);
      EXPECT_EQ(x.has_meta, y.has_meta);
      EXPECT_EQ(x.inner_type, y.inner_type);
      EXPECT_EQ(x.aliases, y.aliases);
      EXPECT_EQ(x.cli_name, y.cli_name);
      EXPECT_EQ(x.action, y.action);
      EXPECT_EQ(x.no_cli, y.no_cli);
      meta = meta || x.has_meta;
      cli_name = cli_name || !x.cli_name.empty();
      action = action || !x.action.empty();
      aliases = aliases || !x.aliases.empty();
      no_cli = no_cli || x.no_cli;
      choices_expr = choices_expr || !x.choices_expr.empty();
    }
    ASSERT_EQ(a.walkers.size(), b.walkers.size()) << path;
    for (size_t i = 0; i < a.walkers.size(); ++i) {
      EXPECT_EQ(a.walkers[i].function, b.walkers[i].function);
      function = function || !a.walkers[i].function.empty();
    }
    EXPECT_EQ(a.all_bases, b.all_bases) << path;
    EXPECT_EQ(a.class_calls, b.class_calls) << path;
    calls = calls || !a.class_calls.empty();
    bases = bases || !a.all_bases.empty();
    before.push_back(std::move(k));
    after.push_back(std::move(back));
  }
  // The fixture exercises every new field (else this test would prove nothing).
  EXPECT_TRUE(meta);
  EXPECT_TRUE(cli_name);
  EXPECT_TRUE(action);
  EXPECT_TRUE(aliases);
  EXPECT_TRUE(no_cli);
  EXPECT_TRUE(choices_expr);
  EXPECT_TRUE(function);
  EXPECT_TRUE(calls);
  EXPECT_TRUE(bases);
  std::string merged_before = RepoKnowledge::Build(std::move(before))->Serialize();
  std::string merged_after = RepoKnowledge::Build(std::move(after))->Serialize();
  EXPECT_EQ(merged_after, merged_before);
  EXPECT_NE(merged_before.find("--deepep-mode"), std::string::npos) << merged_before;
  EXPECT_NE(merged_before.find("--ep"), std::string::npos) << merged_before;
}

// A file's knowledge in the first format (before the fields above) is read as a
// file that teaches nothing, never as garbage: the version byte says which.
TEST(FileKnowledgeCodec, RequirementConstantsRoundTrip) {
  FileKnowledgePtr k = CollectFileKnowledge(
      "pkg/imports.py",
      "import operator\n_TORCH_GE_2_3 = compare_version(\"torch\", operator.ge, \"2.3.0\")\n"
      "_WANDB_AVAILABLE = RequirementCache(\"wandb>=0.12.10\")\nNOT_ONE = RequirementCache(name)\n");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->data.requirement_constants,
            (std::map<std::string, std::string>{{"_TORCH_GE_2_3", "torch>=2.3.0"}, {"_WANDB_AVAILABLE", "wandb>=0.12.10"}}));
  FileKnowledgePtr back = DeserializeFileKnowledge("pkg/imports.py", SerializeFileKnowledge(*k));
  EXPECT_EQ(back->data.requirement_constants, k->data.requirement_constants);
}

TEST(FileKnowledgeCodec, AnOlderVersionTeachesNothing) {
  FileKnowledgePtr k = CollectFileKnowledge("pkg/idioms.py", kIdioms);
  std::string bytes = SerializeFileKnowledge(*k);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), 3);
  bytes[0] = 2;
  EXPECT_EQ(SerializeFileKnowledge(*DeserializeFileKnowledge("pkg/idioms.py", bytes)), "");
}

}  // namespace
}  // namespace errdex
