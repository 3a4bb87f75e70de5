// Terminal helpers shared by the subcommands: the --color decision and ANSI
// styling, and making catalog text safe to print (a scanned repository is
// untrusted data: its strings must not drive the terminal).
#pragma once

#include <string>
#include <string_view>

namespace errdex::cli {

// --color=auto|always|never for output going to `fd`: auto is on only for a
// terminal, without NO_COLOR, with TERM set and not "dumb" (STYLE.md, convention 10).
bool UseColor(const std::string& mode, int fd);

// ANSI styling that is a no-op when colour is off.
struct Palette {
  bool on = false;
  std::string Wrap(const char* code, std::string_view s) const;
  std::string Bold(std::string_view s) const { return Wrap("1", s); }
  std::string Error(std::string_view s) const { return Wrap("1;31", s); }
  std::string Label(std::string_view s) const { return Wrap("36", s); }
  std::string Dim(std::string_view s) const { return Wrap("2", s); }
  std::string Mark(std::string_view s) const { return Wrap("1;33", s); }
  std::string Heading(std::string_view s) const { return Wrap("1;4", s); }
};

// Control characters (ESC, C1 CSI, ...) become visible ("^[", "\u009b") so they
// cannot move the cursor or recolour the screen, and so do the bidirectional
// controls and line separators (U+202A-202E, U+2066-2069, U+200E/F, U+061C,
// U+2028/9: "\u202e"), which reorder what is shown. Keeps '\t' and '\n', drops
// the '\r' of CRLF line ends.
std::string Printable(std::string_view s);

}  // namespace errdex::cli
