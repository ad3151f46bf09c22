// Convolution cases: Conv2d on the blocked layout vs oneDNN convolution_forward with
// format_tag::any (its preferred blocked layouts), at each thread count of bench_cpu --threads
// (default 1 and 2), bias included in both.
#include <dnnl.hpp>

#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "bench_pairs.hpp"
#include "bench_util.hpp"
#include "tessera/cpu/functions/conv2d.hpp"
#include "tessera/cpu/functions/depthwise_conv2d.hpp"

namespace tessera::cpu::bench {
namespace {

struct ConvCase {
    const char* name;
    int64_t ic, h, w, oc, k, stride, pad;
    bool depthwise;
    int64_t kw = k;  ///< kernel width (k is its height)
    int64_t pad_w = pad;
    int64_t out_h() const { return (h + 2 * pad - k) / stride + 1; }
    int64_t out_w() const { return (w + 2 * pad_w - kw) / stride + 1; }
};

const ConvCase kConvCases[] = {
    {"conv3x3_64_56", 64, 56, 56, 64, 3, 1, 1, false},
    {"conv1x1_256to64_56", 256, 56, 56, 64, 1, 1, 0, false},
    {"conv1x1_16to64_112", 16, 112, 112, 64, 1, 1, 0, false},
    {"conv7x7s2_3to64_224", 3, 224, 224, 64, 7, 2, 3, false},
    {"conv3x3_512_7", 512, 7, 7, 512, 3, 1, 1, false},
    {"dwconv3x3_144_56", 144, 56, 56, 144, 3, 1, 1, true},
    // MobileNetV3's stride-1 5x5 depthwise layers.
    {"dwconv5x5_120_28", 120, 28, 28, 120, 5, 1, 2, true},
    {"dwconv5x5_960_7", 960, 7, 7, 960, 5, 1, 2, true},
    // The CRNN model's layers: its second, a middle one, its widest (6 rows of 80) and its last
    // (3x1 kernel, one output row).
    {"conv3x3_32to64_24x160", 32, 24, 160, 64, 3, 1, 1, false},
    {"conv3x3_128_12x80", 128, 12, 80, 128, 3, 1, 1, false},
    {"conv3x3_256_6x80", 256, 6, 80, 256, 3, 1, 1, false},
    {"conv3x1_256_3x80", 256, 3, 80, 256, 3, 1, 0, false, 1, 0},
};

double conv_flops(const ConvCase& c) {
    const int64_t icg = c.depthwise ? 1 : c.ic;
    return 2.0 * static_cast<double>(c.out_h() * c.out_w() * c.oc * icg * c.k * c.kw);
}

void fill_random(void* data, std::size_t bytes, unsigned seed) {
    const auto v = random_data(bytes / sizeof(float), seed);
    std::memcpy(data, v.data(), v.size() * sizeof(float));
}

/// Our side of a case: tensors and the configured function.
struct OursConv {
    Tensor src, weights, bias, dst;
    std::unique_ptr<IFunction> conv;

    OursConv(const ConvCase& c, Context& ctx)
        : src(TensorInfo({1, c.ic, c.h, c.w}, DataType::f32,
                         c.ic < 16 ? DataLayout::nchw : DataLayout::nchw16c, {}, "src")),
          weights(TensorInfo({c.oc, c.depthwise ? 1 : c.ic, c.k, c.kw}, DataType::f32)),
          bias(TensorInfo({c.oc}, DataType::f32)) {
        Conv2dGeometry g;
        g.stride_h = g.stride_w = c.stride;
        g.pad_top = g.pad_bottom = c.pad;
        g.pad_left = g.pad_right = c.pad_w;
        g.groups = c.depthwise ? c.ic : 1;
        dst.info() = TensorInfo(Conv2d::output_shape(src.info(), weights.info(), g), DataType::f32,
                                DataLayout::nchw16c);
        if (c.depthwise) {
            auto dw = std::make_unique<DepthwiseConv2d>(ctx);
            DepthwiseConv2dInfo info;
            info.geometry = g;
            dw->configure(src, weights, &bias, dst, info);
            conv = std::move(dw);
        } else {
            auto dense = std::make_unique<Conv2d>(ctx);
            dense->configure(src, weights, &bias, dst, Conv2dInfo{g, {}, nullptr});
            conv = std::move(dense);
        }
        for (Tensor* t : {&src, &weights, &bias, &dst}) {
            t->allocator().allocate();
            fill_random(t->buffer(), t->info().total_size_in_bytes(), 3);
        }
    }
};

/// oneDNN's side: convolution_forward with format_tag::any and its memories.
struct OnednnConv {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{eng};
    dnnl::convolution_forward conv;
    std::unordered_map<int, dnnl::memory> args;

    explicit OnednnConv(const ConvCase& c) {
        using namespace dnnl;
        using tag = memory::format_tag;
        using dt = memory::data_type;
        memory::desc src_md({1, c.ic, c.h, c.w}, dt::f32, tag::any);
        memory::desc wei_md = c.depthwise
                                  ? memory::desc({c.ic, 1, 1, c.k, c.kw}, dt::f32, tag::any)
                                  : memory::desc({c.oc, c.ic, c.k, c.kw}, dt::f32, tag::any);
        memory::desc bias_md({c.oc}, dt::f32, tag::x);
        memory::desc dst_md({1, c.oc, c.out_h(), c.out_w()}, dt::f32, tag::any);
        convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                       src_md, wei_md, bias_md, dst_md, {c.stride, c.stride},
                                       {c.pad, c.pad_w}, {c.pad, c.pad_w});
        convolution_forward::primitive_desc pd(desc, eng);
        memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng), bias(pd.bias_desc(), eng),
            dst(pd.dst_desc(), eng);
        for (memory* m : {&src, &wei, &bias, &dst})
            fill_random(m->get_data_handle(), m->get_desc().get_size(), 3);
        conv = convolution_forward(pd);
        args = {{DNNL_ARG_SRC, src},
                {DNNL_ARG_WEIGHTS, wei},
                {DNNL_ARG_BIAS, bias},
                {DNNL_ARG_DST, dst}};
    }
};

CasePair make_conv_pair(const ConvCase& c, int threads) {
    auto ours = std::make_shared<OursConv>(c, context_for(threads));
    use_onednn_threads(threads);  // oneDNN fixes a primitive's thread count when it is created
    auto onednn = std::make_shared<OnednnConv>(c);
    CasePair pair;
    pair.ours = [ours] { ours->conv->run(); };
    pair.onednn = [onednn, threads] {
        use_onednn_threads(threads);
        onednn->conv.execute(onednn->stream, onednn->args);
        onednn->stream.wait();
    };
    pair.flops = conv_flops(c);
    return pair;
}

}  // namespace

void register_conv_benchmarks(const std::vector<int>& thread_counts) {
    for (const ConvCase& c : kConvCases)
        for (int threads : thread_counts)
            register_case_pair(std::string(c.name) + "/" + std::to_string(threads) + "T",
                               [c, threads] { return make_conv_pair(c, threads); });
}

}  // namespace tessera::cpu::bench
