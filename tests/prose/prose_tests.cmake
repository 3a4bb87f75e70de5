# The prose of the document stage on fixture trees written in the style of real
# code, one per flag idiom (tests/prose/fixtures/: argparse, sglang's dataclass
# helper, vLLM's EngineArgs, click, typer, pydantic BaseSettings, env registries,
# JavaScript/TypeScript), scanned by the real binary; the prose checker behind
# `errdex lint-docs` (prose_lint_test.cc) and the command itself.
file(GLOB prose_srcs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/tests/prose/*_test.cc")
if(prose_srcs)
  add_executable(prose_tests ${prose_srcs})
  target_link_libraries(prose_tests PRIVATE errdex_document errdex_scan GTest::gtest GTest::gtest_main)
  target_include_directories(prose_tests PRIVATE "${CMAKE_SOURCE_DIR}/tests")
  target_compile_definitions(prose_tests PRIVATE
    ERRDEX_BINARY="$<TARGET_FILE:errdex>" ERRDEX_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  add_dependencies(prose_tests errdex)
  gtest_discover_tests(prose_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
