// pointwise_test.cpp: activation (every kind, PReLU with every slope broadcast, NaN suppression,
// a clipping value), fill and table_lookup run natively on the cpu plugin for every dtype their
// descriptors admit. Forms in the plugin's own loops equal the reference byte for byte; f32
// kinds on the runtime's Activation stay within the cpu tolerance; hand-computed values pin
// the edge cases (per-channel against per-column slopes, NaN, saturation, table bounds).
#include <cmath>
#include <limits>

#include "typed_values.hpp"

using namespace cpu_test;

namespace {

/// Every activation kind but PReLU, with parameters.
const std::vector<op::activation> activation_kinds = {
    op::activation(activation_kind::relu),
    op::activation(activation_kind::relu6),
    op::activation(activation_kind::bounded_relu, 2.5f),
    op::activation(activation_kind::leaky_relu, 0.1f),
    op::activation(activation_kind::elu, 0.7f),
    op::activation(activation_kind::tanh, 1.5f, 0.5f),
    op::activation(activation_kind::sigmoid),
    op::activation(activation_kind::soft_relu),
    op::activation(activation_kind::abs),
    op::activation(activation_kind::square),
    op::activation(activation_kind::sqrt),
    op::activation(activation_kind::linear, 0.5f, 0.25f),
    op::activation(activation_kind::gelu),        // erf form
    op::activation(activation_kind::gelu, 1.0f),  // tanh form
    op::activation(activation_kind::clip, -1.0f, 1.5f),
    op::activation(activation_kind::hard_sigmoid, 0.2f, 0.5f),
    op::activation(activation_kind::hard_swish, 1.0f / 6.0f, 0.5f),
    op::activation(activation_kind::mish),
    op::activation(activation_kind::selu),
    op::activation(activation_kind::thresholded_relu, 0.5f),
    op::activation(activation_kind::softsign),
    op::activation(activation_kind::none),
};

/// A dtype with a grid of raw values spanning negative and positive reals.
const std::vector<typed_input> activation_inputs = {
    {"f64", dtype::f64, -4.0, 0.125, 65, {}},
    {"f16", dtype::f16, -4.0, 0.125, 65, {}},
    {"bf16", dtype::bf16, -4.0, 0.125, 65, {}},
    {"dlfloat16", dtype::dlfloat16, -4.0, 0.125, 65, {}},
    {"i8 quantised", dtype::i8, -120.0, 7.0, 35, {0.05f, 3, 0}},
    {"u8 quantised", dtype::u8, 0.0, 5.0, 52, {0.04f, 100, 0}},
    {"i16 Q7.8", dtype::i16, -1200.0, 37.0, 65, {1.0f, 0, 8}},
    {"i32", dtype::i32, -40.0, 3.0, 27, {}},
    {"i64", dtype::i64, -40.0, 3.0, 27, {}},
    {"u16", dtype::u16, 0.0, 3.0, 27, {}},
    {"u32", dtype::u32, 0.0, 3.0, 27, {}},
    {"u64", dtype::u64, 0.0, 3.0, 27, {}},
};

/// A tensor of `type` (quantisation `q`) holding raw values `raw`.
tensor raw_tensor(const shape& dims, dtype type, const std::vector<double>& raw,
                  const quantization& q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    REQUIRE(static_cast<std::int64_t>(raw.size()) == t.num_elements());
    for (std::size_t i = 0; i < raw.size(); ++i)
        numeric::store_raw(type, static_cast<char*>(t.data()) + i * size_of(type), raw[i]);
    return t;
}

/// The real values of `t`.
std::vector<double> reals(const tensor& t) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        v.push_back(numeric::load_real(t.type(), t.desc().quant(),
                                       static_cast<const char*>(t.data()) + i * size_of(t.type())));
    return v;
}

tensor native_output(const op_desc& op, const std::vector<tensor>& inputs) {
    return run_native(op, inputs).first.at(0);
}

