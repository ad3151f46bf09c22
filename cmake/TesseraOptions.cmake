# Compiler flags shared by every Tessera target: warnings and the sanitizer build.
add_library(tessera_warnings INTERFACE)
target_compile_options(tessera_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wno-unused-parameter>)

if(TESSERA_SANITIZE)
  message(STATUS "Tessera: building with AddressSanitizer + UndefinedBehaviorSanitizer")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# ThreadSanitizer build (scripts/tsan.sh): every target instrumented, any race report fails its test.
option(TESSERA_TSAN "Build everything with ThreadSanitizer" OFF)
if(TESSERA_TSAN)
  if(TESSERA_SANITIZE)
    message(FATAL_ERROR "TESSERA_TSAN and TESSERA_SANITIZE cannot be combined")
  endif()
  message(STATUS "Tessera: building with ThreadSanitizer")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

# libFuzzer build (scripts/fuzz.sh, clang only): every target gets coverage instrumentation plus
# ASan and UBSan; tests/fuzz then builds its harnesses as libFuzzer programs.
option(TESSERA_FUZZ "Instrument everything for libFuzzer and build the tests/fuzz harnesses (clang)" OFF)
if(TESSERA_FUZZ)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  check_cxx_source_compiles("
    #include <cstddef>
    #include <cstdint>
    extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }"
    TESSERA_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  if(TESSERA_HAVE_LIBFUZZER AND NOT TESSERA_SANITIZE AND NOT TESSERA_TSAN)
    message(STATUS "Tessera: instrumenting for libFuzzer with AddressSanitizer + UndefinedBehaviorSanitizer")
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                        -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
    # clang links the sanitizer runtimes into programs only; shared libraries linked with
    # -Wl,--no-undefined (zdnn, openvx) take the runtime's symbols from the program that loads
    # them. The standard libraries come last on every link line, so this overrides.
    string(APPEND CMAKE_CXX_STANDARD_LIBRARIES " -Wl,-z,undefs")
  else()
    set(TESSERA_HAVE_LIBFUZZER OFF)
    message(STATUS "Tessera: TESSERA_FUZZ needs clang with -fsanitize=fuzzer (Debian: clang "
                   "libclang-rt-14-dev) and no other sanitizer option; skipping the libFuzzer harnesses")
  endif()
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
