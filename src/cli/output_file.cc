// cli/output_file.cc: OutputFile, the standard streams and the signal cleanup
// (see output_file.h). Tested by tests/store_e2e_test.cc and tests/scan_e2e_test.cc
// (OutputSafety.*).
#include "cli/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace errdex::cli {

namespace {

// Temporary files to remove when a signal ends the process. A signal handler may
// only read them: each slot's path is written before `live` is set.
struct CleanupSlot {
  std::atomic<bool> live{false};
  char path[PATH_MAX] = {};
};
constexpr int kSlots = 16;
CleanupSlot g_slots[kSlots];
std::mutex g_slots_mu;  // claiming and releasing slots (never taken in the handler)
bool g_claimed[kSlots] = {};

int ClaimSlot(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  std::lock_guard<std::mutex> lock(g_slots_mu);
  for (int i = 0; i < kSlots; ++i) {
    if (g_claimed[i]) continue;
    g_claimed[i] = true;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].live.store(true);
    return i;
  }
  return -1;  // more than kSlots outputs at once: no cleanup on a signal for this one
}

void ReleaseSlot(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> lock(g_slots_mu);
  g_slots[slot].live.store(false);
  g_claimed[slot] = false;
}

extern "C" void RemoveTemporariesAndDie(int sig) {
  for (CleanupSlot& s : g_slots)
    if (s.live.load()) ::unlink(s.path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);  // delivered when the handler returns: the status says "killed by sig"
}

// The file's absolute path with symlinks resolved; for a file that does not exist
// yet, its resolved directory plus its name. "" when even the directory is missing.
std::string Canonical(const std::string& path) {
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    std::string out = real;
    std::free(real);
    return out;
  }
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  char* real = ::realpath(dir.c_str(), nullptr);
  if (!real) return "";
  std::string out = std::string(real) + "/" + base;
  std::free(real);
  return out;
}

bool IsSqliteDatabase(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  char head[16] = {};
  ssize_t n = ::read(fd, head, sizeof head);
  ::close(fd);
  return n == 16 && std::memcmp(head, "SQLite format 3\0", 16) == 0;
}

}  // namespace

Result<std::unique_ptr<OutputFile>> OutputFile::Open(const std::string& target,
                                                      const std::vector<std::string>& protect) {
  if (target.empty()) return Status::InvalidArgument("empty output path");
  std::unique_ptr<OutputFile> f(new OutputFile());
  f->target_ = target;
  f->resolved_ = target;
  struct stat st;
  if (::lstat(target.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char* real = ::realpath(target.c_str(), nullptr);
    if (!real) return Status::InvalidArgument(target + ": a symlink to a missing file (" + std::strerror(errno) + ")");
    f->resolved_ = real;
    std::free(real);
  }
  const std::string canonical = Canonical(f->resolved_);
  bool exists = ::stat(f->resolved_.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) return Status::IoError("cannot write " + target + ": " + std::strerror(errno));
  for (const std::string& p : protect) {
    if (p.empty()) continue;
    struct stat ps;
    bool same = exists && ::stat(p.c_str(), &ps) == 0 && ps.st_dev == st.st_dev && ps.st_ino == st.st_ino;
    if (same || (!canonical.empty() && canonical == Canonical(p)))
      return Status::InvalidArgument("cannot write " + target + ": it is the catalog " + p +
                                     " (JSON Lines would replace it); name another output file");
  }
  mode_t mode = 0;
  if (exists) {
    if (S_ISDIR(st.st_mode)) return Status::InvalidArgument("cannot write " + target + ": is a directory");
    if (!S_ISREG(st.st_mode)) {  // /dev/null, a FIFO, a terminal: written in place, never renamed over
      f->file_ = std::fopen(f->resolved_.c_str(), "w");
      if (!f->file_) return Status::IoError("cannot write " + target + ": " + std::strerror(errno));
      return f;
    }
    if (IsSqliteDatabase(f->resolved_))
      return Status::InvalidArgument("cannot write " + target +
                                     ": it is an SQLite database (a catalog?) and JSON Lines would replace it; "
                                     "remove it first or name another output file");
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  size_t slash = f->resolved_.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "" : f->resolved_.substr(0, slash));
  std::string base = slash == std::string::npos ? f->resolved_ : f->resolved_.substr(slash + 1);
  std::string tmpl = dir + "/." + base + ".tmp-XXXXXX";
  // No signal between creating the file and registering it for cleanup.
  sigset_t stop, old;
  sigemptyset(&stop);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stop, sig);
  ::pthread_sigmask(SIG_BLOCK, &stop, &old);
  int fd = ::mkstemp(tmpl.data());
  int err = errno;
  if (fd >= 0) f->slot_ = ClaimSlot(tmpl);
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (fd < 0) return Status::IoError("cannot write " + target + ": " + std::strerror(err));
  f->tmp_ = tmpl;
  ::fchmod(fd, mode);
  f->file_ = ::fdopen(fd, "w");
  if (!f->file_) {
    int e = errno;
    ::close(fd);
    return Status::IoError("cannot write " + target + ": " + std::strerror(e));
  }
  return f;
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  ReleaseSlot(slot_);
}

Status OutputFile::Write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    return Status::IoError("cannot write " + target_ + ": " + std::strerror(errno));
  return Status::Ok();
}

Status OutputFile::Commit() {
  bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
  int err = ok ? 0 : errno;
  if (ok && !tmp_.empty() && ::fsync(::fileno(file_)) != 0) {
    ok = false;
    err = errno;
  }
  if (std::fclose(file_) != 0 && ok) {
    ok = false;
    err = errno;
  }
  file_ = nullptr;
  if (!ok) return Status::IoError("cannot write " + target_ + ": " + std::strerror(err ? err : EIO));
  if (tmp_.empty()) return Status::Ok();  // written in place
  if (::rename(tmp_.c_str(), resolved_.c_str()) != 0)
    return Status::IoError("cannot rename " + tmp_ + " to " + resolved_ + ": " + std::strerror(errno));
  tmp_.clear();
  ReleaseSlot(slot_);
  slot_ = -1;
  return Status::Ok();
}

void PrepareStandardStreams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // Read-only on purpose: writes to a closed stdout/stderr keep failing (EBADF).
    int got = ::open("/dev/null", O_RDONLY);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

void InstallSignalCleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup, background jobs
    struct sigaction sa {};
    sa.sa_handler = RemoveTemporariesAndDie;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

int WriteFd(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

// A failed write to stdout the command has already turned into its exit code.
bool g_stdout_failure_handled = false;

int StdoutWriteFailed(int err, int rc) {
  g_stdout_failure_handled = true;
  if (err == EPIPE) return rc;
  std::fprintf(stderr, "errdex: error: cannot write to stdout: %s\n", std::strerror(err));
  return 2;
}

int FinishStdout(int rc) {
  if (g_stdout_failure_handled) return rc;
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return rc;
  int err = errno ? errno : EIO;
  std::clearerr(stdout);
  return StdoutWriteFailed(err, rc);
}

}  // namespace errdex::cli
