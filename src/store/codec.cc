// store/codec.cc: see codec.h. Tested by codec_test.cc.
#include "store/codec.h"

#define XXH_INLINE_ALL
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <thread>

namespace errdex::store {

void ByteWriter::Varint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

uint64_t ByteReader::Varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (!ok_ || pos_ >= in_.size()) {
      ok_ = false;
      return 0;
    }
    uint8_t b = static_cast<uint8_t>(in_[pos_++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  ok_ = false;
  return 0;
}

std::string_view ByteReader::Bytes() {
  uint64_t n = Varint();
  if (!ok_ || n > in_.size() - pos_) {
    ok_ = false;
    return {};
  }
  std::string_view s = in_.substr(pos_, n);
  pos_ += n;
  return s;
}

uint8_t ByteReader::Byte() {
  if (!ok_ || pos_ >= in_.size()) {
    ok_ = false;
    return 0;
  }
  return static_cast<uint8_t>(in_[pos_++]);
}

namespace {

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// The window must reach back over the prefix, or zstd sees only its tail.
int WindowLogFor(size_t bytes) {
  int log = 10;
  while (log < 30 && (size_t{1} << log) < bytes) ++log;
  return log;
}

constexpr uint64_t kMaxRawSize = uint64_t{1} << 31;
// A delta of this many bytes or more is compressed for speed (Compress).
constexpr size_t kBigDelta = size_t{4} << 20;

// One context per thread, reset for each call (making one costs more than
// compressing a small payload).
ZSTD_CCtx* ThreadCCtx() {
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx(ZSTD_createCCtx());
  if (cctx) ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
  return cctx.get();
}
ZSTD_DCtx* ThreadDCtx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx(ZSTD_createDCtx());
  if (dctx) ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_and_parameters);
  return dctx.get();
}

}  // namespace

Result<std::string> Compress(std::string_view raw, std::string_view prefix, int level) {
  ZSTD_CCtx* cctx = ThreadCCtx();
  if (!cctx) return Status::Internal("zstd: out of memory");
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  if (!prefix.empty()) {
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, WindowLogFor(prefix.size() + raw.size()));
    // Long-distance matching: the level's hash tables index only part of a
    // large prefix, so a new version of a multi-megabyte text (the repository's
    // knowledge) found few of its unchanged runs in the old one (10.9 MB raw:
    // 6.9 MB as a delta, 7.0 MB whole).
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_enableLongDistanceMatching, 1);
    if (raw.size() >= kBigDelta) {
      // A multi-megabyte new version (the knowledge text, rewritten by every
      // scan that changes a file) is mostly long runs of the old: matches of
      // 256+ bytes, one hashed in 2^10 positions, at level 1 find them 4x
      // faster than level 3's defaults (10.9 MB on flashinfer: 60 -> 15 ms,
      // 27.3 -> 27.4 KB).
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, std::min(level, 1));
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_ldmMinMatch, 256);
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_ldmHashRateLog, 10);
    }
    size_t rc = ZSTD_CCtx_refPrefix(cctx, prefix.data(), prefix.size());
    if (ZSTD_isError(rc)) return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(rc));
  }
  if (prefix.empty() && raw.size() >= kBigDelta) {
    // A multi-megabyte text compressed whole (the repository's knowledge, the
    // first time a catalog stores it: 45.9 MB for the stdlib and dist-packages)
    // is written while nothing else runs, at the end of a scan: at level 1, on
    // a few of zstd's own threads. Level 3 took 0.35 s there, level 1 0.19 s
    // on one thread, for 2% more bytes (30.80 -> 31.43 MB).
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, std::min(level, 1));
    unsigned threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    if (threads > 1) (void)ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, static_cast<int>(threads));  // 0 without zstd's threads
  }
  // Into an uninitialized buffer: a std::string of the bound was zero-filled
  // first, 10.9 MB of fresh pages for the 27 KB delta of the knowledge text of
  // flashinfer's next commit; untouched pages of `buf` are never faulted in.
  const size_t bound = ZSTD_compressBound(raw.size());
  std::unique_ptr<char[]> buf(new char[bound]);
  size_t n = ZSTD_compress2(cctx, buf.get(), bound, raw.data(), raw.size());
  if (ZSTD_isError(n)) return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(n));
  return std::string(buf.get(), n);
}

Result<std::string> Decompress(std::string_view compressed, uint64_t raw_size, std::string_view prefix) {
  if (raw_size > kMaxRawSize) return Status::IoError("a stored payload claims " + std::to_string(raw_size) + " bytes");
  ZSTD_DCtx* dctx = ThreadDCtx();
  if (!dctx) return Status::Internal("zstd: out of memory");
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 31);
  if (!prefix.empty()) {
    size_t rc = ZSTD_DCtx_refPrefix(dctx, prefix.data(), prefix.size());
    if (ZSTD_isError(rc)) return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(rc));
  }
  std::string out(raw_size, '\0');
  size_t n = ZSTD_decompressDCtx(dctx, out.data(), out.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(n)) return Status::IoError(std::string("a stored payload is damaged (zstd: ") + ZSTD_getErrorName(n) + ")");
  if (n != raw_size) return Status::IoError("a stored payload is damaged (size " + std::to_string(n) + ", expected " +
                                            std::to_string(raw_size) + ")");
  return out;
}

std::string ContentHash(std::string_view bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);
  return std::string(reinterpret_cast<const char*>(c.digest), sizeof c.digest);
}

struct ContentHasher::State {
  XXH3_state_t xxh;
};

ContentHasher::ContentHasher() : state_(std::make_unique<State>()) { XXH3_128bits_reset(&state_->xxh); }
ContentHasher::~ContentHasher() = default;

void ContentHasher::Update(std::string_view bytes) { XXH3_128bits_update(&state_->xxh, bytes.data(), bytes.size()); }

void ContentHasher::UpdateBytes(std::string_view bytes) {
  std::string length;
  ByteWriter(&length).Varint(bytes.size());
  Update(length);
  Update(bytes);
}

std::string ContentHasher::Digest() const {
  XXH128_hash_t h = XXH3_128bits_digest(&state_->xxh);
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);
  return std::string(reinterpret_cast<const char*>(c.digest), sizeof c.digest);
}

std::string Hex(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

}  // namespace errdex::store
