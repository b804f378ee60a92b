# Fetch a package from the npm registry at configure time, pinned by SHA-256.
#
#   codebias_npm_package(<name> <version> <sha256> <out-var> PATTERNS <path-in-tarball>...)
#
# Runs `npm pack <name>@<version>` with the user's own npm (so its registry, proxy and cache
# settings apply; no host is named here), checks the tarball's SHA-256, and extracts only the
# listed paths (each must exist in the tarball, e.g. `package/src`) into
# ${CODEBIAS_NPM_DIR}/<name>-<version>/. <out-var> is set to that folder (the tarball's
# `package/` prefix removed). Nothing is fetched again once the folder holds the pinned hash.
#
# Offline builds / CI caches: -DNPM_TARBALL_DIR=/dir takes `<name>-<version>.tgz` from /dir
# (as written by `npm pack`) instead of running npm.
include_guard(GLOBAL)

set(NPM_TARBALL_DIR "" CACHE PATH "Folder with pre-fetched npm tarballs (npm pack output); empty: run npm pack")
set(CODEBIAS_NPM_DIR "${CMAKE_BINARY_DIR}/_deps/npm" CACHE INTERNAL "")

function(codebias_npm_package name version sha256 out_var)
  cmake_parse_arguments(PARSE_ARGV 4 arg "" "" "PATTERNS")
  if(NOT arg_PATTERNS)
    message(FATAL_ERROR "codebias_npm_package(${name}): PATTERNS is required")
  endif()

  # npm pack names a tarball "<scope>-<name>-<version>.tgz" for "@scope/name".
  string(REGEX REPLACE "^@" "" file_stem "${name}")
  string(REPLACE "/" "-" file_stem "${file_stem}")
  set(tarball_name "${file_stem}-${version}.tgz")
  set(dest "${CODEBIAS_NPM_DIR}/${file_stem}-${version}")
  set(stamp "${dest}/.codebias-npm-stamp")
  string(TOLOWER "${sha256}" sha256)
  set(stamp_text "${sha256} ${arg_PATTERNS}")

  if(EXISTS "${stamp}")
    file(READ "${stamp}" have)
    if(have STREQUAL stamp_text)
      set(${out_var} "${dest}" PARENT_SCOPE)
      return()
    endif()
  endif()

  file(MAKE_DIRECTORY "${CODEBIAS_NPM_DIR}")
  set(tarball "${CODEBIAS_NPM_DIR}/${tarball_name}")
  if(NPM_TARBALL_DIR AND EXISTS "${NPM_TARBALL_DIR}/${tarball_name}")
    if(NOT "${NPM_TARBALL_DIR}/${tarball_name}" STREQUAL tarball)
      file(COPY_FILE "${NPM_TARBALL_DIR}/${tarball_name}" "${tarball}")
    endif()
  elseif(EXISTS "${tarball}")
    # Left by an earlier configure; the hash check below decides whether it is usable.
  else()
    if(NPM_TARBALL_DIR)
      message(FATAL_ERROR "codebias_npm_package: ${tarball_name} is not in NPM_TARBALL_DIR=${NPM_TARBALL_DIR}")
    endif()
    find_program(NPM_EXECUTABLE npm)
    if(NOT NPM_EXECUTABLE)
      message(FATAL_ERROR "npm is needed to fetch ${name}@${version} (install Node.js with npm, "
                          "or pass -DNPM_TARBALL_DIR=<folder with ${tarball_name}>)")
    endif()
    message(STATUS "npm pack ${name}@${version}")
    execute_process(
      COMMAND "${NPM_EXECUTABLE}" pack "${name}@${version}" --pack-destination "${CODEBIAS_NPM_DIR}"
              --ignore-scripts --silent
      WORKING_DIRECTORY "${CODEBIAS_NPM_DIR}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${tarball}")
      message(FATAL_ERROR "npm pack ${name}@${version} failed (exit ${rc}):\n${out}${err}")
    endif()
  endif()

  file(SHA256 "${tarball}" actual)
  if(NOT actual STREQUAL sha256)
    file(REMOVE "${tarball}")
    message(FATAL_ERROR "SHA-256 mismatch for ${tarball_name}:\n  expected ${sha256}\n  actual   ${actual}\n"
                        "The tarball is not the pinned release; refusing to build with it.")
  endif()

  # Extract next to the destination, then move into place, so an interrupted configure never
  # leaves a half-extracted package that looks complete.
  set(tmp "${dest}.tmp")
  file(REMOVE_RECURSE "${tmp}" "${dest}")
  file(MAKE_DIRECTORY "${tmp}")
  file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${tmp}" PATTERNS ${arg_PATTERNS})
  if(NOT IS_DIRECTORY "${tmp}/package")
    message(FATAL_ERROR "${tarball_name}: no package/ folder in the tarball")
  endif()
  file(RENAME "${tmp}/package" "${dest}")
  file(REMOVE_RECURSE "${tmp}")
  file(WRITE "${stamp}" "${stamp_text}")
  set(${out_var} "${dest}" PARENT_SCOPE)
endfunction()
