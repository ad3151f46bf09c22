// tensor_test.cpp: tensor ownership (aligned, zero-filled, shared copies), borrowing caller
// memory, zero-copy views and reshapes, clones across layouts, dtype-converting copies and
// typed/dequantising element access with their errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "error_check.hpp"
#include "tessera/tensor.hpp"

using tessera::dtype;
using tessera::layout;
using tessera::quantization;
using tessera::shape;
using tessera::status;
using tessera::tensor;
using tessera::tensor_desc;
using tessera_test::check_error;

namespace {

/// A 2x3x4x5 f32 NCHW tensor holding 0, 1, 2, ... in row-major order.
tensor iota_nchw() {
    tensor t(shape::nchw(2, 3, 4, 5), dtype::f32);
    float* p = t.data_as<float>();
    for (int i = 0; i < 120; ++i) p[i] = static_cast<float>(i);
    return t;
}

}  // namespace

TEST_CASE("tensor: owning tensors are 64-byte aligned, zero-filled and shared by copies") {
    for (const auto type : {dtype::f32, dtype::f16, dtype::i8, dtype::i32, dtype::boolean}) {
        tensor t(shape{3, 7, 5}, type);
        CHECK(reinterpret_cast<std::uintptr_t>(t.data()) % 64 == 0);
        CHECK(t.data() == t.base());
        const auto* bytes = static_cast<const unsigned char*>(t.data());
        bool zero = true;
        for (std::int64_t i = 0; i < t.desc().size_bytes(); ++i) zero &= bytes[i] == 0;
        CHECK(zero);
        CHECK_FALSE(t.empty());
    }
    tensor a(shape{4}, dtype::f32);
    const tensor b = a;  // shares memory
    a.at<float>({2}) = 5.0f;
    CHECK(b.at<float>({2}) == 5.0f);
    CHECK(a.data() == b.data());
}

TEST_CASE("tensor: any becomes row-major, opaque is refused, empties are empty") {
    const tensor t(tensor_desc(shape::nchw(1, 2, 3, 3), dtype::f32, layout::any()));
    CHECK(t.desc().is_row_major());
    check_error([] { tensor(tensor_desc(shape{8}, dtype::f32, layout::opaque("cpu", "x", 64))); },
                status::invalid_argument, "opaque");
    CHECK(tensor().empty());
    CHECK(tensor().data() == nullptr);
    CHECK(tensor(shape{3, 0}, dtype::f32).empty());
    CHECK(tensor(shape{3, 0}, dtype::f32).reshape(shape{0}).num_elements() == 0);
    CHECK(tensor(tensor_desc(shape{0}, dtype::f32).with_offset(3)).data() ==
          nullptr);  // no null + offset
    check_error([] { tensor(shape{2, -3}, dtype::f32); }, status::invalid_argument, "negative");
    check_error([] { tensor(tensor_desc(shape{4}, dtype::f32, layout::strided({-1}))); },
                status::invalid_argument, "before the start of the buffer");
    // Padded and broadcast strides allocate what they address.
    const tensor padded(tensor_desc(shape{2, 3}, dtype::f32, layout::strided({16, 1})));
    padded.at<float>({1, 2}) = 1.0f;
    CHECK(padded.desc().size_bytes() == (16 + 2 + 1) * 4);
    const tensor broadcast(tensor_desc(shape{4, 3}, dtype::f32, layout::strided({0, 1})));
    broadcast.at<float>({0, 1}) = 2.0f;
    CHECK(broadcast.get({3, 1}) == 2.0);
    CHECK_FALSE(tensor(shape{}, dtype::f32).empty());  // a scalar holds one element
    tensor scalar(shape{}, dtype::f32);
    scalar.set({}, 2.5);
    CHECK(scalar.get({}) == 2.5);
}

