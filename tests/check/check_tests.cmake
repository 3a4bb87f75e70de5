# errdex check, end to end (tests/check/): the seeds on generated sglang-shaped
# trees, bad input, and the generated corpus run under python3 (check_corpus.py).
file(GLOB check_e2e_srcs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/tests/check/*_test.cc")
if(check_e2e_srcs)
  add_executable(check_e2e_tests ${check_e2e_srcs})
  target_link_libraries(check_e2e_tests PRIVATE nlohmann_json::nlohmann_json GTest::gtest GTest::gtest_main)
  target_compile_definitions(check_e2e_tests PRIVATE
    ERRDEX_BINARY="$<TARGET_FILE:errdex>" ERRDEX_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    ERRDEX_SHARED_DIR="${CMAKE_SOURCE_DIR}/../shared")
  add_dependencies(check_e2e_tests errdex)
  gtest_discover_tests(check_e2e_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 900)
endif()
