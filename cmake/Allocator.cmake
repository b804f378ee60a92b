# The allocator the codebias executables run with. Analysis allocates many small objects (syntax
# trees, IR nodes, strings); mimalloc (Debian: libmimalloc-dev) serves them with about a tenth
# fewer instructions per response than the C library's malloc (callgrind, FairCoder corpus).
# Linked into an executable it replaces malloc for the whole process. Never with sanitizers,
# which bring their own allocator.
#
# codebias_use_allocator(<target>): link the allocator into an executable; defines
# CODEBIAS_MIMALLOC=1 for it when mimalloc is used.
include_guard(GLOBAL)

set(CODEBIAS_MIMALLOC OFF)
if(NOT CODEBIAS_SANITIZE AND NOT CODEBIAS_FUZZ)
  find_package(mimalloc 2 CONFIG QUIET)
  if(mimalloc_FOUND)
    set(CODEBIAS_MIMALLOC ON)
  else()
    message(STATUS "mimalloc not found (Debian: libmimalloc-dev): the executables use the C library's "
                   "malloc, and analysis is about 10% slower")
  endif()
endif()

function(codebias_use_allocator target)
  if(CODEBIAS_MIMALLOC)
    target_link_libraries(${target} PRIVATE mimalloc)
    target_compile_definitions(${target} PRIVATE CODEBIAS_MIMALLOC=1)
  endif()
endfunction()