TEST_CASE("tensor: borrow wraps caller memory without copying or owning it") {
    auto buffer = std::make_unique<float[]>(12);
    {
        const tensor t = tensor::borrow(tensor_desc(shape{3, 4}, dtype::f32), buffer.get());
        CHECK(t.data() == buffer.get());
        t.at<float>({1, 2}) = 7.0f;
        CHECK(buffer[6] == 7.0f);
        buffer[11] = -1.0f;
        CHECK(t.get({2, 3}) == -1.0);
    }  // destroying the tensor must not free the buffer (ASan would report it)
    buffer[0] = 1.0f;
    CHECK(buffer[0] == 1.0f);

    alignas(4) unsigned char raw[64] = {};
    check_error([&] { tensor::borrow(tensor_desc(shape{4}, dtype::f32), raw + 1); },
                status::invalid_argument, "aligned");
    CHECK(tensor::borrow(tensor_desc(shape{4}, dtype::i8), raw + 1).data() == raw + 1);
    check_error([] { tensor::borrow(tensor_desc(shape{4}, dtype::f32), nullptr); },
                status::invalid_argument, "null");
    check_error([&] { tensor::borrow(tensor_desc(shape{-4}, dtype::f32), raw); },
                status::invalid_argument, "negative");
    check_error([&] { tensor::borrow(tensor_desc(shape{4}, dtype::f32, layout::any()), raw); },
                status::invalid_argument, "strided");
    // A borrowed NHWC buffer reads through its strides.
    float nhwc[2 * 2 * 3] = {};
    for (int i = 0; i < 12; ++i) nhwc[i] = static_cast<float>(i);
    const tensor img =
        tensor::borrow(tensor_desc(shape::nchw(1, 3, 2, 2), dtype::f32, layout::nhwc()), nhwc);
    CHECK(img.get({0, 1, 0, 0}) == 1.0);  // (h0, w0, c1)
    CHECK(img.get({0, 0, 1, 1}) == 9.0);  // (h1, w1, c0) = ((1*2)+1)*3
}

TEST_CASE("tensor: views share memory, nested views, writes show in the parent") {
    const tensor t = iota_nchw();
    const tensor v = t.view({1, 1, 1, 2}, {1, 2, 3, 3});
    CHECK(v.dims() == shape{1, 2, 3, 3});
    CHECK(v.dims().label(1) == tessera::dim_label::c);
    CHECK(v.base() == t.base());
    CHECK(v.get({0, 0, 0, 0}) == 60 + 20 + 5 + 2);
    CHECK(v.data() == &t.at<float>({1, 1, 1, 2}));
    CHECK_FALSE(v.desc().is_dense());
    v.at<float>({0, 1, 2, 0}) = -5.0f;
    CHECK(t.at<float>({1, 2, 3, 2}) == -5.0f);

    const tensor w = v.view({0, 1, 1, 1}, {1, 1, 2, 2});  // nested
    CHECK(w.data() == &t.at<float>({1, 2, 2, 3}));
    w.set({0, 0, 1, 1}, 42.0);
    CHECK(t.get({1, 2, 3, 4}) == 42.0);
    CHECK(v.get({0, 1, 2, 2}) == 42.0);

    check_error(
        [&] {
            t.view({0, 0, 0, 0}, {1, 4, 1, 1});
        },
        status::invalid_argument, "outside dimension 1");
    check_error(
        [&] {
            t.view({0, 0, 0, 5}, {1, 1, 1, 1});
        },
        status::invalid_argument, "outside dimension 3");
    check_error([&] { t.view({0, 0, 0, -1}, {1, 1, 1, 1}); }, status::invalid_argument, "outside");
    check_error(
        [&] {
            v.view({0, 0, 0, 0}, {1, 2, 3, 4});
        },
        status::invalid_argument, "outside dimension 3");
    check_error([&] { t.view({0, 0}, {1, 1}); }, status::invalid_argument, "4 starts");
    check_error([&] { v.at<float>({0, 2, 0, 0}); }, status::invalid_argument, "out of range");
    // An empty view at the end is fine.
    CHECK(t.view({2, 0, 0, 0}, {0, 3, 4, 5}).num_elements() == 0);
}

TEST_CASE("tensor: views keep quantisation") {
    const tensor q(
        tensor_desc(shape{4, 4}, dtype::i8, layout::row_major(), quantization{0.5f, 2, 0}));
    q.set({3, 3}, 1.5);  // 1.5 / 0.5 + 2 = 5
    CHECK(q.at<std::int8_t>({3, 3}) == 5);
    const tensor v = q.view({2, 2}, {2, 2});
    CHECK(v.desc().quant().scale == 0.5f);
    CHECK(v.get({1, 1}) == 1.5);
    CHECK(v.get({0, 0}) == 0.5 * (0 - 2));
}

