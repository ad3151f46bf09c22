// GemmKernel: the BLIS-style loop nest (jc, pc, ic, jr, ir) around the register-tiled microkernel.
#include "kernels/gemm_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/gemm_pack.hpp"
#include "runtime/cache_sizes.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {
namespace {

constexpr int64_t round_up(int64_t x, int64_t m) {
    return (x + m - 1) / m * m;
}

}  // namespace

bool fuse_activation(const ActivationInfo& act, MicroArgs& g) {
    const float inf = std::numeric_limits<float>::infinity();
    switch (act.kind) {
        case ActivationKind::identity:
            g.act = FusedAct::none;
            return true;
        case ActivationKind::relu:
            g.act = FusedAct::clamp;
            g.act_lo = 0;
            g.act_hi = inf;
            return true;
        case ActivationKind::relu6:
            g.act = FusedAct::clamp;
            g.act_lo = 0;
            g.act_hi = 6;
            return true;
        case ActivationKind::bounded_relu:
            g.act = FusedAct::clamp;
            g.act_lo = 0;
            g.act_hi = act.a;
            return true;
        case ActivationKind::lu_bounded_relu:
            g.act = FusedAct::clamp;
            g.act_lo = act.b;
            g.act_hi = act.a;
            return true;
        case ActivationKind::clip:
            g.act = FusedAct::clamp;
            g.act_lo = act.a;
            g.act_hi = act.b;
            return true;
        case ActivationKind::leaky_relu:
            g.act = FusedAct::leaky;
            g.act_slope = act.a;
            return true;
        case ActivationKind::hard_sigmoid:
        case ActivationKind::hard_swish:
            g.act = act.kind == ActivationKind::hard_sigmoid ? FusedAct::hard_sigmoid
                                                             : FusedAct::hard_swish;
            g.act_slope = act.a;
            g.act_lo = act.b;
            return true;
        default:
            return false;
    }
}

std::size_t GemmKernel::packed_b_floats(const KernelTable& t, int64_t k, int64_t n) {
    const int64_t nr = static_cast<int64_t>(t.nv) * t.vec_width;
    return static_cast<std::size_t>(std::max<int64_t>(k, 1) *
                                    round_up(std::max<int64_t>(n, 1), nr));
}

int64_t GemmKernel::column_block(const KernelTable& t, std::size_t l2_bytes) {
    const int64_t nr = static_cast<int64_t>(t.nv) * t.vec_width;
    // The B block is reread from L2 by every row tile while A panels and C tiles stream through
    // the same cache, so it gets half of it. Zen 5 (1 MiB L2), square sgemm 512-2048, 1 and 2
    // threads, several processes each: KC 384 x NC 640 (a 960 KiB block) took 1.04-1.11 of
    // oneDNN's time, with 2-thread speedups of 1.72-1.80 in some processes; KC 512 x NC 256 (512
    // KiB) 0.96-1.07, speedups 1.79-1.99; NC 192 about the same as 256.
    const int64_t fit = static_cast<int64_t>(l2_bytes / 2 / (sizeof(float) * t.kc)) / nr * nr;
    return std::max(nr, std::min(t.nc, fit));
}

void GemmKernel::configure(const KernelTable& table, const GemmProblem& problem) {
    t_ = &table;
    p_ = problem;
    nr_ = static_cast<int64_t>(t_->nv) * t_->vec_width;
    const int64_t mr = t_->mr;
    nc_ = std::min(column_block(*t_, host_cache_sizes().l2),
                   round_up(std::max<int64_t>(p_.n, 1), nr_));
    const int64_t kc = std::min(t_->kc, std::max<int64_t>(p_.k, 1));
    ws_b_ = p_.b_prepacked ? 0 : static_cast<std::size_t>(round_up(kc * nc_, 64));
    // A is read in place, also when its rows are 4 KiB apart (the MR rows of a micro-panel then
    // share L1 sets, MR = 6 of 12 ways on Zen 5): packing all of it first, into workspace every
    // part read, took 1.03-1.08 of oneDNN's time on square sgemm 1024 and 2048 (AVX-512 and
    // AVX2, 1 and 2 threads) against 0.96-1.03 in place, and its 4 MiB copy left the 2-thread
    // runs of some processes in a slower state (speedup 1.77-1.80).
    a_step_stride_ = p_.trans_a ? p_.lda : 1;
    a_row_stride_ = p_.trans_a ? 1 : p_.lda;
    MicroArgs probe;
    if (!fuse_activation(p_.act, probe))
        throw Unsupported("GemmKernel::configure", "", "activation cannot be fused into GEMM");

    // Rows in steps of one row, so that parts split them evenly (each part then tiles its rows
    // in tiles of nearly equal height; mixed_tiles()).
    const bool mixed = mixed_tiles();
    Window win;
    win.set(0, Window::Dimension(0, round_up(std::max<int64_t>(p_.n, 1), nr_), nr_));
    win.set(1, mixed ? Window::Dimension(0, std::max<int64_t>(p_.m, 1), 1)
                     : Window::Dimension(0, round_up(std::max<int64_t>(p_.m, 1), mr), mr));
    // Split along N when there are enough column panels (each thread then packs only its own
    // part of B), else along M; from the table's split_m_rows on, along M; never along K. A B
    // packed before the run costs nothing to share, so with twice as many row tiles as column
    // panels the rows are split: a transformer's 128 x 256 projections then give 16 threads 16
    // parts, where their 4 column panels gave 4.
    const int64_t m_tiles = (std::max<int64_t>(p_.m, 1) + mr - 1) / mr;
    const int64_t n_tiles = win.num_iterations(0);
    const bool split_m = (n_tiles < 4 && m_tiles > n_tiles) ||
                         (t_->split_m_rows > 0 && p_.m >= t_->split_m_rows) ||
                         (p_.b_prepacked && m_tiles >= 2 * n_tiles);
    // Each part gets at least kMinPartFlops of work: below that, handing a part to another thread
    // costs more than it saves (AVX2 box, back-to-back calls: square sgemm 16-32 took 1.2-2.0x
    // the 1-thread time when split in two, 48-64 0.77-0.97x).
    const double step_flops =
        2.0 * static_cast<double>(std::max<int64_t>(p_.k, 1)) *
        (split_m
             ? static_cast<double>(std::max<int64_t>(p_.n, 1)) * static_cast<double>(win[1].step())
             : static_cast<double>(std::max<int64_t>(p_.m, 1)) * static_cast<double>(nr_));
    const int64_t min_steps = static_cast<int64_t>(std::ceil(kMinPartFlops / step_flops));
    configure_window(win, split_m ? 1 : 0, std::max<int64_t>(min_steps, split_m && mixed ? mr : 1));
}

