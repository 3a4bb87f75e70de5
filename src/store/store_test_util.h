// store_test_util.h: helpers shared by the store tests (temporary directories,
// synthetic catalog lines). Test-only; not part of the library.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "model/record.h"

namespace errdex::testing_util {

// A fresh directory, removed with its contents at destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("errdex_store_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string File(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteFile(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// A synthetic line: record `index` of (repo, sha), id derived from them.
inline CatalogLine MakeLine(const std::string& repo, const std::string& sha, int index, const std::string& message,
                            const std::string& error_class = "ValueError",
                            const std::string& dataset_version = "2026-01-01T00:00:00.000Z") {
  CatalogLine l;
  Record& r = l.record;
  r.id = MakeRecordId(repo, "pkg/mod.py", "raise", error_class, message, index);
  r.repo = repo;
  r.slug = MakeSlug(message);
  r.error_message = message;
  r.message_pattern = message;
  r.error_type = "validation";
  r.error_class = error_class;
  r.severity = "error";
  r.file_path = "pkg/mod.py";
  r.line_number = 20 + index;
  r.source_code = "def f():\n    raise " + error_class + "(\"" + message + "\")\n";
  r.source_code_start = 19 + index;
  r.source_code_end = 20 + index;
  r.github_url = MakeGithubUrl(repo, sha, r.file_path, r.source_code_start, r.source_code_end);
  r.analyzed_sha = sha;
  r.analyzed_at = dataset_version;
  l.dataset_version = dataset_version;
  return l;
}

}  // namespace errdex::testing_util