TEST_CASE("tensor: reshape is a zero-copy view of row-major data") {
    const tensor t = iota_nchw();
    const tensor r = t.reshape(shape{6, 20});
    CHECK(r.data() == t.data());
    CHECK(r.get({5, 19}) == 119.0);
    r.at<float>({0, 1}) = 100.0f;
    CHECK(t.get({0, 0, 0, 1}) == 100.0);
    // Contiguous rows of a view can be reshaped; the offset is kept.
    const tensor rows = t.view({1, 0, 0, 0}, {1, 3, 4, 5});
    const tensor flat = rows.reshape(shape{60});
    CHECK(flat.data() == rows.data());
    CHECK(flat.get({0}) == 60.0);
    check_error([&] { t.reshape(shape{7, 20}); }, status::invalid_argument, "element count");
    check_error(
        [&] {
            t.view({0, 0, 0, 0}, {2, 3, 4, 2}).reshape(shape{48});
        },
        status::invalid_argument, "row-major");
    check_error([&] { t.clone(layout::nhwc()).reshape(shape{120}); }, status::invalid_argument,
                "row-major");
}

TEST_CASE("tensor: clone into NHWC and back is a deep copy with the values in place") {
    const tensor t = iota_nchw();
    const tensor nhwc = t.clone(layout::nhwc());
    CHECK(nhwc.data() != t.data());
    CHECK(nhwc.desc() == tensor_desc(shape::nchw(2, 3, 4, 5), dtype::f32, layout::nhwc()));
    CHECK(nhwc.desc().stride(1) == 1);
    const float* raw = nhwc.data_as<float>();
    CHECK(raw[0] == 0.0f);   // (n0 h0 w0 c0)
    CHECK(raw[1] == 20.0f);  // (n0 h0 w0 c1)
    CHECK(raw[3] == 1.0f);   // (n0 h0 w1 c0)
    bool same = true;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& i) {
        same &= *static_cast<float*>(t.address_of(i)) == *static_cast<float*>(nhwc.address_of(i));
    });
    CHECK(same);
    const tensor back = nhwc.clone();
    CHECK(back.desc().is_row_major());
    CHECK(std::equal(back.data_as<float>(), back.data_as<float>() + 120, t.data_as<float>()));
    nhwc.at<float>({0, 0, 0, 0}) = 99.0f;
    CHECK(t.get({0, 0, 0, 0}) == 0.0);
    // Cloning a view copies only the view.
    const tensor part = t.view({1, 2, 3, 4}, {1, 1, 1, 1}).clone();
    CHECK(part.desc().size_bytes() == 4);
    CHECK(part.get({0, 0, 0, 0}) == 119.0);
}

TEST_CASE("tensor: same-dtype copies, whole, row by row and element by element, move every value") {
    const tensor t = iota_nchw();
    auto same_values = [](const tensor& a, const tensor& b) {
        bool same = a.dims() == b.dims();
        tessera::detail::for_each_index(a.dims(), [&](const tessera::detail::index_t& i) {
            same &= std::memcmp(a.address_of(i), b.address_of(i), tessera::size_of(a.type())) == 0;
        });
        return same;
    };
    // Row-major to row-major: one block copy.
    const tensor whole(t.desc());
    tensor::copy_elements(t, whole);
    CHECK(std::equal(whole.data_as<float>(), whole.data_as<float>() + 120, t.data_as<float>()));
    // A view with unit-stride rows, into a row-major tensor and into a view of another tensor.
    const tensor v = t.view({1, 1, 1, 1}, {1, 2, 3, 3});
    const tensor packed(v.desc().with_layout(layout::row_major()).with_offset(0));
    tensor::copy_elements(v, packed);
    CHECK(same_values(v, packed));
    CHECK(packed.get({0, 1, 2, 2}) == 60 + 40 + 15 + 3);
    const tensor target(t.desc());
    const tensor window = target.view({0, 1, 0, 2}, {1, 2, 3, 3});
    tensor::copy_elements(v, window);
    CHECK(same_values(v, window));
    CHECK(target.get({0, 0, 0, 0}) == 0.0);  // outside the window: untouched
    CHECK(target.get({0, 1, 0, 1}) == 0.0);
    // NHWC (channel stride 1, last dimension strided): element by element.
    const tensor nhwc(t.desc().with_layout(layout::nhwc()));
    tensor::copy_elements(t, nhwc);
    CHECK(same_values(t, nhwc));
    // One-byte elements take the same paths.
    const tensor bytes(tensor_desc(shape{3, 5}, dtype::i8));
    for (std::int64_t i = 0; i < 15; ++i)
        bytes.data_as<std::int8_t>()[i] = static_cast<std::int8_t>(i - 7);
    const tensor row = bytes.view({1, 1}, {2, 3});
    const tensor row_copy(row.desc().with_layout(layout::row_major()).with_offset(0));
    tensor::copy_elements(row, row_copy);
    CHECK(same_values(row, row_copy));
    CHECK(row_copy.get({1, 2}) == 13 - 7);
}

