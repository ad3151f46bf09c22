// execute_test.cpp: the compute ops through op_desc and reference::execute: kind/name/infer and
// ABI round trips via op_desc, strided (NHWC) and 16-bit float inputs converted by the dispatcher,
// caller-provided outputs in another layout and dtype.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/reference/execute.hpp"

using namespace compute_test;

TEST_CASE("op_desc: kind, name and from_c for every compute op") {
    const std::vector<op_desc> ops = {op::conv2d().stride(2, 2),
                                      op::fully_connected().bias(),
                                      op::gemm().scales(2, 3),
                                      op::matmul().operation(matmul_kind::lesser),
                                      op::quantized_matmul().clip(-3, 3),
                                      op::pooling(pooling_kind::global_max),
                                      op::batchnorm().affine(),
                                      op::lrn().window(3),
                                      op::layer_norm().from_axis(2),
                                      op::norm().along(0),
                                      op::moments().correction(bessel_correction::sample),
                                      op::mean_reduce2d(),
                                      op::reduce(reduce_kind::min_idx),
                                      op::softmax().logarithmic()};
    const tsr_op_kind kinds[] = {TSR_OP_CONV2D,
                                 TSR_OP_FULLY_CONNECTED,
                                 TSR_OP_GEMM,
                                 TSR_OP_MATMUL,
                                 TSR_OP_QUANTIZED_MATMUL,
                                 TSR_OP_POOLING,
                                 TSR_OP_BATCHNORM,
                                 TSR_OP_LRN,
                                 TSR_OP_LAYER_NORM,
                                 TSR_OP_NORM,
                                 TSR_OP_MOMENTS,
                                 TSR_OP_MEAN_REDUCE2D,
                                 TSR_OP_REDUCE,
                                 TSR_OP_SOFTMAX};
    const char* names[] = {"conv2d",  "fully_connected", "gemm",   "matmul",     "quantized_matmul",
                           "pooling", "batchnorm",       "lrn",    "layer_norm", "norm",
                           "moments", "mean_reduce2d",   "reduce", "softmax"};
    for (std::size_t i = 0; i < ops.size(); ++i) {
        CAPTURE(i);
        CHECK(ops[i].kind() == kinds[i]);
        CHECK(ops[i].name() == names[i]);
        const op_desc back = op_desc::from_c(kinds[i], ops[i].c_params());
        CHECK(back.kind() == kinds[i]);
        // The parameter bytes survive the trip.
        std::uint32_t size = 0;
        std::memcpy(&size, ops[i].c_params(), sizeof size);
        CHECK(std::memcmp(back.c_params(), ops[i].c_params(), size) == 0);
    }
    CHECK(op_desc::from_c(TSR_OP_GEMM, op::gemm().scales(2, 3).c_params())
              .get_if<op::gemm>()
              ->beta() == 3.0f);
}

TEST_CASE("execute: NHWC f32 and f16 inputs give the row-major result") {
    const tensor x = random_tensor(shape::nchw(2, 3, 5, 4), 1);
    const tensor w = random_tensor(shape{4, 3, 3, 3}, 2);
    const tensor b = random_tensor(shape{4}, 3);
    const op_desc conv =
        op::conv2d().padding(1, 1, 1, 1).stride(2, 1).bias().fuse(activation_kind::relu);
    const values_t expect = values(reference::execute(conv, {x, w, b})[0]);
    // The same values in an NHWC buffer.
    const tensor x_nhwc = x.clone(layout::nhwc());
    CHECK_FALSE(x_nhwc.desc().is_row_major());
    check_close(values(reference::execute(conv, {x_nhwc, w, b})[0]), expect, 1e-6);
    // Caller-provided NHWC f16 output.
    const auto d = conv.infer({x.desc(), w.desc(), b.desc()})[0];
    std::vector<tensor> out{tensor(d.with_type(dtype::f16).with_layout(layout::nhwc()))};
    reference::execute(conv, {x_nhwc, w, b}, out);
    check_close(values(out[0]), expect, 2e-3);
    // f16 inputs are widened to f32 by the dispatcher.
    const tensor x16(x.desc().with_type(dtype::f16));
    tensor::copy_elements(x, x16);
    check_close(values(reference::execute(conv, {x16, w, b})[0]), expect, 1e-2);

    // Pooling and softmax through the dispatcher on NHWC.
    const op_desc pool =
        op::pooling(pooling_kind::average_exclude_padding).kernel(3, 3).padding(1, 1, 1, 1);
    check_close(values(reference::execute(pool, {x_nhwc})[0]),
                values(reference::execute(pool, {x})[0]), 1e-6);
    const op_desc sm = op::softmax().along(1);
    check_close(values(reference::execute(sm, {x_nhwc})[0]), values(reference::execute(sm, {x})[0]),
                1e-6);
}

TEST_CASE("execute: moments has two outputs, validation errors surface") {
    const tensor x = random_tensor(shape::nchw(2, 3, 2, 2), 4);
    const auto out = reference::execute(op::moments(), {x});
    REQUIRE(out.size() == 2);
    CHECK(out[1].dims() == shape{2, 1, 1, 1});
    expect_error([&] { reference::execute(op::conv2d(), {x}); },
                 {"conv2d", "expects 2 inputs, got 1"});
}
