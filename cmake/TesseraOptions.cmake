# Compiler flags shared by every Tessera target: warnings and the sanitizer build.
add_library(tessera_warnings INTERFACE)
target_compile_options(tessera_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wno-unused-parameter>)

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

# libFuzzer harnesses (clang only): every target gets libFuzzer's coverage instrumentation and
# tests/fuzz builds its harnesses as libFuzzer programs. Implies TESSERA_SANITIZE: the CI's
# sanitizer build is this one (clang, ASan + UBSan + coverage), so one build runs the test suite
# under the sanitizers and then each fuzzer for a bounded time (scripts/test.sh).
option(TESSERA_FUZZ "Build the tests/fuzz harnesses as libFuzzer programs (clang; implies TESSERA_SANITIZE)" OFF)
if(TESSERA_FUZZ)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  check_cxx_source_compiles("
    #include <cstddef>
    #include <cstdint>
    extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }"
    TESSERA_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  if(TESSERA_HAVE_LIBFUZZER AND NOT TESSERA_TSAN)
    message(STATUS "Tessera: instrumenting for libFuzzer")
    add_compile_options(-fsanitize=fuzzer-no-link)
    set(TESSERA_SANITIZE ON)
  else()
    set(TESSERA_HAVE_LIBFUZZER OFF)
    message(STATUS "Tessera: TESSERA_FUZZ needs clang with -fsanitize=fuzzer (Debian: clang "
                   "libclang-rt-14-dev) and no ThreadSanitizer; skipping the libFuzzer harnesses")
  endif()
endif()

if(TESSERA_SANITIZE)
  message(STATUS "Tessera: building with AddressSanitizer + UndefinedBehaviorSanitizer")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang links the sanitizer runtimes into programs only; shared libraries linked with
    # -Wl,--no-undefined (zdnn, openvx) take the runtime's symbols from the program that loads
    # them. The standard libraries come last on every link line, so this overrides.
    string(APPEND CMAKE_CXX_STANDARD_LIBRARIES " -Wl,-z,undefs")
    string(APPEND CMAKE_C_STANDARD_LIBRARIES " -Wl,-z,undefs")
    # C programs (the OpenVX and zDNN examples) load C++ libraries: link the C++ parts of the
    # UBSan runtime, and the C++ library they need, into them too.
    add_link_options(-fsanitize-link-c++-runtime)
    string(APPEND CMAKE_C_STANDARD_LIBRARIES " -lstdc++")
  endif()
endif()

# Test executables are header-heavy (every source instantiates the graph compiler and reference
# kernels again); compiling each as one unity source halves the suite's build time.
option(TESSERA_UNITY_TESTS "Compile each test executable as a single unity translation unit" ON)
# Plugins, the ONNX importer and the tool are many small sources that each parse the same headers;
# compiled as unity sources they build in about half the time. Off by default so that each
# source keeps being checked on its own; the CI scripts turn it on.
option(TESSERA_UNITY_PLUGINS
       "Compile each plugin, the ONNX importer and the tool as unity translation units" OFF)

# tessera_add_doctest(<name> SOURCES ... LIBS ... [PROPERTIES ...]): a doctest executable
# registered with CTest, one entry per test case, named "<name>: <test case>" so that cases of
# different executables never collide.
# doctest's implementation and a default main() come from the tessera_doctest library, compiled
# once for all of them; a program that defines its own main() keeps it.
function(tessera_add_doctest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;PROPERTIES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  if(TESSERA_UNITY_TESTS)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  endif()
  target_link_libraries(${name} PRIVATE tessera_doctest tessera_warnings ${ARG_LIBS})
  doctest_discover_tests(${name} TEST_PREFIX "${name}: " ADD_LABELS 0 PROPERTIES ${ARG_PROPERTIES})
endfunction()

# Where the OpenCL tests keep PoCL's compiled kernels. PoCL keys each entry by kernel source,
# build options and device, so build folders may share one: scripts/test.sh points the release and
# sanitizer builds at the same folder and each kernel is compiled once (compiling dominates the
# OpenCL tests' time on PoCL).
set(TESSERA_POCL_CACHE_DIR "${CMAKE_BINARY_DIR}/pocl-cache" CACHE PATH
    "PoCL kernel cache folder for the OpenCL tests")
file(MAKE_DIRECTORY ${TESSERA_POCL_CACHE_DIR})
