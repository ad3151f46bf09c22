# tessera_add_plugin(<name> SOURCES ... [LIBS ...] [NO_INSTALL]): builds lib tessera_plugin_<name>.so, a
# Tessera backend plugin loaded with dlopen. Only tsr_plugin_entry is exported: hidden visibility
# for the plugin's own code, and the version script tessera_plugin.map (beside this file) for the
# rest, the static libraries it links and the standard-library templates it instantiates.
# Installed with the Tessera package so out-of-tree plugins use the same helper.
set(TESSERA_PLUGIN_VERSION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/tessera_plugin.map
    CACHE INTERNAL "Linker version script exporting only tsr_plugin_entry")
function(tessera_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "SOURCES;LIBS" ${ARGN})
  set(target tessera_plugin_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_property(GLOBAL APPEND PROPERTY TESSERA_PLUGIN_TARGETS ${target})
  if(TESSERA_UNITY_PLUGINS)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  endif()
  target_link_libraries(${target} PRIVATE tessera::tessera ${ARG_LIBS})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${TESSERA_PLUGIN_VERSION_SCRIPT})
  if(NOT APPLE AND NOT WIN32)
    target_link_options(${target} PRIVATE
      "LINKER:--version-script=${TESSERA_PLUGIN_VERSION_SCRIPT}" "LINKER:--exclude-libs,ALL")
  endif()
  if(TESSERA_PLUGIN_BUILD_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${TESSERA_PLUGIN_BUILD_DIR})
  endif()
  if(TESSERA_PLUGIN_INSTALL_DIR AND NOT ARG_NO_INSTALL)
    # Installed plugins find the libraries installed beside Tessera (libzdnn.so.0,
    # libtessera_clml.so.1) through a RUNPATH relative to their own folder, so a moved prefix works.
    if(DEFINED CMAKE_INSTALL_LIBDIR)
      file(RELATIVE_PATH libdir_from_plugins "${CMAKE_INSTALL_PREFIX}/${TESSERA_PLUGIN_INSTALL_DIR}"
           "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}")
      set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/${libdir_from_plugins}")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION ${TESSERA_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
