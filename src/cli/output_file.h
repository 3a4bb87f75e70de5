// cli/output_file.h: how the subcommands write what the user asked for -- a file
// named by -o, or standard output -- without ever losing data:
//
//  * OutputFile writes to a temporary file beside the target and renames it over
//    the target on Commit(), so a reader never sees half a file and an error or a
//    signal leaves the old file as it was. The temporary file is removed on every
//    path that does not commit, SIGINT/SIGTERM/SIGHUP included
//    (InstallSignalCleanup). The target keeps its mode (a 0600 file stays 0600);
//    a symlink is followed (the file it names is replaced, the link stays); a
//    target that is not a regular file (/dev/null, a FIFO) is written in place.
//  * It refuses a target that is one of the files the command reads or writes
//    otherwise (the --db catalog: `export --db c.db -o c.db` replaced the catalog
//    with JSON Lines) and any existing SQLite database: JSON Lines never replace a
//    catalog.
//  * PrepareStandardStreams() makes sure descriptors 0, 1 and 2 are open before
//    anything else opens a file, so a closed stdout can never become the catalog's
//    descriptor; a closed stdout/stderr stays unwritable (EBADF), so the command
//    reports it instead of writing into the void.
//  * Write errors on stdout are exit 2 with a message, except a closed pipe
//    (EPIPE: `errdex ... | head`), which ends the command quietly with its own
//    exit code (ripgrep's convention).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/status.h"

namespace errdex::cli {

class OutputFile {
 public:
  // Checks `target` and creates the temporary file now, so an unwritable or
  // refused target fails before any work. `protect`: paths the command also uses
  // (the catalog), which the output must not replace (compared by device+inode,
  // so another spelling or a symlink is caught too).
  static Result<std::unique_ptr<OutputFile>> Open(const std::string& target, const std::vector<std::string>& protect);
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  FILE* file() const { return file_; }
  // Writes all of `bytes` (kIoError naming the target on failure).
  Status Write(std::string_view bytes);
  // Flushes, syncs, closes and renames into place.
  Status Commit();

 private:
  OutputFile() = default;
  std::string target_;    // what the user named, for messages
  std::string resolved_;  // the file replaced (symlinks followed)
  std::string tmp_;       // "" when writing in place (not a regular file)
  int slot_ = -1;         // in the signal cleanup table
  FILE* file_ = nullptr;
};

// Opens /dev/null (read-only) on each of 0, 1, 2 that is closed. Call first in main.
void PrepareStandardStreams();

// SIGINT, SIGTERM and SIGHUP remove every uncommitted OutputFile's temporary file,
// then end the process as the signal would have (exit status 128+N).
void InstallSignalCleanup();

// Writes all of `bytes` to descriptor `fd` (EINTR retried): 0, or errno.
int WriteFd(int fd, std::string_view bytes);

// The exit code after a write to stdout failed with `err` (an errno): a closed pipe
// keeps `rc`; anything else prints "errdex: error: cannot write to stdout: ..." and is 2.
int StdoutWriteFailed(int err, int rc);

// At the end of a command: flushes stdio's stdout and turns an error met by any
// printf on the way into StdoutWriteFailed's exit code; else `rc`.
int FinishStdout(int rc);

}  // namespace errdex::cli
