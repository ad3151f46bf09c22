// test_mapped_ops.cpp: Tessera ops that run as layer types with shipped kernels or user bindings,
// against the reference backend with the myriad (half storage) tolerance: layer_norm as MVN, an
// LRN over all channels as GRN, resize_bilinear with half-pixel centres as Resample LINEAR, u8 ->
// f16 reorder as Convert, depth_to_space and softmax through a user's DepthToSpace and SoftMax
// bindings; and the forms each mapping declines, with reasons.
#include "myriad_plugin.hpp"

using namespace myriad_test;

namespace {

/// A DCR DepthToSpace binding (Where mode="blocks_first"): output [N, C, H, W] pixel (y, x) of
/// channel c takes input channel ((y % b) * b + x % b) * C + c at (y / b, x / b).
std::string depth_to_space_file() {
    write_file("d2s", "d2s.cl", R"(
__kernel void d2s_dcr(__global const half* src, __global half* dst, int C, int H, int W, int b)
{
    const int x = get_global_id(0), y = get_global_id(1), nc = get_global_id(2);
    const int n = nc / C, c = nc % C;
    const int ic = ((y % b) * b + x % b) * C + c;
    dst[(nc * H + y) * W + x] = src[((n * C * b * b + ic) * (H / b) + y / b) * (W / b) + x / b];
}
)");
    return write_file("d2s", "d2s.xml", R"(<CustomLayer name="DepthToSpace" type="MVCL" version="1">
  <Where mode="blocks_first"/>
  <Kernel entry="d2s_dcr"><Source filename="d2s.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0"/>
    <Tensor arg-name="dst" type="output" port-index="0"/>
    <Scalar arg-name="C" type="int" port-index="0" source="O.F"/>
    <Scalar arg-name="H" type="int" port-index="0" source="O.Y"/>
    <Scalar arg-name="W" type="int" port-index="0" source="O.X"/>
    <Scalar arg-name="b" type="int" source="block_size"/>
  </Parameters>
  <WorkSizes dim="output,0" global="X,Y,B*F"/>
</CustomLayer>
)");
}

/// A SoftMax binding for axis 1 (Where axis="1"): per (b, y, x) over the F channels, in float.
std::string softmax_file() {
    write_file("softmax", "softmax.cl", R"(
__kernel void softmax_axis1(__global const half* src, __global half* dst, int C, int H, int W)
{
    const int i = get_global_id(0), b = get_global_id(1), inner = H * W;
    const int base = b * C * inner + i;
    float m = -INFINITY;
    for (int c = 0; c < C; c++) m = fmax(m, vload_half(base + c * inner, src));
    float sum = 0.0f;
    for (int c = 0; c < C; c++) sum += exp(vload_half(base + c * inner, src) - m);
    for (int c = 0; c < C; c++)
        vstore_half(exp(vload_half(base + c * inner, src) - m) / sum, base + c * inner, dst);
}
)");
    return write_file("softmax", "softmax.xml",
                      R"(<CustomLayer name="SoftMax" type="MVCL" version="1">
  <Where axis="1"/>
  <Kernel entry="softmax_axis1"><Source filename="softmax.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0"/>
    <Tensor arg-name="dst" type="output" port-index="0"/>
    <Scalar arg-name="C" type="int" port-index="0" source="I.F"/>
    <Scalar arg-name="H" type="int" port-index="0" source="I.Y"/>
    <Scalar arg-name="W" type="int" port-index="0" source="I.X"/>
  </Parameters>
  <WorkSizes dim="input,0" global="Y*X,B,1"/>
</CustomLayer>
)");
}

/// A u8 tensor of `dims` with the values 0, 7, 14, ... modulo 256 (all of 0..255 for 256+ values).
tensor bytes(const shape& dims) {
    tensor t(tensor_desc(dims, dtype::u8));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>((i * 7) % 256);
    return t;
}

}  // namespace

TEST_CASE("layer_norm over trailing dims runs as the shipped MVN") {
    load_plugins();
    const auto s =
        query_op(op::layer_norm().from_axis(1), {tensor_desc(shape{2, 3, 4, 5}, dtype::f32)});
    REQUIRE(s.supported());
    CHECK(s.text.find("mvn.xml") != std::string::npos);
    struct form {
        shape dims;
        int axis;
    };
    const form forms[] = {
        {{2, 3, 4, 5}, 1},     // per batch item over C, H, W (MVN across channels)
        {{2, 3, 6, 7}, 2},     // per plane (MVN within channels)
        {{3, 70}, -1},         // rows of a matrix (a transformer's layer norm)
        {{1, 2, 3, 4500}, 3},  // rows longer than one 4096-value chunk of the kernels
        {{5, 9}, 0},           // the whole tensor
    };
    std::uint32_t seed = 40;
    for (const form& f : forms) {
        CAPTURE(f.axis);
        CAPTURE(f.dims.to_string());
        const tensor x = values(f.dims, seed++, -3.0f, 2.0f);
        check_op("myriad!", op::layer_norm().from_axis(f.axis).eps(1e-3f), {x},
                 tolerance_of("myriad"), 2);
    }
    // f16 tensors as well.
    const tensor x32 = values({2, 4, 3, 3}, 47, -2.0f, 2.0f);
    tensor x(tensor_desc(x32.dims(), dtype::f16));
    tensor::copy_elements(x32, x);
    check_op("myriad!", op::layer_norm().from_axis(2), {x}, tolerance_of("myriad"), 2);
}

