// serve_process.h: runs the real `errdex serve` binary for a test (a child
// process on a free loopback port), a raw-socket client for what no HTTP library
// would send, and a shell helper. Test-only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace errdex::serve_test {

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

struct ShResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs a bash command line in `dir`; stdout and stderr captured.
inline ShResult Sh(const std::string& dir, const std::string& cmd) {
  std::string out = dir + "/.sh.out", err = dir + "/.sh.err";
  std::string full = "cd " + Quote(dir) + " && { " + cmd + " ; } >" + Quote(out) + " 2>" + Quote(err);
  int st = std::system(("bash -c " + Quote(full)).c_str());
  ShResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

// `errdex serve` on 127.0.0.1 and a free port, stopped (SIGTERM, by pid) at the end.
class ServeProcess {
 public:
  ServeProcess(const std::string& binary, const std::vector<std::string>& args, const std::string& log_path)
      : log_path_(log_path) {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      FILE* log = std::fopen(log_path.c_str(), "w");
      if (log) dup2(fileno(log), 2);
      close(out[0]);
      std::vector<std::string> all = {binary, "serve"};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    close(out[1]);
    // First line: "errdex serve: listening on http://127.0.0.1:PORT (...)".
    std::string line;
    char c;
    struct pollfd p = {out[0], POLLIN, 0};
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline && poll(&p, 1, 100) >= 0) {
      if (!(p.revents & (POLLIN | POLLHUP))) continue;
      if (read(out[0], &c, 1) != 1) break;
      if (c == '\n') break;
      line += c;
    }
    out_fd_ = out[0];
    first_line_ = line;
    size_t at = line.find("http://");
    if (at != std::string::npos) {
      url_host_ = line.substr(at + 7, line.find(' ', at) - at - 7);
      port_ = std::stoi(url_host_.substr(url_host_.rfind(':') + 1));
    }
  }
  ~ServeProcess() { Stop(); }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& first_line() const { return first_line_; }
  std::string log() const { return ReadFile(log_path_); }
  bool alive() const { return pid_ > 0 && kill(pid_, 0) == 0 && !exited_; }

  // SIGTERM, then the exit status (-1 when it had to be killed).
  int Stop() {
    if (pid_ <= 0 || exited_) return status_;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 200; ++i) {
      int st = 0;
      if (waitpid(pid_, &st, WNOHANG) == pid_) {
        exited_ = true;
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    if (!exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      exited_ = true;
      status_ = -1;
    }
    if (out_fd_ >= 0) close(out_fd_);
    out_fd_ = -1;
    return status_;
  }

 private:
  std::string log_path_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int port_ = -1;
  std::string first_line_, url_host_;
  bool exited_ = false;
  int status_ = -1;
};

// A raw TCP connection to 127.0.0.1:port.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      close(fd_);
      fd_ = -1;
    }
  }
  ~RawConnection() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  bool Send(const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
      ssize_t n = send(fd_, s.data() + off, s.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return true;
  }
  // Reads until the peer closes or `timeout` passes.
  std::string ReadAll(std::chrono::milliseconds timeout) {
    std::string out;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[4096];
    while (std::chrono::steady_clock::now() < deadline) {
      struct pollfd p = {fd_, POLLIN, 0};
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
      if (poll(&p, 1, std::max(left, 1)) <= 0) break;
      ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }
  // Reads one HTTP response (head and a Content-Length body); returns early once
  // it is complete, or what came when the peer closes or `timeout` passes.
  std::string ReadResponse(std::chrono::milliseconds timeout) {
    std::string out;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[4096];
    while (std::chrono::steady_clock::now() < deadline) {
      size_t head_end = out.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        size_t cl = out.find("Content-Length: ");
        size_t length = cl < head_end ? std::stoul(out.substr(cl + 16)) : 0;
        if (out.size() >= head_end + 4 + length) break;
      }
      struct pollfd p = {fd_, POLLIN, 0};
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
      if (poll(&p, 1, std::max(left, 1)) <= 0) break;
      ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }

 private:
  int fd_ = -1;
};

}  // namespace errdex::serve_test
