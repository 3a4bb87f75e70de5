// FileSource implementations: directory walker (POSIX), git tree (libgit2),
// in-memory map; and the git facts (HEAD, origin -> GitHub owner/name).
#include "extract/common/file_source.h"

#include <dirent.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <utility>

namespace errdex {

namespace {

std::string JoinPath(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  if (a.back() == '/') return a + b;
  return a + "/" + b;
}

std::string SizeLimitMessage(uint64_t size, uint64_t limit) {
  return "file is " + std::to_string(size) + " bytes, over the --max-file-size limit of " +
         std::to_string(limit) + " bytes; skipped";
}

// ---------------------------------------------------------------------------
// Directory walker.

class DirectorySource : public FileSource {
 public:
  DirectorySource(std::string root, uint64_t max_file_size)
      : root_(std::move(root)), max_file_size_(max_file_size) {}

  Result<FileListing> List() override {
    FileListing out;
    std::vector<std::string> stack{""};
    while (!stack.empty()) {
      std::string rel = std::move(stack.back());
      stack.pop_back();
      std::string full = JoinPath(root_, rel);
      DIR* dir = opendir(full.c_str());
      if (dir == nullptr) {
        if (rel.empty()) return Status::IoError("cannot read directory " + root_ + ": " + std::strerror(errno));
        out.diagnostics.push_back({rel, 0, 0, std::string("cannot read directory: ") + std::strerror(errno)});
        continue;
      }
      errno = 0;
      while (struct dirent* e = readdir(dir)) {
        const char* name = e->d_name;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
        unsigned char type = e->d_type;
        std::string child = JoinPath(rel, name);
        if (type == DT_UNKNOWN) {  // some filesystems do not fill d_type
          struct stat st;
          if (lstat(JoinPath(root_, child).c_str(), &st) != 0) continue;
          type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
        }
        if (type == DT_DIR) {
          if (!IsSkippedDirName(name)) stack.push_back(std::move(child));
        } else if (type == DT_REG) {
          out.paths.push_back(std::move(child));
        }
        // Symlinks (DT_LNK) are never followed, so symlink loops are harmless;
        // sockets, FIFOs and devices are not files.
      }
      if (errno != 0)
        out.diagnostics.push_back({rel, 0, 0, std::string("error reading directory: ") + std::strerror(errno)});
      closedir(dir);
    }
    std::sort(out.paths.begin(), out.paths.end());
    std::sort(out.diagnostics.begin(), out.diagnostics.end(),
              [](const Diagnostic& a, const Diagnostic& b) { return a.path < b.path; });
    return out;
  }

  Result<std::string> Read(const std::string& path) const override {
    std::string full = JoinPath(root_, path);
    int fd = open(full.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return Status::IoError(std::string("cannot open: ") + std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return Status::IoError("not a regular file");
    }
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size > max_file_size_) {
      close(fd);
      return Status::LimitExceeded(SizeLimitMessage(size, max_file_size_));
    }
    std::string bytes(size, '\0');
    size_t got = 0;
    for (;;) {
      // Past fstat's size the file grew (or, like procfs, reports none): read on
      // through a small stack buffer up to the cap + 1. Growing the string by a
      // large step instead zero-filled fresh pages for every file just to see EOF.
      char probe[4096];
      const bool past_stat = got >= bytes.size();
      if (past_stat && bytes.size() > max_file_size_) break;
      ssize_t n = past_stat ? read(fd, probe, sizeof probe) : read(fd, bytes.data() + got, bytes.size() - got);
      if (n < 0) {
        if (errno == EINTR) continue;
        int err = errno;
        close(fd);
        return Status::IoError(std::string("cannot read: ") + std::strerror(err));
      }
      if (n == 0) break;
      if (past_stat) bytes.append(probe, static_cast<size_t>(n));
      got += static_cast<size_t>(n);
    }
    close(fd);
    bytes.resize(got);
    if (got > max_file_size_) return Status::LimitExceeded(SizeLimitMessage(got, max_file_size_));
    return bytes;
  }

