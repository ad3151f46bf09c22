// Builds a KernelTable for one instruction set from the xsimd kernel templates. Included only by
// the arch TUs (src/arch/table_*.cpp), each compiled with its own instruction-set flags.
#pragma once

#include <xsimd/xsimd.hpp>

#include "simd/elementwise_kernels.hpp"
#include "simd/micro_kernel.hpp"
#include "simd/neighbourhood_kernels.hpp"
#include "simd/s8_gemm_kernels.hpp"

namespace tessera::cpu::simd {

/// MR x NV: the main tile (GEMM and convolution); WMR x WNV (when not 0): the wide tile.
template <class Arch, int MR, int NV, int WMR = 0, int WNV = 0>
KernelTable make_table(const char* isa, int64_t kc, int64_t mc, int64_t nc) {
    KernelTable t;
    t.isa = isa;
    t.vec_width = static_cast<int>(xsimd::batch<float, Arch>::size);
    t.mr = MR;
    t.nv = NV;
    t.kc = kc;
    t.mc = mc;
    t.nc = nc;
    MicroTableFiller<Arch, MR, NV>::fill(t);
    if constexpr (WMR > 0 && WNV > 0) {
        t.wide_mr = WMR;
        t.wide_nv = WNV;
        MicroTableFiller<Arch, WMR, WNV>::fill(t);
    }
    t.activation = &activation<Arch>;
    t.binary = &binary<Arch>;
    t.scale_shift_block = &scale_shift_block<Arch>;
    t.softmax_row = &softmax_row<Arch>;
    t.pool_row = &pool_row<Arch>;
    t.depthwise_row = &depthwise_row<Arch>;
    t.s8_gemm = &s8_gemm_generic;
    return t;
}

}  // namespace tessera::cpu::simd
