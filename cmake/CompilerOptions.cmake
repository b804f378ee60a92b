# Warnings, sanitizers and fuzzing instrumentation for codebias's own code.
#
# codebias_warnings (INTERFACE target): link it PRIVATE to every first-party target.
# CODEBIAS_SANITIZE=ON  : -fsanitize=address,undefined for everything built after this point.
# CODEBIAS_FUZZ=ON      : clang only; libFuzzer coverage + ASan/UBSan, builds fuzz/. Both at once
#                         is the build-asan tree of scripts/sanitize.sh: the tests run under the
#                         sanitizers and fuzz_score links against the same library.
include_guard(GLOBAL)

# ccache, when installed, with paths relative to the checkout and no working directory in the
# hash: a fresh clone in another folder (CI on the same machine) reuses an earlier build's objects.
option(CODEBIAS_CCACHE "Compile through ccache when it is installed" ON)
if(CODEBIAS_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(CODEBIAS_CCACHE_PROGRAM ccache)
  if(CODEBIAS_CCACHE_PROGRAM)
    set(codebias_launcher env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1
        CCACHE_MAXSIZE=12G "${CODEBIAS_CCACHE_PROGRAM}")
    set(CMAKE_C_COMPILER_LAUNCHER ${codebias_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${codebias_launcher})
  endif()
endif()

# lld, when installed, links the large test and sanitizer executables several times faster.
option(CODEBIAS_LLD "Link with lld when it is installed" ON)
if(CODEBIAS_LLD)
  find_program(CODEBIAS_LLD_PROGRAM ld.lld)
  if(CODEBIAS_LLD_PROGRAM)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

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
if(CODEBIAS_SANITIZE)
  # The end-to-end tests start the sanitized codebias binary hundreds of times; linked as a
  # position-dependent executable it skips the dynamic loader's relocation and starts twice as fast.
  add_link_options(-no-pie)
endif()
