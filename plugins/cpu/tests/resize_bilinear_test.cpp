// resize_bilinear_test.cpp: resize_bilinear runs natively on the cpu plugin in every
// coordinate rule (align_corners, half-pixel centres, neither; sizes or scales, up and down) and
// dtype, computed as the reference computes it: results equal the reference's byte for byte.
#include "stored_values.hpp"

using namespace cpu_test;

namespace {

const std::vector<std::pair<dtype, quantization>> every_resize_dtype = {
    {dtype::f32, {}},           {dtype::f16, {}},           {dtype::bf16, {}},
    {dtype::f64, {}},           {dtype::i8, {0.05f, 3, 0}}, {dtype::u8, {0.02f, 128, 0}},
    {dtype::i16, {1.0f, 0, 8}}, {dtype::i32, {}},           {dtype::i64, {}}};

}  // namespace

TEST_CASE("resize_bilinear runs natively in every coordinate rule and dtype, exactly") {
    load_cpu_plugin();
    for (const auto& form : every_resize_dtype) {
        const dtype type = form.first;
        const auto& q = form.second;
        INFO(to_string(type));
        const double lo = type == dtype::u8 ? 10.0 : -40.0;
        const tensor x = is_integer(type) ? grid(shape{2, 3, 5, 7}, type, 11, lo, 3.0, 29, q)
                                          : grid(shape{2, 3, 5, 7}, type, 11, -2.0, 0.125, 29, q);
        check_exact(op::resize_bilinear(9, 13), {x});
        check_exact(op::resize_bilinear(9, 13).set_align_corners(true), {x});
        check_exact(op::resize_bilinear(10, 14).set_half_pixel_centers(true), {x});
        check_exact(op::resize_bilinear(3, 4).set_half_pixel_centers(true), {x});
        check_exact(op::resize_bilinear().set_scale(1.5f, 0.5f), {x});
    }
}

TEST_CASE("resize_bilinear with aligned corners interpolates between the corners") {
    load_cpu_plugin();
    const auto [got, want] = run_native(op::resize_bilinear(3, 3).set_align_corners(true),
                                        {f32_tensor(shape{1, 1, 2, 2}, {0, 1, 2, 3})});
    check_stored(got.at(0), {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
    check_same_bytes(got.at(0), want.at(0), "resize_bilinear 2x2 -> 3x3");
}

TEST_CASE("large resize_bilinear is split over threads and matches exactly") {
    load_cpu_plugin();
    check_exact(op::resize_bilinear(96, 128).set_half_pixel_centers(true),
                {values(shape{2, 8, 48, 64}, 12)});
}
