// match/python_repr.h: messages that Python prints as a repr, not as written.
//   raise KeyError("no key 'x'")      ->  KeyError: "no key 'x'"
//   raise RuntimeError("a ", "b")     ->  RuntimeError: ('a ', 'b')
// The catalog holds the first argument as written ("no key 'x'", "a "), so the
// matcher also tries the decoded first string. Tested by python_repr_test.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

struct ReprReading {
  std::string text;              // the decoded string
  std::vector<uint32_t> source;  // source[i]: offset in the printed text of text[i]'s escape or byte
  bool from_tuple = false;       // it was the first element of a printed tuple
};

// When `printed` is a whole Python str repr ('...' or "...") or a tuple repr
// whose first element is one, decodes that string into `out` (escapes \\ \' \"
// \n \t \r \xhh \uhhhh \Uhhhhhhhh; code points as UTF-8) and returns true.
// Anything else (including a malformed repr) returns false. Linear in the input.
bool ReadPythonRepr(std::string_view printed, ReprReading& out);

}  // namespace errdex