TEST_CASE("tensor: copy_elements converts dtypes and quantises") {
    const float values[] = {0.0f, 1.0f, -2.5f, 0.333333343f, 65504.0f, 1e-8f, -0.0f, 3.0f};
    const tensor src =
        tensor::borrow(tensor_desc(shape{8}, dtype::f32), const_cast<float*>(values));

    tensor half(shape{8}, dtype::f16);
    tensor::copy_elements(src, half);
    CHECK(half.at<std::uint16_t>({0}) == 0x0000);
    CHECK(half.at<std::uint16_t>({1}) == 0x3C00);
    CHECK(half.at<std::uint16_t>({2}) == 0xC100);
    CHECK(half.at<std::uint16_t>({3}) == 0x3555);
    CHECK(half.at<std::uint16_t>({4}) == 0x7BFF);
    CHECK(half.at<std::uint16_t>({5}) == 0x0000);  // 1e-8 < 2^-25 underflows to zero
    CHECK(half.at<std::uint16_t>({6}) == 0x8000);
    tensor widened(shape{8}, dtype::f32);
    tensor::copy_elements(half, widened);
    CHECK(widened.get({2}) == -2.5);
    CHECK(widened.get({3}) == doctest::Approx(1.0 / 3).epsilon(1e-3));

    tensor brain(shape{8}, dtype::bf16);
    tensor::copy_elements(src, brain);
    CHECK(brain.at<std::uint16_t>({1}) == 0x3F80);
    CHECK(brain.at<std::uint16_t>({3}) == 0x3EAB);
    CHECK(brain.get({4}) == 65536.0);  // 65504 rounds up in bf16's 8-bit significand

    const tensor q(
        tensor_desc(shape{8}, dtype::i8, layout::row_major(), quantization{0.5f, -10, 0}));
    tensor::copy_elements(src, q);
    const std::int8_t expected_q[] = {-10, -8, -15, -9, 127, -10, -10, -4};  // 0.333/0.5-10 = -9.33
    for (int i = 0; i < 8; ++i) {
        INFO("element " << i);
        CHECK(q.at<std::int8_t>({i}) == expected_q[i]);
    }
    tensor deq(shape{8}, dtype::f32);
    tensor::copy_elements(q, deq);
    CHECK(deq.get({1}) == 1.0);
    CHECK(deq.get({2}) == -2.5);
    CHECK(deq.get({4}) == 0.5 * (127 + 10));

    check_error(
        [&] {
            tensor::copy_elements(src, tensor(shape{2, 4}, dtype::f32));
        },
        status::invalid_argument, "copy from 8 to 2x4");
}

TEST_CASE("tensor: at<T> checks the element type, rank and bounds") {
    const tensor f(shape{2, 3}, dtype::f32);
    check_error([&] { f.at<double>({0, 0}); }, status::invalid_argument, "f32");
    check_error([&] { f.at<std::int32_t>({0, 0}); }, status::invalid_argument, "f32");
    check_error([&] { f.data_as<std::uint32_t>(); }, status::invalid_argument, "f32");
    check_error([&] { f.at<float>({0}); }, status::invalid_argument, "rank");
    check_error(
        [&] {
            f.at<float>({2, 0});
        },
        status::invalid_argument, "out of range in dimension 0");
    check_error(
        [&] {
            f.at<float>({0, -1});
        },
        status::invalid_argument, "out of range in dimension 1");
    const tensor h(shape{2}, dtype::f16);
    h.at<std::uint16_t>({1}) = 0x3C00;
    CHECK(h.get({1}) == 1.0);
    check_error([&] { h.at<std::int16_t>({0}); }, status::invalid_argument, "f16");
    const tensor i(shape{2}, dtype::i16);
    CHECK_NOTHROW(i.at<std::int16_t>({0}));
    check_error([&] { i.at<std::uint16_t>({0}); }, status::invalid_argument, "i16");
    const tensor b(shape{2}, dtype::boolean);
    b.at<bool>({1}) = true;
    CHECK(b.get({1}) == 1.0);
    CHECK(b.at<std::uint8_t>({1}) == 1);
    check_error([&] { b.at<std::int8_t>({0}); }, status::invalid_argument, "bool");
}

