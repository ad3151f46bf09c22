// Builds a KernelTable for one instruction set from the xsimd kernel templates. Included only by
// the arch TUs (src/arch/table_*.cpp), each compiled with its own instruction-set flags.
#pragma once

#include <xsimd/xsimd.hpp>

#include "simd/dot_kernels.hpp"
#include "simd/elementwise_kernels.hpp"
#include "simd/micro_kernel.hpp"
#include "simd/neighbourhood_kernels.hpp"
#include "simd/s8_gemm_kernels.hpp"
#include "simd/winograd_kernels.hpp"

namespace tessera::cpu::simd {

/// Fills the microkernels of tiles up to MR x NV and returns the MR x NV shape.
template <class Arch, int MR, int NV>
TileShape tile(KernelTable& t) {
    MicroTableFiller<Arch, MR, NV>::fill(t);
    return TileShape{MR, NV};
}

/// Fills the two-row microkernels up to MR pixels per row x NV, and the one-row ones an odd last
/// row takes, and returns the MR x NV shape.
template <class Arch, int MR, int NV>
TileShape two_row_tile(KernelTable& t) {
    MicroTableFiller<Arch, MR, NV, 1>::fill(t);
    MicroTableFiller<Arch, MR, NV, 2>::fill(t);
    return TileShape{MR, NV};
}

/// A table whose GEMM and direct convolutions all use the MR x NV register tile.
template <class Arch, int MR, int NV>
KernelTable make_table(const char* isa, int64_t kc, int64_t mc, int64_t nc) {
    KernelTable t;
    t.isa = isa;
    t.vec_width = static_cast<int>(xsimd::batch<float, Arch>::size);
    t.mr = MR;
    t.nv = NV;
    t.kc = kc;
    t.mc = mc;
    t.nc = nc;
    t.conv = t.conv_short_rows = t.conv_unblocked = tile<Arch, MR, NV>(t);
    t.activation = &activation<Arch>;
    t.binary = &binary<Arch>;
    t.scale_shift_block = &scale_shift_block<Arch>;
    t.softmax_row = &softmax_row<Arch>;
    t.pool_row = &pool_row<Arch>;
    t.depthwise_row = &depthwise_row<Arch>;
    t.dot_rows = &dot_rows<Arch>;
    t.dot_panels = &dot_panels<Arch>;
    t.winograd_input_row = &winograd_input_row<Arch>;
    t.winograd_output_row = &winograd_output_row<Arch>;
    t.s8_gemm = &s8_gemm_generic;
    return t;
}

}  // namespace tessera::cpu::simd
