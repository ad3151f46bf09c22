# scripts/cmake-options.sh: CMake options the scripts pass on every configure, sourced by demo.sh
# and test.sh. A build folder keeps whatever an earlier configure put in its cache, so each script
# sets every option it depends on: otherwise `demo.sh` (tests off) followed by `test.sh` on the
# same build/ builds and runs no test at all. TESSERA_BACKENDS is reset (-U) to the project's
# default list, so that every backend the tree has is built.

# Shared by every build folder: generator, every backend, unity sources for the tests, plugins,
# importer and tool, no ThreadSanitizer.
common_options=(
    -G Ninja
    -U TESSERA_BACKENDS
    -DTESSERA_UNITY_TESTS=ON
    -DTESSERA_UNITY_PLUGINS=ON
    -DTESSERA_TSAN=OFF
)

# build/: the release build (demo.sh and test.sh share it; only tests/benchmarks differ).
release_options=(
    "${common_options[@]}"
    -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG"
    "-DCMAKE_C_FLAGS_RELEASE=-O3 -DNDEBUG"
    -DTESSERA_SANITIZE=OFF
    -DTESSERA_FUZZ=OFF
    -DTESSERA_BUILD_EXAMPLES=ON
    -DTESSERA_CPU_KERNEL_TABLES=all
)
demo_options=("${release_options[@]}" -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCHMARKS=OFF)
test_options=("${release_options[@]}" -DTESSERA_BUILD_TESTS=ON -DTESSERA_BUILD_BENCHMARKS=ON)

# build-asan/: clang with AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation: the whole test suite runs under the sanitizers, and the same build holds the
# libFuzzer harnesses (tests/fuzz). -O1 without debug info (quicker to compile on small CI
# machines; reports still name functions). Its programs run on this machine only, so the cpu
# runtime holds only the kernel table this CPU selects (the release build holds them all).
asan_options=(
    "${common_options[@]}"
    -DCMAKE_C_COMPILER=clang
    -DCMAKE_CXX_COMPILER=clang++
    -DTESSERA_FUZZ=ON
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_FLAGS_RELEASE=-O1
    -DCMAKE_C_FLAGS_RELEASE=-O1
    -DTESSERA_SANITIZE=ON
    -DTESSERA_BUILD_TESTS=ON
    -DTESSERA_BUILD_EXAMPLES=OFF
    -DTESSERA_BUILD_BENCHMARKS=OFF
    -DTESSERA_CPU_KERNEL_TABLES=host
)
