// grid_test.cpp: the Khronos conformance grids (backends/openvx notes) through Tessera: Q7.8
// convolution over kernel / pad forms x overflow x rounding x floor / ceil x bias forms, and
// pooling over max / average x floor / ceil, each on openvx bit-identical to the reference.
// Shapes are drawn so the output is 1 to 6 wide with a stride of 1, 2 or 3; a shape whose stride
// OpenVX would derive differently is declined (checked by the query) and counted, and most are
// run. Data are scaled to +-32767 / sqrt(K) for K products per output, so sums only overflow
// where the products do.
#include <cmath>

#include "openvx_plugin.hpp"

using namespace openvx_test;

namespace {

struct window_form {
    int kh, kw, pad_h, pad_w;
};

/// Input extent giving `out` windows of `k` at `stride` with `pad` on both sides.
std::int64_t input_for(int out, int k, int stride, int pad) {
    return std::max<std::int64_t>((out - 1) * stride + k - 2 * pad, 1);
}

}  // namespace

TEST_CASE("convolution grid: kernels, pads, policies, size rounding and bias forms") {
    const window_form forms[] = {
        {11, 11, 0, 0}, {6, 6, 0, 0}, {5, 5, 0, 0}, {3, 3, 0, 0}, {4, 3, 2, 1}};
    int run = 0, declined = 0;
    std::uint32_t seed = 100;
    for (const auto& f : forms)
        for (auto overflow : {TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE})
            for (auto rounding : {TSR_ROUND_TO_ZERO, TSR_ROUND_TO_NEAREST_EVEN})
                for (auto size : {TSR_OUTPUT_FLOOR, TSR_OUTPUT_CEIL})
                    for (int bias_form = 0; bias_form < 3; ++bias_form) {
                        ++seed;
                        const int stride = 1 + static_cast<int>(seed % 3);
                        const int oh = 1 + static_cast<int>(seed * 7 % 6);
                        const int ow = 1 + static_cast<int>(seed * 11 % 6);
                        const std::int64_t c = 1 + seed % 4, o = 1 + seed * 5 % 4, n = 1 + seed % 2;
                        const shape src{n, c, input_for(oh, f.kh, stride, f.pad_h),
                                        input_for(ow, f.kw, stride, f.pad_w)};
                        op::conv2d conv = op::conv2d()
                                              .stride(stride, stride)
                                              .padding(f.pad_h, f.pad_h, f.pad_w, f.pad_w)
                                              .rounding_mode(size);
                        conv.policies(rounding, overflow);
                        const int k = static_cast<int>(c) * f.kh * f.kw;
                        const int limit = static_cast<int>(32767 / std::sqrt(double(k)));
                        std::vector<tensor> in = {
                            random_fixed(src, seed, -limit, limit),
                            random_fixed(shape{o, c, f.kh, f.kw}, seed + 1, -limit, limit)};
                        const auto out = conv.infer({in[0].desc(), in[1].desc()}).at(0);
                        if (bias_form > 0) {
                            conv.bias();
                            in.push_back(bias_form == 1
                                             ? random_fixed(shape{o}, seed + 2, -limit, limit)
                                             : random_fixed(shape{o, out.dim(2), out.dim(3)},
                                                            seed + 2, -limit, limit));
                        }
                        std::vector<tensor_desc> descs;
                        for (const auto& t : in) descs.push_back(t.desc());
                        if (!query_op(conv, descs).supported()) {
                            ++declined;
                            continue;
                        }
                        CAPTURE(op_desc(conv).describe());
                        CAPTURE(src.to_string());
                        check_exact(conv, in);
                        ++run;
                    }
    MESSAGE("convolution grid: " << run << " cases run, " << declined << " declined");
    CHECK(run > 3 * declined);
}

TEST_CASE("pooling grid: max and average, floor and ceil, 3x3 and 3x4 with pads") {
    int run = 0, declined = 0;
    std::uint32_t seed = 500;
    for (auto mode : {TSR_POOL_MAX, TSR_POOL_AVERAGE_INCLUDE_PADDING})
        for (auto size : {TSR_OUTPUT_FLOOR, TSR_OUTPUT_CEIL})
            for (const window_form f : {window_form{3, 3, 0, 0}, window_form{4, 3, 2, 1}})
                for (int batch = 1; batch <= 2; ++batch) {
                    ++seed;
                    const int stride = 1 + static_cast<int>(seed % 3);
                    const int oh = 1 + static_cast<int>(seed * 7 % 6);
                    const int ow = 1 + static_cast<int>(seed * 11 % 6);
                    const shape src{batch, 3, input_for(oh, f.kh, stride, f.pad_h),
                                    input_for(ow, f.kw, stride, f.pad_w)};
                    const op::pooling p = op::pooling(mode)
                                              .kernel(f.kh, f.kw)
                                              .stride(stride, stride)
                                              .padding(f.pad_h, f.pad_h, f.pad_w, f.pad_w)
                                              .rounding_mode(size);
                    const tensor x = random_fixed(src, seed, -32768, 32767);
                    const auto s = query_op(p, {x.desc()});
                    if (!s.supported()) {
                        ++declined;  // padded max pooling, or a stride OpenVX derives otherwise
                        continue;
                    }
                    CAPTURE(op_desc(p).describe());
                    CAPTURE(src.to_string());
                    check_exact(p, {x});
                    ++run;
                }
    MESSAGE("pooling grid: " << run << " cases run, " << declined << " declined");
    CHECK(run >= 8);
}