TEST_CASE("layer_norm forms MVN cannot compute are declined as attribute") {
    const tensor_desc x(shape{2, 3, 4, 5}, dtype::f32);
    const tensor_desc affine(shape{3, 4, 5}, dtype::f32);
    const auto gamma = query_op(op::layer_norm().from_axis(1).tensors(true, false), {x, affine});
    CHECK(gamma.reason == TSR_REASON_ATTRIBUTE);
    CHECK(gamma.text.find("gamma/beta tensors") != std::string::npos);
    const auto scaled = query_op(op::layer_norm().from_axis(1).affine(2.0f, 0.0f), {x});
    CHECK(scaled.reason == TSR_REASON_ATTRIBUTE);
    const tensor_desc stats(shape{2, 1, 1, 1}, dtype::f32);
    const auto given = query_op(op::layer_norm().statistics(), {x, stats, stats});
    CHECK(given.reason == TSR_REASON_ATTRIBUTE);
    CHECK(given.text.find("statistics") != std::string::npos);
    // More rows than one MVN launch has planes (65535 work-group rows).
    const auto rows =
        query_op(op::layer_norm().from_axis(-1), {tensor_desc(shape{70000, 4}, dtype::f32)});
    CHECK(rows.reason == TSR_REASON_SHAPE);
    CHECK(rows.text.find("70000 rows") != std::string::npos);
}

TEST_CASE("an LRN across all channels with beta 0.5 and alpha 1 runs as the shipped GRN") {
    load_plugins();
    const tensor x = values({2, 5, 3, 4}, 48, -3.0f, 3.0f);
    const op::lrn full = op::lrn().window(9).coefficients(9.0f, 0.5f, 1.5f);  // alpha 9 / 9
    const auto s = query_op(full, {x.desc()});
    REQUIRE(s.supported());
    CHECK(s.text.find("grn.xml") != std::string::npos);
    check_op("myriad!", full, {x}, tolerance_of("myriad"), 2);
    const tensor rows = values({3, 6}, 49, -2.0f, 2.0f);  // [N, C]: no spatial dims
    check_op("myriad!", op::lrn().window(11).coefficients(1.0f, 0.5f, 0.5f).scaled(false), {rows},
             tolerance_of("myriad"), 2);
    // A window short of some channel, another exponent or scale, a zero bias: not GRN.
    const op::lrn others[] = {op::lrn().window(7).coefficients(7.0f, 0.5f, 1.0f),
                              op::lrn().window(9).coefficients(9.0f, 0.75f, 1.0f),
                              op::lrn().window(9).coefficients(1.0f, 0.5f, 1.0f),
                              op::lrn().window(9).coefficients(9.0f, 0.5f, 0.0f),
                              op::lrn().kind(lrn_kind::within_channel).window(9)};
    for (const op::lrn& o : others) {
        const auto d = query_op(o, {x.desc()});
        INFO(d.text);
        CHECK(d.reason == TSR_REASON_ATTRIBUTE);
    }
}

TEST_CASE("resize_bilinear with half-pixel centres runs as the shipped Resample LINEAR") {
    load_plugins();
    const tensor x = values({2, 3, 5, 7}, 50, -4.0f, 4.0f);
    const auto s = query_op(op::resize_bilinear(10, 14).set_half_pixel_centers(true), {x.desc()});
    REQUIRE(s.supported());
    CHECK(s.text.find("resample_linear.xml") != std::string::npos);
    const op_desc ops[] = {
        op::resize_bilinear(10, 14).set_half_pixel_centers(true),  // up by 2 (one factor)
        op::resize_bilinear(3, 4).set_half_pixel_centers(true),    // down, per-axis scales
        op::resize_bilinear(8, 5).set_half_pixel_centers(true),    // up in H, down in W
        op::resize_bilinear(5, 7).set_align_corners(true),         // same size: the identity
    };
    for (const auto& o : ops) {
        CAPTURE(o.describe());
        check_op("myriad!", o, {x}, tolerance_of("myriad"), 2);
    }
}

