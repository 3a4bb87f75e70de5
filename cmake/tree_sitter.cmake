# tree_sitter.cmake: builds the static C library `tree_sitter_grammars` (the
# tree-sitter core + the JavaScript, TypeScript and TSX grammars, and the Rust,
# Go and Java grammars when fetched) from the pinned sources that
# scripts/fetch-third-party.sh puts in ${ERRDEX_THIRD_PARTY}.
# Optional: without third_party/tree-sitter the target is not created and
# errdex_extract builds without ERRDEX_HAVE_TREE_SITTER (the JS front end then
# reports "grammar not built" for every file).
# The caller links it:  if(TARGET tree_sitter_grammars) ... ERRDEX_HAVE_TREE_SITTER=1
set(_ts_root "${ERRDEX_THIRD_PARTY}")
set(_ts_core "${_ts_root}/tree-sitter/lib")
set(_ts_js "${_ts_root}/tree-sitter-javascript/src")
set(_ts_ts "${_ts_root}/tree-sitter-typescript")

if(EXISTS "${_ts_core}/src/lib.c"
   AND EXISTS "${_ts_js}/parser.c" AND EXISTS "${_ts_js}/scanner.c"
   AND EXISTS "${_ts_ts}/typescript/src/parser.c" AND EXISTS "${_ts_ts}/tsx/src/parser.c")
  message(STATUS "errdex: tree-sitter found in ${_ts_root}: building tree_sitter_grammars")
  # The TypeScript and TSX parser.c/scanner.c share file names; CMake keeps their
  # objects apart by directory, and their exported symbols differ
  # (tree_sitter_typescript / tree_sitter_tsx).
  add_library(tree_sitter_grammars STATIC
    "${_ts_core}/src/lib.c"
    "${_ts_js}/parser.c" "${_ts_js}/scanner.c"
    "${_ts_ts}/typescript/src/parser.c" "${_ts_ts}/typescript/src/scanner.c"
    "${_ts_ts}/tsx/src/parser.c" "${_ts_ts}/tsx/src/scanner.c")
  set_target_properties(tree_sitter_grammars PROPERTIES
    C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
    POSITION_INDEPENDENT_CODE ON)
  # Third-party code: always optimised (the generated parsers are huge tables)
  # and no warnings. Under ERRDEX_SANITIZE it keeps AddressSanitizer (the global
  # options) but not UBSan: UB findings inside the vendored core are not ours to
  # chase and -fno-sanitize-recover would abort our tests on them.
  target_compile_options(tree_sitter_grammars PRIVATE -O2 -w)
  if(ERRDEX_SANITIZE OR ERRDEX_FUZZ)
    target_compile_options(tree_sitter_grammars PRIVATE -fno-sanitize=undefined)
  endif()
  if(ERRDEX_FUZZ)  # no coverage feedback from the generated parse tables (and a much faster build)
    target_compile_options(tree_sitter_grammars PRIVATE -fno-sanitize=fuzzer-no-link)
  endif()
  # _DEFAULT_SOURCE: the core uses fdopen/le16toh etc. under -std=c11.
  target_compile_definitions(tree_sitter_grammars PRIVATE _DEFAULT_SOURCE _POSIX_C_SOURCE=200809L)
  target_include_directories(tree_sitter_grammars
    PUBLIC "${_ts_core}/include"
    PRIVATE "${_ts_core}/src")
  # Each parser.c finds "tree_sitter/parser.h" beside itself, but the TypeScript
  # scanners include ../../common/scanner.h, which includes "tree_sitter/parser.h"
  # relative to common/: give each scanner its own grammar's src/ as include dir.
  foreach(_g typescript tsx)
    set_source_files_properties("${_ts_ts}/${_g}/src/scanner.c" PROPERTIES
      INCLUDE_DIRECTORIES "${_ts_ts}/${_g}/src")
  endforeach()
  # Rust, Go, Java (src/extract/{rust,go,java}/): each grammar is added when its
  # pinned sources are there, and announces itself with ERRDEX_HAVE_TS_<LANG>
  # (a tree fetched before these pins still builds JavaScript/TypeScript).
  foreach(_lang rust go java)
    set(_dir "${_ts_root}/tree-sitter-${_lang}/src")
    if(EXISTS "${_dir}/parser.c")
      target_sources(tree_sitter_grammars PRIVATE "${_dir}/parser.c")
      if(EXISTS "${_dir}/scanner.c")
        target_sources(tree_sitter_grammars PRIVATE "${_dir}/scanner.c")
      endif()
      string(TOUPPER "${_lang}" _up)
      target_compile_definitions(tree_sitter_grammars PUBLIC ERRDEX_HAVE_TS_${_up}=1)
    else()
      message(STATUS "errdex: ${_dir} not fetched (scripts/fetch-third-party.sh): ${_lang} extraction disabled")
    endif()
  endforeach()
else()
  message(STATUS "errdex: ${_ts_root}/tree-sitter not fetched (scripts/fetch-third-party.sh): "
                 "JavaScript/TypeScript extraction disabled")
endif()
