// extract/common/binary.h: is a file text a front end should read at all? A file
// named .js or .py may hold anything (a build artifact, a blob, random bytes); a
// parser's error recovery on 8 MB of random bytes took 37 s and 1.9 GB. Such a
// file is skipped with a diagnostic instead.
//
// The rule (git's and grep's, made robust against text with a blob after it): a
// NUL byte in the first 8 KiB, or more than 10% of all bytes that are neither
// valid UTF-8 nor printable (C0 controls other than \t \n \v \f \r and ESC). A
// Latin-1 file of source code has far fewer. Linear, one pass. Tested by
// binary_test.cc.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace errdex {

// Why `text` is not source text ("a NUL byte at offset 12", "37% of its bytes are
// not UTF-8 text"), or nullopt when it is.
std::optional<std::string> BinaryReason(std::string_view text);

}  // namespace errdex
