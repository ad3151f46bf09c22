# Installs the CMake package: find_package(Tessera) gives tessera::tessera (the headers) and the
# tessera_add_plugin() helper; plugins install into lib/tessera/plugins where the loader looks.
include(CMakePackageConfigHelpers)
install(EXPORT TesseraTargets NAMESPACE tessera:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/TesseraConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/TesseraConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/TesseraConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/TesseraConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/TesseraConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TesseraPlugin.cmake
  ${CMAKE_CURRENT_LIST_DIR}/tessera_plugin.map
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
