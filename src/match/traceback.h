// match/traceback.h: Python tracebacks in normalized log lines -> exception sections
// (frames, printed class, message lines), chained sections included ("During
// handling of the above exception...", "The above exception was the direct
// cause..."). Lines of different writers (NormalizedLine::source: ranks, services)
// are followed separately, so interleaved ranks do not mix their tracebacks.
// Tested by traceback_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "match/normalize.h"

namespace errdex {

struct TracebackFrame {
  std::string file;
  int line = 0;
  std::string function;
  std::string code;  // the source line printed under the frame, trimmed ("" when none)
};

struct ExceptionSection {
  std::string printed_class;  // as printed: "json.decoder.JSONDecodeError" ("" if the line had no class shape)
  std::string short_class;    // last dotted component: "JSONDecodeError"
  // The message: (line index, byte offset in that line's text where it starts), in order.
  std::vector<std::pair<size_t, size_t>> message_lines;
  std::vector<TracebackFrame> frames;  // outermost first, as printed
  size_t class_line = 0;               // index of the "Class: message" line
  bool chained = false;                // preceded by a chaining sentence
  // Place in its chain of exceptions ("During handling of the above exception...",
  // "The above exception was the direct cause..."): the sections of one chain share
  // chain_id; chain_pos counts from 0 in input order, the last (chain_pos ==
  // chain_len - 1) is the exception the user hit.
  size_t chain_id = 0;
  size_t chain_pos = 0;
  size_t chain_len = 1;
  bool cause_is_direct = false;  // "direct cause" (raise ... from) rather than "during handling"
  bool cut_off = false;          // frames but no exception line: a paste cut short (class_line: its last line)
};

// Parses `lines` (a window of one input, in order). Sets consumed[i] for every line
// that belongs to a traceback (header, frames, source lines, carets, class line,
// message lines, chaining sentences): those must not be matched as plain lines, as
// a source line of a frame often contains the very message literal.
// REQUIRES: consumed.size() == lines.size().
// orphan_frames, when given, receives the frames of tracebacks that never reached
// their exception line (a paste cut off): still evidence of where the error came from.
std::vector<ExceptionSection> ParseTracebacks(const std::vector<const NormalizedLine*>& lines,
                                              size_t max_message_lines, std::vector<bool>& consumed,
                                              std::vector<TracebackFrame>* orphan_frames = nullptr);

// "ValueError: bad" -> {class_end=10, message_begin=12}. strict: the class must
// look like an exception class (ends in Error/Exception/Warning/Exit/Interrupt/...);
// else any dotted identifier is accepted (the line after a traceback's frames).
struct ClassSplit {
  size_t class_end = 0;
  size_t message_begin = 0;
  bool ok = false;
};
ClassSplit SplitClassPrefix(std::string_view text, bool strict);

// A class printed inside a line of prose or log: "Getting `ValueError: bad x` when
// I call it" -> the class and the message after it (up to the closing backtick or
// quote when the class followed one). A class at the start counts too. The class
// must look like an exception class (see SplitClassPrefix, strict).
struct EmbeddedClass {
  size_t class_begin = 0, class_end = 0;
  size_t message_begin = 0, message_end = 0;
  bool ok = false;
};
EmbeddedClass FindEmbeddedClass(std::string_view text);

// "Error" or "Exception" alone: what a writer puts before what went wrong ("Error:
// botocore...ParamValidationError: ...", "Error: _queue.Empty when ..."), as often
// as a class of that name. FindEmbeddedClass looks past it to a printed class.
inline bool IsWritersLabel(std::string_view cls) { return cls == "Error" || cls == "Exception"; }

// '  File "x.py", line 12, in f' (a frame line, whatever comes before it).
bool LooksLikeFrameLine(std::string_view text);

// "Traceback (most recent call last):" at the start or the end of the line.
bool IsTracebackHeader(std::string_view text);

// Last dotted component.
std::string_view ShortClassName(std::string_view printed);

}  // namespace errdex
