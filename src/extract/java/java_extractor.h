// The Java front end (.java): one tree-sitter parse (tree-sitter-java 0.23.5) and
// one walk (extract/common/ts_front_end.h) that finds every place a Java program
// makes an error a user sees:
//
//   raise     throw new X(...) (class X, its simple name; the message is the first of
//             the first two arguments with literal text, so `new X(code, "msg")` and a
//             trailing cause both work; `throw e` rethrows and is not a site);
//             Guava Preconditions.checkArgument/checkState/checkNotNull(c, msg, args...)
//             (IllegalArgumentException / IllegalStateException / NullPointerException,
//             Guava's %s template, extra arguments appended as " [a, b]");
//             Objects.requireNonNull(x, msg) (NullPointerException);
//             Apache Commons Validate.isTrue/notNull/validState/...(c, msg, values...)
//             and Spring Assert.isTrue/state/notNull/...(c, msg): the message made at
//             the call (kAssertionHelpers in the .cc)
//   log       SLF4J/Log4j/commons-logging LOG.error/warn/fatal(msg, args...) ({}
//             placeholders, \{} escaped, a leftover Throwable is not text) and
//             java.util.logging severe/warning(msg), log(Level.SEVERE|WARNING, msg, params)
//             ({0} MessageFormat placeholders); the message must have literal text
//
// Messages: string literals and text blocks (escapes, incidental indentation), `+`
// concatenation, String.format / "...".formatted (java.util.Formatter: %s %d inline a
// literal, %n is a newline), MessageFormat.format, String.valueOf, final String
// fields of the file, and locals: the last declaration of the name before the
// site in the enclosing method, then the `=` / `+=` assignments to it that follow,
// in text order (no control flow).
//
// Context: Site.function is Class.method (constructors <init>, static blocks
// <clinit>, nested classes dotted, as Java stack traces name them); guards are if/while
// conditions (`not (...)` in else branches) and switch labels (`v == a, b`);
// catch clauses are exceptContext. Paths under src/test/ or test/ are inTests.
//
// Thread-safe; never fails on bad input. A file that spells none of the forms above is not
// parsed (no sites, no diagnostic): the parse is most of the front end's time.
// Tested by java_extractor_test.cc and
// tests/diff/JavaOracle.java (javac's own parser through com.sun.source).
#pragma once

#include <string_view>

#include "extract/common/ts_front_end.h"

namespace errdex {

TsExtractResult ExtractJava(std::string_view path, std::string_view text, const TsExtractOptions& options = {});

}  // namespace errdex
