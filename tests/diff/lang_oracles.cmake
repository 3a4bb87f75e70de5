# Differential tests of the Rust, Go, Java and JavaScript/TypeScript front ends
# against oracles on each language's own compiler front end (tests/diff/lang_oracle.py).
# Each oracle is built by a fixture test from what scripts/install-deps.sh installs
# (Debian packages, the pinned npm lockfile); the corpora are what those packages
# ship. A short sample runs in the default suite, the whole corpus under `long`.
# Included from the top-level CMakeLists.txt inside if(ERRDEX_BUILD_TESTS).
set(_lang_diff "${CMAKE_SOURCE_DIR}/tests/diff")
# Where the oracles are built. A second build of the same checkout (CI's sanitizer
# build) may point here at the first one's: the oracles do not depend on how errdex
# is built, and cargo then finds syn compiled already instead of taking ~1 min on it.
set(ERRDEX_ORACLE_DIR "${CMAKE_BINARY_DIR}" CACHE PATH "directory the Rust/Go/Java oracles are built in")
set(_lang_py "${Python3_EXECUTABLE}")

# errdex_lang_diff(NAME LANG CORPUS ORACLE_CMD FIXTURE SHORT_FILES [EXTRA_ARGS...]):
# NAME (a sample of SHORT_FILES files) and NAMEFull (every file, label long).
function(errdex_lang_diff name lang corpus oracle fixture short_files)
  set(_common ${_lang_py} ${_lang_diff}/lang_oracle.py ${corpus} --lang ${lang} --errdex $<TARGET_FILE:errdex>
      --oracle ${oracle} --min-recall 0.99 --min-precision 0.99 --min-pattern 0.99 ${ARGN})
  add_test(NAME DiffOracle.${name} COMMAND ${_common} --max-files ${short_files})
  set_tests_properties(DiffOracle.${name} PROPERTIES TIMEOUT 900 FIXTURES_REQUIRED ${fixture})
  add_test(NAME DiffOracle.${name}Full COMMAND ${_common})
  set_tests_properties(DiffOracle.${name}Full PROPERTIES TIMEOUT 7200 FIXTURES_REQUIRED ${fixture} LABELS long)
endfunction()

# Rust: the syn crate (librust-syn-dev), built offline with Debian's cargo and rustc
# (/usr/bin: a rustup toolchain earlier on PATH would want the network); the corpus
# is every crate Debian's librust-*-dev packages put in /usr/share/cargo/registry.
file(GLOB _syn_dirs /usr/share/cargo/registry/syn-1.*)
if(Python3_FOUND AND EXISTS /usr/bin/cargo AND EXISTS /usr/bin/rustc AND _syn_dirs)
  set(_ro "${ERRDEX_ORACLE_DIR}/rust_oracle")
  add_test(NAME DiffOracle.RustOracleBuild
           COMMAND sh -c "mkdir -p '${_ro}' && cp -rp '${_lang_diff}/rust_oracle/.' '${_ro}/' && cd '${_ro}' && RUSTC=/usr/bin/rustc CARGO_HOME='${_ro}/cargo-home' /usr/bin/cargo build --release --offline --quiet")
  set_tests_properties(DiffOracle.RustOracleBuild PROPERTIES TIMEOUT 1200 FIXTURES_SETUP rust_oracle)
  errdex_lang_diff(RustCrates rust /usr/share/cargo/registry "${_ro}/target/release/rust_oracle" rust_oracle 600)
endif()

# Go: go/parser + go/ast of Debian's golang-go (no modules, no network); the corpus is
# Go's own standard library and commands (GOROOT/src, ~5,500 files).
find_program(ERRDEX_GO go PATHS /usr/bin NO_DEFAULT_PATH)
if(Python3_FOUND AND ERRDEX_GO)
  execute_process(COMMAND ${ERRDEX_GO} env GOROOT OUTPUT_VARIABLE _goroot OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_goroot AND EXISTS "${_goroot}/src/fmt")
    set(_go "${ERRDEX_ORACLE_DIR}/go_oracle")
    add_test(NAME DiffOracle.GoOracleBuild
             COMMAND sh -c "mkdir -p '${_go}' && cd '${_lang_diff}/go_oracle' && GOCACHE='${_go}/cache' GOPATH='${_go}/gopath' GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local '${ERRDEX_GO}' build -o '${_go}/go_oracle' .")
    set_tests_properties(DiffOracle.GoOracleBuild PROPERTIES TIMEOUT 600 FIXTURES_SETUP go_oracle)
    errdex_lang_diff(GoStdlib go "${_goroot}/src" "${_go}/go_oracle" go_oracle 1000)
  endif()
endif()

# Java: javac's own parser (JavacTask.parse, com.sun.source) of the installed JDK;
# the corpus is the JDK's own sources (openjdk-17-source's src.zip: java.base and
# five more modules, ~3,700 files).
find_program(ERRDEX_JAVAC javac)
find_program(ERRDEX_JAVA java)
find_program(ERRDEX_UNZIP unzip)
file(GLOB _jdk_src /usr/lib/jvm/java-17-openjdk-*/lib/src.zip)
if(Python3_FOUND AND ERRDEX_JAVAC AND ERRDEX_JAVA AND ERRDEX_UNZIP AND _jdk_src)
  list(GET _jdk_src 0 _jdk_zip)
  set(_jo "${ERRDEX_ORACLE_DIR}/java_oracle")
  add_test(NAME DiffOracle.JavaOracleBuild
           COMMAND sh -c "rm -rf '${_jo}' && mkdir -p '${_jo}/classes' '${_jo}/jdk' && '${ERRDEX_JAVAC}' -d '${_jo}/classes' '${_lang_diff}/JavaOracle.java' && cd '${_jo}/jdk' && '${ERRDEX_UNZIP}' -q '${_jdk_zip}' 'java.base/*' 'java.logging/*' 'java.sql/*' 'java.net.http/*' 'jdk.httpserver/*' 'java.management/*'")
  set_tests_properties(DiffOracle.JavaOracleBuild PROPERTIES TIMEOUT 600 FIXTURES_SETUP java_oracle)
  errdex_lang_diff(JavaJdk java "${_jo}/jdk" "${ERRDEX_JAVA} -cp ${_jo}/classes JavaOracle" java_oracle 500)
endif()

# JavaScript/TypeScript: the TypeScript compiler's own parser (npm typescript, pinned
# by tests/diff/ts_oracle/package-lock.json, installed by scripts/install-deps.sh);
# the corpus is the JS/TS sources of tests/web's pinned node_modules (puppeteer-core,
# the MCP SDK, @redocly/cli and their dependencies, ~3,300 files).
find_program(ERRDEX_NODE node)
if(Python3_FOUND AND ERRDEX_NODE AND EXISTS "${CMAKE_SOURCE_DIR}/tests/web/package-lock.json")
  add_test(NAME DiffOracle.TsOracleReady
           COMMAND ${ERRDEX_NODE} -e "require('${_lang_diff}/ts_oracle/node_modules/typescript'); require('fs').statSync('${CMAKE_SOURCE_DIR}/tests/web/node_modules')")
  set_tests_properties(DiffOracle.TsOracleReady PROPERTIES TIMEOUT 60 FIXTURES_SETUP ts_oracle)
  errdex_lang_diff(TsNodeModules ts "${CMAKE_SOURCE_DIR}/tests/web/node_modules"
                   "${ERRDEX_NODE} ${_lang_diff}/ts_oracle/ts_oracle.js" ts_oracle 800)
endif()