  std::string Describe() const override { return root_; }

 private:
  std::string root_;
  uint64_t max_file_size_;
};

// ---------------------------------------------------------------------------
// libgit2 helpers.

// Makes sure libgit2 is initialised: once for the process, never shut down.
// Each init loads the system's CA certificates (mbedTLS parses the PEM bundle),
// and a scan of a commit opened the repository three times (ListRevisions,
// DiscoverGitFacts, OpenGitTreeSource): with an init and a shutdown around
// each, ~12 ms of the 0.5 s scan of the commit after a stored one (perf).
class GitLibrary {
 public:
  GitLibrary() {
    static const bool initialised = [] {
      git_libgit2_init();
      // We only read; a repository owned by another user is fine to read.
      git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
      // Hashing every object read again to check its id cost a third of reading a
      // tree's blobs; git itself does not (the packs carry checksums).
      git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
      return true;
    }();
    (void)initialised;
  }
  GitLibrary(const GitLibrary&) = delete;
  GitLibrary& operator=(const GitLibrary&) = delete;
};

std::string GitErrorText() {
  const git_error* e = git_error_last();
  return e != nullptr && e->message != nullptr ? e->message : "unknown libgit2 error";
}

template <typename T, void (*Free)(T*)>
struct GitPtr {
  T* p = nullptr;
  GitPtr() = default;
  GitPtr(const GitPtr&) = delete;
  GitPtr& operator=(const GitPtr&) = delete;
  ~GitPtr() { if (p) Free(p); }
  T** out() { return &p; }
  T* get() const { return p; }
};
using RepoPtr = GitPtr<git_repository, git_repository_free>;
using ObjectPtr = GitPtr<git_object, git_object_free>;
using TreePtr = GitPtr<git_tree, git_tree_free>;
using BlobPtr = GitPtr<git_blob, git_blob_free>;
using OdbPtr = GitPtr<git_odb, git_odb_free>;
using OdbObjectPtr = GitPtr<git_odb_object, git_odb_object_free>;
using ConfigPtr = GitPtr<git_config, git_config_free>;

std::string OidHex(const git_oid* oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

// Reads blobs of one tree. git_repository handles are not safe to share across
// threads, so Read() borrows one from a small pool (one per concurrent reader).
class GitTreeSource : public FileSource {
 public:
  GitTreeSource(std::string git_dir, std::string describe, uint64_t max_file_size)
      : git_dir_(std::move(git_dir)), describe_(std::move(describe)), max_file_size_(max_file_size) {}
  ~GitTreeSource() override {
    for (git_repository* r : pool_) git_repository_free(r);
  }

  void AddEntry(std::string path, const git_oid& oid) { entries_.emplace_back(std::move(path), oid); }
  void Finish() {
    std::sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  Result<FileListing> List() override {
    FileListing out;
    out.paths.reserve(entries_.size());
    out.blob_ids.reserve(entries_.size());
    for (const auto& e : entries_) {
      out.paths.push_back(e.first);
      out.blob_ids.emplace_back(reinterpret_cast<const char*>(e.second.id), GIT_OID_RAWSZ);
    }
    return out;
  }

  Result<std::string> Read(const std::string& path) const override {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), path,
                               [](const auto& e, const std::string& p) { return e.first < p; });
    if (it == entries_.end() || it->first != path) return Status::NotFound("not in the tree");
    git_repository* repo = Borrow();
    if (repo == nullptr) return Status::IoError("cannot open repository " + git_dir_ + ": " + GitErrorText());
    Result<std::string> result = ReadBlob(repo, it->second);
    Return(repo);
    return result;
  }

  std::string Describe() const override { return describe_; }

 private:
  // One read of the object database (a header read first cost a second
  // inflate of every packed delta chain). A blob past the size limit is read
  // and dropped: the limit bounds what is kept, and a 64 MiB blob is rare.
  Result<std::string> ReadBlob(git_repository* repo, const git_oid& oid) const {
    OdbPtr odb;
    if (git_repository_odb(odb.out(), repo) != 0) return Status::IoError(GitErrorText());
    OdbObjectPtr obj;
    if (git_odb_read(obj.out(), odb.get(), &oid) != 0) return Status::IoError(GitErrorText());
    size_t len = git_odb_object_size(obj.get());
    if (len > max_file_size_) return Status::LimitExceeded(SizeLimitMessage(len, max_file_size_));
    return std::string(static_cast<const char*>(git_odb_object_data(obj.get())), len);
  }

  git_repository* Borrow() const {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!pool_.empty()) {
        git_repository* r = pool_.back();
        pool_.pop_back();
        return r;
      }
    }
    git_repository* r = nullptr;
    if (git_repository_open(&r, git_dir_.c_str()) != 0) return nullptr;
    return r;
  }
  void Return(git_repository* r) const {
    std::lock_guard<std::mutex> lock(mu_);
    pool_.push_back(r);
  }

