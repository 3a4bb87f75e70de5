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

# The node tests: each file one ctest (node's test runner prints "# pass N / # fail N").
# Screenshots of the main pages land in ${CMAKE_BINARY_DIR}/web/screenshots.
find_program(NODE_EXECUTABLE node)
if(NODE_EXECUTABLE)
  foreach(web_test browser mcp openapi)
    add_test(NAME Web.${web_test}
             COMMAND ${NODE_EXECUTABLE} --test ${CMAKE_SOURCE_DIR}/tests/web/${web_test}.test.mjs
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/web)
    set_tests_properties(Web.${web_test} PROPERTIES TIMEOUT 300
      ENVIRONMENT "ERRDEX_BINARY=$<TARGET_FILE:errdex>;ERRDEX_WEB_OUT=${CMAKE_BINARY_DIR}/web")
  endforeach()
else()
  message(WARNING "node not found: the browser, MCP SDK and OpenAPI tests (tests/web) are not registered")
endif()
