// report_mismatch.cpp: how a harness reports a wrong answer: print it and abort, which libFuzzer
// (and the replay program) treat as a crash of the input being run.
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.hpp"

namespace tessera_fuzz {

void report_mismatch(const std::string& what) {
    std::fprintf(stderr, "tessera fuzz: wrong answer: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

}  // namespace tessera_fuzz
