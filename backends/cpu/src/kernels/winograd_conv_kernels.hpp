// Winograd F(2x2, 3x3) convolution (stride 1, no dilation, no groups) on blocked tensors in three
// stages: the input transform writes V (16 planes of tiles x input channels), sixteen independent
// products V[xi] x U[xi] write M (16 planes of tiles x output channels) with the GEMM
// microkernel, and the output transform turns M into the output with the epilogue (residual, bias,
// fused activation). Either three kernels run one after the other over the whole layer, or, where
// U is small, one kernel runs all three per tile row in per-part workspace
// (WinogradTileRowsKernel). U holds the transformed weights G g G^T, packed by
// WinogradWeightsTransform. A 3x3 layer then takes 16 products per 2x2 outputs and input channel
// instead of 36, at the price of the transforms and of V and M passing through memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// Sizes of one Winograd convolution and the blocking of its products.
struct WinogradPlan {
    static constexpr int64_t kValues = 16;  ///< transformed values per tile (4x4)
    int64_t n = 1, in_h = 0, in_w = 0, out_h = 0, out_w = 0;
    int64_t pad_top = 0, pad_left = 0;
    int64_t tiles_h = 0, tiles_w = 0;  ///< tiles per image column and row
    int64_t channels = 0;              ///< input channels (a multiple of 16)
    int64_t outputs = 0;               ///< output channels (a multiple of 16)
    int64_t mr = 1, nr = 16;           ///< register tile of the products: tiles x channels

    int64_t tiles() const { return n * tiles_h * tiles_w; }
    /// Floats between the planes of V and of M: a plane's size rounded up to 4 KiB plus one
    /// 64-byte line, so that the sixteen lines a tile reads or writes (one per plane) fall in
    /// sixteen different L1 sets rather than all in one.
    static int64_t plane_stride(int64_t floats) { return (floats + 1023) / 1024 * 1024 + 16; }
    int64_t v_plane() const { return plane_stride(tiles() * channels); }
    int64_t m_plane() const { return plane_stride(tiles() * outputs); }
    int64_t v_floats() const { return kValues * v_plane(); }
    int64_t m_floats() const { return kValues * m_plane(); }
    int64_t u_floats() const { return kValues * channels * outputs; }
    /// U of value xi for output channels from `oc_start` (a multiple of nr): [channels][width].
    int64_t u_offset(int64_t xi, int64_t oc_start) const {
        return xi * channels * outputs + oc_start * channels;
    }
    int64_t block_width(int64_t oc_start) const { return std::min(nr, outputs - oc_start); }
};

/// Why a convolution cannot run as Winograd F(2x2, 3x3) here, or empty when it can: a 3x3 kernel,
/// stride 1, dilation 1, one group, an f32 nchw16c input, input and output channels multiples
/// of 16.
std::string winograd_unsupported_reason(const Conv2dGeometry& g, const TensorInfo& src,
                                        const TensorInfo& weights);

WinogradPlan make_winograd_plan(const Conv2dGeometry& g, const TensorInfo& src,
                                const TensorInfo& dst, int64_t mr, int64_t nr);

/// Tile rows of the input into V.
class WinogradInputKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "WinogradInputKernel"; }
    void configure(const KernelTable& table, const ITensor& src, const WinogradPlan& plan);
    void set_workspace(float* v) { v_ = v; }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    const WinogradPlan* plan_ = nullptr;
    float* v_ = nullptr;
};

/// M[xi] = V[xi] x U[xi] for each of the sixteen values, in register tiles of the microkernel.
class WinogradProductsKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "WinogradProductsKernel"; }
    void configure(const KernelTable& table, const WinogradPlan& plan);
    void set_weights(const float* u) { u_ = u; }
    void set_workspace(const float* v, float* m) {
        v_ = v;
        m_ = m;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const WinogradPlan* plan_ = nullptr;
    const float* u_ = nullptr;
    const float* v_ = nullptr;
    float* m_ = nullptr;
};

/// Tile rows of M into the output (f32 nchw16c), with the residual, bias and fused activation.
class WinogradOutputKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "WinogradOutputKernel"; }
    /// `epilogue`: act, act_lo, act_hi, act_slope used. The residual (dst's shape, f32 nchw16c,
    /// possibly dst itself) and bias are bound later.
    void configure(const KernelTable& table, ITensor& dst, const WinogradPlan& plan,
                   const MicroArgs& epilogue);
    void set_bias(const float* bias) { bias_ = bias; }
    void set_residual(const ITensor* residual) { residual_ = residual; }
    void set_workspace(const float* m) { m_ = m; }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    ITensor* dst_ = nullptr;
    const WinogradPlan* plan_ = nullptr;
    MicroArgs epilogue_;
    const float* bias_ = nullptr;
    const ITensor* residual_ = nullptr;
    const float* m_ = nullptr;
};

/// All three stages one tile row at a time, V and M of the row in the part's own workspace (so
/// they stay in its core's L2 and no other core reads them): for layers whose U fits in L2 beside
/// them, where the three-kernel form sends V and M through L3 (3x3 64->64 on 56x56: 3.2 MB each).
class WinogradTileRowsKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "WinogradTileRowsKernel"; }
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                   const WinogradPlan& plan, const MicroArgs& epilogue);
    void set_weights(const float* u) { u_ = u; }
    void set_bias(const float* bias) { bias_ = bias; }
    void set_residual(const ITensor* residual) { residual_ = residual; }
    /// Floats of workspace `parts` parts need (one tile row's V and M each).
    int64_t workspace_floats(int parts) const;
    void set_workspace(float* workspace, int parts) {
        workspace_ = workspace;
        workspace_parts_ = parts;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    int64_t v_plane() const;  ///< floats between a row's V planes
    int64_t m_plane() const;

    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    const WinogradPlan* plan_ = nullptr;
    MicroArgs epilogue_;
    const float* u_ = nullptr;
    const float* bias_ = nullptr;
    const ITensor* residual_ = nullptr;
    float* workspace_ = nullptr;
    int workspace_parts_ = 0;
};

}  // namespace tessera::cpu
