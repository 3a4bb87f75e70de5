// store/codec: the byte-level pieces of the catalog's stored forms -- a
// little-endian varint writer/reader for payloads, zstd compression (whole, or
// as a delta against an earlier payload: zstd's "prefix" mode, what git does
// with its packs), and the 128-bit content hash that names units and texts.
//
// Thread-compatible: values only; the zstd contexts are made per call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "model/status.h"

namespace errdex::store {

// Appends to a byte string.
class ByteWriter {
 public:
  explicit ByteWriter(std::string* out) : out_(out) {}
  void Varint(uint64_t v);
  void Signed(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Bytes(std::string_view s) {
    Varint(s.size());
    out_->append(s);
  }
  void Byte(uint8_t b) { out_->push_back(static_cast<char>(b)); }

 private:
  std::string* out_;
};

// Reads what ByteWriter wrote. Never reads past the end: a short or damaged
// input sets ok() to false and returns zeros / empty views from then on.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  uint64_t Varint();
  int64_t Signed() {
    uint64_t v = Varint();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  std::string_view Bytes();
  uint8_t Byte();
  bool ok() const { return ok_; }
  bool done() const { return pos_ == in_.size(); }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// zstd at `level`; with a non-empty `prefix` the output is a delta that only
// Decompress with the same prefix can read.
Result<std::string> Compress(std::string_view raw, std::string_view prefix = {}, int level = 3);
// `raw_size` is the size Compress was given (stored beside the bytes); a
// mismatch is reported as damage.
Result<std::string> Decompress(std::string_view compressed, uint64_t raw_size, std::string_view prefix = {});

// 16 bytes: XXH3-128 of `bytes` (content addresses).
std::string ContentHash(std::string_view bytes);

// ContentHash of bytes given in pieces, for a key over more than memory should
// hold at once: Digest() equals ContentHash of the pieces concatenated.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;
  void Update(std::string_view bytes);
  // As ByteWriter::Bytes writes `bytes` (length, then the bytes).
  void UpdateBytes(std::string_view bytes);
  std::string Digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};
// Lower-case hex of bytes (for people and error messages).
std::string Hex(std::string_view bytes);

}  // namespace errdex::store
