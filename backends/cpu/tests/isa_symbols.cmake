# Checks that the non-baseline instruction-set tables of the CPU runtime share no out-of-line inline
# function with any other object of the library. The linker keeps one copy of such a function
# (weak / COMDAT) for the whole library; if it kept one compiled with -mavx512f, every caller would
# run AVX-512 code and die with SIGILL on CPUs without it.
#
# cmake -DNM=<nm> -DOBJECTS="a.o|b.o|..." -DISA_TABLES="table_avx2|table_avx512" -P isa_symbols.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" objects "${OBJECTS}")
string(REPLACE "|" ";" isa_tables "${ISA_TABLES}")
# The personality routine's reference is the same data in every object, whatever the flags.
set(allowed "DW.ref.__gxx_personality_v0")

function(weak_symbols object out)
  execute_process(COMMAND ${NM} --defined-only -P ${object}
                  OUTPUT_VARIABLE listing RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${object}: ${err}")
  endif()
  string(REGEX MATCHALL "[^\n]+ [WVu] [^\n]*" lines "${listing}")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE " .*" "" name "${line}")
    list(APPEND names "${name}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

set(table_objects "")
set(other_symbols "")
foreach(object IN LISTS objects)
  get_filename_component(file "${object}" NAME)
  set(is_table FALSE)
  foreach(table IN LISTS isa_tables)
    if(file MATCHES "^${table}\\.")
      set(is_table TRUE)
    endif()
  endforeach()
  if(is_table)
    list(APPEND table_objects "${object}")
  else()
    weak_symbols("${object}" names)
    list(APPEND other_symbols ${names})
  endif()
endforeach()

list(LENGTH isa_tables expected)
list(LENGTH table_objects found)
if(NOT found EQUAL expected)
  message(FATAL_ERROR "expected ${expected} ISA table objects (${ISA_TABLES}), found ${found}")
endif()

set(failures 0)
foreach(index RANGE 0 ${found})
  if(index EQUAL found)
    break()
  endif()
  list(GET table_objects ${index} object)
  weak_symbols("${object}" names)
  # Symbols shared with the baseline objects or with the other non-baseline tables.
  set(others ${other_symbols})
  foreach(peer IN LISTS table_objects)
    if(NOT peer STREQUAL object)
      weak_symbols("${peer}" peer_names)
      list(APPEND others ${peer_names})
    endif()
  endforeach()
  set(shared 0)
  foreach(name IN LISTS names)
    # Type information objects and their names (UBSan's function-type checks emit them for the
    # kernels' signatures) are data, the same whatever the instruction set.
    if(name IN_LIST others AND NOT name IN_LIST allowed AND NOT name MATCHES "^_ZT[IS]")
      message(SEND_ERROR "${object}: '${name}' is also emitted by another object of the library")
      math(EXPR shared "${shared} + 1")
    endif()
  endforeach()
  list(LENGTH names count)
  message(STATUS "${object}: ${count} weak symbols, ${shared} shared")
  math(EXPR failures "${failures} + ${shared}")
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} shared weak symbol(s): make them static, anonymous or templated on the instruction set")
endif()
