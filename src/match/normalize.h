// match/normalize.h: one input line -> the text a message pattern should see.
// Removes ANSI escape sequences, a trailing "\r" (and anything a "\r" overwrote),
// and the common log prefixes, repeatedly:
//   "vllm-1  | "                          (docker compose service)
//   "[rank0]: "                           (torch.distributed)
//   "(EngineCore_DP0 pid=123) "           (vLLM engine process)
//   "ERROR 03-10 14:17:52 [core.py:12] "  (vLLM logger)
//   "[2025-03-10 14:17:52 TP6] "          (SGLang)
//   "2025-03-10T14:17:52.123Z ERROR "     (ISO timestamp [+ logger name] + level)
//   "ERROR:root:"                         (Python logging default format)
//   "2025-03-10T14:17:52.1+00:00 stderr F " (Kubernetes CRI)
//   "Dec 03 10:11:12 host unit[123]: "    (journald)
//   "E1203 10:11:12.123456  1234 f.cc:12] " (glog / absl)
//   "[pod/name/container] ", "[01:01:20] " (kubectl --prefix, a bare clock)
// then the paste's own prefix, when one was learned (LearnPrefix: the shape that
// stands in front of each frame line of a traceback, e.g. "[worker-7] "),
// and keeps a map from the normalized text back to byte offsets of the raw line.
// Bytes, not code points: invalid UTF-8 passes through untouched.
//
// Thread-safety: a LineNormalizer is not thread-safe (owns PCRE2 match data); use
// one per thread. Tested by normalize_test.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

struct NormalizedLine {
  std::string text;
  // Kept ranges of the raw line, in order: text is their concatenation.
  struct Range {
    uint32_t raw_begin;
    uint32_t raw_end;
  };
  std::vector<Range> ranges;
  std::string source;        // who wrote it: "vllm-1", "rank0", "EngineCore_DP0 pid=1", "TP6" (joined by '/')
  bool record_start = false;  // a log record header (timestamp/level) was stripped

  // Raw-line offset of normalized offset `pos` (pos == text.size() maps past the end).
  uint32_t RawOffset(size_t pos) const;
};

class LineNormalizer {
 public:
  LineNormalizer();
  ~LineNormalizer();
  LineNormalizer(const LineNormalizer&) = delete;
  LineNormalizer& operator=(const LineNormalizer&) = delete;

  // REQUIRES: raw has no '\n' and raw.size() < 4 GiB.
  void Normalize(std::string_view raw, NormalizedLine& out);

  // Learns the paste's own line prefix from the lines of one traceback (normalized
  // texts: header, then the lines after it). The prefix is the shape (digit runs
  // may vary, all else literal) that stands before `File "` on at least two frame
  // lines, every frame line of the traceback having the same one. true when a new
  // prefix was learned; Normalize strips it (and one space after it) from then on.
  bool LearnPrefix(const std::vector<std::string>& traceback_lines);
  bool has_learned_prefix() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace errdex
