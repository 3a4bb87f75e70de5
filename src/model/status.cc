#include "model/status.h"

namespace errdex {

std::string Status::ToString() const {
  const char* kind = "OK";
  switch (code_) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: kind = "invalid argument"; break;
    case Code::kNotFound: kind = "not found"; break;
    case Code::kIoError: kind = "I/O error"; break;
    case Code::kParseError: kind = "parse error"; break;
    case Code::kLimitExceeded: kind = "limit exceeded"; break;
    case Code::kInternal: kind = "internal error"; break;
  }
  return std::string(kind) + ": " + message_;
}

}  // namespace errdex
