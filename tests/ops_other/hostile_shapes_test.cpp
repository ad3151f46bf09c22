// hostile_shapes_test.cpp: op descriptors given extents, counts and parameters at the edges of
// int64 and int32 (found by fuzzing): each must fail with a tessera::error naming the op, the
// tensor and the reason instead of overflowing into a wrong shape.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/op_desc.hpp"  // every op descriptor

using namespace ops_test;
namespace op = tessera::op;
using tessera::tensor_desc;

namespace {

constexpr std::int64_t two_pow(int n) {
    return std::int64_t{1} << n;
}

/// Runs `fn`; it must throw invalid_argument naming `op_name` and `tensor`, with `reason` in
/// the message.
template <typename Fn>
void check_named(Fn&& fn, const std::string& op_name, const std::string& tensor,
                 const std::string& reason) {
    try {
        fn();
        FAIL("no error; expected " << op_name << " / '" << tensor << "': " << reason);
    } catch (const tessera::error& e) {
        INFO("what(): " << e.what());
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.op() == op_name);
        CHECK(e.tensor() == tensor);
        CHECK(e.message().find(reason) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("softmax: an axis_count of INT32_MAX is rejected, not wrapped") {
    const tensor_desc src(shape{2, 3}, dtype::f32);
    const auto huge = op::softmax().along(1, std::numeric_limits<int>::max());
    check_named([&] { huge.infer({src}); }, "softmax", "src", "exceeds rank 2");
    // The largest valid count still works.
    CHECK(op::softmax().along(0, 2).infer({src})[0].dims() == shape{2, 3});
}

TEST_CASE("reshape: a target whose element count overflows does not match an empty source") {
    const tensor_desc empty(shape{0}, dtype::f32);
    check_named(
        [&] {
            op::reshape{two_pow(62), 4}.infer({empty});
        },
        "reshape", "dst", "does not fit int64");
    // A zero extent in front keeps the count at 0, but the dims still cannot hold a buffer.
    check_named(
        [&] {
            op::reshape{0, two_pow(62), 4}.infer({empty});
        },
        "reshape", "dst", "INT64_MAX bytes");
    CHECK(op::reshape{0, 7}.infer({empty})[0].dims() == shape{0, 7});
}

TEST_CASE("concat: extents that sum past INT64_MAX are rejected") {
    const tensor_desc half(shape{two_pow(62)}, dtype::i8);
    check_named(
        [&] {
            op::concat(0).infer({half, half});
        },
        "concat", "input 1", "does not fit int64");
    const tensor_desc quarter(shape{two_pow(61)}, dtype::i8);
    CHECK(op::concat(0).infer({quarter, quarter})[0].dim(0) == two_pow(62));
}

TEST_CASE("pad: padding by INT64_MAX is rejected") {
    const tensor_desc src(shape{4}, dtype::i8);
    const std::int64_t most = std::numeric_limits<std::int64_t>::max();
    check_named([&] { op::pad({most}, {0}).infer({src}); }, "pad", "src", "does not fit int64");
    check_named([&] { op::pad({0}, {most}).infer({src}); }, "pad", "src", "does not fit int64");
    check_named([&] { op::pad({two_pow(62)}, {two_pow(62)}).infer({src}); }, "pad", "src",
                "does not fit int64");
}

TEST_CASE("reorder: an invalid target dtype, a negative extent or a bad target layout") {
    const tensor_desc src(shape{2, 3}, dtype::f32);
    const tensor_desc dtype77 = src.with_type(static_cast<dtype>(77));
    check_named([&] { op::reorder(dtype77).infer({src}); }, "reorder", "dst",
                "dtype value 77 is not valid");
    const tensor_desc negative(shape{-2, 3}, dtype::f32);
    check_named([&] { op::reorder(negative).infer({negative}); }, "reorder", "src", "must be >= 0");
    const tensor_desc overlapping =
        src.with_layout(tessera::layout::strided({0, 1}));  // every row is the same memory
    check_named([&] { op::reorder(overlapping).infer({src}); }, "reorder", "dst", "overlap");
    // A valid target is returned as given.
    const tensor_desc nhwc(shape::nchw(1, 2, 3, 4), dtype::f16, tessera::layout::nhwc());
    CHECK(op::reorder(nhwc).infer({nhwc.with_layout(tessera::layout::row_major())})[0] == nhwc);
}

TEST_CASE("permute and transpose: negative extents are rejected, not passed through") {
    const tensor_desc negative(shape{2, -3}, dtype::f32);
    check_named([&] { op::permute({1, 0}).infer({negative}); }, "permute", "src", "must be >= 0");
    check_named([&] { op::transpose().infer({negative}); }, "transpose", "src", "must be >= 0");
}

TEST_CASE("binary: an i8 operand with an infinite or non-positive scale is rejected") {
    const tensor_desc good(shape{4}, dtype::i8, tessera::layout::row_major(), {0.5f, 0, 0});
    const float inf = std::numeric_limits<float>::infinity();
    const tensor_desc infinite(shape{4}, dtype::i8, tessera::layout::row_major(), {inf, 0, 0});
    const tensor_desc zero(shape{4}, dtype::i8, tessera::layout::row_major(), {0.0f, 0, 0});
    const auto add = op::binary(binary_kind::add);
    check_named([&] { add.infer({infinite, good}); }, "binary", "A", "scale");
    check_named([&] { add.infer({good, infinite}); }, "binary", "B", "scale");
    check_named([&] { add.infer({good, zero}); }, "binary", "B", "scale");
    CHECK(add.infer({good, good})[0] == good);
}

TEST_CASE("depth_to_space: spatial extents times the block size past INT64_MAX") {
    const tensor_desc src(shape{1, 0, two_pow(33), two_pow(29)}, dtype::i8);
    const op::depth_to_space d2s(std::numeric_limits<int>::max());
    check_named([&] { d2s.infer({src}); }, "depth_to_space", "src", "does not fit int64");
}

TEST_CASE("resize_bilinear: a scale whose output extent is beyond int64 is rejected") {
    const tensor_desc src(shape::nchw(1, 1, two_pow(30), 2), dtype::f32);
    auto huge = op::resize_bilinear().set_scale(1e30f, 1.0f);
    check_named([&] { huge.infer({src}); }, "resize_bilinear", "", "does not fit int64");
    // A large but representable output passes shape inference.
    auto big = op::resize_bilinear().set_scale(4.0f, 1.0f);
    CHECK(big.infer({src})[0].dim(2) == two_pow(32));
}

TEST_CASE("conv2d: dilation and stride products past INT64_MAX are rejected") {
    const tensor_desc src(shape::nchw(1, 1, two_pow(40), 1), dtype::f32);
    const tensor_desc weights(shape::nchw(1, 1, two_pow(40), 1), dtype::f32);
    op::conv2d dilated;
    dilated = test::with_raw_params(
        dilated, [](auto& p) { p.dilation_h = std::numeric_limits<std::int32_t>::max(); });
    check_named([&] { dilated.infer({src, weights}); }, "conv2d", "weights", "does not fit int64");

    const tensor_desc one(shape::nchw(1, 1, 1, 1), dtype::f32);
    op::conv2d transposed;
    transposed.transposed().padding(padding_kind::same);
    transposed = test::with_raw_params(
        transposed, [](auto& p) { p.stride_h = std::numeric_limits<std::int32_t>::max(); });
    check_named([&] { transposed.infer({src, one}); }, "conv2d", "src", "does not fit int64");
}

TEST_CASE("matmul and gemm: products whose result cannot be stored are rejected") {
    const tensor_desc column(shape{two_pow(40), 1}, dtype::f32);
    const tensor_desc row(shape{1, two_pow(40)}, dtype::f32);
    check_named([&] { op::matmul().infer({column, row}); }, "matmul", "dst", "INT64_MAX bytes");
    check_named([&] { op::gemm().infer({column, row}); }, "gemm", "dst", "INT64_MAX bytes");
    CHECK(op::matmul().infer({row, column})[0].dims() == shape{1, 1});
}

TEST_CASE("op_desc: an output the descriptor itself rejects still names the op") {
    // Padding just below a kernel of INT32_MAX gives a (2^31 - 1)^2 output: 2^64 bytes of f32.
    op::pooling pool;
    pool.kernel(std::numeric_limits<int>::max(), std::numeric_limits<int>::max());
    pool = test::with_raw_params(pool, [](auto& p) {
        p.pad_top = p.pad_bottom = std::numeric_limits<std::int32_t>::max() - 1;
        p.pad_left = p.pad_right = std::numeric_limits<std::int32_t>::max() - 1;
    });
    const tensor_desc src(shape::nchw(1, 1, 1, 1), dtype::f32);
    try {
        tessera::op_desc(pool).infer({src});
        FAIL("a pooling output of 2^64 bytes was accepted");
    } catch (const tessera::error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.op() == "pooling");
        CHECK(e.message().find("INT64_MAX bytes") != std::string::npos);
    }
}

namespace {

/// Every op in op_variant, default-constructed, given `inputs`: infer must throw a tessera::error
/// before it touches any input (UBSan reports an index past the vector's end as reference
/// binding to a null pointer even when the count check throws afterwards).
/// `exempt` names the one op for which that count is valid (fill takes no input, concat any).
template <std::size_t I = 0>
void check_every_op_rejects(const std::vector<tensor_desc>& inputs, std::string_view exempt) {
    if constexpr (I < std::variant_size_v<tessera::op_variant>) {
        using Op = std::variant_alternative_t<I, tessera::op_variant>;
        if (Op::name != exempt) {
            INFO("op " << Op::name << " with " << inputs.size() << " inputs");
            CHECK_THROWS_AS(Op{}.infer(inputs), tessera::error);
        }
        check_every_op_rejects<I + 1>(inputs, exempt);
    }
}

}  // namespace

TEST_CASE("every op: no inputs, or far too many, is an error before any input is read") {
    check_every_op_rejects({}, "fill");
    const tensor_desc small(shape{1, 1, 1, 1}, dtype::f32);
    check_every_op_rejects(std::vector<tensor_desc>(16, small), "concat");
    // The exempt ones still check their counts.
    CHECK_THROWS_AS(op::fill{}.infer({small}), tessera::error);
    CHECK_THROWS_AS(op::concat{}.infer({}), tessera::error);
}
