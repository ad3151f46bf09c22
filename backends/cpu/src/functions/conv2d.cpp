// Conv2d: chooses Winograd F(2x2, 3x3) or direct convolution, plans it, pads/converts the input
// when the direct kernel needs it, folds batch-norm into shared packed or transformed weights
// (weights manager), adds the residual in the epilogue when given, and runs the kernels on the
// Context's scheduler.
#include "tessera/cpu/functions/conv2d.hpp"

#include <cmath>
#include <sstream>

#include "functions/conv_weights_transform.hpp"
#include "functions/padded_input.hpp"
#include "functions/winograd_weights_transform.hpp"
#include "kernels/activation_kernel.hpp"
#include "kernels/direct_conv_kernel.hpp"
#include "kernels/gemm_kernel.hpp"
#include "kernels/winograd_conv_kernels.hpp"
#include "runtime/cache_sizes.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

struct Conv2d::Impl {
    const Context& ctx;
    MemoryGroup group;
    ITensor* src = nullptr;
    const ITensor* weights = nullptr;
    const ITensor* bias = nullptr;
    ITensor* dst = nullptr;
    Conv2dInfo info;
    BatchNormFold bn;
    bool has_bn = false;
    PaddedInput input;
    ConvChannelPlan plan;
    DirectConvKernel conv;
    ActivationKernel activation;
    bool separate_activation = false;
    bool winograd = false;
    WinogradPlan winograd_plan;
    WinogradInputKernel winograd_input;
    WinogradProductsKernel winograd_products;
    WinogradOutputKernel winograd_output;
    WinogradTileRowsKernel winograd_rows;
    bool winograd_per_row = false;  ///< winograd_rows rather than the three kernels
    std::shared_ptr<const Tensor> packed_weights;
    std::vector<float> bias_values;
    bool prepared = false;

    Impl(const Context& c, std::shared_ptr<MemoryManager> mm) : ctx(c), group(std::move(mm)) {}
};

Conv2d::Conv2d(const Context& ctx, std::shared_ptr<MemoryManager> memory_manager)
    : impl_(std::make_unique<Impl>(ctx, std::move(memory_manager))) {}

Conv2d::~Conv2d() = default;

std::vector<int64_t> Conv2d::output_shape(const TensorInfo& src, const TensorInfo& weights,
                                          const Conv2dGeometry& g) {
    const char* fn = "Conv2d::output_shape";
    require(src.is_4d_layout(), fn, src.name(), "needs a 4-D input");
    require(weights.rank() == 4, fn, weights.name(), "weights must be [OC, IC/groups, KH, KW]");
    const int64_t oh = conv_output_extent(src.h(), weights.dim(2), g.stride_h, g.pad_top,
                                          g.pad_bottom, g.dilation_h);
    const int64_t ow = conv_output_extent(src.w(), weights.dim(3), g.stride_w, g.pad_left,
                                          g.pad_right, g.dilation_w);
    require(oh >= 1 && ow >= 1, fn, src.name(), "kernel larger than the padded input");
    return {src.n(), weights.dim(0), oh, ow};
}

namespace {

/// Whether Winograd F(2x2, 3x3) beats direct convolution for this layer. At least 32 input and
/// output channels, so that the products outweigh the transforms and the trips of V and M through
/// memory: 3x3 32->64 on 24x160 took 0.58x direct's time on a Zen 5 and 1.05x on a Xeon (1
/// thread). At least 32 tiles, since U (16 * C * K floats, 1.8x the direct weights) comes from
/// L3 or memory each run and serves that many tiles' products (16 FLOP per byte read): 3x3 512 on
/// 7x7 (16 tiles) took 0.80x direct's time on the Zen 5 but 1.20x on the Xeon at 2 threads.
bool winograd_pays(const TensorInfo& src, const TensorInfo& dst) {
    const int64_t tiles = src.n() * ((dst.h() + 1) / 2) * ((dst.w() + 1) / 2);
    return src.c() >= 32 && dst.c() >= 32 && tiles >= 32;
}

}  // namespace

