// cases_layout.cpp: conformance cases of the data-movement ops: permute (random orders of rank
// 2 to 5), transpose, reshape, depth_to_space (DCR, CRD), resize_bilinear (its three coordinate
// rules, up and down), pad (four modes, random amounts on every dim), fill, and reorder
// (dtype conversion and nhwc layout).
#include <algorithm>
#include <numeric>

#include "case_support.hpp"

namespace conformance {

case_list layout_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        for (int rank = 2; rank <= 5; ++rank) {
            std::vector<int> order(static_cast<std::size_t>(rank));
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(),
                         std::mt19937(static_cast<unsigned>(d.dim(0, 1000))));
            std::string form = "rank " + std::to_string(rank) + " order";
            for (int o : order) form += " " + std::to_string(o);
            cases.push_back({"permute",
                             form,
                             op::permute().set_order(order),
                             {d.values(d.dims(rank, 1, 7))},
                             1});
        }
        cases.push_back({"transpose",
                         "last two dims",
                         op::transpose(),
                         {d.values(shape{d.dim(1, 40), d.dim(1, 40)})},
                         1});
        cases.push_back({"transpose",
                         "dims 1 and 3 of rank 4",
                         op::transpose(1, 3),
                         {d.values(d.dims(4, 1, 7))},
                         1});
        cases.push_back({"transpose",
                         "dims 0 and -1 of rank 3",
                         op::transpose(0, -1),
                         {d.values(d.dims(3, 1, 7))},
                         1});

        const shape s = d.dims(4, 1, 6);
        cases.push_back({"reshape",
                         "rank 4 to rank 2",
                         op::reshape().set_dims({s[0] * s[1], s[2] * s[3]}),
                         {d.values(s)},
                         1});
        cases.push_back({"reshape",
                         "rank 4 to rank 1",
                         op::reshape().set_dims({s.num_elements()}),
                         {d.values(s)},
                         1});
        cases.push_back({"reshape",
                         "rank 2 to rank 4",
                         op::reshape().set_dims({s[0], s[1], s[2], s[3]}),
                         {d.values(shape{s[0] * s[1], s[2] * s[3]})},
                         1});

        for (auto mode : {depth_to_space_kind::dcr, depth_to_space_kind::crd}) {
            const int block = 2 + d.pick(2);
            const shape src{d.dim(1, 2), block * block * d.dim(1, 3), d.dim(1, 6), d.dim(1, 6)};
            cases.push_back({"depth_to_space",
                             std::string(mode == depth_to_space_kind::dcr ? "DCR" : "CRD") +
                                 ", block " + std::to_string(block),
                             op::depth_to_space(block, mode),
                             {d.values(src)},
                             1});
        }
    }
    return cases;
}

case_list resize_pad_fill_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const shape src{d.dim(1, 2), d.dim(1, 5), d.dim(2, 8), d.dim(2, 8)};
        const std::int64_t up_h = src[2] * 2, up_w = src[3] * 2 + 1;
        const std::int64_t down_h = std::max<std::int64_t>(1, src[2] - 1), down_w = d.dim(1, 3);
        cases.push_back({"resize_bilinear",
                         "x2 up",
                         op::resize_bilinear(up_h, src[3] * 2),
                         {d.values(src)},
                         2});
        cases.push_back({"resize_bilinear",
                         "up, align corners",
                         op::resize_bilinear(up_h, up_w).set_align_corners(true),
                         {d.values(src)},
                         2});
        cases.push_back({"resize_bilinear",
                         "up, half-pixel centres",
                         op::resize_bilinear(up_h, up_w).set_half_pixel_centers(true),
                         {d.values(src)},
                         2});
        cases.push_back({"resize_bilinear",
                         "down, half-pixel centres",
                         op::resize_bilinear(down_h, down_w).set_half_pixel_centers(true),
                         {d.values(src)},
                         2});

        const pad_kind modes[] = {pad_kind::constant, pad_kind::reflect, pad_kind::symmetric,
                                  pad_kind::edge};
        const char* mode_names[] = {"constant 1.5", "reflect", "symmetric", "edge"};
        for (int m = 0; m < 4; ++m) {
            const int rank = 1 + d.pick(4);
            const shape s = d.dims(rank, 2, 6);
            op::pad p;
            p.set_mode(modes[m]).set_value(1.5);
            // REFLECT admits pads up to dim - 1, the others up to dim; NCHW forms pad H and W only.
            const bool spatial_only = rank == 4 && d.pick(2);
            for (int i = 0; i < rank; ++i) {
                if (spatial_only && i < 2) continue;
                const int most = static_cast<int>(s[i]) - (modes[m] == pad_kind::reflect ? 1 : 0);
                p.set_dim(i, d.pick(most + 1), d.pick(most + 1));
            }
            cases.push_back(
                {"pad",
                 std::string(mode_names[m]) + (spatial_only ? ", H and W" : ", every dim"),
                 p,
                 {d.values(s)},
                 1});
        }

        cases.push_back({"fill",
                         "f32",
                         op::fill(tensor_desc(d.dims(1 + d.pick(4), 1, 7), dtype::f32), 2.5),
                         {},
                         1});
        cases.push_back(
            {"fill", "f16", op::fill(tensor_desc(d.dims(3, 1, 7), dtype::f16), -0.75), {}, 1});
        cases.push_back(
            {"fill",
             "u8 quantised, saturating",
             op::fill(tensor_desc(d.dims(2, 1, 7), dtype::u8, layout::row_major(), {0.5f, 10, 0}),
                      300.0),
             {},
             1});

        const shape nchw = d.dims(4, 1, 6);
        cases.push_back({"reorder",
                         "f32 row-major to nhwc",
                         op::reorder(tensor_desc(nchw, dtype::f32, layout::nhwc())),
                         {d.values(nchw)},
                         1});
        cases.push_back({"reorder",
                         "f32 to f16",
                         op::reorder(tensor_desc(nchw, dtype::f16)),
                         {d.values(nchw)},
                         1});
        cases.push_back(
            {"reorder",
             "f32 to i8 quantised",
             op::reorder(tensor_desc(nchw, dtype::i8, layout::row_major(), {1.0f / 32.0f, 0, 0})),
             {d.values(nchw, -2.0f, 2.0f)},
             1});
        cases.push_back({"reorder",
                         "f16 to f32",
                         op::reorder(tensor_desc(nchw, dtype::f32)),
                         {retyped(d.values(nchw), dtype::f16)},
                         1});
    }
    return cases;
}

}  // namespace conformance
