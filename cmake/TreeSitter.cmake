# tree-sitter: the core C library and the grammars codebias parses with, all fetched from npm
# (see NpmPackage.cmake) and pinned by SHA-256. Nothing third-party lives in the repository.
#
# Target for the rest of the build: codebias::tree_sitter (include <tree_sitter/api.h>; the
# grammar entry points are declared in src/analysis/parsing/grammars.h).
#
# To move a grammar to a newer release: change its version, run `npm pack NAME@VERSION`,
# put `sha256sum NAME-VERSION.tgz` here, and check `#define LANGUAGE_VERSION` in its parser.c
# is within the core's range (core 0.25 loads grammar ABI 13..15).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/NpmPackage.cmake)

set(_ts_meta package/LICENSE package/package.json)

codebias_npm_package(tree-sitter 0.25.1
  07aeba8dd71630e7e72b2d4ca3bd2680c3471824100cc5ebff44e78a6ed0b6d3 _ts_core_dir
  PATTERNS package/vendor/tree-sitter/lib/include package/vendor/tree-sitter/lib/src ${_ts_meta})

# The core, built as one translation unit exactly like upstream's binding.gyp does.
set(_ts_lib "${_ts_core_dir}/vendor/tree-sitter/lib")
add_library(codebias_ts_core STATIC "${_ts_lib}/src/lib.c")
target_include_directories(codebias_ts_core SYSTEM PUBLIC "${_ts_lib}/include")
target_include_directories(codebias_ts_core PRIVATE "${_ts_lib}/src")
target_compile_definitions(codebias_ts_core PRIVATE _DEFAULT_SOURCE)
target_compile_options(codebias_ts_core PRIVATE -w)
set_target_properties(codebias_ts_core PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                   C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)

# codebias_ts_grammar(<lang> <npm-name> <version> <sha256> [SUBDIR <dir>] [EXTRA <paths>...])
# Compiles <dir>/src/parser.c (+ scanner.c when the package has one) into codebias_ts_<lang>.
# Grammars are third-party generated tables: no warnings, always -O2 (cpp's parser.c is 17 MB;
# -O0 would make every parse slow and -g would bloat the object), no sanitizer instrumentation.
set(CODEBIAS_TS_GRAMMARS "")
function(codebias_ts_grammar lang npm_name version sha256)
  cmake_parse_arguments(PARSE_ARGV 4 arg "" "SUBDIR" "EXTRA")
  set(sub "package")
  if(arg_SUBDIR)
    set(sub "package/${arg_SUBDIR}")
  endif()
  codebias_npm_package(${npm_name} ${version} ${sha256} dir
    PATTERNS "${sub}/src" ${arg_EXTRA} ${_ts_meta})
  set(src "${dir}")
  if(arg_SUBDIR)
    set(src "${dir}/${arg_SUBDIR}")
  endif()
  set(sources "${src}/src/parser.c")
  if(EXISTS "${src}/src/scanner.c")
    list(APPEND sources "${src}/src/scanner.c")
  endif()
  set(target codebias_ts_${lang})
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PRIVATE "${src}/src")
  target_compile_options(${target} PRIVATE -w -O2 -g0 -fno-sanitize=all)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE -fsanitize-coverage=0)
  endif()
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                             C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  set(CODEBIAS_TS_GRAMMARS ${CODEBIAS_TS_GRAMMARS} ${target} PARENT_SCOPE)
endfunction()

codebias_ts_grammar(python tree-sitter-python 0.25.0
  63b76b3fa8181fd79eaad4abcdb21e2babcb504dbfc7710a89934fa456d26096)
codebias_ts_grammar(c tree-sitter-c 0.24.1
  8e9ecd7687665d2fa1b3c07fbd1f4380b7d285850d6954629e2156e1b757451e)
codebias_ts_grammar(cpp tree-sitter-cpp 0.23.4
  615d152f70e7a6bed8f15a93c3c0c264c40dc71c1b6a1445646fff9439e776bc)
codebias_ts_grammar(javascript tree-sitter-javascript 0.25.0
  6214ce23d03aba525ba8edd6ca7caf365c969f2c2dbfc353e376ca54507ffb92)
codebias_ts_grammar(java tree-sitter-java 0.23.5
  6b6c1b62605f9d8bb80efd2ebe5951a87b182faafa3eeb67c460a667818551b6)
# The package holds typescript/ and tsx/; only the plain TypeScript grammar is built. Its
# scanner includes ../../common/scanner.h, hence the extra path.
codebias_ts_grammar(typescript tree-sitter-typescript 0.23.2
  0fdf63c35930a75885145d75ee63cb879da2d49db9bfe454bd8e60b08ba778a1
  SUBDIR typescript EXTRA package/common)

# codebias's one file that needs the core's internal grammar layout (lib/src/parser.h).
add_library(codebias_ts_dense STATIC "${PROJECT_SOURCE_DIR}/src/analysis/parsing/dense_parse_table.c")
target_include_directories(codebias_ts_dense PRIVATE "${PROJECT_SOURCE_DIR}/src")
target_include_directories(codebias_ts_dense SYSTEM PRIVATE "${_ts_lib}/src")
target_link_libraries(codebias_ts_dense PUBLIC codebias_ts_core PRIVATE codebias_warnings)
set_target_properties(codebias_ts_dense PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                   C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)

add_library(codebias_tree_sitter INTERFACE)
target_link_libraries(codebias_tree_sitter INTERFACE codebias_ts_core codebias_ts_dense ${CODEBIAS_TS_GRAMMARS})
add_library(codebias::tree_sitter ALIAS codebias_tree_sitter)