  GitLibrary lib_;
  std::string git_dir_;
  std::string describe_;
  uint64_t max_file_size_;
  std::vector<std::pair<std::string, git_oid>> entries_;  // sorted by path
  mutable std::mutex mu_;
  mutable std::vector<git_repository*> pool_;  // guarded by mu_
};

struct WalkState {
  GitTreeSource* source;
  std::string subdir;  // "" or "a/b/"
};

int WalkCallback(const char* root, const git_tree_entry* entry, void* payload) {
  auto* st = static_cast<WalkState*>(payload);
  const char* name = git_tree_entry_name(entry);
  git_object_t type = git_tree_entry_type(entry);
  std::string path = std::string(root) + name;
  if (type == GIT_OBJECT_TREE) {
    if (IsSkippedDirName(name)) return 1;  // positive: skip this subtree
    if (!st->subdir.empty()) {
      std::string dir = path + "/";
      // Enter only directories on the way to, or inside, subdir.
      bool on_way = st->subdir.compare(0, dir.size(), dir) == 0;
      bool inside = dir.compare(0, st->subdir.size(), st->subdir) == 0;
      if (!on_way && !inside) return 1;
    }
    return 0;
  }
  git_filemode_t mode = git_tree_entry_filemode(entry);
  if (type != GIT_OBJECT_BLOB || (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE))
    return 0;  // symlinks and submodules (commits) are not files
  if (!st->subdir.empty() && path.compare(0, st->subdir.size(), st->subdir) != 0) return 0;
  st->source->AddEntry(std::move(path), *git_tree_entry_id(entry));
  return 0;
}

bool IsOwnerNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

bool IsGithubHost(std::string host) {
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host == "github.com" || host == "www.github.com";
}

std::string RealPath(const std::string& p) {
  char buf[PATH_MAX];
  if (realpath(p.c_str(), buf) == nullptr) return p;
  return buf;
}

}  // namespace

// libcrypto's SHA-1, not libgit2's git_odb_hash: Debian's libgit2 hashes with the
// collision-detecting SHA-1 (sha1dc): 376 M instructions of a --db scan of
// /usr/lib/python3.11 against 139 M here (callgrind, which does not run the CPU's SHA
// instructions). The id is the same: a collision
// attack on the files a user scans buys nothing a scan would not see anyway.
// Tested by file_source_test.cc (GitBlobId.*: ids git hash-object prints).
std::string GitBlobId(std::string_view bytes) {
  // Fetched once: EVP_sha1() would look the implementation up again at every init.
  static EVP_MD* const sha1 = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  struct CtxFree {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
  };
  thread_local std::unique_ptr<EVP_MD_CTX, CtxFree> ctx(EVP_MD_CTX_new());
  if (sha1 == nullptr || ctx == nullptr) return std::string();
  char header[32];
  int header_size = std::snprintf(header, sizeof header, "blob %zu", bytes.size()) + 1;  // and its NUL
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int md_size = 0;
  if (EVP_DigestInit_ex(ctx.get(), sha1, nullptr) != 1 || EVP_DigestUpdate(ctx.get(), header, header_size) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), md, &md_size) != 1 || md_size != 20)
    return std::string();
  return std::string(reinterpret_cast<const char*>(md), md_size);
}

