// document/http_client: a minimal blocking HTTP/1.1 client on POSIX sockets, just
// enough for an OpenAI-compatible chat-completions server: plain http:// only
// (a hosted https API needs a local gateway/proxy), one request per connection
// ("Connection: close"), Content-Length or chunked responses, one overall
// deadline covering connect, send and receive. Written instead of pulling in
// cpp-httplib so CI needs no new package (Debian's libcpp-httplib-dev is a
// compiled library + OpenSSL), and so every limit and timeout is ours.
//
// Thread-safety: HttpPost is reentrant; call it from any thread.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/status.h"

namespace errdex::doc {

struct HttpResponse {
  int status = 0;
  std::string body;
};

struct HttpUrl {
  std::string host;
  int port = 80;
  std::string path;  // "/v1" (no trailing slash), "" for the root
};

// Parses "http://host[:port][/path]". kInvalidArgument for anything else (https included).
Result<HttpUrl> ParseHttpUrl(const std::string& url);

// POSTs `body` to url.host:port + path. kIoError on a connection or protocol
// failure; kLimitExceeded when `timeout_ms` passed or the response is larger than
// `max_response_bytes`. A non-2xx status is not an error here: see .status.
Result<HttpResponse> HttpPost(const HttpUrl& url, const std::string& path, const std::string& body,
                              const std::vector<std::pair<std::string, std::string>>& headers, int timeout_ms,
                              size_t max_response_bytes = 8 << 20);

}  // namespace errdex::doc