void Conv2d::configure(ITensor& src, const ITensor& weights, const ITensor* bias, ITensor& dst,
                       const Conv2dInfo& info) {
    Impl& m = *impl_;
    const char* fn = "Conv2d::configure";
    const TensorInfo& s = src.info();
    const TensorInfo& w = weights.info();
    const Conv2dGeometry& g = info.geometry;
    require(s.is_4d_layout(), fn, s.name(), "input needs a 4-D layout (nchw16c, nchw or nhwc)");
    require(s.data_type() == DataType::f32 || s.data_type() == DataType::f16 ||
                s.data_type() == DataType::bf16,
            fn, s.name(), "input data type " + to_string(s.data_type()) + " is not f32/f16/bf16");
    require(w.data_type() == DataType::f32 && w.rank() == 4, fn, w.name(),
            "weights must be f32 [OC, IC/groups, KH, KW]");
    require(g.groups >= 1 && g.stride_h >= 1 && g.stride_w >= 1 && g.dilation_h >= 1 &&
                g.dilation_w >= 1,
            fn, w.name(), "groups, strides and dilations must be >= 1");
    require(g.pad_top >= 0 && g.pad_bottom >= 0 && g.pad_left >= 0 && g.pad_right >= 0, fn,
            s.name(), "negative padding");
    const int64_t oc = w.dim(0), ic = s.c();
    require(ic == w.dim(1) * g.groups, fn, w.name(),
            "input has " + std::to_string(ic) + " channels but weights expect " +
                std::to_string(w.dim(1) * g.groups));
    require(oc % g.groups == 0, fn, w.name(), "output channels not divisible by groups");
    if (bias)
        require(bias->info().data_type() == DataType::f32 && bias->info().element_count() == oc, fn,
                bias->info().name(), "bias must be f32 with OC elements");
    require(dst.info().data_type() == DataType::f32 && dst.info().layout() == DataLayout::nchw16c,
            fn, dst.info().name(), "output must be f32 nchw16c");
    require(dst.info().shape() == output_shape(s, w, g), fn, dst.info().name(),
            "output shape mismatch");
    if (info.batch_norm) {
        const BatchNormFold& b = *info.batch_norm;
        require(b.mean && b.var, fn, "batch_norm", "mean and var are required");
        for (const ITensor* t : {b.mean, b.var, b.gamma, b.beta})
            if (t)
                require(t->info().data_type() == DataType::f32 && t->info().element_count() == oc,
                        fn, t->info().name(), "batch-norm parameters must be f32 with OC elements");
        m.bn = b;
        m.has_bn = true;
    }
    if (info.residual) {
        const TensorInfo& r = info.residual->info();
        require(r.data_type() == DataType::f32 && r.layout() == DataLayout::nchw16c &&
                    r.shape() == dst.info().shape(),
                fn, r.name(), "residual must be f32 nchw16c of the output's shape");
    }
    m.src = &src;
    m.weights = &weights;
    m.bias = bias;
    m.dst = &dst;
    m.info = info;
    m.info.batch_norm = nullptr;
    m.prepared = false;

    const KernelTable& table = m.ctx.kernels();
    const std::string winograd_reason = winograd_unsupported_reason(g, s, w);
    if (info.method == ConvMethod::winograd && !winograd_reason.empty())
        throw Unsupported(fn, w.name(), "Winograd F(2x2, 3x3) does not apply: " + winograd_reason);
    m.winograd =
        winograd_reason.empty() && (info.method == ConvMethod::winograd ||
                                    (info.method == ConvMethod::automatic &&
                                     m.ctx.winograd_allowed() && winograd_pays(s, dst.info())));
    if (m.winograd) {  // the Winograd kernels, the activation after them if not fused
        m.winograd_plan = make_winograd_plan(g, s, dst.info(), table.mr,
                                             static_cast<int64_t>(table.nv) * table.vec_width);
        MicroArgs epilogue;
        m.separate_activation = !fuse_activation(info.activation, epilogue);
        if (m.separate_activation) {
            epilogue.act = FusedAct::none;
            m.activation.configure(table, dst, dst, info.activation);
        }
        // U in at most a quarter of L2: each part runs whole tile rows (or runs of their
        // register tiles) in its own workspace. 3x3 64->64 56x56: 0.93x the three kernels' time
        // on the Zen 5, 0.92x / 0.64x at 1 / 16 threads on the Xeon; 128->128 12x80 (U of
        // 1 MiB, half the Xeon's L2) took 1.13x there at 1 thread, so it keeps the three kernels.
        m.winograd_per_row =
            m.winograd_plan.u_floats() * 4 <= static_cast<int64_t>(host_cache_sizes().l2 / 4);
        if (m.winograd_per_row) {
            m.winograd_rows.configure(table, src, dst, m.winograd_plan, epilogue);
            m.winograd_rows.set_residual(info.residual);
            return;
        }
        m.winograd_input.configure(table, src, m.winograd_plan);
        m.winograd_products.configure(table, m.winograd_plan);
        m.winograd_output.configure(table, dst, m.winograd_plan, epilogue);
        m.winograd_output.set_residual(info.residual);
        return;
    }

    // With kernel columns outermost in the reduction (KernelTable::conv_columns_outer), each tap
    // of a tile runs over just the pixels and rows whose reads fall inside the image
    // (conv_tile_phases.hpp): an f32 nchw16c input is then read in place, no padded copy and no
    // border fill per run. Otherwise the kernel reads the border as zeros, so it gets one.
    const bool in_place = table.conv_columns_outer && s.data_type() == DataType::f32 &&
                          s.layout() == DataLayout::nchw16c;
    const PaddingSize required =
        in_place ? PaddingSize{} : PaddingSize{g.pad_top, g.pad_right, g.pad_bottom, g.pad_left};
    ITensor& input = m.input.configure(
        src, required, m.group, in_place ? BorderMode::undefined : BorderMode::constant, 0.0f);
    // The register tile depends on the input's layout and the row length (measurements in the
    // arch tables).
    const bool blocked = input.info().layout() == DataLayout::nchw16c;
    // Two-row tiles for rows of at most their width, unless the kernel runs over the flattened
    // plane anyway.
    const bool two_rows =
        blocked &&
        !DirectConvKernel::runs_on_plane(g, w.dim(2), w.dim(3), input.info(), dst.info()) &&
        table.conv_two_rows.mr > 0 && dst.info().w() <= table.conv_two_rows.mr &&
        dst.info().h() >= 2;
    const bool seven_taps = w.dim(3) == 7 && table.conv_unblocked_7taps.mr > 0;
    TileShape tile = two_rows                         ? table.conv_two_rows
                     : !blocked && seven_taps         ? table.conv_unblocked_7taps
                     : !blocked                       ? table.conv_unblocked
                     : dst.info().w() < kConvShortRow ? table.conv_short_rows
                                                      : table.conv;
    if (oc <= kChannelBlock && !two_rows && table.conv_one_block.mr > tile.mr)
        tile = table.conv_one_block;
    m.plan = make_conv_channel_plan(oc, ic, g.groups, w.dim(2), w.dim(3), tile.mr,
                                    static_cast<int64_t>(tile.nv) * table.vec_width);
    m.plan.rows_per_tile = two_rows ? 2 : 1;
    m.plan.taps_inner = input.info().layout() == DataLayout::nchw;
    m.plan.columns_outer = !m.plan.taps_inner && table.conv_columns_outer;
    DirectConvParams params;
    params.geometry = g;
    m.separate_activation = !fuse_activation(info.activation, params.epilogue);
    if (m.separate_activation) {
        params.epilogue.act = FusedAct::none;
        m.activation.configure(table, dst, dst, info.activation);
    }
    m.conv.configure(table, input, dst, m.plan, params);
    m.conv.set_residual(info.residual);
    m.input.end_lifetime();
}

