// AVX-512 kernel table (compiled with -mavx512f/bw/dq/vl/vnni -mfma): a 6x64 fp32 register tile,
// 8x48 for convolutions with short rows.
#include "simd/arch_table.hpp"
#include "simd/vnni_kernels.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx512() {
    using Arch = xsimd::avx512bw;
    static const KernelTable table = [] {
        // In-process A/B on Sapphire Rapids (2 cores of a shared host), 6x64 (4 vectors of B per
        // step, 6 broadcasts) against 12x32: GEMM 5-8% faster at 256-1024, 1 and 2 threads;
        // convolutions 3x3 64->64 56x56, 1x1 256->64 56x56 and 7x7 s2 3->64 took 0.92-1.00 of
        // the time at 1 thread and 0.93-1.05 at 2 (four runs, host under load from other
        // tenants; within 2% without that load), but 3x3 512->512 7x7 (rows of 7: one 7-pixel tile
        // against 4 + 3) 0.96-1.06. Short rows take 8x48 instead: against 12x32 (a 7-pixel row
        // fills 21 accumulators rather than 14) 3x3 512->512 7x7 took 0.92-1.03 (four runs), 1x1
        // 512->512 7x7 0.95-0.99 and 3x3 256->256 14x14 0.97-1.01 (two runs), 1 and 2 threads. KC
        // 512 rather than 384 (NC 256, Zen 5): square sgemm 512 0.96-0.98 of oneDNN's time against
        // 0.98-1.10, 1024 1.01-1.05 against 1.04-1.11 (1 and 2 threads, several processes). NC 640
        // is the cap; GemmKernel::column_block fits it to the host's L2.
        KernelTable t = simd::make_table<Arch, 6, 4>("avx512", 512, 144, 640);
        t.conv_short_rows = simd::tile<Arch, 8, 3>(t);
        // One block of 16 channels: 8 pixels (8 accumulators, as many FMAs in flight as two
        // units of 4-cycle latency take) rather than 6: MobileNetV3's 3x3 s2 3->16 stem and
        // MobileNet's 1x1 projections to 16 channels.
        t.conv_one_block = TileShape{8, 1};
        // Rows of <= 7 pixels: tiles of 7 pixels of two rows x 32 channels (28 accumulators;
        // each weight vector serves 14 pixels, so half the weight traffic from L2 per output):
        // 3x3 512->512 7x7 0.97-0.98 at 1 thread, 0.94-0.96 at 2; 3x3 256->256 7x7 0.97-0.98 /
        // 1.00-1.09 (host under load); a raw loop of the 512 layer's tiles 0.97 per FLOP.
        t.conv_two_rows = simd::two_row_tile<Arch, 7, 2>(t);
        // Without the software prefetch of the next input row, 1x1 256->64 56x56 ran 6-9% faster
        // (the hardware prefetchers keep up; the prefetches took load slots).
        t.conv_prefetch_input = false;
        // No K chunks (the weights of one block stream from L2 instead of reloading C
        // per chunk): 0.84-1.04 of the 40/24 KiB chunks' time, all but one run below 1.0, on 3x3
        // 64->64 56x56, 256 14x14, 512 7x7, 128 28x28, 1x1 256->64 and 7x7 s2 3->64, 1 and 2
        // threads, two runs.
        t.conv_chunk_kib_resident = t.conv_chunk_kib_streaming = 0;
        // Steps ordered tap by tap, so edge tiles skip every tap that reads only padding (3x3
        // pad 1 on 7x7: 2 of 9 taps of each edge row and column): 3x3 512->512 7x7 took 0.78-0.79
        // ms at 1 thread against 0.85-0.86 ordered by kernel row (which skips kernel rows only)
        // and 0.92 before either; 3x3 64->64 56x56, 1x1 and 7x7 s2 within 2% (Zen 5, in-process).
        t.conv_columns_outer = true;
        t.s8_gemm = &simd::s8_gemm_vnni512;
        return t;
    }();
    return &table;
}

}  // namespace tessera::cpu
