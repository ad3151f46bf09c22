// xtensor_test.cpp: zero-copy interop of tessera/xtensor.hpp: as_xtensor views over tensors
// (row-major, NHWC, sliced), borrow of xtensor containers and strided views, and to_tensor copies.
#include <doctest/doctest.h>

#include <cstdint>

#include <xtensor/xarray.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include "error_check.hpp"
#include "tessera/xtensor.hpp"

using tessera::dtype;
using tessera::layout;
using tessera::shape;
using tessera::status;
using tessera::tensor;
using tessera::tensor_desc;
using tessera_test::check_error;

namespace {

tensor iota(const shape& s, const layout& l = layout::row_major()) {
    tensor t(s, dtype::f32, l);
    float v = 0;
    tessera::detail::for_each_index(
        s, [&](const tessera::detail::index_t& i) { *static_cast<float*>(t.address_of(i)) = v++; });
    return t;
}

}  // namespace

TEST_CASE("xtensor: as_xtensor views a row-major tensor without copying") {
    const tensor t = iota(shape{3, 4});
    auto x = tessera::as_xtensor<float>(t);
    CHECK(x.dimension() == 2);
    CHECK(x.shape()[0] == 3);
    CHECK(x.shape()[1] == 4);
    CHECK(&x(0, 0) == t.data());
    CHECK(&x(2, 3) == &t.at<float>({2, 3}));
    CHECK(x(1, 2) == 6.0f);
    x(1, 2) = -1.0f;  // xtensor -> tensor
    CHECK(t.get({1, 2}) == -1.0);
    t.set({0, 3}, 42.0);  // tensor -> xtensor
    CHECK(x(0, 3) == 42.0f);
    CHECK(xt::sum(x)() == doctest::Approx(66.0 - 6.0 - 1.0 - 3.0 + 42.0));
    x += 1.0f;  // in-place xtensor arithmetic lands in the tensor
    CHECK(t.get({2, 3}) == 12.0);
    CHECK(&x(0, 0) == t.data());
}

TEST_CASE("xtensor: as_xtensor keeps NHWC strides (logical NCHW indexing)") {
    const tensor t = iota(shape::nchw(2, 3, 4, 5), layout::nhwc());
    auto x = tessera::as_xtensor<float>(t);
    CHECK(x.strides()[1] == 1);
    CHECK(x.strides()[0] == 60);
    CHECK(x.strides()[2] == 15);
    CHECK(x.strides()[3] == 3);
    bool same = true;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& i) {
        same &= &x(i[0], i[1], i[2], i[3]) == t.address_of(i);
    });
    CHECK(same);
    CHECK(x(1, 2, 3, 4) == 119.0f);  // iota counted in logical order
    x(0, 1, 0, 0) = 7.5f;
    CHECK(static_cast<const float*>(t.data())[1] == 7.5f);  // channel 1 is the next float in memory
    // xtensor algorithms see logical order: the tensor summed equals 0 + ... + 119 adjusted.
    CHECK(xt::sum(x)() == doctest::Approx(119.0 * 120 / 2 - 20 + 7.5));
}

TEST_CASE("xtensor: as_xtensor over contiguous slices, as_xtensor_strided over slices with gaps") {
    const tensor t = iota(shape{4, 5});
    const tensor rows = t.view({1, 0}, {2, 5});  // dense, with an offset
    auto xr = tessera::as_xtensor<float>(rows);
    CHECK(&xr(0, 0) == &t.at<float>({1, 0}));
    xr += 1.0f;
    CHECK(t.get({1, 0}) == 6.0);
    CHECK(t.get({2, 4}) == 15.0);
    CHECK(t.get({0, 4}) == 4.0);   // before the slice
    CHECK(t.get({3, 0}) == 15.0);  // after the slice

    const tensor v = t.view({1, 2}, {2, 3});  // gaps between rows
    check_error([&] { (void)tessera::as_xtensor<float>(v); }, status::invalid_argument,
                "as_xtensor_strided");
    auto x = tessera::as_xtensor_strided<float>(v);
    CHECK(&x(0, 0) == &t.at<float>({1, 2}));
    CHECK(&x(1, 2) == &t.at<float>({2, 4}));
    CHECK(x(1, 2) == 15.0f);
    x(1, 0) = 100.0f;
    CHECK(t.get({2, 2}) == 100.0);
    // xtensor expressions walk the strides: only the view's six elements are read or written.
    CHECK(xt::sum(x)() == 8.0f + 9 + 10 + 100 + 14 + 15);
    x += 1.0f;
    x = x * 2.0f;
    CHECK(t.get({1, 2}) == 18.0);
    CHECK(t.get({2, 4}) == 32.0);
    CHECK(t.get({1, 1}) == 7.0);                            // left of the view
    CHECK(t.get({2, 1}) == 12.0);                           // in the gap between the view's rows
    CHECK(t.get({3, 2}) == 17.0);                           // below the view
    auto cx = tessera::as_xtensor_strided<const float>(v);  // read-only
    CHECK(cx(1, 0) == 202.0f);
    static_assert(std::is_const_v<std::remove_reference_t<decltype(cx(0, 0))>>);
    // Dense tensors work through the strided form as well.
    CHECK(xt::sum(tessera::as_xtensor_strided<float>(t))() ==
          xt::sum(tessera::as_xtensor<float>(t))());
}

