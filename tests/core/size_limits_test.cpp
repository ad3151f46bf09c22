// size_limits_test.cpp: checked size arithmetic: shapes, layouts, descriptors and tensors whose
// element counts, strides or byte sizes do not fit int64 are rejected with a tessera::error
// instead of wrapping (a tensor of 2^62 x 4 floats once "allocated" nothing).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "error_check.hpp"
#include "tessera/detail/checked_arith.hpp"
#include "tessera/tensor.hpp"

using tessera::dtype;
using tessera::layout;
using tessera::shape;
using tessera::status;
using tessera::tensor;
using tessera::tensor_desc;
using tessera_test::check_error;

namespace {
constexpr std::int64_t two_pow(int n) {
    return std::int64_t{1} << n;
}
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
}  // namespace

TEST_CASE("checked arithmetic: products, sums and float conversions at the int64 edges") {
    using namespace tessera::detail;
    CHECK(try_mul(two_pow(31), two_pow(31)) == two_pow(62));
    CHECK_FALSE(try_mul(two_pow(62), 2).has_value());
    CHECK_FALSE(try_mul(-two_pow(62), 4).has_value());
    CHECK(try_mul(-two_pow(62), 2) == std::numeric_limits<std::int64_t>::min());
    CHECK(try_add(int64_max - 1, 1) == int64_max);
    CHECK_FALSE(try_add(int64_max, 1).has_value());
    const std::int64_t dims[] = {0, two_pow(40), -5, two_pow(20)};
    CHECK(try_extent_product(dims, 4) == two_pow(60));  // zero and negative count as 1
    const std::int64_t big[] = {two_pow(40), two_pow(30)};
    CHECK_FALSE(try_extent_product(big, 2).has_value());
    CHECK(try_floor_to_int64(-2.5) == -3);
    CHECK(try_floor_to_int64(9223372036854774784.0) == 9223372036854774784);
    CHECK_FALSE(try_floor_to_int64(9223372036854775808.0).has_value());
    CHECK_FALSE(try_floor_to_int64(std::numeric_limits<double>::infinity()).has_value());
    CHECK_FALSE(try_floor_to_int64(std::numeric_limits<double>::quiet_NaN()).has_value());
}

TEST_CASE("shape: an element count past INT64_MAX throws instead of wrapping") {
    CHECK(shape{two_pow(31), two_pow(31)}.num_elements() == two_pow(62));
    check_error(
        [] {
            (void)shape{two_pow(62), 4}.num_elements();
        },
        status::invalid_argument, "does not fit int64");
    CHECK(shape{two_pow(62), 4, 0}.num_elements() == 0);
}

TEST_CASE("tensor_desc: dims whose byte size does not fit int64 are rejected") {
    check_error(
        [] {
            tensor_desc(shape{two_pow(62), 4}, dtype::f32);
        },
        status::invalid_argument, "INT64_MAX bytes");
    // 2^61 floats are 2^63 bytes: one past INT64_MAX; as bytes they fit.
    check_error([] { tensor_desc(shape{two_pow(61)}, dtype::f32); }, status::invalid_argument,
                "INT64_MAX bytes");
    CHECK(tensor_desc(shape{two_pow(61)}, dtype::i8).size_bytes() == two_pow(61));
    // A zero extent leaves nothing to store, but dense strides of the other dims must still fit.
    check_error(
        [] {
            tensor_desc(shape{0, two_pow(62), 4}, dtype::u8);
        },
        status::invalid_argument, "INT64_MAX bytes");
    // The C ABI path and a dtype change are checked the same way.
    tsr_tensor_desc c = tensor_desc(shape{4}, dtype::f32).c_desc();
    c.dims[0] = two_pow(62);
    check_error([&] { tensor_desc{c}; }, status::invalid_argument, "INT64_MAX bytes");
    const tensor_desc bytes(shape{two_pow(61)}, dtype::u8);
    check_error([&] { (void)bytes.with_type(dtype::f32); }, status::invalid_argument,
                "INT64_MAX bytes");
}

TEST_CASE("layout: dense strides that overflow are rejected, the unused outermost product not") {
    check_error([] { (void)layout::row_major().strides_for(shape{2, two_pow(62), 4}); },
                status::invalid_argument, "dense strides");
    check_error([] { (void)layout::nhwc().strides_for(shape{1, two_pow(62), 2, 2}); },
                status::invalid_argument, "dense strides");
    const auto strides = layout::row_major().strides_for(shape{two_pow(62), 2});
    CHECK(strides[0] == 2);
    CHECK(strides[1] == 1);
}

TEST_CASE("layout: explicit strides and offsets whose span overflows are rejected") {
    const tensor_desc huge(shape{4}, dtype::f32, layout::strided({two_pow(62)}));
    CHECK(huge.layout_problem(tessera::overlap::allowed).has_value());
    check_error([&] { (void)huge.size_bytes(); }, status::invalid_argument, "do not fit int64");
    const tensor_desc far = tensor_desc(shape{2}, dtype::f32).with_offset(int64_max - 1);
    check_error([&] { (void)far.size_bytes(); }, status::invalid_argument, "do not fit int64");
    const tensor_desc far_bytes = tensor_desc(shape{2}, dtype::f32).with_offset(two_pow(61));
    check_error([&] { (void)far_bytes.size_bytes(); }, status::invalid_argument,
                "bytes do not fit int64");
    const tensor_desc min_stride(shape{2}, dtype::f32,
                                 layout::strided({std::numeric_limits<std::int64_t>::min()}));
    check_error([&] { (void)min_stride.size_bytes(); }, status::invalid_argument,
                "before the start of the buffer");
}

TEST_CASE("tensor: shapes and layouts that cannot be allocated never reach memory") {
    check_error(
        [] {
            tensor(shape{two_pow(62), 4}, dtype::f32);
        },
        status::invalid_argument, "INT64_MAX bytes");
    check_error([] { tensor(tensor_desc(shape{4}, dtype::f32, layout::strided({two_pow(62)}))); },
                status::invalid_argument, "cannot be addressed");
    float buffer[4] = {};
    check_error(
        [&] {
            tensor::borrow(tensor_desc(shape{4}, dtype::f32, layout::strided({two_pow(62)})),
                           buffer);
        },
        status::invalid_argument, "cannot be addressed");
}

TEST_CASE("tensor: undefined and out-of-range dtypes hold no tensor") {
    check_error([] { tensor(shape{4}, dtype::undef); }, status::invalid_argument, "valid dtype");
    check_error([] { tensor(shape{4}, static_cast<dtype>(77)); }, status::invalid_argument,
                "valid dtype, got value 77");
    char buffer[16] = {};
    check_error([&] { tensor::borrow(tensor_desc(shape{4}, dtype::undef), buffer); },
                status::invalid_argument, "valid dtype");
}

TEST_CASE("tensor: a view whose start plus extent overflows is rejected") {
    const tensor t(shape{4, 4}, dtype::f32);
    check_error([&] { t.view({2, 0}, {int64_max, 4}); }, status::invalid_argument, "outside");
    check_error([&] { t.view({int64_max, 0}, {1, 4}); }, status::invalid_argument, "outside");
    CHECK(t.view({4, 0}, {0, 4}).num_elements() == 0);
}