void GemmKernel::run(const Window& win, const ThreadInfo& info) {
    const KernelTable& t = *t_;
    const GemmProblem& p = p_;
    const int64_t mr = t.mr, nr = nr_, nv = t.nv;
    const bool mixed = mixed_tiles();
    const int64_t m0 = win[1].start(), m1 = std::min(win[1].end(), p.m);
    const int64_t n0 = win[0].start(), n1 = std::min(win[0].end(), p.n);
    if (m0 >= m1 || n0 >= n1) return;

    if (p.k == 0) {  // C = beta * C (+ bias, activation are not applied to an empty product)
        for (int64_t i = m0; i < m1; ++i)
            for (int64_t j = n0; j < n1; ++j) {
                float& c = p.c[i * p.ldc + j];
                c = p.beta == 0.0f ? 0.0f : p.beta * c;
            }
        return;
    }
    if (info.thread_id >= workspace_parts_)
        throw Error("GemmKernel::run", "", "workspace was sized for fewer parts");
    float* wb = workspace_ + static_cast<std::size_t>(info.thread_id) * ws_b_;

    MicroArgs g;
    fuse_activation(p.act, g);
    const FusedAct act = g.act;
    alignas(64) float tile[kMaxMR * kMaxNV * 16];

    for (int64_t pc = 0; pc < p.k; pc += t.kc) {
        const int64_t kcb = std::min(t.kc, p.k - pc);
        const bool first = pc == 0, last = pc + kcb == p.k;
        for (int64_t jc = n0; jc < n1; jc += nc_) {
            const int64_t ncb = std::min(nc_, n1 - jc);
            const float* bblock;
            int64_t panel_stride;
            if (p.b_prepacked) {
                bblock = p.b_packed + (jc / nr) * p.k * nr + pc * nr;
                panel_stride = p.k * nr;
            } else {
                pack_b_panels(p.b, p.ldb, p.trans_b, pc, kcb, jc, ncb, nr, wb);
                bblock = wb;
                panel_stride = kcb * nr;
            }
            for (int64_t ic = m0; ic < m1; ic += t.mc) {
                const int64_t mcb = std::min(t.mc, m1 - ic);
                // Tiles of nearly equal height (MR and MR-1 rows for any block of a few tiles or
                // more), so parts of any row count cost in proportion to their rows.
                const int64_t tiles = (mcb + mr - 1) / mr;
                // A micro-panel (MR x KC) stays in L1 while the B block (KC x NC, in L2) streams.
                for (int64_t i = 0, ir = 0, rows = 0; ir < mcb; ++i, ir += rows) {
                    rows = mixed ? even_tile_rows(mcb - ir, tiles - i) : std::min(mr, mcb - ir);
                    const MicroKernel kernel = t.micro_for(a_row_stride_, rows, nv);
                    g.kc = kcb;
                    g.a = p.trans_a ? p.a + pc * p.lda + ic + ir : p.a + (ic + ir) * p.lda + pc;
                    g.a_ps = a_row_stride_;
                    g.koff = nullptr;
                    g.a_ks = a_step_stride_;
                    g.alpha = p.alpha;
                    g.load_c = first ? p.beta != 0.0f : true;
                    g.beta = first ? p.beta : 1.0f;
                    g.act = last ? act : FusedAct::none;
                    const float* bp = bblock;
                    for (int64_t jr = 0; jr < ncb; jr += nr, bp += panel_stride) {
                        const int64_t cols = std::min(nr, ncb - jr);
                        g.b = bp;
                        g.bias = last && p.bias ? p.bias + jc + jr : nullptr;
                        float* cptr = p.c + (ic + ir) * p.ldc + jc + jr;
                        if (cols == nr) {
                            g.c = cptr;
                            g.c_ps = p.ldc;
                            g.c_bs = 16;
                            kernel(g);
                            continue;
                        }
                        // Partial tile: go through a local buffer.
                        alignas(64) float bias_tile[kMaxNV * 16] = {};
                        if (g.bias) {
                            std::memcpy(bias_tile, g.bias,
                                        static_cast<std::size_t>(cols) * sizeof(float));
                            g.bias = bias_tile;
                        }
                        if (g.load_c)
                            for (int64_t r = 0; r < rows; ++r)
                                std::memcpy(tile + r * nr, cptr + r * p.ldc,
                                            static_cast<std::size_t>(cols) * sizeof(float));
                        g.c = tile;
                        g.c_ps = nr;
                        g.c_bs = 16;
                        kernel(g);
                        for (int64_t r = 0; r < rows; ++r)
                            std::memcpy(cptr + r * p.ldc, tile + r * nr,
                                        static_cast<std::size_t>(cols) * sizeof(float));
                    }
                }
            }
        }
    }
}

}  // namespace tessera::cpu