TEST_CASE("tensor: get/set dequantise every dtype") {
    const tensor q78(
        tensor_desc(shape{3}, dtype::i16, layout::row_major(), quantization{1.0f, 0, 8}));
    q78.set({0}, 1.5);
    q78.set({1}, -0.75);
    q78.set({2}, 1000.0);
    CHECK(q78.at<std::int16_t>({0}) == 384);
    CHECK(q78.get({1}) == -0.75);
    CHECK(q78.at<std::int16_t>({2}) == 32767);
    CHECK(q78.get({2}) == 32767.0 / 256);

    const tensor u(
        tensor_desc(shape{2}, dtype::u8, layout::row_major(), quantization{0.1f, 128, 0}));
    u.set({0}, -12.8);
    CHECK(u.at<std::uint8_t>({0}) == 0);
    CHECK(u.get({0}) == doctest::Approx(-12.8));

    const tensor dl(shape{2}, dtype::dlfloat16);
    dl.set({0}, 3.14159);
    CHECK(dl.at<std::uint16_t>({0}) == 0x4124);
    CHECK(dl.get({0}) == 3.140625);

    const tensor h(shape{1}, dtype::f16);
    h.set({0}, 1.0 / 3);
    CHECK(h.get({0}) == std::ldexp(1365.0, -12));  // nearest binary16 to 1/3
}

TEST_CASE("tensor: every index form addresses the same element") {
    tensor t(tensor_desc(shape{2, 3, 4}, dtype::f32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = static_cast<float>(i);
    // row-major: (1, 2, 3) is element 1*12 + 2*4 + 3 = 23
    const std::vector<std::int64_t> v{1, 2, 3};
    const std::array<std::int64_t, 3> a{1, 2, 3};
    CHECK(t.at<float>({1, 2, 3}) == 23.0f);
    CHECK(t.at<float>(1, 2, 3) == 23.0f);
    CHECK(t.at<float>(v) == 23.0f);
    CHECK(t.at<float>(a) == 23.0f);
    CHECK(&t.at<float>(1, 2, 3) == &t.at<float>({1, 2, 3}));
    CHECK(&t.at<float>(v) == &t.at<float>(a));
    CHECK(t.get(1, 2, 3) == 23.0);
    CHECK(t.get(v) == 23.0);
    CHECK(t.get(a) == 23.0);
    CHECK(t.at<float>(0, 1, 2u) == 6.0f);  // mixed integer types
    t.at<float>(0, 0, 1) = -1.5f;
    CHECK(t.data_as<float>()[1] == -1.5f);
    t.set(std::vector<std::int64_t>{1, 0, 0}, 7.0);
    CHECK(t.data_as<float>()[12] == 7.0f);
    t.set(std::array<std::int64_t, 3>{1, 0, 1}, 8.0);
    CHECK(t.data_as<float>()[13] == 8.0f);
    // a strided view: every form goes through the view's strides
    const tensor col = t.view({0, 1, 2}, {2, 2, 1});
    CHECK(col.at<float>(1, 1, 0) == 1 * 12 + 2 * 4 + 2);
    CHECK(col.get(std::vector<std::int64_t>{1, 1, 0}) == 1 * 12 + 2 * 4 + 2);
    // rank-0
    tensor s(tensor_desc(shape{}, dtype::f32));
    s.at<float>() = 4.0f;
    CHECK(s.get() == 4.0);
}

TEST_CASE("tensor: every index form checks rank and bounds") {
    tensor t(tensor_desc(shape{2, 3}, dtype::f32));
    auto expect = [](auto&& fn, const std::string& text) {
        try {
            fn();
            FAIL("expected an error");
        } catch (const tessera::error& e) {
            CHECK(e.code() == status::invalid_argument);
            CHECK(e.message() == text);
        }
    };
    expect([&] { (void)t.at<float>(1, 2, 0); }, "index of rank 3 for a rank-2 tensor");
    expect([&] { (void)t.at<float>(std::vector<std::int64_t>{1}); },
           "index of rank 1 for a rank-2 tensor");
    expect(
        [&] {
            (void)t.get(std::array<std::int64_t, 2>{2, 0});
        },
        "index 2 out of range in dimension 0");
    expect([&] { (void)t.at<float>(0, -1); }, "index -1 out of range in dimension 1");
    expect(
        [&] {
            t.set(std::vector<std::int64_t>{0, 3}, 1.0);
        },
        "index 3 out of range in dimension 1");
}
