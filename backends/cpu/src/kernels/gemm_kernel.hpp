// GemmKernel: blocked fp32 GEMM over a window of output tiles (dim 0: columns in steps of NR,
// dim 1: rows, one by one or, over a packed A, in steps of MR). B is packed into NR-wide panels
// (caller-provided per-part workspace, or pre-packed by the weights manager). A is read in place by
// the microkernel, with fixed strides between rows and between reduction steps, except when its row
// stride is a multiple of 4 KiB (rows would collide in the same L1 sets): then
// GemmPackAKernel packs all of it into MR-row panels first, in parallel, into workspace every part
// reads (schedule_gemm runs both). K blocking is fixed per instruction set, so results do not
// depend on the split or the machine; the column blocking follows the host's L2 size.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/scheduler.hpp"

namespace tessera::cpu {

struct GemmProblem {
    bool trans_a = false, trans_b = false;
    int64_t m = 0, n = 0, k = 0;
    float alpha = 1.0f, beta = 0.0f;
    const float* a = nullptr;
    int64_t lda = 0;
    const float* b = nullptr;  ///< ignored when b_packed is set
    int64_t ldb = 0;
    bool b_prepacked = false;  ///< B comes as pack_b_panels(whole B) in b_packed
    const float* b_packed = nullptr;
    float* c = nullptr;
    int64_t ldc = 0;
    const float* bias = nullptr;  ///< per column (n values) or null, added on the last K block
    ActivationInfo act;           ///< relu/relu6/bounded/leaky/clip fused; others unsupported here
};

/// Packs every K block of a row-major A into the GemmKernel's MR-row panels, split over panels:
/// block pc (a multiple of KC) starts at pc * m_padded floats, panel i of it at i * kcb * MR.
class GemmPackAKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "GemmPackAKernel"; }
    void configure(const GemmProblem& problem, int64_t mr, int64_t kc);
    /// Floats of the packed A.
    std::size_t packed_floats() const { return packed_floats_; }
    /// Offset (floats) of the panel holding row `row` (a multiple of MR) in the K block starting
    /// at `pc`, `kcb` deep.
    std::size_t panel_offset(int64_t pc, int64_t kcb, int64_t row) const {
        return static_cast<std::size_t>(pc * m_padded_ + (row / mr_) * kcb * mr_);
    }
    void set_operands(const float* a, float* packed) {
        a_ = a;
        packed_ = packed;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    int64_t m_ = 0, k_ = 0, lda_ = 0, mr_ = 1, kc_ = 1;
    int64_t m_padded_ = 0;  ///< rows rounded up to whole panels
    std::size_t packed_floats_ = 0;
    const float* a_ = nullptr;
    float* packed_ = nullptr;
};

/// Least work (2 x multiply-adds, about 1 us) a GEMM gives one part when it splits.
constexpr double kMinPartFlops = 1e5;

class GemmKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "GemmKernel"; }
    void configure(const KernelTable& table, const GemmProblem& problem);
    /// Floats of workspace for `parts` parts: the shared packed A, then each part's B block.
    std::size_t workspace_floats(int parts) const {
        return (pack_a_ ? pack_a_kernel_.packed_floats() : 0) +
               ws_b_ * static_cast<std::size_t>(parts);
    }
    void set_workspace(float* workspace, int parts) {
        workspace_ = workspace;
        workspace_parts_ = parts;
    }
    /// The kernel that must run (to completion) before this one, or null.
    ICpuKernel* pack_a_kernel() { return pack_a_ ? &pack_a_kernel_ : nullptr; }
    /// Floats of a fully pre-packed B for this table and problem.
    static std::size_t packed_b_floats(const KernelTable& table, int64_t k, int64_t n);
    /// Columns of a B block (NC) on a core with `l2_bytes` of L2: the table's NC, reduced (in
    /// whole NR panels, at least one) until a KC-deep block fills at most half of L2.
    static int64_t column_block(const KernelTable& table, std::size_t l2_bytes);
    /// Binds the data pointers (bias may be null) before a run; after set_workspace.
    void set_operands(const float* a, const float* b, const float* b_packed, const float* bias,
                      float* c) {
        pack_a_kernel_.set_operands(a, workspace_);
        p_.a = a;
        p_.b = b;
        p_.b_packed = b_packed;
        p_.bias = bias;
        p_.c = c;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    /// Rows in a window of single rows, tiled in tiles of nearly equal height; over a packed A,
    /// whose panels hold MR rows each, in steps of MR.
    bool mixed_tiles() const { return !pack_a_ && t_->mr > 2; }

    const KernelTable* t_ = nullptr;
    GemmProblem p_;
    int64_t nr_ = 0, nc_ = 0;
    std::size_t ws_b_ = 0;
    bool pack_a_ = false;
    GemmPackAKernel pack_a_kernel_;
    int64_t a_step_stride_ = 0;  ///< element distance between A(p, k) and A(p, k+1)
    int64_t a_row_stride_ = 0;   ///< element distance between A(p, k) and A(p+1, k)
    float* workspace_ = nullptr;
    int workspace_parts_ = 0;
};

/// Schedules `kernel` over `parts` parts, after packing A when it needs that.
void schedule_gemm(IScheduler& scheduler, GemmKernel& kernel, int parts);

/// Maps an activation onto the microkernel's fused epilogue; false if it cannot be fused.
bool fuse_activation(const ActivationInfo& act, MicroArgs& args);

}  // namespace tessera::cpu