/// PReLU slope shapes for a src shape, each admitted by op::activation's descriptor.
struct slope_form {
    const char* what;
    shape src, slope;
};

const std::vector<slope_form> slope_forms = {
    {"[C] per channel", shape{2, 3, 4, 5}, shape{3}},
    {"[1]", shape{2, 3, 4, 5}, shape{1}},
    {"scalar", shape{2, 3, 4, 5}, shape{}},
    {"[1, C, 1, 1]", shape{2, 3, 4, 5}, shape{1, 3, 1, 1}},
    {"[C, 1, 1]", shape{2, 3, 4, 5}, shape{3, 1, 1}},
    {"[H, W]", shape{2, 3, 4, 5}, shape{4, 5}},
    {"full", shape{2, 3, 4, 5}, shape{2, 3, 4, 5}},
    {"[1, 1, 1, W], W = C", shape{2, 3, 4, 3}, shape{1, 1, 1, 3}},
    {"[1, W], W = C", shape{2, 3, 4, 3}, shape{1, 3}},
    {"[C] of [N, C]", shape{4, 6}, shape{6}},
    {"[1, C] of [N, C]", shape{4, 6}, shape{1, 6}},
    {"[C] of [N, C, L]", shape{2, 5, 70}, shape{5}},
    {"[n] of [n]", shape{9}, shape{9}},
    {"[1] of [n]", shape{9}, shape{1}},
};

}  // namespace

TEST_CASE("activation of every kind on every dtype but f32 runs natively and matches exactly") {
    load_cpu_plugin();
    for (const auto& in : activation_inputs) {
        INFO(in.what);
        const tensor x = grid(shape{3, 4, 37}, in.type, 301, in.lo, in.step, in.steps, in.quant);
        for (const auto& a : activation_kinds) check_exact(a, {x});
        check_exact(op::activation(activation_kind::relu).set_clipping_value(0.75f), {x});
    }
}

TEST_CASE("f32 activation forms the runtime lacks run natively and match exactly") {
    load_cpu_plugin();
    const tensor x = grid(shape{2, 5, 6, 7}, dtype::f32, 302, -4.0, 0.0625, 129, {}, 17);
    check_exact(op::activation(activation_kind::gelu, 1.0f), {x});
    check_exact(op::activation(activation_kind::relu).set_propagate_nan(false), {x});
    check_exact(op::activation(activation_kind::sigmoid).set_propagate_nan(false), {x});
    check_exact(op::activation(activation_kind::leaky_relu, 0.1f).set_clipping_value(1.25f), {x});
    check_exact(op::activation(activation_kind::elu, 0.7f).set_clipping_value(0.5f), {x});
}

TEST_CASE("f32 activation kinds of the runtime stay on it and match within the tolerance") {
    load_cpu_plugin();
    const tensor x = grid(shape{2, 5, 6, 7}, dtype::f32, 303, -4.0, 0.0625, 129, {}, 17);
    for (const auto& a : activation_kinds) {
        if (a.kind() == activation_kind::gelu && a.a() != 0.0f) continue;  // the tanh form
        check_near(a, {x});
        check_near(a, {grid(shape{5, 77}, dtype::f32, 304, -4.0, 0.0625, 129)});
    }
}

