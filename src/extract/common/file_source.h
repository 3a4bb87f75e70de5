// FileSource: where the scanner gets the files of a repository from, kept behind
// an interface (STYLE.md, convention 8) so tests can scan an in-memory tree.
// Owns three sources -- a directory walker, a git tree read straight from the
// object database (libgit2, no checkout), an in-memory map -- and the repository
// facts read from git (HEAD commit, origin remote -> GitHub owner/name).
//
// Tested by file_source_test.cc and tests/scan_e2e_test.cc.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/common/diagnostic.h"
#include "model/status.h"

namespace errdex {

// Files larger than this are skipped with a Diagnostic (--max-file-size). 16 MiB:
// the JavaScript and C/C++ front ends stop there too, no hand-written source file
// comes near it (the largest .py of a Python 3.11 tree with site-packages is a
// 4 MB generated policy table; the largest header in /usr/include 2.5 MB),
// and a front end's tokens and the document stage's index of a file take about
// eight times its size (a 57 MB data file with one raise took 480 MB).
inline constexpr uint64_t kDefaultMaxFileSize = 16ull << 20;  // 16 MiB

// What List() found: regular files, and the soft errors met on the way
// (unreadable directories, ...). The run goes on after a diagnostic.
struct FileListing {
  std::vector<std::string> paths;  // repo-relative, '/' separated, sorted bytewise, unique
  // Parallel to paths when the source knows them without reading (a git tree):
  // each file's git blob id (20 raw bytes, GitBlobId of its bytes). Else empty.
  std::vector<std::string> blob_ids;
  std::vector<Diagnostic> diagnostics;
};

// The id git gives a blob of these bytes (SHA-1 of "blob <size>\0" + bytes), 20 raw
// bytes: files read from a directory are named as the same files in a commit.
std::string GitBlobId(std::string_view bytes);

// A tree of files. List() is called once, from one thread; Read() is
// thread-safe and may be called concurrently for different or equal paths.
class FileSource {
 public:
  virtual ~FileSource() = default;
  virtual Result<FileListing> List() = 0;
  // The file's bytes. kLimitExceeded when it is larger than the source's
  // max file size; kIoError when it cannot be read. Both are soft errors.
  // REQUIRES: `path` came from List().
  virtual Result<std::string> Read(const std::string& path) const = 0;
  // For people: "DIR" or "REPO@REV".
  virtual std::string Describe() const = 0;
};

// Directories never entered (as ../shared/tools/oracle_py.py).
bool IsSkippedDirName(std::string_view name);

// Walks `root` (a directory; a symlink given as root is followed, no symlink
// below it is). Skips the directories of IsSkippedDirName. Unreadable
// directories become diagnostics. kNotFound / kInvalidArgument when root is
// missing / not a directory.
Result<std::unique_ptr<FileSource>> OpenDirectorySource(const std::string& root,
                                                        uint64_t max_file_size = kDefaultMaxFileSize);

// The tree of `rev` (anything git rev-parse accepts: tag, branch, sha, HEAD~1)
// in the repository at or above `repo_path` (bare or not), read from the object
// database. Only paths under `subdir` (repo-relative, "" for all) are listed.
// Symlinks and submodules are not files. kNotFound for a missing repository or
// unknown revision.
struct GitTreeSourceInfo {
  std::unique_ptr<FileSource> source;
  std::string commit_sha;  // the commit `rev` names (40 hex)
  int64_t commit_time = 0;  // its committer time (seconds since the epoch)
};
Result<GitTreeSourceInfo> OpenGitTreeSource(const std::string& repo_path, const std::string& rev,
                                            const std::string& subdir = "",
                                            uint64_t max_file_size = kDefaultMaxFileSize);

// Which commits of a repository to scan (errdex scan --rev/--revs/--tags/--first-parent).
struct RevisionQuery {
  std::vector<std::string> revs;    // as given (tag, branch, sha, HEAD~3), in this order
  std::vector<std::string> globs;   // tag and branch names matching a glob ("v0.4.*")
  bool tags = false;                // every tag
  std::vector<std::string> ranges;  // "A..B": B's first-parent chain down to (not including) A
  bool empty() const { return revs.empty() && globs.empty() && !tags && ranges.empty(); }
};
struct Revision {
  std::string name;  // what names it: the rev as given, "refs/tags/v1", or the sha in a range
  std::string sha;   // the commit (40 hex)
  int64_t time = 0;  // committer time
};
// The commits `query` names, each once: --rev ones first in their order, then
// glob and tag matches oldest first, then each range oldest first. kNotFound
// for an unknown revision; an empty list is not an error here.
Result<std::vector<Revision>> ListRevisions(const std::string& repo_path, const RevisionQuery& query);

// Files held in memory (tests). Not thread-safe while adding; Read is.
class MemoryFileSource : public FileSource {
 public:
  explicit MemoryFileSource(uint64_t max_file_size = kDefaultMaxFileSize) : max_file_size_(max_file_size) {}
  void Add(std::string path, std::string bytes) { files_[std::move(path)] = std::move(bytes); }
  Result<FileListing> List() override;
  Result<std::string> Read(const std::string& path) const override;
  std::string Describe() const override { return "<memory>"; }

 private:
  std::map<std::string, std::string> files_;
  uint64_t max_file_size_;
};

// What git says about a path. Every field is empty when it is not in git.
struct GitFacts {
  bool in_git = false;
  bool bare = false;
  std::string git_dir;                     // the repository's .git directory (or the bare dir)
  std::string workdir;                     // work tree root, "" for a bare repository
  std::string subdir;                      // the path inside the work tree, repo-relative ("" = root)
  std::optional<std::string> head_sha;     // HEAD commit; nullopt for an unborn branch
  std::optional<std::string> origin_url;   // remote.origin.url
  std::optional<std::string> github_repo;  // owner/name when origin is on GitHub
};

// Discovers the repository at or above `path` (never fails: a path outside git
// gives in_git=false, and so does a path inside a work tree that git ignores:
// its files are in no commit).
GitFacts DiscoverGitFacts(const std::string& path);

// "https://github.com/o/n(.git)", "git@github.com:o/n(.git)",
// "ssh://git@github.com/o/n(.git)", "git://github.com/o/n" -> "o/n";
// anything else (another host, a local path, a malformed URL) -> nullopt.
std::optional<std::string> GithubRepoFromRemoteUrl(std::string_view url);

}  // namespace errdex
