# exported_symbols.cmake: fails unless the plugin file PLUGIN exports exactly one dynamic symbol,
# the ABI entry tsr_plugin_entry. Anything else in the dynamic symbol table (the plugin's own
# functions, a statically linked runtime, standard-library typeinfo) could bind to, or be bound
# by, a host that holds a symbol of the same name.
#   cmake -DNM=/usr/bin/nm -DPLUGIN=libtessera_plugin_x.so -P exported_symbols.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var NM PLUGIN)
  if(NOT ${var})
    message(FATAL_ERROR "exported_symbols.cmake: ${var} is not set")
  endif()
endforeach()
execute_process(COMMAND ${NM} -D --defined-only -P ${PLUGIN}
  OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${PLUGIN} (${rc}): ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(exported "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ ]+) ")
    list(APPEND exported "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(LENGTH exported count)
set(others ${exported})
list(REMOVE_ITEM others tsr_plugin_entry)
list(LENGTH others other_count)
if(NOT "tsr_plugin_entry" IN_LIST exported OR other_count GREATER 0)
  list(SUBLIST others 0 20 shown)
  list(JOIN shown "\n  " shown)
  message(FATAL_ERROR "${PLUGIN} exports ${count} dynamic symbols; expected only "
    "tsr_plugin_entry. Besides it (first 20 of ${other_count}):\n  ${shown}")
endif()
message(STATUS "${PLUGIN} exports only tsr_plugin_entry")
