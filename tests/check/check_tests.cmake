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
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  # The generated corpus (tests/check/check_corpus.py): precision and recall of WILL/MAY
  # against the real program run by python3. Short form here; >= 500 command lines under `long`.
  add_test(NAME CheckCorpus.Short
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check/check_corpus.py
                   --errdex $<TARGET_FILE:errdex> --out ${CMAKE_BINARY_DIR}/check_corpus_short
                   --seeds 1 --styles argparse,dataclass --combos 40)
  set_tests_properties(CheckCorpus.Short PROPERTIES TIMEOUT 900)
  add_test(NAME CheckCorpus.Full
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check/check_corpus.py
                   --errdex $<TARGET_FILE:errdex> --out ${CMAKE_BINARY_DIR}/check_corpus_full
                   --seeds 1,2,3,4 --styles argparse,dataclass --combos 100
                   --json ${CMAKE_BINARY_DIR}/check_corpus_full.json)
  set_tests_properties(CheckCorpus.Full PROPERTIES TIMEOUT 7200 LABELS long)
endif()
