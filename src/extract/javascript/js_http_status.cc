// HTTP status names of the JavaScript front end (see js_http_status.h).
#include "extract/javascript/js_http_status.h"

namespace errdex::js {

namespace {

// IANA reason phrases as UPPER_SNAKE, the spelling of Python's HTTPStatus,
// NestJS's HttpStatus and http-status-codes' StatusCodes.
struct StatusName {
  int code;
  const char* name;
};
constexpr StatusName kStatusNames[] = {
    {400, "BAD_REQUEST"}, {401, "UNAUTHORIZED"}, {402, "PAYMENT_REQUIRED"}, {403, "FORBIDDEN"},
    {404, "NOT_FOUND"}, {405, "METHOD_NOT_ALLOWED"}, {406, "NOT_ACCEPTABLE"},
    {407, "PROXY_AUTHENTICATION_REQUIRED"}, {408, "REQUEST_TIMEOUT"}, {409, "CONFLICT"},
    {410, "GONE"}, {411, "LENGTH_REQUIRED"}, {412, "PRECONDITION_FAILED"},
    {413, "PAYLOAD_TOO_LARGE"}, {413, "REQUEST_ENTITY_TOO_LARGE"}, {413, "CONTENT_TOO_LARGE"},
    {414, "URI_TOO_LONG"}, {414, "REQUEST_URI_TOO_LONG"}, {415, "UNSUPPORTED_MEDIA_TYPE"},
    {416, "REQUESTED_RANGE_NOT_SATISFIABLE"}, {416, "RANGE_NOT_SATISFIABLE"},
    {417, "EXPECTATION_FAILED"}, {418, "I_AM_A_TEAPOT"}, {418, "IM_A_TEAPOT"},
    {421, "MISDIRECTED_REQUEST"}, {422, "UNPROCESSABLE_ENTITY"}, {422, "UNPROCESSABLE_CONTENT"},
    {423, "LOCKED"}, {424, "FAILED_DEPENDENCY"}, {425, "TOO_EARLY"}, {426, "UPGRADE_REQUIRED"},
    {428, "PRECONDITION_REQUIRED"}, {429, "TOO_MANY_REQUESTS"},
    {431, "REQUEST_HEADER_FIELDS_TOO_LARGE"}, {451, "UNAVAILABLE_FOR_LEGAL_REASONS"},
    {500, "INTERNAL_SERVER_ERROR"}, {501, "NOT_IMPLEMENTED"}, {502, "BAD_GATEWAY"},
    {503, "SERVICE_UNAVAILABLE"}, {504, "GATEWAY_TIMEOUT"}, {505, "HTTP_VERSION_NOT_SUPPORTED"},
    {506, "VARIANT_ALSO_NEGOTIATES"}, {507, "INSUFFICIENT_STORAGE"}, {508, "LOOP_DETECTED"},
    {510, "NOT_EXTENDED"}, {511, "NETWORK_AUTHENTICATION_REQUIRED"},
};

// NOT_FOUND -> NotFound.
std::string CamelStatus(const char* upper) {
  std::string out;
  bool up = true;
  for (const char* p = upper; *p; ++p) {
    if (*p == '_') {
      up = true;
      continue;
    }
    out.push_back(up ? *p : static_cast<char>(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
    up = false;
  }
  return out;
}

}  // namespace

std::optional<int> StatusFromUpperName(std::string_view name) {
  for (const StatusName& s : kStatusNames)
    if (name == s.name) return s.code;
  return std::nullopt;
}

std::optional<int> StatusFromCamelName(std::string_view name) {
  for (const StatusName& s : kStatusNames)
    if (name == CamelStatus(s.name)) return s.code;
  return std::nullopt;
}

// The http-errors class name of a status: 404 -> NotFoundError, 500 -> InternalServerError.
std::string HttpErrorsClass(std::optional<int> status) {
  if (status) {
    for (const StatusName& s : kStatusNames) {
      if (s.code == *status) {
        std::string c = CamelStatus(s.name);
        if (c.size() < 5 || c.compare(c.size() - 5, 5, "Error") != 0) c += "Error";
        return c;
      }
    }
  }
  return "HttpError";
}

}  // namespace errdex::js