bool Conv2d::uses_winograd() const {
    return impl_->winograd;
}

void Conv2d::prepare() {
    Impl& m = *impl_;
    if (m.prepared) return;
    if (m.dst == nullptr)
        throw InvalidArgument("Conv2d::prepare", "", "configure() was not called");
    const int64_t oc = m.weights->info().dim(0);
    OutputChannelScale scale;
    const int64_t bias_floats = m.winograd ? oc : m.plan.blocks.back().oc_start + m.plan.nr;
    m.bias_values.assign(static_cast<std::size_t>(bias_floats), 0.0f);
    if (m.bias)
        for (int64_t o = 0; o < oc; ++o)
            m.bias_values[static_cast<std::size_t>(o)] = m.bias->data<float>()[o];
    if (m.has_bn) {
        const BatchNormFold& b = m.bn;
        scale.values.resize(static_cast<std::size_t>(oc));
        for (int64_t o = 0; o < oc; ++o) {
            const float gamma = b.gamma ? b.gamma->data<float>()[o] : 1.0f;
            const float beta = b.beta ? b.beta->data<float>()[o] : 0.0f;
            const float sc = gamma / std::sqrt(b.var->data<float>()[o] + b.epsilon);
            scale.values[static_cast<std::size_t>(o)] = sc;
            float& bv = m.bias_values[static_cast<std::size_t>(o)];
            bv = (bv - b.mean->data<float>()[o]) * sc + beta;
        }
        std::ostringstream id;
        id << "bn:" << b.mean << ':' << b.var << ':' << b.gamma << ':' << b.beta << ':'
           << b.epsilon;
        scale.id = id.str();
    }
    const float* bias = (m.bias || m.has_bn) ? m.bias_values.data() : nullptr;
    if (m.winograd) {
        WinogradWeightsTransform transform(*m.weights, m.winograd_plan, std::move(scale));
        m.packed_weights = m.ctx.weights_manager().acquire(*m.weights, transform);
        m.winograd_products.set_weights(m.packed_weights->data<float>());
        m.winograd_output.set_bias(bias);
        m.winograd_rows.set_weights(m.packed_weights->data<float>());
        m.winograd_rows.set_bias(bias);
    } else {
        ConvWeightsTransform transform(*m.weights, m.plan, m.info.geometry.groups,
                                       std::move(scale));
        m.packed_weights = m.ctx.weights_manager().acquire(*m.weights, transform);
        m.conv.set_weights(m.packed_weights->data<float>(), bias);
    }
    m.prepared = true;
}