TEST_CASE("resize_bilinear forms without a Resample LINEAR equivalent are declined") {
    const tensor_desc x(shape{1, 2, 4, 4}, dtype::f32);
    const auto corners = query_op(op::resize_bilinear(8, 8).set_align_corners(true), {x});
    CHECK(corners.reason == TSR_REASON_ATTRIBUTE);
    CHECK(corners.text.find("align_corners") != std::string::npos);
    const auto asymmetric = query_op(op::resize_bilinear(8, 8), {x});
    CHECK(asymmetric.reason == TSR_REASON_ATTRIBUTE);
    const auto integer = query_op(op::resize_bilinear(8, 8).set_half_pixel_centers(true),
                                  {tensor_desc(shape{1, 2, 4, 4}, dtype::u8)});
    CHECK(integer.reason == TSR_REASON_DTYPE);
}

TEST_CASE("a u8 -> f16 reorder runs as the shipped Convert, exactly") {
    load_plugins();
    const tensor x = bytes({1, 3, 9, 11});
    const auto s = query_op(op::reorder(tensor_desc(x.dims(), dtype::f16)), {x.desc()});
    REQUIRE(s.supported());
    CHECK(s.text.find("convert.xml") != std::string::npos);
    check_op("myriad!", op::reorder(tensor_desc(x.dims(), dtype::f16)), {x}, {0.0, 0.0, 0.0});
}

TEST_CASE("reorders Convert does not compute as they ask are declined") {
    const tensor_desc u8(shape{1, 2, 4, 4}, dtype::u8);
    // The shipped Convert reads u8: an f32 input would be converted to u8 first.
    const auto from_f32 = query_op(op::reorder(tensor_desc(u8.dims(), dtype::f16)),
                                   {tensor_desc(u8.dims(), dtype::f32)});
    INFO(from_f32.text);
    CHECK(from_f32.reason == TSR_REASON_DTYPE);
    CHECK(from_f32.text.find("reads input 0 as uchar, not f32") != std::string::npos);
    // No binding converts to f32 (the shipped one has Where destination_type="f16").
    const auto to_f32 = query_op(op::reorder(tensor_desc(u8.dims(), dtype::f32)), {u8});
    CHECK(to_f32.reason == TSR_REASON_ATTRIBUTE);
    // A layout change keeps the type; quantised values are not converted as values.
    const auto layout_only =
        query_op(op::reorder(tensor_desc(u8.dims(), dtype::u8, layout::nhwc())), {u8});
    CHECK(layout_only.reason == TSR_REASON_OP_KIND);
    const auto quantised =
        query_op(op::reorder(tensor_desc(u8.dims(), dtype::f16)),
                 {tensor_desc(u8.dims(), dtype::u8, layout::row_major(), {0.5f, 3, 0})});
    CHECK(quantised.reason == TSR_REASON_DTYPE);
}

TEST_CASE("depth_to_space runs through a user's DepthToSpace binding, else is declined") {
    load_plugins();
    const tensor x = values({2, 8, 3, 4}, 60, -2.0f, 2.0f);
    const auto none = query_op(op::depth_to_space(2), {x.desc()});
    CHECK(none.reason == TSR_REASON_OP_KIND);
    CHECK(none.text.find("DepthToSpace") != std::string::npos);
    const std::string config = "myriad!:config=" + depth_to_space_file();
    check_op(config, op::depth_to_space(2), {x}, tolerance_of("myriad"));
    // The binding holds for DCR only: CRD is declined (its Where fails).
    const auto crd = query_op(op::depth_to_space(2, TSR_DEPTH_TO_SPACE_CRD), {x.desc()},
                              {{"config", depth_to_space_file()}});
    CHECK(crd.reason == TSR_REASON_ATTRIBUTE);
}

TEST_CASE("softmax runs through a user's SoftMax binding for any axis, else is declined") {
    load_plugins();
    const tensor x = values({2, 3, 4, 5}, 61, -3.0f, 3.0f);
    const auto none = query_op(op::softmax().along(1), {x.desc()});
    CHECK(none.reason == TSR_REASON_OP_KIND);
    CHECK(none.text.find("SoftMax") != std::string::npos);
    const std::string config = "myriad!:config=" + softmax_file();
    // One axis-1 binding serves every axis: the tensor is seen as [outer, length, 1, inner].
    const op::softmax forms[] = {op::softmax().along(1), op::softmax().along(-1),
                                 op::softmax().along(0), op::softmax().along(2, 2)};
    for (const op::softmax& o : forms) {
        CAPTURE(o.axis());
        CAPTURE(o.axis_count());
        check_op(config, o, {x}, tolerance_of("myriad"), 2);
    }
    const op::softmax declined[] = {op::softmax().along(1).logarithmic(),
                                    op::softmax().along(1).scaled_by(2.0f)};
    for (const op::softmax& o : declined) {
        const auto d = query_op(o, {x.desc()}, {{"config", softmax_file()}});
        INFO(d.text);
        CHECK(d.reason == TSR_REASON_ATTRIBUTE);
    }
}