bool IsSkippedDirName(std::string_view name) {
  static constexpr std::string_view kSkip[] = {".git", ".hg",  ".svn", "__pycache__", "node_modules",
                                               ".tox", ".nox", ".venv", "venv",       ".mypy_cache"};
  for (std::string_view s : kSkip)
    if (name == s) return true;
  return false;
}

Result<std::unique_ptr<FileSource>> OpenDirectorySource(const std::string& root, uint64_t max_file_size) {
  struct stat st;
  if (stat(root.c_str(), &st) != 0) return Status::NotFound("no such file or directory: " + root);
  if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument("not a directory: " + root);
  return std::unique_ptr<FileSource>(new DirectorySource(root, max_file_size));
}

Result<GitTreeSourceInfo> OpenGitTreeSource(const std::string& repo_path, const std::string& rev,
                                            const std::string& subdir, uint64_t max_file_size) {
  GitLibrary lib;
  RepoPtr repo;
  if (git_repository_open_ext(repo.out(), repo_path.c_str(), 0, nullptr) != 0)
    return Status::NotFound("not a git repository: " + repo_path);
  ObjectPtr obj;
  int rc = git_revparse_single(obj.out(), repo.get(), rev.c_str());
  if (rc != 0) return Status::NotFound("unknown revision '" + rev + "': " + GitErrorText());
  ObjectPtr commit;
  if (git_object_peel(commit.out(), obj.get(), GIT_OBJECT_COMMIT) != 0)
    return Status::InvalidArgument("revision '" + rev + "' does not name a commit");
  std::string sha = OidHex(git_object_id(commit.get()));
  TreePtr tree;
  if (git_commit_tree(tree.out(), reinterpret_cast<git_commit*>(commit.get())) != 0)
    return Status::IoError("cannot read the tree of " + sha + ": " + GitErrorText());

  std::string git_dir = git_repository_path(repo.get());
  auto source = std::make_unique<GitTreeSource>(git_dir, repo_path + "@" + rev, max_file_size);
  WalkState state{source.get(), subdir.empty() ? "" : (subdir.back() == '/' ? subdir : subdir + "/")};
  if (git_tree_walk(tree.get(), GIT_TREEWALK_PRE, WalkCallback, &state) < 0)
    return Status::IoError("cannot walk the tree of " + sha + ": " + GitErrorText());
  source->Finish();
  GitTreeSourceInfo info;
  info.source = std::move(source);
  info.commit_sha = sha;
  info.commit_time = static_cast<int64_t>(git_commit_time(reinterpret_cast<git_commit*>(commit.get())));
  return info;
}

namespace {

using RevwalkPtr = GitPtr<git_revwalk, git_revwalk_free>;
using RefIterPtr = GitPtr<git_reference_iterator, git_reference_iterator_free>;
using RefPtr = GitPtr<git_reference, git_reference_free>;

// The commit `spec` names, with its time.
Result<Revision> ResolveCommit(git_repository* repo, const std::string& spec, const std::string& name) {
  ObjectPtr obj;
  if (git_revparse_single(obj.out(), repo, spec.c_str()) != 0)
    return Status::NotFound("unknown revision '" + spec + "': " + GitErrorText());
  ObjectPtr commit;
  if (git_object_peel(commit.out(), obj.get(), GIT_OBJECT_COMMIT) != 0)
    return Status::InvalidArgument("revision '" + spec + "' does not name a commit");
  Revision r;
  r.name = name;
  r.sha = OidHex(git_object_id(commit.get()));
  r.time = static_cast<int64_t>(git_commit_time(reinterpret_cast<git_commit*>(commit.get())));
  return r;
}

std::string ShortRefName(const std::string& full) {
  for (std::string_view prefix : {"refs/tags/", "refs/heads/", "refs/remotes/"})
    if (full.compare(0, prefix.size(), prefix) == 0) return full.substr(prefix.size());
  return full;
}

}  // namespace

