// shape_layout_test.cpp: shape (extents, labels, text) and layout (NCHW, NHWC, permutations,
// explicit strides) including the errors a bad request must raise.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "tessera/layout.hpp"
#include "tessera/shape.hpp"

using tessera::dim_label;
using tessera::layout;
using tessera::shape;
using tessera::status;

namespace {

std::vector<std::int64_t> strides(const layout& l, const shape& s) {
    const auto all = l.strides_for(s);
    return {all.begin(), all.begin() + s.rank()};
}

/// Runs fn and returns the status code of the tessera::error it throws (success if none).
template <typename Fn>
status code_of(Fn&& fn) {
    try {
        fn();
    } catch (const tessera::error& e) {
        return e.code();
    }
    return status::success;
}

}  // namespace

TEST_CASE("shape: extents, labels, element counts and text") {
    const shape s = shape::nchw(2, 3, 4, 5);
    CHECK(s.rank() == 4);
    CHECK(s.num_elements() == 120);
    CHECK(s.is_image());
    CHECK(s.find(dim_label::h) == 2);
    CHECK(s.find(dim_label::d) == -1);
    CHECK(s.to_string() == "2x3x4x5 (NCHW)");
    CHECK(shape::ncdhw(1, 2, 3, 4, 5).to_string() == "1x2x3x4x5 (NCDHW)");
    CHECK(shape{7, 8}.to_string() == "7x8");
    CHECK(shape().to_string() == "scalar");
    CHECK(shape().num_elements() == 1);
    CHECK(shape{4, 0, 3}.num_elements() == 0);
    CHECK(shape::nc(2, 3).is_image() == false);
    // Labels are descriptive: equal extents compare equal.
    CHECK(shape::nchw(1, 2, 3, 4) == shape{1, 2, 3, 4});
    CHECK(shape{1, 2, 3} != shape{1, 2, 3, 1});
    CHECK(shape{1, 2, 3} != shape{1, 2, 4});
    const std::array<int, 3> from{6, 7, 8};
    CHECK(shape(from.begin(), from.end()) == shape{6, 7, 8});
}

TEST_CASE("shape: rank and index errors") {
    CHECK(code_of([] { (void)shape{1, 2, 3, 4, 5, 6, 7, 8, 9}; }) == status::invalid_argument);
    shape s{1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(code_of([&] { s.push_back(9); }) == status::invalid_argument);
    CHECK(code_of([&] { (void)s[8]; }) == status::invalid_argument);
    CHECK(code_of([&] { (void)s[-1]; }) == status::invalid_argument);
    CHECK(code_of([&] { (void)shape{}.label(0); }) == status::invalid_argument);
}

TEST_CASE("layout: NCHW, NHWC and 5-D channels last") {
    const shape s = shape::nchw(2, 3, 4, 5);
    CHECK(strides(layout::nchw(), s) == std::vector<std::int64_t>{60, 20, 5, 1});
    CHECK(strides(layout::row_major(), s) == std::vector<std::int64_t>{60, 20, 5, 1});
    CHECK(strides(layout::nhwc(), s) == std::vector<std::int64_t>{60, 1, 15, 3});
    CHECK(strides(layout::nhwc(), shape::ncdhw(2, 3, 4, 5, 6)) ==
          std::vector<std::int64_t>{360, 1, 90, 18, 3});
    CHECK(strides(layout::nhwc(), shape{2, 3, 4}) ==
          std::vector<std::int64_t>{12, 1, 3});  // N, W, C
    CHECK(strides(layout::nhwc(), shape{2, 3}) ==
          std::vector<std::int64_t>{3, 1});  // no channels to move
    // Zero extents still give usable strides.
    CHECK(strides(layout::row_major(), shape{2, 0, 3}) == std::vector<std::int64_t>{3, 3, 1});
}

TEST_CASE("layout: permutations are memory order from outermost to innermost") {
    const shape s = shape::nchw(2, 3, 4, 5);
    CHECK(strides(layout::permuted({0, 2, 3, 1}), s) == strides(layout::nhwc(), s));
    CHECK(strides(layout::permuted({0, 1, 2, 3}), s) == strides(layout::nchw(), s));
    CHECK(strides(layout::permuted({1, 0}), shape{3, 4}) ==
          std::vector<std::int64_t>{1, 3});  // column major
    CHECK(strides(layout::permuted({3, 2, 1, 0}), s) == std::vector<std::int64_t>{1, 2, 6, 24});
}

TEST_CASE("layout: explicit strides are used as given") {
    CHECK(strides(layout::strided({100, 10, 1}), shape{2, 3, 4}) ==
          std::vector<std::int64_t>{100, 10, 1});
    CHECK(strides(layout::strided({0, 1}), shape{5, 3}) ==
          std::vector<std::int64_t>{0, 1});  // broadcast
}

TEST_CASE("layout: bad permutations and stride counts throw invalid_argument") {
    const shape s{2, 3, 4};
    CHECK(code_of([&] { layout::permuted({0, 1}).strides_for(s); }) == status::invalid_argument);
    CHECK(code_of([&] { layout::permuted({0, 1, 1}).strides_for(s); }) == status::invalid_argument);
    CHECK(code_of([&] { layout::permuted({0, 1, 3}).strides_for(s); }) == status::invalid_argument);
    CHECK(code_of([&] {
              layout::permuted({0, -1, 2}).strides_for(s);
          }) == status::invalid_argument);
    CHECK(code_of([&] {
              layout::permuted({0, 1, 2, 3}).strides_for(s);
          }) == status::invalid_argument);
    CHECK(code_of([&] { layout::strided({1, 1}).strides_for(s); }) == status::invalid_argument);
    // More entries than any tensor can have must be refused, not written past the array.
    CHECK(code_of([] {
              layout::permuted({0, 1, 2, 3, 4, 5, 6, 7, 8});
          }) == status::invalid_argument);
    CHECK(code_of([] {
              layout::strided({1, 1, 1, 1, 1, 1, 1, 1, 1});
          }) == status::invalid_argument);
    try {
        layout::permuted({0, 0, 1}).strides_for(s);
        FAIL("expected an error");
    } catch (const tessera::error& e) {
        CHECK(std::string(e.what()).find("not a permutation") != std::string::npos);
    }
}

TEST_CASE("layout: any and opaque") {
    CHECK(layout::any().kind() == tessera::layout_kind::any);
    const layout o = layout::opaque("cpu", "nChw16c", 4096);
    CHECK(o.kind() == tessera::layout_kind::opaque);
    CHECK(o.opaque_backend() == "cpu");
    CHECK(o.opaque_format() == "nChw16c");
    CHECK(o.opaque_size() == 4096);
}
