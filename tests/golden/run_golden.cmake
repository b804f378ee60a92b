# Runs one golden case of the codebias CLI (see tests/CMakeLists.txt for the file layout).
# -DCLI=binary -DCASE_DIR=tests/golden -DCASE=name -DWORK_DIR=scratch; env CODEBIAS_UPDATE_GOLDEN=1
# rewrites <case>.expected.jsonl, but only when the exit status is the expected one.
cmake_minimum_required(VERSION 3.21)

set(base "${CASE_DIR}/${CASE}")
set(tmp "${WORK_DIR}/${CASE}")
file(REMOVE_RECURSE "${tmp}")
file(MAKE_DIRECTORY "${tmp}")

file(STRINGS "${base}.args" arg_lines ENCODING UTF-8)
set(args "")
foreach(arg IN LISTS arg_lines)
  string(REPLACE "@INPUT@" "${base}.input.jsonl" arg "${arg}")
  string(REPLACE "@TMP@" "${tmp}" arg "${arg}")
  string(REPLACE "@DATA@" "${CASE_DIR}/../data" arg "${arg}")
  list(APPEND args "${arg}")
endforeach()

set(expected_rc 0)
if(EXISTS "${base}.expected_rc")
  file(STRINGS "${base}.expected_rc" expected_rc LIMIT_COUNT 1)
endif()

execute_process(COMMAND "${CLI}" ${args}
  WORKING_DIRECTORY "${tmp}"
  RESULT_VARIABLE rc OUTPUT_FILE "${tmp}/stdout.jsonl" ERROR_VARIABLE err)
message(STATUS "codebias ${args}\nexit ${rc}\nstderr:\n${err}")

set(failures "")
if(NOT rc STREQUAL expected_rc)
  string(APPEND failures "exit status ${rc}, expected ${expected_rc}\n")
endif()

if(EXISTS "${base}.expected_stderr")
  file(STRINGS "${base}.expected_stderr" wanted_lines ENCODING UTF-8)
  foreach(wanted IN LISTS wanted_lines)
    string(FIND "${err}" "${wanted}" at)
    if(at EQUAL -1)
      string(APPEND failures "stderr lacks: ${wanted}\n")
    endif()
  endforeach()
endif()

if("$ENV{CODEBIAS_UPDATE_GOLDEN}" STREQUAL "1")
  if(failures)
    message(FATAL_ERROR "not updating ${CASE}.expected.jsonl: the run itself failed:\n${failures}")
  endif()
  file(COPY_FILE "${tmp}/stdout.jsonl" "${base}.expected.jsonl")
  message(STATUS "updated ${base}.expected.jsonl: review the diff before committing")
  return()
endif()

file(READ "${tmp}/stdout.jsonl" actual)
set(expected "")
if(EXISTS "${base}.expected.jsonl")
  file(READ "${base}.expected.jsonl" expected)
endif()
if(NOT actual STREQUAL expected)
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND "${DIFF}" -u "${base}.expected.jsonl" "${tmp}/stdout.jsonl"
                    OUTPUT_VARIABLE delta)
  else()
    set(delta "(install diff to see the difference; actual output: ${tmp}/stdout.jsonl)")
  endif()
  string(APPEND failures "stdout differs from ${CASE}.expected.jsonl:\n${delta}")
endif()

if(failures)
  message(FATAL_ERROR "golden case ${CASE} failed:\n${failures}")
endif()