TEST_CASE("xtensor: as_xtensor checks the storage type") {
    const tensor f(shape{2}, dtype::f32);
    check_error([&] { (void)tessera::as_xtensor<double>(f); }, status::invalid_argument, "f32");
    check_error([&] { (void)tessera::as_xtensor<std::int32_t>(f); }, status::invalid_argument,
                "f32");
    const tensor h(shape{2}, dtype::f16);
    auto bits = tessera::as_xtensor<std::uint16_t>(h);
    bits(1) = 0x3C00;
    CHECK(h.get({1}) == 1.0);
}

TEST_CASE("xtensor: borrow shares an xarray's memory both ways") {
    xt::xarray<float> a = {{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}};
    const tensor t = tessera::borrow(a);
    CHECK(t.data() == a.data());
    CHECK(t.type() == dtype::f32);
    CHECK(t.dims() == shape{2, 3});
    CHECK(t.desc().is_row_major());
    t.set({1, 1}, 50.0);
    CHECK(a(1, 1) == 50.0f);
    a(0, 2) = -3.0f;
    CHECK(t.get({0, 2}) == -3.0);

    xt::xtensor_fixed<std::int16_t, xt::xshape<2, 2>> fixed_shape = {{1, 2}, {3, 4}};
    const tensor tf = tessera::borrow(fixed_shape, dtype::i16, tessera::quantization{1.0f, 0, 8});
    CHECK(tf.data() == fixed_shape.data());
    CHECK(tf.get({1, 0}) == 3.0 / 256);

    xt::xtensor<std::int32_t, 3> fixed_rank = xt::zeros<std::int32_t>({2, 1, 3});
    const tensor ti = tessera::borrow(fixed_rank);
    CHECK(ti.type() == dtype::i32);
    CHECK(ti.data() == fixed_rank.data());
    ti.at<std::int32_t>({1, 0, 2}) = 9;
    CHECK(fixed_rank(1, 0, 2) == 9);
}

TEST_CASE("xtensor: borrow accepts column-major containers and contiguous views") {
    xt::xtensor<float, 2, xt::layout_type::column_major> c = {{1.0f, 2.0f, 3.0f},
                                                              {4.0f, 5.0f, 6.0f}};
    const tensor t = tessera::borrow(c);
    CHECK(t.data() == c.data());
    CHECK(t.desc().stride(0) == 1);
    CHECK(t.desc().stride(1) == 2);
    CHECK(t.get({1, 0}) == 4.0);
    CHECK(t.get({0, 2}) == 3.0);

    xt::xarray<float> a = xt::arange<float>(12.0f).reshape({3, 4});
    auto row = xt::view(a, 1, xt::all());
    const tensor r = tessera::borrow(row);
    CHECK(r.data() == &a(1, 0));
    CHECK(r.dims() == shape{4});
    CHECK(r.get({3}) == 7.0);
    r.set({0}, -4.0);
    CHECK(a(1, 0) == -4.0f);
}

TEST_CASE("xtensor: borrow refuses what is not dense and says to copy") {
    xt::xarray<float> a = xt::arange<float>(12.0f).reshape({3, 4});
    auto column = xt::view(a, xt::all(), 1);
    check_error([&] { tessera::borrow(column); }, status::invalid_argument, "to_tensor");
    auto flipped = xt::flip(a, 0);
    check_error([&] { tessera::borrow(flipped); }, status::invalid_argument, "negative strides");
    auto every_other = xt::view(a, xt::all(), xt::range(0, 4, 2));
    check_error([&] { tessera::borrow(every_other); }, status::invalid_argument, "non-contiguous");
}

