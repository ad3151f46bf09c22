// tensor_desc_test.cpp: tensor_desc sizes, density, row-majorness, equality (by strides, not
// by layout tags; size-1 dims ignored), any/opaque layouts and the C ABI round trip.
#include <doctest/doctest.h>

#include <cstring>

#include "tessera/tensor_desc.hpp"

using tessera::dtype;
using tessera::layout;
using tessera::quantization;
using tessera::shape;
using tessera::tensor_desc;

TEST_CASE("tensor_desc: NCHW and NHWC sizes and strides") {
    const tensor_desc nchw(shape::nchw(2, 3, 4, 5), dtype::f32);
    CHECK(nchw.size_bytes() == 2 * 3 * 4 * 5 * 4);
    CHECK(nchw.is_row_major());
    CHECK(nchw.is_dense());
    CHECK(nchw.stride(1) == 20);
    CHECK(nchw.to_string() == "f32 2x3x4x5 (NCHW) strides [60,20,5,1]");

    const tensor_desc nhwc(shape::nchw(2, 3, 4, 5), dtype::f16, layout::nhwc());
    CHECK(nhwc.size_bytes() == 2 * 3 * 4 * 5 * 2);
    CHECK_FALSE(nhwc.is_row_major());
    CHECK(nhwc.is_dense());
    CHECK(nhwc.stride(1) == 1);
    CHECK(nhwc.dims() == shape{2, 3, 4, 5});  // logical order unchanged
    CHECK(nhwc.dims().label(1) == tessera::dim_label::c);

    const tensor_desc perm(shape{3, 4}, dtype::i8, layout::permuted({1, 0}));
    CHECK(perm.size_bytes() == 12);
    CHECK(perm.is_dense());
    CHECK_FALSE(perm.is_row_major());
}

TEST_CASE("tensor_desc: padded, offset, overlapping and empty descriptors") {
    const tensor_desc padded(shape{2, 3}, dtype::f32, layout::strided({8, 1}));
    CHECK(padded.size_bytes() == (8 + 2 + 1) * 4);
    CHECK_FALSE(padded.is_dense());
    CHECK_FALSE(padded.is_row_major());

    const tensor_desc offset = tensor_desc(shape{2, 3}, dtype::f32).with_offset(10);
    CHECK(offset.size_bytes() == (10 + 6) * 4);
    CHECK(offset.is_dense());
    CHECK_FALSE(offset.is_row_major());
    CHECK(offset.to_string() == "f32 2x3 strides [3,1] offset 10");

    // Broadcast (stride 0) overlaps; with a gap elsewhere the byte count can still look dense.
    CHECK_FALSE(tensor_desc(shape{4, 3}, dtype::f32, layout::strided({0, 1})).is_dense());
    CHECK_FALSE(tensor_desc(shape{2, 2}, dtype::f32, layout::strided({3, 0})).is_dense());
    CHECK_FALSE(tensor_desc(shape{2, 2}, dtype::f32, layout::strided({1, 1})).is_dense());
    CHECK_FALSE(tensor_desc(shape{2, 3, 2}, dtype::f32, layout::strided({6, 1, 4})).is_dense());
    // Size-1 dims may carry any stride.
    const tensor_desc unit(shape{1, 3, 1}, dtype::f32, layout::strided({999, 1, 7}));
    CHECK(unit.is_dense());
    CHECK(unit.is_row_major());
    CHECK(unit.size_bytes() == 12);

    const tensor_desc none(shape{4, 0}, dtype::f32);
    CHECK(none.size_bytes() == 0);
    CHECK(none.num_elements() == 0);
    // A zero extent does not make a freshly made row-major descriptor "not row-major".
    CHECK(tensor_desc(shape{2, 0, 3}, dtype::f32).is_row_major());
    CHECK(tensor_desc(shape{2, 0, 3}, dtype::f32).is_dense());

    const tensor_desc scalar(shape{}, dtype::i32);
    CHECK(scalar.size_bytes() == 4);
    CHECK(scalar.is_row_major());
    CHECK(scalar.is_dense());
}

