// program_sources.cpp -- the list of kernel programs (program_sources.h).
#include "program_sources.h"

#include "copy_kernels.h"
#include "gemm_blocked.h"

namespace tessera::clml {

std::vector<ProgramSource> all_program_sources() {
  return {
      {"convolution", kConvSource, "-DOCB=8 -DKW=3 -DSW=1 -DDW=1"},
      {"gemm", kGemmSource, "-DTM=8 -DTRANS_A=0 -DTRANS_B=0"},
      {"gemm_blocked", kGemmBlockedSource, "-DCHECKED=1 -DTRANS_A=1 -DTRANS_B=0"},
      {"elementwise", kElementwiseSource, ""},
      {"pool_softmax", kPoolSource, ""},
      {"movement", kMovementSource, "-DDST_DT=1"},
      {"copy", kCopyKernelSource, "-DDST_DT=1"},
  };
}

}  // namespace tessera::clml