Result<std::vector<Revision>> ListRevisions(const std::string& repo_path, const RevisionQuery& q) {
  GitLibrary lib;
  RepoPtr repo;
  if (git_repository_open_ext(repo.out(), repo_path.c_str(), 0, nullptr) != 0)
    return Status::NotFound("not a git repository: " + repo_path);
  std::vector<Revision> out;
  std::vector<std::string> seen;
  auto add = [&](Revision r) {
    if (std::find(seen.begin(), seen.end(), r.sha) != seen.end()) return;
    seen.push_back(r.sha);
    out.push_back(std::move(r));
  };
  for (const std::string& rev : q.revs) {
    auto r = ResolveCommit(repo.get(), rev, rev);
    if (!r.ok()) return r.status();
    add(std::move(r).value());
  }
  if (!q.globs.empty() || q.tags) {
    std::vector<Revision> matched;
    RefIterPtr it;
    if (git_reference_iterator_new(it.out(), repo.get()) != 0)
      return Status::IoError("cannot list the references of " + repo_path + ": " + GitErrorText());
    git_reference* ref = nullptr;
    while (git_reference_next(&ref, it.get()) == 0) {
      RefPtr owned;
      *owned.out() = ref;
      std::string full = git_reference_name(ref);
      bool is_tag = full.compare(0, 10, "refs/tags/") == 0;
      bool is_branch = full.compare(0, 11, "refs/heads/") == 0 || full.compare(0, 13, "refs/remotes/") == 0;
      bool take = q.tags && is_tag;
      for (const std::string& g : q.globs)
        if ((is_tag || is_branch) && fnmatch(g.c_str(), ShortRefName(full).c_str(), 0) == 0) take = true;
      if (!take) continue;
      auto r = ResolveCommit(repo.get(), full, full);
      if (r.ok()) matched.push_back(std::move(r).value());  // a tag of a tree or blob names no commit: skipped
    }
    std::stable_sort(matched.begin(), matched.end(), [](const Revision& a, const Revision& b) {
      return a.time != b.time ? a.time < b.time : a.name < b.name;
    });
    for (Revision& r : matched) add(std::move(r));
  }
  for (const std::string& range : q.ranges) {
    RevwalkPtr walk;
    if (git_revwalk_new(walk.out(), repo.get()) != 0) return Status::IoError(GitErrorText());
    git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
    git_revwalk_simplify_first_parent(walk.get());
    int rc = range.find("..") != std::string::npos ? git_revwalk_push_range(walk.get(), range.c_str()) : -1;
    if (rc != 0) {
      if (range.find("..") == std::string::npos) {
        auto head = ResolveCommit(repo.get(), range, range);
        if (!head.ok()) return head.status();
        git_oid oid;
        git_oid_fromstr(&oid, head->sha.c_str());
        rc = git_revwalk_push(walk.get(), &oid);
      }
      if (rc != 0) return Status::NotFound("unknown revision range '" + range + "': " + GitErrorText());
    }
    git_oid oid;
    while (git_revwalk_next(&oid, walk.get()) == 0) {
      std::string sha = OidHex(&oid);
      auto r = ResolveCommit(repo.get(), sha, sha);
      if (!r.ok()) return r.status();
      add(std::move(r).value());
    }
  }
  return out;
}

Result<FileListing> MemoryFileSource::List() {
  FileListing out;
  for (const auto& [path, bytes] : files_) out.paths.push_back(path);
  return out;
}

Result<std::string> MemoryFileSource::Read(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("no such file: " + path);
  if (it->second.size() > max_file_size_) return Status::LimitExceeded(SizeLimitMessage(it->second.size(), max_file_size_));
  return it->second;
}

