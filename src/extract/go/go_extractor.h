// The Go front end (.go): one tree-sitter parse (tree-sitter-go 0.25.0) and one
// walk (extract/common/ts_front_end.h) that finds every place a Go program makes
// an error a user sees:
//
//   raise     errors.New(m), fmt.Errorf(f, ...) (also errors./xerrors.Errorf),
//             pkg/errors errors.Wrap(err, m) / Wrapf (the text is "m: <cause>");
//             class "error", or the sentinel's name for a package-level
//             `var ErrX = errors.New("...")` (the sentinel is the class users test for)
//   panic     panic(v) (class "panic"); log/klog/glog Fatal*/Exit* (class "fatal"),
//             Panic* (class "panic"), and Fatal*/Fatalf on any other logger
//   log       Error/Errorf/Errorw/Warn/Warnf/Warnw/Warning/Warningf/ErrorS/WarningS on
//             any receiver but fmt/errors/status (slog, zap, logr, klog, logrus: the
//             receiver's name varies, the method and argument shape do not): the message
//             is the first argument with literal text, or the second (logr
//             Error(err, "msg", kv...), klog.ErrorS)
//   http_response  http.Error(w, m, code) (httpStatus from a literal or http.StatusX),
//             gRPC status.Error/Errorf/New(codes.X, ...) (class: the code X)
//
// Messages: string literals (escapes decoded, raw strings with CR removed), `+`
// concatenation, package-level string constants of the same file, printf verbs of
// fmt.Errorf/Sprintf/log.Fatalf/Errorf loggers (%v %s %d inline a literal
// argument; %w, %q, %x... are holes; %% and %[n]v as fmt does), nested
// fmt.Sprintf/fmt.Errorf/errors.New values.
//
// Context: Site.function is Recv.Method or the function name; guards are if
// conditions (`not (...)` in else branches; the condition of `if x := f(); c` is
// c), switch cases as `v == a, b` (a tagless switch: the case expression), type
// switch cases as `v.(type) is T`, and select cases. _test.go files and testdata/
// are inTests.
//
// Thread-safe; never fails on bad input. A file that spells none of the forms above is not
// parsed (no sites, no diagnostic): the parse is most of the front end's time.
// Tested by go_extractor_test.cc and
// tests/diff/go_oracle (Go's own go/parser and go/ast).
#pragma once

#include <string_view>

#include "extract/common/ts_front_end.h"

namespace errdex {

TsExtractResult ExtractGo(std::string_view path, std::string_view text, const TsExtractOptions& options = {});

}  // namespace errdex