TEST_CASE("PReLU with every slope broadcast form on every dtype runs natively and matches") {
    load_cpu_plugin();
    const op::activation prelu(activation_kind::prelu);
    for (const auto& f : slope_forms) {
        INFO(f.what);
        for (dtype t : {dtype::f32, dtype::f64, dtype::f16, dtype::i32}) {
            INFO(to_string(t));
            const double step = t == dtype::i32 ? 1.0 : 0.0625;
            const tensor x = grid(f.src, t, 305, -32.0 * step, step, 65);
            const tensor slope = grid(f.slope, t, 306, -8.0 * step, step, 17);
            check_exact(prelu, {x, slope});
        }
        // Quantised src with a slope of another dtype.
        const tensor q = grid(f.src, dtype::i8, 307, -100.0, 9.0, 23, {0.05f, -4, 0});
        check_exact(prelu, {q, grid(f.slope, dtype::f32, 308, -0.5, 0.0625, 17)});
        check_exact(prelu, {q, grid(f.slope, dtype::u8, 309, 0.0, 3.0, 40, {0.01f, 60, 0})});
    }
    // Large enough to be split over threads.
    check_exact(prelu, {grid(shape{4, 16, 40, 40}, dtype::f32, 310, -2.0, 0.03125, 129),
                        grid(shape{16}, dtype::f32, 311, -0.5, 0.0625, 17)});
}

TEST_CASE("PReLU reads a rank-1 slope per channel, a trailing one per column") {
    load_cpu_plugin();
    const op::activation prelu(activation_kind::prelu);
    const tensor x = raw_tensor(shape{1, 2, 1, 2}, dtype::f32, {-1.0, -2.0, -3.0, 4.0});
    const std::vector<double> channel_slopes = {0.5, 0.25};
    CHECK(reals(native_output(prelu, {x, raw_tensor(shape{2}, dtype::f32, channel_slopes)})) ==
          std::vector<double>{-0.5, -1.0, -0.75, 4.0});
    CHECK(reals(native_output(prelu,
                              {x, raw_tensor(shape{1, 1, 1, 2}, dtype::f32, channel_slopes)})) ==
          std::vector<double>{-0.5, -0.5, -1.5, 4.0});
}

TEST_CASE("activation edge cases: NaN suppression, the clipping value, GELU's tanh form") {
    load_cpu_plugin();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const tensor x = raw_tensor(shape{3}, dtype::f32, {nan, -1.0, 2.0});
    const auto relu = op::activation(activation_kind::relu);
    const auto kept = reals(native_output(relu, {x}));
    CHECK(std::isnan(kept[0]));
    CHECK(kept[1] == 0.0);
    CHECK(kept[2] == 2.0);
    CHECK(reals(native_output(op::activation(relu).set_propagate_nan(false), {x})) ==
          std::vector<double>{0.0, 0.0, 2.0});
    const tensor y = raw_tensor(shape{3}, dtype::f32, {-2.0, 0.5, 3.0});
    const auto clipped = reals(native_output(
        op::activation(activation_kind::leaky_relu, 0.1f).set_clipping_value(1.25f), {y}));
    CHECK(clipped[0] == doctest::Approx(-0.2).epsilon(1e-7));
    CHECK(clipped[1] == 0.5);
    CHECK(clipped[2] == 1.25);
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) at x = 1 and -2.
    const auto gelu = reals(native_output(op::activation(activation_kind::gelu, 1.0f),
                                          {raw_tensor(shape{2}, dtype::f32, {1.0, -2.0})}));
    CHECK(gelu[0] == doctest::Approx(0.8411919906).epsilon(1e-7));
    CHECK(gelu[1] == doctest::Approx(-0.0454023).epsilon(1e-5));
    // i8 quantised (scale 0.05, zero point -33): raw 127 is 8.0, relu6 gives 6.0, stored
    // 6 / 0.05 - 33 = 87; raw -50 is -0.85, relu6 gives 0, stored -33.
    const tensor q = raw_tensor(shape{2}, dtype::i8, {127.0, -50.0}, {0.05f, -33, 0});
    const tensor got = native_output(op::activation(activation_kind::relu6), {q});
    CHECK(got.data_as<std::int8_t>()[0] == 87);
    CHECK(got.data_as<std::int8_t>()[1] == -33);
}

