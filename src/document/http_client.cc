// document/http_client.cc: see http_client.h. Tested by llm_test.cc against a
// loopback server.
#include "document/http_client.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace errdex::doc {
namespace {

using Clock = std::chrono::steady_clock;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

int MsLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : (int)left;
}

// Waits until `fd` is ready for `events`; false on timeout.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    int left = MsLeft(deadline);
    if (left == 0) return false;
    int rc = ::poll(&p, 1, left);
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) return false;
  }
}

std::string Lower(std::string s) {
  for (auto& c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}

// Decodes a chunked body; false when malformed.
bool Dechunk(const std::string& in, std::string* out) {
  size_t p = 0;
  out->clear();
  while (true) {
    size_t eol = in.find("\r\n", p);
    if (eol == std::string::npos) return false;
    size_t n = std::strtoul(in.substr(p, eol - p).c_str(), nullptr, 16);
    p = eol + 2;
    if (n == 0) return true;
    if (p + n > in.size()) return false;
    out->append(in, p, n);
    p += n + 2;
  }
}

}  // namespace

Result<HttpUrl> ParseHttpUrl(const std::string& url) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    return Status::InvalidArgument("only http:// URLs are supported (use a local gateway for https): " + url);
  std::string rest = url.substr(scheme.size());
  HttpUrl u;
  size_t slash = rest.find('/');
  std::string hostport = rest.substr(0, slash);
  u.path = slash == std::string::npos ? "" : rest.substr(slash);
  while (!u.path.empty() && u.path.back() == '/') u.path.pop_back();
  size_t colon = hostport.rfind(':');
  if (colon != std::string::npos && hostport.find(']') == std::string::npos) {
    u.host = hostport.substr(0, colon);
    char* end = nullptr;
    long port = std::strtol(hostport.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || port <= 0 || port > 65535) return Status::InvalidArgument("bad port in URL: " + url);
    u.port = (int)port;
  } else {
    u.host = hostport;
  }
  if (u.host.empty()) return Status::InvalidArgument("no host in URL: " + url);
  return u;
}

Result<HttpResponse> HttpPost(const HttpUrl& url, const std::string& path, const std::string& body,
                              const std::vector<std::pair<std::string, std::string>>& headers, int timeout_ms,
                              size_t max_response_bytes) {
  auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  std::string port = std::to_string(url.port);
  if (int rc = ::getaddrinfo(url.host.c_str(), port.c_str(), &hints, &res); rc != 0)
    return Status::IoError("cannot resolve " + url.host + ": " + gai_strerror(rc));
  std::string last_error = "no address";
  int fd = -1;
  for (addrinfo* ai = res; ai; ai = ai->ai_next) {
    int s = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
    if (s < 0) continue;
    int rc = ::connect(s, ai->ai_addr, ai->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      if (!WaitFor(s, POLLOUT, deadline)) {
        ::close(s);
        ::freeaddrinfo(res);
        return Status::LimitExceeded("timed out connecting to " + url.host + ":" + port);
      }
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
      rc = err == 0 ? 0 : -1;
      errno = err;
    }
    if (rc == 0) {
      fd = s;
      break;
    }
    last_error = std::strerror(errno);
    ::close(s);
  }
  ::freeaddrinfo(res);
  if (fd < 0) return Status::IoError("cannot connect to " + url.host + ":" + port + ": " + last_error);
  Fd sock(fd);

  std::string req = "POST " + (path.empty() ? std::string("/") : path) + " HTTP/1.1\r\nHost: " + url.host + ":" + port +
                    "\r\nContent-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n";
  for (const auto& [k, v] : headers) req += k + ": " + v + "\r\n";
  req += "\r\n";
  req += body;
  size_t sent = 0;
  while (sent < req.size()) {
    if (!WaitFor(fd, POLLOUT, deadline)) return Status::LimitExceeded("timed out sending the request");
    ssize_t n = ::send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Status::IoError(std::string("send failed: ") + std::strerror(errno));
    }
    sent += (size_t)n;
  }

  std::string raw;
  size_t header_end = std::string::npos, content_length = std::string::npos;
  bool chunked = false;
  char buf[16384];
  while (true) {
    if (header_end != std::string::npos && content_length != std::string::npos &&
        raw.size() >= header_end + 4 + content_length)
      break;
    if (!WaitFor(fd, POLLIN, deadline)) return Status::LimitExceeded("timed out waiting for the response");
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Status::IoError(std::string("recv failed: ") + std::strerror(errno));
    }
    if (n == 0) break;  // server closed: the body ends here
    raw.append(buf, (size_t)n);
    if (raw.size() > max_response_bytes) return Status::LimitExceeded("response larger than the limit");
    if (header_end == std::string::npos) {
      header_end = raw.find("\r\n\r\n");
      if (header_end != std::string::npos) {
        std::string head = Lower(raw.substr(0, header_end));
        size_t cl = head.find("\r\ncontent-length:");
        if (cl != std::string::npos) content_length = std::strtoul(head.c_str() + cl + 17, nullptr, 10);
        chunked = head.find("\r\ntransfer-encoding: chunked") != std::string::npos;
      }
    }
  }
  if (header_end == std::string::npos) return Status::IoError("malformed HTTP response (no header)");
  HttpResponse out;
  if (raw.compare(0, 5, "HTTP/") != 0) return Status::IoError("malformed HTTP status line");
  size_t sp = raw.find(' ');
  out.status = sp == std::string::npos ? 0 : std::atoi(raw.c_str() + sp + 1);
  if (out.status < 100 || out.status > 999) return Status::IoError("malformed HTTP status line");
  std::string rest = raw.substr(header_end + 4);
  if (chunked) {
    if (!Dechunk(rest, &out.body)) return Status::IoError("malformed chunked body");
  } else if (content_length != std::string::npos) {
    if (rest.size() < content_length) return Status::IoError("connection closed before the whole body arrived");
    out.body = rest.substr(0, content_length);
  } else {
    out.body = std::move(rest);
  }
  return out;
}

}  // namespace errdex::doc
