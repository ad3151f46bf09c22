# tessera_add_plugin(<name> SOURCES ... [LIBS ...] [NO_INSTALL]): builds lib tessera_plugin_<name>.so, a
# Tessera backend plugin loaded with dlopen. Hidden visibility: only tsr_plugin_entry is
# exported. Installed with the Tessera package so out-of-tree plugins use the same helper.
function(tessera_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "SOURCES;LIBS" ${ARGN})
  set(target tessera_plugin_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE tessera::tessera ${ARG_LIBS})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
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
