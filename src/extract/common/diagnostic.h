// Diagnostic: a soft error found while reading or parsing one file. The run goes
// on; the CLI counts them and lists them with --verbose as path:line:col: message.
#pragma once

#include <string>

namespace errdex {

struct Diagnostic {
  std::string path;
  int line = 0;    // 1-based, 0 when not tied to a line
  int column = 0;  // 0-based byte column
  std::string message;
};

}  // namespace errdex
