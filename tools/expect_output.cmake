# Runs a command and checks its exit code and that its output (stdout + stderr) matches every one
# of the given regular expressions, printing the output and the first one missing otherwise.
#
# cmake -DCOMMAND="prog@@arg..." -DEXPECT_RC=<n> -DEXPECT="regex@@regex..." -P expect_output.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "@@" ";" command "${COMMAND}")
string(REPLACE "@@" ";" patterns "${EXPECT}")
execute_process(COMMAND ${command} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
set(all "${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}; output:\n${all}")
endif()
foreach(pattern IN LISTS patterns)
  if(NOT all MATCHES "${pattern}")
    message(FATAL_ERROR "output lacks /${pattern}/; output:\n${all}")
  endif()
endforeach()
list(LENGTH patterns count)
message(STATUS "exit code ${rc} and all ${count} expected lines present")
