// GemmKernel: blocked fp32 GEMM over a window of output tiles (dim 0: columns in steps of NR,
// dim 1: rows in steps of MR). B is packed into NR-wide panels (caller-provided per-thread
// workspace, or pre-packed by the weights manager). A is read in place by the indexed microkernel
// through a table of k offsets, except when its row stride is a multiple of 4 KiB (rows would
// collide in the same L1 sets) or N is large: then it is packed into MR-row panels. K blocking is
// fixed, so results do not depend on the split.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

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

class GemmKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "GemmKernel"; }
    void configure(const KernelTable& table, const GemmProblem& problem);
    /// Floats of workspace each part needs (times the number of parts).
    std::size_t workspace_floats_per_part() const { return ws_a_ + ws_b_; }
    void set_workspace(float* workspace, int parts) {
        workspace_ = workspace;
        workspace_parts_ = parts;
    }
    /// Floats of a fully pre-packed B for this table and problem.
    static std::size_t packed_b_floats(const KernelTable& table, int64_t k, int64_t n);
    /// Binds the data pointers (bias may be null) before a run.
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
    const KernelTable* t_ = nullptr;
    GemmProblem p_;
    int64_t nr_ = 0, nc_ = 0;
    std::size_t ws_a_ = 0, ws_b_ = 0;
    bool pack_a_ = false;
    std::vector<int64_t> a_offsets_;  ///< element offset of A(0, k) for k < KC (in place or packed)
    int64_t a_row_stride_ = 0;        ///< element distance between A(p, k) and A(p+1, k)
    float* workspace_ = nullptr;
    int workspace_parts_ = 0;
};

/// Maps an activation onto the microkernel's fused epilogue; false if it cannot be fused.
bool fuse_activation(const ActivationInfo& act, MicroArgs& args);

}  // namespace tessera::cpu