void Conv2d::run() {
    Impl& m = *impl_;
    prepare();
    MemoryGroupScope scope(m.group);
    IScheduler& scheduler = m.ctx.scheduler();
    if (m.winograd && m.winograd_per_row) {
        // One tile row's V and M per part, in the Context's scratchpad.
        const int parts = scheduler.parts_for(m.winograd_rows);
        const Scratchpad::Lease workspace = m.ctx.scratchpad().borrow(
            static_cast<std::size_t>(m.winograd_rows.workspace_floats(parts)) * sizeof(float));
        m.winograd_rows.set_workspace(reinterpret_cast<float*>(workspace.data()), parts);
        scheduler.schedule(m.winograd_rows, parts);
        if (m.separate_activation) scheduler.schedule(m.activation);
        return;
    }
    if (m.winograd) {
        // V and M in the Context's scratchpad: the same memory for every Winograd layer.
        const WinogradPlan& p = m.winograd_plan;
        const Scratchpad::Lease workspace =
            m.ctx.scratchpad().borrow((p.v_floats() + p.m_floats()) * sizeof(float));
        float* const v = reinterpret_cast<float*>(workspace.data());
        float* const products = v + p.v_floats();
        m.winograd_input.set_workspace(v);
        m.winograd_products.set_workspace(v, products);
        m.winograd_output.set_workspace(products);
        scheduler.schedule(m.winograd_input);
        scheduler.schedule(m.winograd_products);
        scheduler.schedule(m.winograd_output);
        if (m.separate_activation) scheduler.schedule(m.activation);
        return;
    }
    m.input.run(scheduler);
    scheduler.schedule(m.conv);
    if (m.separate_activation) scheduler.schedule(m.activation);
}

}  // namespace tessera::cpu