GitFacts DiscoverGitFacts(const std::string& path) {
  GitLibrary lib;
  GitFacts facts;
  RepoPtr repo;
  if (git_repository_open_ext(repo.out(), path.c_str(), 0, nullptr) != 0) return facts;
  facts.in_git = true;
  facts.bare = git_repository_is_bare(repo.get()) != 0;
  facts.git_dir = git_repository_path(repo.get());
  // A bare repository whose `config` is missing (some mirrors) reads as one with
  // a work tree above it, and its own directory as a subdirectory of that tree:
  // the path being the git directory itself says it is bare.
  if (!facts.bare && RealPath(path) == RealPath(facts.git_dir)) facts.bare = true;
  if (const char* wd = facts.bare ? nullptr : git_repository_workdir(repo.get())) {
    facts.workdir = wd;
    std::string real_wd = RealPath(facts.workdir);
    std::string real_path = RealPath(path);
    if (real_path.size() > real_wd.size() && real_path.compare(0, real_wd.size(), real_wd) == 0 &&
        real_path[real_wd.size()] == '/')
      facts.subdir = real_path.substr(real_wd.size() + 1);
    // A directory git ignores (a build tree, a virtualenv, a vendored checkout) is
    // in no commit: the enclosing HEAD is not its version.
    int ignored = 0;
    if (!facts.subdir.empty() &&
        git_ignore_path_is_ignored(&ignored, repo.get(), (facts.subdir + "/").c_str()) == 0 && ignored)
      return GitFacts{};
  }
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo.get(), "HEAD") == 0) facts.head_sha = OidHex(&oid);
  // remote.origin.url read from the config directly: git_remote_lookup leaks
  // PCRE2 match data in libgit2 1.5 built with the system PCRE2 (LeakSanitizer
  // in the ASan build), and we need nothing else from the remote.
  ConfigPtr config;
  if (git_repository_config_snapshot(config.out(), repo.get()) == 0) {
    const char* url = nullptr;
    if (git_config_get_string(&url, config.get(), "remote.origin.url") == 0 && url != nullptr) {
      facts.origin_url = url;
      facts.github_repo = GithubRepoFromRemoteUrl(url);
    }
  }
  return facts;
}

std::optional<std::string> GithubRepoFromRemoteUrl(std::string_view url) {
  std::string s(url);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  s = s.substr(b);
  std::string rest;
  size_t scheme_end = s.find("://");
  if (scheme_end != std::string::npos) {
    std::string scheme = s.substr(0, scheme_end);
    if (scheme != "https" && scheme != "http" && scheme != "git" && scheme != "ssh" && scheme != "git+ssh")
      return std::nullopt;
    std::string after = s.substr(scheme_end + 3);
    size_t slash = after.find('/');
    if (slash == std::string::npos) return std::nullopt;
    std::string authority = after.substr(0, slash);
    size_t at = authority.rfind('@');
    if (at != std::string::npos) authority = authority.substr(at + 1);
    size_t colon = authority.find(':');
    if (colon != std::string::npos) authority = authority.substr(0, colon);
    if (!IsGithubHost(authority)) return std::nullopt;
    rest = after.substr(slash + 1);
  } else {
    // scp-like: [user@]github.com:owner/name
    size_t colon = s.find(':');
    if (colon == std::string::npos) return std::nullopt;
    std::string host = s.substr(0, colon);
    if (host.find('/') != std::string::npos) return std::nullopt;  // a local path
    size_t at = host.rfind('@');
    if (at != std::string::npos) host = host.substr(at + 1);
    if (!IsGithubHost(host)) return std::nullopt;
    rest = s.substr(colon + 1);
  }
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.size() > 4 && rest.compare(rest.size() - 4, 4, ".git") == 0) rest.resize(rest.size() - 4);
  size_t slash = rest.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == rest.size()) return std::nullopt;
  std::string owner = rest.substr(0, slash), name = rest.substr(slash + 1);
  for (char c : owner)
    if (!IsOwnerNameChar(c)) return std::nullopt;
  for (char c : name)
    if (!IsOwnerNameChar(c)) return std::nullopt;
  if (name == "." || name == "..") return std::nullopt;
  return owner + "/" + name;
}

}  // namespace errdex
