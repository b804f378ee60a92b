# Warnings, sanitizers and fuzzing instrumentation for codebias's own code.
#
# codebias_warnings (INTERFACE target): link it PRIVATE to every first-party target.
# CODEBIAS_SANITIZE=ON  : -fsanitize=address,undefined for everything built after this point
#                         (the build-asan tree of .ci/run).
# CODEBIAS_FUZZ=ON      : clang only; libFuzzer coverage + ASan/UBSan, builds fuzz/.
include_guard(GLOBAL)

add_library(codebias_warnings INTERFACE)
target_compile_options(codebias_warnings INTERFACE -Wall -Wextra -Wpedantic)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  # GCC 12 reports -Wrestrict on correct `"literal" + std::string` at -O2 (GCC bug 105329).
  target_compile_options(codebias_warnings INTERFACE -Wno-restrict)
endif()
if(CODEBIAS_WERROR)
  target_compile_options(codebias_warnings INTERFACE -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC's other flow-based warnings also fire on correct std::string / std::vector code at
    # -O2/-O3 (GCC bugs 105545, 106238); keep them visible but not fatal.
    target_compile_options(codebias_warnings INTERFACE
      -Wno-error=stringop-overflow -Wno-error=array-bounds -Wno-error=maybe-uninitialized)
  endif()
endif()

set(CODEBIAS_SANITIZER_FLAGS "")
if(CODEBIAS_SANITIZE OR CODEBIAS_FUZZ)
  list(APPEND CODEBIAS_SANITIZER_FLAGS
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
endif()
if(CODEBIAS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CODEBIAS_FUZZ=ON needs clang (configure with CC=clang CXX=clang++)")
  endif()
  list(APPEND CODEBIAS_SANITIZER_FLAGS -fsanitize=fuzzer-no-link)
endif()
if(CODEBIAS_SANITIZER_FLAGS)
  add_compile_options(${CODEBIAS_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()
if(CODEBIAS_SANITIZE AND NOT CODEBIAS_FUZZ)
  # CTest starts the test binary once per test (~1,100 times); linked as a position-dependent
  # executable it skips the dynamic loader's relocation of its 0.7 GB and starts in 0.6 s, not 1.1 s.
  add_link_options(-no-pie)
endif()
