// Status and Result<T>: errors are values (see ../shared/STYLE.md, leveldb/simdjson).
// No exception crosses a module boundary; a module that calls a throwing library
// catches at the call site and returns a Status.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace errdex {

// A Status is the result of an operation: OK, or an error kind plus a message.
// Thread-compatible (a value type).
class Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // bad user input: flag, path, revision, JSON, regex
    kNotFound,         // file, revision, record, catalog entry absent
    kIoError,          // read/write failure
    kParseError,       // a source file or JSON document could not be parsed
    kLimitExceeded,    // a documented limit (size, count, time) was hit
    kInternal,         // a bug or a library failure we did not expect
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status IoError(std::string msg) { return Status(Code::kIoError, std::move(msg)); }
  static Status ParseError(std::string msg) { return Status(Code::kParseError, std::move(msg)); }
  static Status LimitExceeded(std::string msg) { return Status(Code::kLimitExceeded, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid argument: <message>", or "OK".
  std::string ToString() const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// Result<T> holds either a T or a non-OK Status (g++ 12 has no std::expected).
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}   // NOLINT: REQUIRES: !status.ok()
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  // REQUIRES: ok()
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace errdex
