// strided_layout_test.cpp: which strided layouts are accepted (tensor_desc.hpp): reversed views
// with negative strides and a positive offset are sized and addressed correctly; layouts that
// reach before the buffer are rejected; overlapping layouts are told apart for graph inputs.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "error_check.hpp"
#include "tessera/tensor.hpp"

using tessera::dtype;
using tessera::layout;
using tessera::overlap;
using tessera::shape;
using tessera::status;
using tessera::tensor;
using tessera::tensor_desc;
using tessera_test::check_error;

namespace {
tensor_desc reversed(std::int64_t n) {
    return tensor_desc(shape{n}, dtype::f32, layout::strided({-1})).with_offset(n - 1);
}
}  // namespace

TEST_CASE("layout: a reversed view needs the whole span, not one element") {
    CHECK(reversed(5).size_bytes() == 5 * 4);
    CHECK_FALSE(reversed(5).layout_problem().has_value());
    // Both dims reversed: element (i, j) at 5 - 3i - j.
    const tensor_desc both =
        tensor_desc(shape{2, 3}, dtype::f32, layout::strided({-3, -1})).with_offset(5);
    CHECK(both.size_bytes() == 6 * 4);
    CHECK_FALSE(both.layout_problem().has_value());
    // Rows reversed with padding: rows at 8 and 0, three elements each.
    const tensor_desc padded =
        tensor_desc(shape{2, 3}, dtype::f32, layout::strided({-8, 1})).with_offset(8);
    CHECK(padded.size_bytes() == 11 * 4);
    CHECK_FALSE(padded.layout_problem().has_value());
}

TEST_CASE("layout: addresses before the buffer start are rejected") {
    const tensor_desc no_offset(shape{4}, dtype::f32, layout::strided({-1}));
    REQUIRE(no_offset.layout_problem(overlap::allowed).has_value());
    CHECK(no_offset.layout_problem(overlap::allowed)->find("offset -3") != std::string::npos);
    check_error([&] { (void)no_offset.size_bytes(); }, status::invalid_argument,
                "before the start of the buffer");
    const tensor_desc negative_offset = tensor_desc(shape{4}, dtype::f32).with_offset(-1);
    CHECK(negative_offset.layout_problem(overlap::allowed).has_value());
    // Nothing is addressed without elements.
    CHECK_FALSE(tensor_desc(shape{0}, dtype::f32).with_offset(-7).layout_problem().has_value());
    CHECK(tensor_desc(shape{0}, dtype::f32).with_offset(-7).size_bytes() == 0);
}

TEST_CASE("layout: overlapping strides are told apart from gaps and permutations") {
    auto problem = [](shape s, std::initializer_list<std::int64_t> strides) {
        return tensor_desc(s, dtype::f32, layout::strided(strides)).layout_problem();
    };
    CHECK(problem(shape{4, 3}, {0, 1}).has_value());         // broadcast rows
    CHECK(problem(shape{2, 2}, {1, 1}).has_value());         // all-1 strides
    CHECK(problem(shape{2, 3}, {2, 1}).has_value());         // rows overlap by one element
    CHECK(problem(shape{2, 3}, {-2, 1}).has_value());        // the same, reversed
    CHECK_FALSE(problem(shape{2, 3}, {3, 1}).has_value());   // row-major
    CHECK_FALSE(problem(shape{2, 3}, {1, 2}).has_value());   // column-major
    CHECK_FALSE(problem(shape{2, 3}, {16, 1}).has_value());  // padded rows
    CHECK_FALSE(problem(shape{1, 3}, {0, 1}).has_value());   // size-1 dims: any stride
    // Overlap is allowed for host tensors (broadcast views) and rejected for graph inputs.
    const tensor_desc broadcast(shape{4, 3}, dtype::f32, layout::strided({0, 1}));
    CHECK_FALSE(broadcast.layout_problem(overlap::allowed).has_value());
    CHECK(broadcast.layout_problem(overlap::rejected)->find("overlap") != std::string::npos);
}

TEST_CASE("tensor: a borrowed reversed view reads the buffer backwards") {
    std::vector<float> buffer = {10, 11, 12, 13, 14};
    const tensor view = tensor::borrow(reversed(5), buffer.data());
    for (std::int64_t i = 0; i < 5; ++i) CHECK(view.get({i}) == 14.0 - static_cast<double>(i));
    const tensor packed = view.clone();  // row-major copy
    CHECK(packed.desc().is_row_major());
    CHECK(packed.data_as<float>()[0] == 14.0f);
    CHECK(packed.data_as<float>()[4] == 10.0f);
    // Writing through the view lands at the mirrored address.
    view.set({1}, -1.0);
    CHECK(buffer[3] == -1.0f);
}

TEST_CASE("tensor: owning tensors allocate reversed layouts in full") {
    const tensor_desc both =
        tensor_desc(shape{2, 3}, dtype::f32, layout::strided({-3, -1})).with_offset(5);
    const tensor t(both);
    for (std::int64_t i = 0; i < 2; ++i)
        for (std::int64_t j = 0; j < 3; ++j) t.set({i, j}, static_cast<double>(10 * i + j));
    // Element (i, j) lives at 5 - 3i - j from the start of the allocation.
    const float* base = static_cast<const float*>(t.base());
    CHECK(base[5] == 0.0f);
    CHECK(base[3] == 2.0f);
    CHECK(base[0] == 12.0f);
    const tensor rows = t.clone();
    CHECK(rows.data_as<float>()[4] == 11.0f);
    check_error([] { tensor(tensor_desc(shape{4}, dtype::f32).with_offset(-1)); },
                status::invalid_argument, "before the start of the buffer");
}