TEST_CASE("fill runs natively on every dtype and stores the value as the reference does") {
    load_cpu_plugin();
    const std::vector<std::pair<tensor_desc, double>> fills = {
        {tensor_desc(shape{3, 5}, dtype::f32), 2.5},
        {tensor_desc(shape{400, 300}, dtype::f32), -1.5},  // split over threads
        {tensor_desc(shape{2, 3, 4}, dtype::f16), -0.75},
        {tensor_desc(shape{7}, dtype::bf16), 3.3},
        {tensor_desc(shape{3, 3}, dtype::u8, layout::row_major(), {0.5f, 10, 0}), 300.0},
        {tensor_desc(shape{3, 3}, dtype::i8, layout::row_major(), {0.5f, 0, 0}), -1.25},
        {tensor_desc(shape{5}, dtype::i16, layout::row_major(), {1.0f, 0, 8}), 1.5},
        {tensor_desc(shape{2, 2}, dtype::i32), -7.5},
        {tensor_desc(shape{2, 2}, dtype::i64), 1099511627777.0},
        {tensor_desc(shape{4}, dtype::u64), 42.0},
        {tensor_desc(shape{4}, dtype::f64), 0.1},
        {tensor_desc(shape{4}, dtype::boolean), 1.0},
        {tensor_desc(shape{}, dtype::f32), 4.0},
        {tensor_desc(shape{0, 3}, dtype::f32), 4.0},
    };
    for (const auto& [desc, value] : fills) check_exact(op::fill(desc, value), {});
    // Hand-computed: 300 / 0.5 + 10 saturates at 255; -1.25 / 0.5 = -2.5 rounds to even -2.
    const tensor u8 = native_output(
        op::fill(tensor_desc(shape{2}, dtype::u8, layout::row_major(), {0.5f, 10, 0}), 300.0), {});
    CHECK(u8.data_as<std::uint8_t>()[0] == 255);
    CHECK(u8.data_as<std::uint8_t>()[1] == 255);
    const tensor i8 = native_output(
        op::fill(tensor_desc(shape{3}, dtype::i8, layout::row_major(), {0.5f, 0, 0}), -1.25), {});
    CHECK(i8.data_as<std::int8_t>()[2] == -2);
    const tensor i64 =
        native_output(op::fill(tensor_desc(shape{2}, dtype::i64), 1099511627777.0), {});
    CHECK(i64.data_as<std::int64_t>()[1] == 1099511627777);
    const tensor big = native_output(op::fill(tensor_desc(shape{400, 300}, dtype::f32), -1.5), {});
    CHECK(reals(big) == std::vector<double>(120000, -1.5));
}

TEST_CASE("table_lookup runs natively on u8 and i16 and matches the reference") {
    load_cpu_plugin();
    // u8, default offset 0: inside the table looked up, outside kept.
    const tensor src = raw_tensor(shape{4}, dtype::u8, {0.0, 3.0, 5.0, 255.0});
    const tensor lut = raw_tensor(shape{4}, dtype::u8, {10.0, 11.0, 12.0, 13.0});
    CHECK(reals(native_output(op::table_lookup(), {src, lut})) ==
          std::vector<double>{10.0, 13.0, 5.0, 255.0});
    CHECK(reals(native_output(op::table_lookup(-2), {src, lut})) ==
          std::vector<double>{0.0, 11.0, 13.0, 255.0});
    // i16, default offset count / 2 = 2.
    const tensor s16 = raw_tensor(shape{2, 3}, dtype::i16, {-2.0, -1.0, 0.0, 2.0, 3.0, -3.0});
    const tensor l16 = raw_tensor(shape{5}, dtype::i16, {100.0, 101.0, 102.0, 103.0, 104.0});
    CHECK(reals(native_output(op::table_lookup(), {s16, l16})) ==
          std::vector<double>{100.0, 101.0, 102.0, 104.0, 3.0, -3.0});
    // A table quantised unlike src is converted into src's storage: raw 10 at scale 0.5 is 5.
    const tensor q_lut = raw_tensor(shape{2}, dtype::u8, {10.0, 7.0}, {0.5f, 0, 0});
    const tensor q_src = raw_tensor(shape{3}, dtype::u8, {1.0, 0.0, 9.0});
    const tensor looked = native_output(op::table_lookup(), {q_src, q_lut});
    CHECK(looked.data_as<std::uint8_t>()[0] == 4);  // 3.5 rounds to even
    CHECK(looked.data_as<std::uint8_t>()[1] == 5);
    CHECK(looked.data_as<std::uint8_t>()[2] == 9);
    check_exact(op::table_lookup(), {q_src, q_lut});
    // Large tensors (split over threads) against the reference.
    check_exact(op::table_lookup(), {grid(shape{300, 400}, dtype::u8, 312, 0.0, 1.0, 256),
                                     grid(shape{200}, dtype::u8, 313, 0.0, 1.0, 256)});
    check_exact(op::table_lookup(), {grid(shape{300, 400}, dtype::i16, 314, -700.0, 3.0, 500),
                                     grid(shape{1001}, dtype::i16, 315, -900.0, 7.0, 257)});
    check_exact(op::table_lookup(40), {grid(shape{3, 50}, dtype::i16, 316, -60.0, 1.0, 120),
                                       grid(shape{64}, dtype::i16, 317, -900.0, 7.0, 257)});
}

