// scan/resolved_source.cc: see resolved_source.h. Tested end to end by
// tests/scan_e2e_test.cc (work trees, subdirectories, --rev, bare clones).
#include "scan/resolved_source.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

namespace errdex {

namespace {

std::string AbsolutePath(const std::string& p) {
  char buf[PATH_MAX];
  if (realpath(p.c_str(), buf) == nullptr) return p;
  return buf;
}

}  // namespace

Result<ResolvedSource> ResolveSource(const ScanOptions& o) {
  ResolvedSource rs;
  rs.repo = o.repo;
  rs.sha = o.sha;
  if (o.source != nullptr) {
    rs.source = o.source;
    return rs;
  }
  struct stat st;
  if (o.path.empty() || stat(o.path.c_str(), &st) != 0) return Status::NotFound("no such file or directory: " + o.path);
  if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument("not a directory or git repository: " + o.path);
  rs.root = AbsolutePath(o.path);
  GitFacts facts = DiscoverGitFacts(o.path);
  if (!rs.repo && facts.github_repo) rs.repo = facts.github_repo;
  if (o.rev || facts.bare) {
    if (!facts.in_git) return Status::InvalidArgument("--rev needs a git repository: " + o.path + " is not in one");
    std::string rev = o.rev.value_or("HEAD");
    auto git = OpenGitTreeSource(o.path, rev, facts.bare ? "" : facts.subdir, o.max_file_size);
    if (!git.ok()) return git.status();
    if (!rs.sha) rs.sha = git->commit_sha;
    rs.commit_time = git->commit_time;
    rs.owned = std::move(git->source);
  } else {
    auto dir = OpenDirectorySource(o.path, o.max_file_size);
    if (!dir.ok()) return dir.status();
    rs.owned = std::move(dir.value());
    // A work tree in git: HEAD is the commit and paths are relative to the
    // repository root -- unless --repo names another repository than origin
    // (a project vendored or bundled inside this one): then PATH is its root.
    bool same_repo = !o.repo || o.repo == facts.github_repo;
    if (facts.in_git && same_repo) {
      if (!rs.sha && facts.head_sha) rs.sha = facts.head_sha;
      if (!facts.subdir.empty()) rs.prefix = facts.subdir + "/";
    }
  }
  rs.source = rs.owned.get();
  return rs;
}

}  // namespace errdex
