# errdex serve / mcp / site end to end: the real binary over real sockets and
# pipes (serve_e2e_test.cc), and the node tests of tests/web/ (a real headless
# chromium driven by puppeteer-core, the official MCP TypeScript SDK client, the
# OpenAPI lint by @redocly/cli), installed by scripts/install-deps.sh with npm ci.
file(GLOB serve_e2e_srcs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/tests/serve/*_test.cc")
if(serve_e2e_srcs)
  add_executable(serve_e2e_tests ${serve_e2e_srcs})
  target_link_libraries(serve_e2e_tests PRIVATE errdex_serve errdex_scan GTest::gtest GTest::gtest_main)
  target_compile_definitions(serve_e2e_tests PRIVATE
    ERRDEX_BINARY="$<TARGET_FILE:errdex>" ERRDEX_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    ERRDEX_BUILD_DIR="${CMAKE_BINARY_DIR}")
  add_dependencies(serve_e2e_tests errdex)
  gtest_discover_tests(serve_e2e_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