TEST_CASE("a per-channel f32 PReLU between convolutions stays in nchw16c and matches exactly") {
    load_cpu_plugin();
    // 20 channels: the second block has 12 padding lanes, which must stay 0 for the next conv.
    // Slope forms and the conversions the compiler inserts: none for the per-channel and single
    // slopes; a trailing [H, W] slope runs row-major, with a conversion on each side.
    const std::vector<std::pair<shape, int>> forms = {{shape{20}, 0},
                                                      {shape{1, 20, 1, 1}, 0},
                                                      {shape{20, 1, 1}, 0},
                                                      {shape{1}, 0},
                                                      {shape{5, 4}, 2}};
    for (const auto& form : forms) {
        const shape& slope_dims = form.first;  // captured by the build lambda
        CAPTURE(slope_dims);
        const auto build = [&](graph& g) {
            const auto x = g.input("x", tensor_desc(shape::nchw(2, 20, 5, 4), dtype::f32));
            auto t = g.apply("conv1", op::conv2d().padding(1, 1, 1, 1),
                             {x, g.constant("w1", values(shape{20, 20, 3, 3}, 401, -0.2f, 0.2f))});
            t = g.apply("prelu", op::activation(activation_kind::prelu),
                        {t, g.constant("slope", values(slope_dims, 402, -0.5f, 0.5f))});
            t = g.apply("conv2", op::conv2d(),
                        {t, g.constant("w2", values(shape{8, 20, 1, 1}, 403, -0.5f, 0.5f))});
            g.output(t);
            return g.tensors()[static_cast<std::size_t>(t)].name;
        };
        graph g, r;
        const std::string y = build(g);
        build(r);
        compiled_graph cg = g.compile("cpu!");
        const std::string report = cg.placement_report();
        CAPTURE(report);
        int inserted = 0;
        for (const auto& p : cg.placements()) inserted += p.inserted;
        CHECK(inserted == form.second);
        const tensor x = values(shape::nchw(2, 20, 5, 4), 404, -2.0f, 2.0f);
        check_close(cg.run({{"x", x}}).at(y), r.compile("reference").run({{"x", x}}).at(y),
                    tolerance_of("cpu"), 2, "conv -> prelu -> conv");
    }
    // The PReLU step alone equals the reference byte for byte (its input converted to nchw16c).
    check_exact(op::activation(activation_kind::prelu),
                {grid(shape{2, 20, 5, 4}, dtype::f32, 405, -2.0, 0.0625, 65),
                 grid(shape{20}, dtype::f32, 406, -0.5, 0.0625, 17)});
}
