// A file's knowledge through SerializeFileKnowledge and back is the same
// knowledge: on every file of the machine's Python standard library and on a
// file with every settings idiom, each file's bytes and the repository's merged
// knowledge are equal before and after.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "document/documenter.h"

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

}  // namespace
}  // namespace errdex