TEST_CASE("tensor_desc: equality compares strides, not layout tags") {
    const shape s = shape::nchw(2, 3, 4, 5);
    CHECK(tensor_desc(s, dtype::f32, layout::nhwc()) ==
          tensor_desc(s, dtype::f32, layout::permuted({0, 2, 3, 1})));
    CHECK(tensor_desc(s, dtype::f32, layout::nhwc()) ==
          tensor_desc(s, dtype::f32, layout::strided({60, 1, 15, 3})));
    CHECK(tensor_desc(s, dtype::f32) != tensor_desc(s, dtype::f32, layout::nhwc()));
    CHECK(tensor_desc(s, dtype::f32) != tensor_desc(s, dtype::f16));
    CHECK(tensor_desc(s, dtype::f32) != tensor_desc(shape{2, 3, 4, 6}, dtype::f32));
    CHECK(tensor_desc(s, dtype::f32) != tensor_desc(s, dtype::f32).with_offset(1));
    // With C = 1, NCHW and NHWC are the same memory.
    const shape one_channel = shape::nchw(2, 1, 4, 5);
    CHECK(tensor_desc(one_channel, dtype::f32) ==
          tensor_desc(one_channel, dtype::f32, layout::nhwc()));
    // With H = W = 1 as well.
    const shape vector_like = shape::nchw(2, 8, 1, 1);
    CHECK(tensor_desc(vector_like, dtype::f32) ==
          tensor_desc(vector_like, dtype::f32, layout::nhwc()));
    // Labels are not part of equality.
    CHECK(tensor_desc(s, dtype::f32) == tensor_desc(shape{2, 3, 4, 5}, dtype::f32));
    // Quantisation is.
    CHECK(tensor_desc(shape{4}, dtype::i8, layout::row_major(), quantization{0.5f, 1, 0}) !=
          tensor_desc(shape{4}, dtype::i8, layout::row_major(), quantization{0.5f, 2, 0}));
    CHECK(tensor_desc(shape{4}, dtype::i8, layout::row_major(), quantization{0.5f, 1, 0}) ==
          tensor_desc(shape{4}, dtype::i8).with_type(dtype::i8, quantization{0.5f, 1, 0}));
}

TEST_CASE("tensor_desc: any and opaque layouts") {
    const shape s = shape::nchw(1, 16, 8, 8);
    const tensor_desc any(s, dtype::f32, layout::any());
    CHECK(any.is_any());
    CHECK(any.size_bytes() == 0);
    CHECK_FALSE(any.is_dense());
    CHECK_FALSE(any.is_row_major());
    CHECK(any.to_string() == "f32 1x16x8x8 (NCHW) layout any");
    CHECK(any != tensor_desc(s, dtype::f32));
    CHECK(any == tensor_desc(s, dtype::f32, layout::any()));
    CHECK(any.with_layout(layout::nhwc()) == tensor_desc(s, dtype::f32, layout::nhwc()));

    const tensor_desc blocked(s, dtype::f32, layout::opaque("cpu", "nChw16c", 4096));
    CHECK(blocked.is_opaque());
    CHECK(blocked.size_bytes() == 4096);
    CHECK(blocked.opaque_backend() == "cpu");
    CHECK(blocked.opaque_format() == "nChw16c");
    CHECK(blocked.to_string() == "f32 1x16x8x8 (NCHW) opaque cpu:nChw16c");
    CHECK(blocked == tensor_desc(s, dtype::f32, layout::opaque("cpu", "nChw16c", 4096)));
    CHECK(blocked != tensor_desc(s, dtype::f32, layout::opaque("cpu", "nChw8c", 4096)));
    CHECK(blocked != tensor_desc(s, dtype::f32, layout::opaque("zdnn", "nChw16c", 4096)));
    CHECK_FALSE(blocked.is_dense());
    // Over-long names are truncated, not overflowed.
    const std::string long_name(100, 'x');
    const tensor_desc truncated(s, dtype::f32, layout::opaque(long_name, long_name, 1));
    CHECK(truncated.opaque_backend() == std::string(23, 'x'));
    CHECK(truncated.opaque_format() == std::string(39, 'x'));
}

TEST_CASE("tensor_desc: C ABI round trip and older, shorter structs") {
    const tensor_desc d(shape::nchw(1, 2, 3, 4), dtype::bf16, layout::nhwc());
    tsr_tensor_desc c = d.c_desc();
    CHECK(c.struct_size == sizeof(tsr_tensor_desc));
    CHECK(tensor_desc(c) == d);
    // A writer with an older struct that ended before `opaque` still reads correctly.
    c.struct_size = static_cast<std::uint32_t>(offsetof(tsr_tensor_desc, opaque));
    std::memset(&c.opaque, 0x7F, sizeof c.opaque);
    const tensor_desc old(c);
    CHECK(old == d);
    CHECK(old.c_desc().struct_size == sizeof(tsr_tensor_desc));
    CHECK(old.c_desc().opaque.size_bytes == 0);
    // A rank no descriptor can hold is refused at the boundary.
    c.rank = TSR_MAX_DIMS + 1;
    CHECK_THROWS_AS(tensor_desc{c}, tessera::error);
    c.rank = -1;
    CHECK_THROWS_AS(tensor_desc{c}, tessera::error);
}

TEST_CASE("tensor_desc: with_type, reshaped and accessors") {
    const tensor_desc d(shape{2, 6}, dtype::f32);
    const tensor_desc q = d.with_type(dtype::u8, quantization{0.25f, 128, 0});
    CHECK(q.type() == dtype::u8);
    CHECK(q.quant().scale == 0.25f);
    CHECK(q.quant().zero_point == 128);
    CHECK(q.size_bytes() == 12);
    CHECK(d.reshaped(shape{3, 4}) == tensor_desc(shape{3, 4}, dtype::f32));
    CHECK(d.rank() == 2);
    CHECK(d.dim(1) == 6);
}
