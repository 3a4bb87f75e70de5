// match/foreign_traces.h: the error reports of Rust, Go, Java and C++ programs, read
// as the exception sections that Python tracebacks give (traceback.h), so explain
// weighs their messages, printed classes and frames the same way:
//
//   Rust   thread 'main' panicked at src/x.rs:12:5:        (1.73+, also "'main' (id)")
//          <message lines>
//          thread 'main' panicked at '<message>', src/x.rs:12:5   (before 1.73)
//          class "panic"; frame: the file:line; note:/stack backtrace: lines consumed
//   Go     panic: <message>  [recovered]
//          goroutine 1 [running]:
//          main.(*Server).pick(...)  /  \t/path/main.go:30 +0x12d
//          class "panic"; frames: each function + file:line (Server.pick)
//   Java   Exception in thread "main" java.lang.IllegalStateException: <message>
//          \tat p.App$Pool.pick(App.java:8)  ...  Caused by: ...  ... 1 more
//          (also a logged exception: a class line followed by "at" lines); one section
//          per exception, Caused by: chained; frames: p/App.java, App.Pool.pick
//   C++    terminate called after throwing an instance of 'c10::Error'
//            what():  <message>
//          Exception raised from check at k.cpp:4 (most recent call first):
//          class: c10::Error -> RuntimeError (c10::ValueError -> ValueError, ...: what
//          Python shows), else the C++ class; frame: the "raised from" function at file:line
//
// A Go error chain ("route request: pick llama: no workers") and a glog/log line need
// nothing here: they are plain lines, matched as they are.
//
// Thread-compatible pure functions. Tested by foreign_traces_test.cc and, on real
// program output, tests/foreign_explain_e2e_test.cc.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "match/normalize.h"
#include "match/traceback.h"

namespace errdex {

// Begin offsets of the lines of `text` that may belong to one of these reports
// (a cheap byte search: explain normalizes and parses only the lines it needs).
std::vector<size_t> ForeignTraceLines(std::string_view text);

// Parses the reports in `lines` (a window's needed lines, in order), skipping lines
// already consumed; appends one section per exception to `out` and marks the
// lines it used as consumed. REQUIRES: consumed.size() == lines.size().
void ParseForeignTraces(const std::vector<const NormalizedLine*>& lines, size_t max_message_lines,
                        std::vector<bool>& consumed, std::vector<ExceptionSection>& out);

}  // namespace errdex
