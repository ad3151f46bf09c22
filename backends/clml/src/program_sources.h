// program_sources.h -- the OpenCL C source of every kernel program, and one representative set of
// build options per program: what a check that builds every program (the fp16 test) iterates over.
#pragma once

#include <string>
#include <vector>

namespace tessera::clml {

extern const char* const kConvSource;         // ops_convolution.cpp
extern const char* const kGemmSource;         // ops_gemm.cpp
extern const char* const kElementwiseSource;  // ops_elementwise.cpp
extern const char* const kPoolSource;         // ops_pool_softmax.cpp
extern const char* const kMovementSource;     // ops_data_movement.cpp

struct ProgramSource {
  const char* name;    // the program cache's name
  const char* source;  // without the prelude (get_program prepends it)
  std::string extra;   // variant options (tile sizes, filter width, destination type)
};

// Every program, with the options of one of its variants.
std::vector<ProgramSource> all_program_sources();

}  // namespace tessera::clml