TEST_CASE("xtensor: borrow deduces dtypes, or takes one for raw bit patterns") {
    xt::xarray<std::uint16_t> bits = {std::uint16_t{0x3C00}, std::uint16_t{0xC000}};
    check_error([&] { tessera::borrow(bits); }, status::invalid_argument, "pass one");
    const tensor h = tessera::borrow(bits, dtype::f16);
    CHECK(h.get({1}) == -2.0);
    const tensor b = tessera::borrow(bits, dtype::bf16);
    CHECK(b.get({0}) == 0.0078125);  // 0x3C00 read as bfloat16 is 2^-7
    check_error([&] { tessera::borrow(bits, dtype::i16); }, status::invalid_argument, "i16");
    xt::xarray<std::int8_t> q = {std::int8_t{4}, std::int8_t{-2}};
    const tensor tq = tessera::borrow(q, dtype::i8, tessera::quantization{0.5f, 2, 0});
    CHECK(tq.get({0}) == 1.0);
    CHECK(tq.get({1}) == -2.0);
    xt::xarray<bool> flags = {true, false};
    const tensor tb = tessera::borrow(flags);
    CHECK(tb.type() == dtype::boolean);
    CHECK(tb.get({0}) == 1.0);
    tb.set({1}, 1.0);
    CHECK(flags(1));
    xt::xarray<double> d = {1.0, 2.0};
    const tensor td = tessera::borrow(d);
    CHECK(td.type() == dtype::f64);
    CHECK(td.get({1}) == 2.0);
    xt::xarray<std::uint32_t> u = {1u, 4000000000u};
    const tensor tu = tessera::borrow(u);
    CHECK(tu.type() == dtype::u32);
    CHECK(tu.get({1}) == 4000000000.0);
    xt::xarray<long double> e = {1.0L, 2.0L};
    check_error([&] { tessera::borrow(e); }, status::invalid_argument, "dtype");
}

TEST_CASE("xtensor: to_tensor evaluates expressions into new owning tensors") {
    xt::xarray<float> a = xt::arange<float>(6.0f).reshape({2, 3});
    const tensor t = tessera::to_tensor(a * 2.0f + 1.0f);
    CHECK(t.dims() == shape{2, 3});
    CHECK(t.desc().is_row_major());
    CHECK(t.get({1, 2}) == 11.0);
    const tensor copy = tessera::to_tensor(a);
    CHECK(copy.data() != a.data());  // a copy, as the name says
    a(0, 0) = 99.0f;
    CHECK(copy.get({0, 0}) == 0.0);
    // Non-contiguous expressions are copied in logical order.
    const tensor col = tessera::to_tensor(xt::view(a, xt::all(), 1));
    CHECK(col.dims() == shape{2});
    CHECK(col.get({1}) == 4.0);
    const tensor transposed = tessera::to_tensor(xt::transpose(a));
    CHECK(transposed.get({2, 1}) == 5.0);
    // Converting element types.
    xt::xarray<double> d = {0.5, -1.25};
    const tensor f = tessera::to_tensor<float>(d);
    CHECK(f.type() == dtype::f32);
    CHECK(f.get({1}) == -1.25);
    // A 0-d expression (a full reduction) becomes a scalar tensor.
    const tensor total = tessera::to_tensor(xt::sum(xt::xarray<float>{1.0f, 2.0f, 3.5f}));
    CHECK(total.dims().rank() == 0);
    CHECK(total.get({}) == 6.5);
    const tensor i = tessera::to_tensor<std::int32_t>(xt::xarray<int>{{1, 2}, {3, 4}});
    CHECK(i.type() == dtype::i32);
    CHECK(i.at<std::int32_t>({1, 1}) == 4);
}

TEST_CASE("xtensor: round trip tensor -> xtensor -> tensor stays on the same memory") {
    const tensor t = iota(shape::nchw(1, 2, 2, 3), layout::nhwc());
    auto x = tessera::as_xtensor<float>(t);
    const tensor back = tessera::borrow(x);
    CHECK(back.data() == t.data());
    CHECK(back.desc() == t.desc());  // NHWC strides survive (labels are not compared)
    back.set({0, 1, 1, 2}, -8.0);
    CHECK(t.get({0, 1, 1, 2}) == -8.0);
}
