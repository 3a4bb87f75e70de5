// fuzz/fuzz_util.h: what the libFuzzer targets share. Each target is one entry
// point of errdex that reads untrusted bytes (a repository's files, a paste, an
// imported catalog); it must never crash, leak, hang or trip ASan/UBSan, and a
// few targets also check a property (a parsed record written back parses to the
// same record). A broken property aborts with a message, so libFuzzer keeps the
// input as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace errdex::fuzz {

inline std::string_view Bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Aborts (a finding) when `ok` is false.
inline void Check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz property broken: %s\n", what);
  std::abort();
}

// The first byte picks a variant (file extension, option set); the rest is the input.
struct Split {
  uint8_t selector = 0;
  std::string_view rest;
};
inline Split TakeSelector(std::string_view in) {
  if (in.empty()) return {};
  return {static_cast<uint8_t>(in[0]), in.substr(1)};
}

}  // namespace errdex::fuzz
