# Compiler flags shared by every Tessera target: warnings and the sanitizer build.
add_library(tessera_warnings INTERFACE)
target_compile_options(tessera_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wno-unused-parameter>)

if(TESSERA_SANITIZE)
  message(STATUS "Tessera: building with AddressSanitizer + UndefinedBehaviorSanitizer")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# Test executables are header-heavy (every source instantiates the graph compiler and reference
# kernels again); compiling each as one unity source halves the suite's build time.
option(TESSERA_UNITY_TESTS "Compile each test executable as a single unity translation unit" ON)

# tessera_add_doctest(<name> SOURCES ... LIBS ... [PROPERTIES ...]): a doctest executable
# registered with CTest, one entry per test case, named "<name>: <test case>" so that cases of
# different executables never collide.
function(tessera_add_doctest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;PROPERTIES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  if(TESSERA_UNITY_TESTS)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  endif()
  target_link_libraries(${name} PRIVATE doctest::doctest tessera_warnings ${ARG_LIBS})
  doctest_discover_tests(${name} TEST_PREFIX "${name}: " ADD_LABELS 0 PROPERTIES ${ARG_PROPERTIES})
endfunction()
