// py_extract_dump: runs the Python front end (ExtractPython) over every *.py
// file of a directory (same walk as oracle_py.py: sorted, symlinks and
// VCS/cache/venv directories skipped) and prints one JSON object per site,
// oracle-style keys, to stdout. Used by tests/diff/diff_oracle.py.
// Prints bytes, files and the extraction time (file reading excluded) to stderr.
//   py_extract_dump DIR [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/python/python_extractor.h"
#include "model/site.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: py_extract_dump DIR [--repeat N]\n");
    return 2;
  }
  int repeat = 1;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
  fs::path root = fs::absolute(argv[1]);
  static const std::set<std::string> kSkip = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".tox",
                                              ".nox", ".venv", "venv", ".mypy_cache"};
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::directory_entry& e = *it;
    if (e.is_symlink()) {
      if (e.is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (e.is_directory()) {
      if (kSkip.count(e.path().filename().string())) it.disable_recursion_pending();
      continue;
    }
    if (e.is_regular_file() && e.path().extension() == ".py")
      files.push_back(fs::relative(e.path(), root).generic_string());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  size_t bytes = 0;
  for (const std::string& f : files) {
    std::ifstream in(root / f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    texts.push_back(ss.str());
    bytes += texts.back().size();
  }
  std::vector<errdex::PythonExtractResult> results(files.size());
  // thread CPU time: the machine may be shared, wall time is noisy
  auto cpu = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
  };
  double t0 = cpu();
  for (int r = 0; r < repeat; ++r)
    for (size_t i = 0; i < files.size(); ++i) results[i] = errdex::ExtractPython(files[i], texts[i]);
  double secs = (cpu() - t0) / repeat;
  size_t n_sites = 0, n_diag = 0;
  std::string out;
  for (size_t i = 0; i < files.size(); ++i) {
    n_diag += results[i].diagnostics.size();
    for (const errdex::Site& s : results[i].sites) {
      ++n_sites;
      nlohmann::json j;
      j["filePath"] = s.file_path;
      j["lineNumber"] = s.line;
      j["column"] = s.column;
      j["endLineNumber"] = s.end_line;
      j["kind"] = errdex::SiteKindName(s.kind);
      auto opt = [&](const char* k, const std::optional<std::string>& v) {
        j[k] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
      };
      opt("errorClass", s.error_class);
      opt("errorClassExpr", s.error_class_expr);
      opt("errorCode", s.error_code);
      opt("errorMessage", s.error_message);
      opt("messagePattern", s.message_pattern);
      opt("messageExpr", s.message_expr);
      opt("exceptContext", s.except_context);
      opt("cause", s.cause);
      opt("assertCondition", s.assert_condition);
      opt("logLevel", s.log_level);
      j["httpStatus"] = s.http_status ? nlohmann::json(*s.http_status) : nlohmann::json(nullptr);
      j["messageAlternatives"] = s.message_alternatives.size() > 1 ? nlohmann::json(s.message_alternatives) : nlohmann::json(nullptr);
      j["interpolations"] = s.interpolations;
      j["messageResolution"] = s.message_resolution.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.message_resolution);
      j["function"] = s.function;
      j["guards"] = s.guards;
      j["dynamic"] = s.dynamic;
      j["inTests"] = s.in_tests;
      out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      out.push_back('\n');
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fprintf(stderr, "py_extract_dump: %zu files, %zu bytes, %zu sites, %zu diagnostics, %.4fs extract (thread CPU), %.1f MB/s\n",
               files.size(), bytes, n_sites, n_diag, secs, secs > 0 ? bytes / secs / 1e6 : 0.0);
  return 0;
}
