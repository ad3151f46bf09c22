// GemmKernel: blocked fp32 GEMM over a window of output tiles (dim 0: columns in steps of NR,
// dim 1: rows, one by one or, for an MR of 1 or 2, in steps of MR). B is packed into NR-wide panels
// (caller-provided per-part workspace, or pre-packed by the weights manager). A is read in place by
// the microkernel, with fixed strides between rows and between reduction steps. K blocking is fixed
// per instruction set, so results do not depend on the split or the machine; the column blocking
// follows the host's L2 size.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"

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

/// Least work (2 x multiply-adds, about 1 us) a GEMM gives one part when it splits.
constexpr double kMinPartFlops = 1e5;

class GemmKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "GemmKernel"; }
    void configure(const KernelTable& table, const GemmProblem& problem);
    /// Floats of workspace for `parts` parts: each part's B block.
    std::size_t workspace_floats(int parts) const {
        return ws_b_ * static_cast<std::size_t>(parts);
    }
    void set_workspace(float* workspace, int parts) {
        workspace_ = workspace;
        workspace_parts_ = parts;
    }
    /// Floats of a fully pre-packed B for this table and problem.
    static std::size_t packed_b_floats(const KernelTable& table, int64_t k, int64_t n);
    /// Columns of a B block (NC) on a core with `l2_bytes` of L2: the table's NC, reduced (in
    /// whole NR panels, at least one) until a KC-deep block fills at most half of L2.
    static int64_t column_block(const KernelTable& table, std::size_t l2_bytes);
    /// Binds the data pointers (bias may be null) before a run; after set_workspace.
    void set_operands(const float* a, const float* b, const float* b_packed, const float* bias,
                      float* c) {
        p_.a = a;
        p_.b = b;
        p_.b_packed = b_packed;
        p_.bias = bias;
        p_.c = c;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    /// Rows in a window of single rows, tiled in tiles of nearly equal height; with an MR of 1 or
    /// 2, in steps of MR.
    bool mixed_tiles() const { return t_->mr > 2; }

    const KernelTable* t_ = nullptr;
    GemmProblem p_;
    int64_t nr_ = 0, nc_ = 0;
    std::size_t ws_b_ = 0;
    int64_t a_step_stride_ = 0;  ///< element distance between A(p, k) and A(p, k+1)
    int64_t a_row_stride_ = 0;   ///< element distance between A(p, k) and A(p+1, k)
    float* workspace_ = nullptr;
    int workspace_parts_ = 0;
};

/// Maps an activation onto the microkernel's fused epilogue; false if it cannot be fused.
bool fuse_activation(const ActivationInfo& act, MicroArgs& args);

}  // namespace tessera::cpu
