// lowering_test.cpp: ONNX ops the importer lowers at load into other Tessera ops with constants
// computed from the static shapes, each checked against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"
#include "test_values.hpp"

using namespace tessera;
using namespace tessera::onnx::testing;
namespace tx = tessera::onnx;

namespace {

/// Loads `m`, runs it on the reference backend with input "x" and returns output `out`.
tensor run_x(const model_builder& m, const tensor& x, const std::string& out = "y") {
    return tx::load(m.bytes()).compile("reference").run({{"x", x}}).at(out);
}

/// A scalar bool initializer.
void bool_initializer(model_builder& m, const std::string& name, bool v) {
    auto* t = m.model().mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(9);
    t->add_int32_data(v ? 1 : 0);
}

void check_close(const std::vector<float>& got, const std::vector<float>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-5));
    }
}

}  // namespace

TEST_CASE("LayerNormalization computes its Mean and InvStdDev outputs") {
    model_builder m(17);
    m.input("x", {2, 3})
        .initializer("scale", {3}, {1, 1, 1})
        .output("y")
        .output("mean")
        .output("inv");
    model_builder::attr_float(
        m.node("LayerNormalization", {"x", "scale"}, {"y", "mean", "inv"}, "ln"), "epsilon", 0.25f);
    auto out = tx::load(m.bytes())
                   .compile("reference")
                   .run({{"x", filled(shape{2, 3}, {1, 2, 3, 0, 0, 6})}});
    CHECK(out.at("mean").dims() == shape{2, 1});
    CHECK(out.at("inv").dims() == shape{2, 1});
    // Row 1: mean 2, variance 2/3; row 2: mean 2, variance (4 + 4 + 16) / 3 = 8.
    check_close(floats_of(out.at("mean")), {2, 2});
    const float inv0 = 1.0f / std::sqrt(2.0f / 3 + 0.25f), inv1 = 1.0f / std::sqrt(8.25f);
    check_close(floats_of(out.at("inv")), {inv0, inv1});
    check_close(floats_of(out.at("y")), {-inv0, 0, inv0, -2 * inv1, -2 * inv1, 4 * inv1});
}

TEST_CASE("Trilu keeps the upper or lower triangle from diagonal k") {
    for (const bool upper : {true, false}) {
        CAPTURE(upper);
        model_builder m(14);
        m.input("x", {3, 4}, 6).int64_initializer("k", {}, {upper ? 1 : -1}).output("y");
        model_builder::attr_int(m.node("Trilu", {"x", "k"}, {"y"}, "trilu"), "upper", upper);
        std::vector<float> x(12);
        for (int i = 0; i < 12; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
        const tensor y = run_x(m, filled(shape{3, 4}, x, dtype::i32));
        CHECK(y.type() == dtype::i32);
        // upper, k = 1: j - i >= 1; lower, k = -1: j - i <= -1.
        const std::vector<float> want =
            upper ? std::vector<float>{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}
                  : std::vector<float>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0};
        CHECK(floats_of(y) == want);
    }
}

TEST_CASE("Hardmax marks the first maximum along the axis") {
    model_builder m(13);
    m.input("x", {2, 3}).output("y");
    model_builder::attr_int(m.node("Hardmax", {"x"}, {"y"}, "hardmax"), "axis", 0);
    const tensor y = run_x(m, filled(shape{2, 3}, {1, 5, 2, 3, 5, -1}));
    CHECK(floats_of(y) == std::vector<float>{0, 1, 1, 1, 0, 0});

    model_builder old(11);  // opset 11: [outer, inner] split at axis 1, first of tied maxima
    old.input("x", {2, 3}).output("y");
    old.node("Hardmax", {"x"}, {"y"}, "hardmax");
    CHECK(floats_of(run_x(old, filled(shape{2, 3}, {4, 4, 1, 0, 2, 3}))) ==
          std::vector<float>{1, 0, 0, 0, 0, 1});
}

TEST_CASE("Mod: Python-style integer remainders, C fmod for floats") {
    model_builder m(13);
    m.input("x", {5}, 6).int32_initializer("d", {5}, {3, -3, 5, -3, 4}).output("y");
    m.node("Mod", {"x", "d"}, {"y"}, "mod");
    CHECK(floats_of(run_x(m, filled(shape{5}, {-4, 4, 5, -7, 7}, dtype::i32))) ==
          std::vector<float>{2, -2, 0, -1, 3});

    model_builder f(13);
    f.input("x", {4}).initializer("d", {4}, {2, -2, 0.75f, 3}).output("y");
    model_builder::attr_int(f.node("Mod", {"x", "d"}, {"y"}, "mod"), "fmod", 1);
    check_close(floats_of(run_x(f, filled(shape{4}, {-4.5f, 7.5f, 2.0f, -6}))),
                {-0.5f, 1.5f, 0.5f, 0});

    model_builder bad(13);
    bad.input("x", {4}).initializer("d", {4}, {2, -2, 1, 3}).output("y");
    bad.node("Mod", {"x", "d"}, {"y"}, "mod");
    CHECK(import_failure(bad).find("mod (Mod): fmod = 0 with floating inputs") == 0);
}

TEST_CASE("CastLike casts to the dtype of its second input") {
    model_builder m(15);
    m.input("x", {3}).int32_initializer("like", {1}, {0}).output("y");
    m.node("CastLike", {"x", "like"}, {"y"}, "cast_like");
    const tensor y = run_x(m, filled(shape{3}, {1.9f, -2.5f, 3}));
    CHECK(y.type() == dtype::i32);
    CHECK(floats_of(y) == std::vector<float>{1, -2, 3});
}

TEST_CASE("Shrink, MeanVarianceNormalization and SpaceToDepth") {
    model_builder s(9);
    s.input("x", {5}).output("y");
    auto& shrink = s.node("Shrink", {"x"}, {"y"}, "shrink");
    model_builder::attr_float(shrink, "lambd", 1.5f);
    model_builder::attr_float(shrink, "bias", 0.5f);
    CHECK(floats_of(run_x(s, filled(shape{5}, {-2, -1, 0, 1, 2}))) ==
          std::vector<float>{-1.5f, 0, 0, 0, 1.5f});

    model_builder mvn(13);
    mvn.input("x", {1, 2, 1, 2}).output("y");
    mvn.node("MeanVarianceNormalization", {"x"}, {"y"}, "mvn");
    // Per channel over N, H, W: channel 0 {1, 3} -> mean 2, std 1; channel 1 {4, 4} -> std 0.
    check_close(floats_of(run_x(mvn, filled(shape{1, 2, 1, 2}, {1, 3, 4, 4}))), {-1, 1, 0, 0});

    model_builder d(13);
    d.input("x", {1, 2, 2, 2}).output("y");
    model_builder::attr_int(d.node("SpaceToDepth", {"x"}, {"y"}, "s2d"), "blocksize", 2);
    const tensor y = run_x(d, filled(shape{1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}));
    REQUIRE(y.dims() == shape{1, 8, 1, 1});
    // Output channel (bh * 2 + bw) * C + c holds x[c, bh, bw].
    CHECK(floats_of(y) == std::vector<float>{0, 4, 1, 5, 2, 6, 3, 7});
}

TEST_CASE("EyeLike folds to a constant and OneHot compares indices with a ramp") {
    model_builder e(9);
    e.input("x", {2, 3}, 6).output("y");
    auto& eye = e.node("EyeLike", {"x"}, {"y"}, "eye");
    model_builder::attr_int(eye, "k", 1);
    model_builder::attr_int(eye, "dtype", 1);
    // Only x's dims matter: the output is folded and the graph needs no input.
    const tensor y = tx::load(e.bytes()).compile("reference").run({}).at("y");
    CHECK(y.type() == dtype::f32);
    CHECK(floats_of(y) == std::vector<float>{0, 1, 0, 0, 0, 1});

    model_builder o(11);
    o.input("x", {3}).initializer("depth", {}, {3}).initializer("values", {2}, {-1, 5}).output("y");
    model_builder::attr_int(o.node("OneHot", {"x", "depth", "values"}, {"y"}, "onehot"), "axis", 0);
    // Indices 1, -1 (= 2) and 2.7 (truncated to 2) along a new leading axis of depth 3.
    const tensor h = run_x(o, filled(shape{3}, {1, -1, 2.7f}));
    REQUIRE(h.dims() == shape{3, 3});
    CHECK(floats_of(h) == std::vector<float>{-1, -1, -1, 5, -1, -1, -1, 5, 5});
}

TEST_CASE("Resize: nearest modes gather, cubic and fractional linear resizes multiply") {
    const auto nearest = [](const std::string& mode) {
        model_builder m(13);
        m.input("x", {1, 1, 1, 3}).initializer("scales", {4}, {1, 1, 1, 2}).output("y");
        auto& r = m.node("Resize", {"x", "", "scales"}, {"y"}, "resize");
        model_builder::attr_string(r, "coordinate_transformation_mode", "asymmetric");
        model_builder::attr_string(r, "nearest_mode", mode);
        return floats_of(run_x(m, filled(shape{1, 1, 1, 3}, {10, 20, 30})));
    };
    // Source coordinates x / 2: 0, 0.5, 1, 1.5, 2, 2.5 (clamped to 2).
    CHECK(nearest("round_prefer_floor") == std::vector<float>{10, 10, 20, 20, 30, 30});
    CHECK(nearest("round_prefer_ceil") == std::vector<float>{10, 20, 20, 30, 30, 30});

    model_builder c(13);
    c.input("x", {1, 1, 1, 4}).initializer("scales", {4}, {1, 1, 1, 2}).output("y");
    model_builder::attr_string(c.node("Resize", {"x", "", "scales"}, {"y"}, "resize"), "mode",
                               "cubic");
    const auto y = floats_of(run_x(c, filled(shape{1, 1, 1, 4}, {0, 1, 2, 3})));
    REQUIRE(y.size() == 8);
    // half_pixel, A = -0.75: output 3 sits at 1.25, taps 0..3 weigh W(1.25) = -0.10546875,
    // W(0.25) = 0.87890625, W(0.75) = 0.26171875, W(1.75) = -0.03515625; output 4 at 1.75 mirrors
    // them. Output 0 sits at -0.25: taps -2..1 clamp to 0, 0, 0, 1 and only W(1.25) meets the 1.
    CHECK(y[3] == doctest::Approx(0.87890625 + 2 * 0.26171875 - 3 * 0.03515625));
    CHECK(y[4] == doctest::Approx(0.26171875 + 2 * 0.87890625 - 3 * 0.10546875));
    CHECK(y[0] == doctest::Approx(-0.10546875));

    model_builder l(13);
    l.input("x", {1, 1, 1, 4}).initializer("scales", {4}, {1, 1, 1, 0.6f}).output("y");
    model_builder::attr_string(l.node("Resize", {"x", "", "scales"}, {"y"}, "resize"), "mode",
                               "linear");
    // floor(4 * 0.6) = 2 outputs at (x + 0.5) / 0.6 - 0.5: 1/3 and 2.
    check_close(floats_of(run_x(l, filled(shape{1, 1, 1, 4}, {0, 1, 2, 3}))), {1.0f / 3, 2});

    model_builder u(1);  // Upsample-1: height_scale, width_scale; nearest floors
    u.input("x", {1, 1, 1, 2}).output("y");
    auto& up = u.node("Upsample", {"x"}, {"y"}, "upsample");
    model_builder::attr_float(up, "height_scale", 2.0f);
    model_builder::attr_float(up, "width_scale", 3.0f);
    const tensor uy = run_x(u, filled(shape{1, 1, 1, 2}, {1, 2}));
    REQUIRE(uy.dims() == shape{1, 1, 2, 6});
    CHECK(floats_of(uy) == std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
}

TEST_CASE("integer Clip, Dropout's all-true mask and training-mode BatchNormalization") {
    model_builder c(13);
    c.input("x", {4}, 6).int32_initializer("lo", {}, {-2}).int32_initializer("hi", {}, {3});
    c.output("y");
    c.node("Clip", {"x", "lo", "hi"}, {"y"}, "clip");
    const tensor y = run_x(c, filled(shape{4}, {-5, -1, 2, 100}, dtype::i32));
    CHECK(y.type() == dtype::i32);
    CHECK(floats_of(y) == std::vector<float>{-2, -1, 2, 3});

    model_builder d(13);  // training_mode with ratio 0 drops nothing: identity, mask all true
    d.input("x", {3}).initializer("ratio", {}, {0.0f}).output("y").output("mask");
    bool_initializer(d, "training", true);
    d.node("Dropout", {"x", "ratio", "training"}, {"y", "mask"}, "dropout");
    const auto out =
        tx::load(d.bytes()).compile("reference").run({{"x", filled(shape{3}, {1, 2, 3})}});
    CHECK(floats_of(out.at("y")) == std::vector<float>{1, 2, 3});
    const tensor mask = out.at("mask").clone();
    REQUIRE(mask.type() == dtype::boolean);
    for (std::int64_t i = 0; i < 3; ++i) CHECK(mask.data_as<std::uint8_t>()[i] == 1);

    model_builder random(13);  // a non-zero ratio in training mode is random: refused
    random.input("x", {3}).initializer("ratio", {}, {0.5f}).output("y");
    bool_initializer(random, "training", true);
    random.node("Dropout", {"x", "ratio", "training"}, {"y"}, "dropout");
    CHECK(import_failure(random).find("dropout (Dropout): training_mode = true with ratio") == 0);

    model_builder bn(15);
    bn.input("x", {2, 2, 1, 1})
        .initializer("scale", {2}, {1, 1})
        .initializer("bias", {2}, {0, 0})
        .initializer("mean", {2}, {0, 0})
        .initializer("var", {2}, {1, 1})
        .output("y")
        .output("running_mean")
        .output("running_var");
    auto& node = bn.node("BatchNormalization", {"x", "scale", "bias", "mean", "var"},
                         {"y", "running_mean", "running_var"}, "bn");
    model_builder::attr_int(node, "training_mode", 1);
    model_builder::attr_float(node, "epsilon", 0.0f);
    const auto r = tx::load(bn.bytes())
                       .compile("reference")
                       .run({{"x", filled(shape{2, 2, 1, 1}, {1, 10, 3, 30})}});
    // Batch means {2, 20}, variances {1, 100}; running = 0.9 * input + 0.1 * batch.
    check_close(floats_of(r.at("y")), {-1, -1, 1, 1});
    check_close(floats_of(r.at("running_mean")), {0.2f, 2.0f});
    check_close(floats_of(r.at("running_var")), {1.0f, 10.9f});
}

TEST_CASE("Einsum: transposes, diagonals, sums and batched products") {
    const auto einsum = [](const std::string& equation, const std::vector<shape>& dims,
                           const std::vector<std::vector<float>>& values) {
        model_builder m(12);
        std::vector<std::string> names;
        for (std::size_t i = 0; i < dims.size(); ++i) {
            names.push_back("x" + std::to_string(i));
            m.input(names.back(), std::vector<std::int64_t>(dims[i].begin(), dims[i].end()));
        }
        m.output("y");
        model_builder::attr_string(m.node("Einsum", names, {"y"}, "einsum"), "equation", equation);
        std::map<std::string, tensor> feeds;
        for (std::size_t i = 0; i < dims.size(); ++i) feeds[names[i]] = filled(dims[i], values[i]);
        return tx::load(m.bytes()).compile("reference").run(feeds).at("y").clone();
    };
    const std::vector<float> m23 = {1, 2, 3, 4, 5, 6};  // [[1, 2, 3], [4, 5, 6]]
    const tensor t = einsum("ij->ji", {shape{2, 3}}, {m23});
    CHECK(t.dims() == shape{3, 2});
    CHECK(floats_of(t) == std::vector<float>{1, 4, 2, 5, 3, 6});
    CHECK(floats_of(einsum("ij->i", {shape{2, 3}}, {m23})) == std::vector<float>{6, 15});
    CHECK(floats_of(einsum("i,i", {shape{3}, shape{3}}, {{1, 2, 3}, {4, 5, 6}})) ==
          std::vector<float>{32});
    // ...ii->...i: the diagonal of each [2, 2] matrix of a [2, 2, 2] batch.
    CHECK(floats_of(einsum("...ii->...i", {shape{2, 2, 2}}, {{1, 2, 3, 4, 5, 6, 7, 8}})) ==
          std::vector<float>{1, 4, 5, 8});
    // bij,bjk->bik: batch 0 is [1 2] x [[1], [1]] = 3; batch 1 is [3 4] x [[2], [-1]] = 2.
    CHECK(floats_of(einsum("bij,bjk->bik", {shape{2, 1, 2}, shape{2, 2, 1}},
                           {{1, 2, 3, 4}, {1, 1, 2, -1}})) == std::vector<float>{3, 2});
    // Attention scores bhid,bhjd->bhij: q rows (1, 0) and (0, 1) against k rows (2, 3), (4, 5).
    const tensor s = einsum("bhid,bhjd->bhij", {shape{1, 1, 2, 2}, shape{1, 1, 2, 2}},
                            {{1, 0, 0, 1}, {2, 3, 4, 5}});
    CHECK(s.dims() == shape{1, 1, 2, 2});
    CHECK(floats_of(s) == std::vector<float>{2, 4, 3, 5});
}

TEST_CASE("window functions fold to constants; Compress gathers the kept slices") {
    const auto window = [](const std::string& op, bool periodic) {
        model_builder m(17);
        m.int32_initializer("size", {}, {4}).output("y");
        model_builder::attr_int(m.node(op, {"size"}, {"y"}, "window"), "periodic", periodic);
        return floats_of(tx::load(m.bytes()).compile("reference").run({}).at("y"));
    };
    // N = 4 (periodic) or 3: Hann 0.5 - 0.5 cos(2 pi n / N); Blackman adds 0.08 cos(4 pi n / N).
    check_close(window("HannWindow", true), {0, 0.5f, 1, 0.5f});
    check_close(window("HannWindow", false), {0, 0.75f, 0.75f, 0});
    check_close(window("BlackmanWindow", true), {0, 0.34f, 1, 0.34f});
    const float a = 25.0f / 46;
    check_close(window("HammingWindow", true), {a - (1 - a), a, 1, a});

    model_builder c(11);
    c.input("x", {3, 2}).output("rows").output("flat");
    small_int_initializer(c, "keep_rows", {3}, 9, {0, 1, 1});
    small_int_initializer(c, "keep_flat", {4}, 9, {1, 0, 0, 1});
    model_builder::attr_int(c.node("Compress", {"x", "keep_rows"}, {"rows"}, "rows"), "axis", 0);
    c.node("Compress", {"x", "keep_flat"}, {"flat"}, "flat");
    const auto out = tx::load(c.bytes())
                         .compile("reference")
                         .run({{"x", filled(shape{3, 2}, {1, 2, 3, 4, 5, 6})}});
    CHECK(out.at("rows").dims() == shape{2, 2});
    CHECK(floats_of(out.at("rows")) == std::vector<float>{3, 4, 5, 6});
    CHECK(floats_of(out.at("flat")) == std::vector<float>{1, 4});
}

TEST_CASE("QuantizeLinear rounds half to even and saturates; Dequantize and Dynamic invert it") {
    model_builder q(13);
    q.input("x", {6}).initializer("scale", {}, {2}).output("y");
    small_int_initializer(q, "zero_point", {}, 2, {128});
    q.node("QuantizeLinear", {"x", "scale", "zero_point"}, {"y"}, "quantize");
    // x / 2 = -0.5, 0.2, 1.25, 2.5, 3.5, 150 -> -0, 0, 1, 2, 4, 150; + 128, saturated at 255.
    const tensor y = run_x(q, filled(shape{6}, {-1, 0.4f, 2.5f, 5, 7, 300}));
    REQUIRE(y.type() == dtype::u8);
    CHECK(floats_of(y) == std::vector<float>{128, 128, 129, 130, 132, 255});

    model_builder d(13);
    d.initializer("scale", {}, {0.5f}).output("y");
    small_int_initializer(d, "x", {3}, 2, {0, 128, 255});
    small_int_initializer(d, "zero_point", {}, 2, {128});
    d.node("DequantizeLinear", {"x", "scale", "zero_point"}, {"y"}, "dequantize");
    CHECK(floats_of(tx::load(d.bytes()).compile("reference").run({}).at("y")) ==
          std::vector<float>{-64, 0, 63.5f});

    model_builder dq(11);
    dq.input("x", {4}).output("y").output("scale").output("zero_point");
    dq.node("DynamicQuantizeLinear", {"x"}, {"y", "scale", "zero_point"}, "dynamic");
    // Range [-0.5, 2]: scale 2.5 / 255, zero point 0.5 / scale = 51.
    const auto r =
        tx::load(dq.bytes()).compile("reference").run({{"x", filled(shape{4}, {-0.5f, 0, 1, 2})}});
    CHECK(floats_of(r.at("scale"))[0] == doctest::Approx(2.5 / 255));
    CHECK(floats_of(r.at("zero_point")) == std::vector<float>{51});
    CHECK(floats_of(r.at("y")) == std::vector<float>{0, 51, 153, 255});
}

TEST_CASE("DFT: forward of a shifted impulse, onesided, and the inverse back") {
    const auto dft = [](const std::vector<float>& x, std::int64_t parts, bool inverse,
                        bool onesided) {
        model_builder m(17);
        m.input("x", {1, 4, parts}).output("y");
        auto& n = m.node("DFT", {"x"}, {"y"}, "dft");
        model_builder::attr_int(n, "inverse", inverse);
        model_builder::attr_int(n, "onesided", onesided);
        return run_x(m, filled(shape{1, 4, parts}, x));
    };
    // x = delta[n - 1]: X[k] = exp(-2 pi i k / 4) = 1, -i, -1, i (pairs of real, imaginary).
    const tensor y = dft({0, 1, 0, 0}, 1, false, false);
    REQUIRE(y.dims() == shape{1, 4, 2});
    check_close(floats_of(y), {1, 0, 0, -1, -1, 0, 0, 1});
    check_close(floats_of(dft({0, 1, 0, 0}, 1, false, true)), {1, 0, 0, -1, -1, 0});
    check_close(floats_of(dft({1, 0, 0, -1, -1, 0, 0, 1}, 2, true, false)),
                {0, 0, 1, 0, 0, 0, 0, 0});
}

TEST_CASE("STFT: windowed frames every frame_step, onesided DFT of each") {
    model_builder m(17);
    m.input("x", {1, 5, 1})
        .int32_initializer("step", {}, {2})
        .initializer("window", {2}, {1, 0.5f})
        .output("y");
    m.node("STFT", {"x", "step", "window"}, {"y"}, "stft");
    // Frames (1, 2), (3, 4) windowed to (1, 1), (3, 2); 2-point DFT: (a + b, a - b), bins 0..1.
    const tensor y = run_x(m, filled(shape{1, 5, 1}, {1, 2, 3, 4, 5}));
    REQUIRE(y.dims() == shape{1, 2, 2, 2});
    check_close(floats_of(y), {2, 0, 0, 0, 5, 0, 1, 0});
}

TEST_CASE("MelWeightMatrix folds ONNX's triangular filter bank") {
    model_builder m(17);
    m.int32_initializer("bins", {}, {2})
        .int32_initializer("dft_length", {}, {16})
        .int32_initializer("sample_rate", {}, {16})
        .initializer("lower", {}, {0})
        .initializer("upper", {}, {7})
        .output("y");
    m.node("MelWeightMatrix", {"bins", "dft_length", "sample_rate", "lower", "upper"}, {"y"},
           "mel");
    const tensor y = tx::load(m.bytes()).compile("reference").run({}).at("y");
    REQUIRE(y.dims() == shape{9, 2});
    // mel(7 Hz) = 2595 log10(1.01) = 11.214; edges at 0, 1/4, 2/4, 3/4 of it are 0, 1.74, 3.49,
    // 5.24 Hz, i.e. spectrum bins floor(17 hz / 16) = 0, 1, 3, 5: triangles (0, 1, 3), (1, 3, 5).
    check_close(floats_of(y), {0, 0, 1, 0, 0.5f, 0.5f, 0, 1, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("GridSample: bilinear, nearest and bicubic with zeros, border and reflection padding") {
    const auto sample = [](const std::string& mode, const std::string& padding, bool align,
                           const std::vector<float>& points) {
        model_builder m(16);
        const auto count = static_cast<std::int64_t>(points.size() / 2);
        m.input("x", {1, 1, 2, 2}).initializer("grid", {1, 1, count, 2}, points).output("y");
        auto& n = m.node("GridSample", {"x", "grid"}, {"y"}, "grid_sample");
        model_builder::attr_string(n, "mode", mode);
        model_builder::attr_string(n, "padding_mode", padding);
        model_builder::attr_int(n, "align_corners", align);
        return floats_of(run_x(m, filled(shape{1, 1, 2, 2}, {1, 2, 3, 4})));
    };
    // align_corners: (-1, -1) is pixel (0, 0), (1, -1) pixel (1, 0), the centre averages all four.
    check_close(sample("bilinear", "zeros", true, {-1, -1, 1, -1, 0, 0}), {1, 2, 2.5f});
    // Without align_corners (-1, -1) is (-0.5, -0.5): a quarter of pixel (0, 0) with zeros, the
    // border pixel with border, and reflected onto (-0.5 -> -0.5 -> clamped 0) with reflection.
    check_close(sample("bilinear", "zeros", false, {-1, -1}), {0.25f});
    check_close(sample("bilinear", "border", false, {-1, -1}), {1});
    check_close(sample("bilinear", "reflection", false, {-1, -1}), {1});
    // nearest: (0.6, 0.6) is (1.1, 1.1) -> pixel (1, 1); (-1, -1) rounds -0.5 to even 0.
    check_close(sample("nearest", "zeros", false, {0.6f, 0.6f, -1, -1}), {4, 1});
    // bicubic on a pixel centre: the kernel is 1 there and 0 at the other taps.
    check_close(sample("bicubic", "zeros", true, {1, 1}), {4});
}

TEST_CASE("RNN, GRU and LSTM unroll over the sequence with ONNX's gate orders") {
    const auto run_cell = [](const std::string& op, std::int64_t gates, const std::vector<float>& w,
                             const std::vector<float>& r, const std::vector<float>& x,
                             const std::string& direction) {
        model_builder m(14);
        const auto steps = static_cast<std::int64_t>(x.size());
        m.input("x", {steps, 1, 1})
            .initializer("W", {1, gates, 1}, w)
            .initializer("R", {1, gates, 1}, r)
            .output("y")
            .output("y_h");
        auto& n = m.node(op, {"x", "W", "R"}, {"y", "y_h"}, "cell");
        model_builder::attr_int(n, "hidden_size", 1);
        model_builder::attr_string(n, "direction", direction);
        const auto out =
            tx::load(m.bytes()).compile("reference").run({{"x", filled(shape{steps, 1, 1}, x)}});
        std::vector<float> values = floats_of(out.at("y"));
        values.push_back(floats_of(out.at("y_h"))[0]);
        return values;
    };
    // RNN: h_t = tanh(0.5 x_t + h_(t-1)); forward over x = (1, 2), then in reverse.
    const float h1 = std::tanh(0.5f), h2 = std::tanh(1.0f + h1);
    check_close(run_cell("RNN", 1, {0.5f}, {1}, {1, 2}, "forward"), {h1, h2, h2});
    const float r1 = std::tanh(1.0f), r2 = std::tanh(0.5f + r1);
    check_close(run_cell("RNN", 1, {0.5f}, {1}, {1, 2}, "reverse"), {r2, r1, r2});
    // GRU (z, r, h) with W = (0, 0, 1), R = 0, x = 1: z = r = 0.5, candidate tanh(1),
    // h = 0.5 tanh(1) + 0.5 * 0.
    const float g = 0.5f * std::tanh(1.0f);
    check_close(run_cell("GRU", 3, {0, 0, 1}, {0, 0, 0}, {1}, "forward"), {g, g});
    // LSTM (i, o, f, c) with W = (0, 0, 0, 1): i = o = f = 0.5, c = 0.5 tanh(1), h = 0.5 tanh(c).
    const float c = 0.5f * std::tanh(1.0f), l = 0.5f * std::tanh(c);
    check_close(run_cell("LSTM", 4, {0, 0, 0, 1}, {0, 0, 0, 0}, {1}, "forward"), {l, l});
}

TEST_CASE("Det: the Leibniz sum of 1x1 to 4x4 matrices, batched; larger n is declined") {
    const auto det = [](const shape& dims, const std::vector<float>& values) {
        model_builder m(11);
        m.input("x", std::vector<std::int64_t>(dims.begin(), dims.end())).output("y");
        m.node("Det", {"x"}, {"y"}, "det");
        return run_x(m, filled(dims, values));
    };
    // 2 * (3 * 4 - 2 * 1) - 0 + 1 * (1 * 1 - 3 * 1) = 18.
    const tensor three = det(shape{3, 3}, {2, 0, 1, 1, 3, 2, 1, 1, 4});
    CHECK(three.dims() == shape{});
    check_close(floats_of(three), {18});
    const tensor batched = det(shape{2, 2, 2}, {1, 2, 3, 4, 4, 0, 0, 0.5f});
    CHECK(batched.dims() == shape{2});
    check_close(floats_of(batched), {-2, 2});
    // Rows 0 and 1 of diag(2, 1, 3, 4) swapped: -(2 * 1 * 3 * 4).
    check_close(floats_of(det(shape{4, 4}, {0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4})),
                {-24});
    check_close(floats_of(det(shape{1, 1}, {-7})), {-7});

    model_builder large(11);
    large.input("x", {5, 5}).output("y");
    large.node("Det", {"x"}, {"y"}, "det5");
    CHECK(import_failure(large) == "det5 (Det): n = 5 (unrolled for n from 1 to 4 only)");
}

TEST_CASE("MaxPool with Indices, dilations or 3-D windows gathers the window taps") {
    model_builder m(12);
    m.input("x", {1, 1, 3, 3}).output("y").output("i").output("yc").output("ic");
    model_builder::attr_ints(m.node("MaxPool", {"x"}, {"y", "i"}, "rows"), "kernel_shape", {2, 2});
    auto& column = m.node("MaxPool", {"x"}, {"yc", "ic"}, "columns");
    model_builder::attr_ints(column, "kernel_shape", {2, 2});
    model_builder::attr_int(column, "storage_order", 1);
    const auto out = tx::load(m.bytes())
                         .compile("reference")
                         .run({{"x", filled(shape{1, 1, 3, 3}, {1, 9, 3, 4, 5, 6, 7, 8, 2})}});
    // Maxima 9 at (0, 1) and 8 at (2, 1): row-major 1 and 7, column-major 0 + 1 * 3 and 2 + 1 * 3.
    CHECK(floats_of(out.at("y")) == std::vector<float>{9, 9, 8, 8});
    CHECK(floats_of(out.at("i")) == std::vector<float>{1, 1, 7, 7});
    CHECK(floats_of(out.at("ic")) == std::vector<float>{3, 3, 5, 5});

    model_builder dilated(12);
    dilated.input("x", {1, 1, 4, 4}).output("y");
    auto& d = dilated.node("MaxPool", {"x"}, {"y"}, "dilated");
    model_builder::attr_ints(d, "kernel_shape", {2, 2});
    model_builder::attr_ints(d, "dilations", {2, 2});
    std::vector<float> negated(16);
    for (int i = 0; i < 16; ++i) negated[static_cast<std::size_t>(i)] = static_cast<float>(-i);
    // Taps (h, w), (h, w + 2), (h + 2, w), (h + 2, w + 2): the maximum is -(4h + w).
    const tensor y = run_x(dilated, filled(shape{1, 1, 4, 4}, negated));
    CHECK(y.dims() == shape{1, 1, 2, 2});
    CHECK(floats_of(y) == std::vector<float>{0, -1, -4, -5});

    model_builder cube(12);
    cube.input("x", {1, 2, 2, 2, 2}).output("y").output("i");
    auto& c = cube.node("MaxPool", {"x"}, {"y", "i"}, "cube");
    model_builder::attr_ints(c, "kernel_shape", {2, 2, 2});
    model_builder::attr_ints(c, "pads", {1, 0, 0, 0, 0, 0});
    const auto r = tx::load(cube.bytes())
                       .compile("reference")
                       .run({{"x", filled(shape{1, 2, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3,
                                                                 -4, -5, -6, -7, -8})}});
    // Depth windows {pad, 0} and {0, 1}: channel 0 maxima 4 (index 3) and 8 (7); channel 1 -1 at
    // its first element both times (index 8, after channel 0's 8 elements).
    CHECK(r.at("y").dims() == shape{1, 2, 2, 1, 1});
    CHECK(floats_of(r.at("y")) == std::vector<float>{4, 8, -1, -1});
    CHECK(floats_of(r.at("i")) == std::vector<float>{3, 7, 8, 8});
}

TEST_CASE("MaxUnpool places each element at its constant index, zeros elsewhere") {
    const auto unpool = [](const std::vector<std::int64_t>& indices, bool with_shape) {
        model_builder m(11);
        m.input("x", {1, 1, 2, 2}).output("y");
        m.int64_initializer("i", {1, 1, 2, 2}, indices);
        std::vector<std::string> inputs{"x", "i"};
        if (with_shape) {
            m.int64_initializer("shape", {4}, {1, 1, 5, 5});
            inputs.push_back("shape");
        }
        auto& n = m.node("MaxUnpool", inputs, {"y"}, "unpool");
        model_builder::attr_ints(n, "kernel_shape", {2, 2});
        model_builder::attr_ints(n, "strides", {2, 2});
        return m;
    };
    const tensor x = filled(shape{1, 1, 2, 2}, {5, 6, 7, 8});
    // Indices 5, 7, 13, 15 of the inferred 4x4: (1, 1), (1, 3), (3, 1), (3, 3).
    const tensor y = run_x(unpool({5, 7, 13, 15}, false), x);
    CHECK(y.dims() == shape{1, 1, 4, 4});
    std::vector<float> want(16, 0.0f);
    want[5] = 5;
    want[7] = 6;
    want[13] = 7;
    want[15] = 8;
    CHECK(floats_of(y) == want);
    // The same coordinates in a 5x5 output: flat 6, 8, 16, 18.
    const tensor wide = run_x(unpool({5, 7, 13, 15}, true), x);
    CHECK(wide.dims() == shape{1, 1, 5, 5});
    std::vector<float> want_wide(25, 0.0f);
    want_wide[6] = 5;
    want_wide[8] = 6;
    want_wide[16] = 7;
    want_wide[18] = 8;
    CHECK(floats_of(wide) == want_wide);
    CHECK(import_failure(unpool({5, 7, 13, 16}, false)) ==
          "unpool (MaxUnpool): index 16 is outside the 16 elements of the unpooled shape");
}

TEST_CASE("3-D AveragePool divides the gathered taps' sum by the taps counted") {
    const auto average = [](bool include_padding) {
        model_builder m(12);
        m.input("x", {1, 1, 2, 2, 2}).output("y");
        auto& n = m.node("AveragePool", {"x"}, {"y"}, "average");
        model_builder::attr_ints(n, "kernel_shape", {2, 2, 2});
        model_builder::attr_ints(n, "pads", {1, 0, 0, 0, 0, 0});
        model_builder::attr_int(n, "count_include_pad", include_padding);
        return run_x(m, filled(shape{1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
    };
    // Depth window {pad, 0}: sum 1 + 2 + 3 + 4 = 10 over 4 inside taps (2.5) or all 8 (1.25);
    // window {0, 1}: 36 / 8.
    const tensor excluded = average(false);
    CHECK(excluded.dims() == shape{1, 1, 2, 1, 1});
    check_close(floats_of(excluded), {2.5f, 4.5f});
    check_close(floats_of(average(true)), {1.25f, 4.5f});
}

TEST_CASE("RoiAlign samples each region bilinearly as a matmul with constant weights") {
    const auto roi_align = [](const std::string& transform) {
        model_builder m(16);
        m.input("x", {2, 1, 2, 2}).output("y");
        m.initializer("rois", {3, 4}, {0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 2, 1});
        m.int64_initializer("batch", {3}, {0, 1, 0});
        auto& n = m.node("RoiAlign", {"x", "rois", "batch"}, {"y"}, "roi");
        model_builder::attr_int(n, "output_height", 1);
        model_builder::attr_int(n, "output_width", 1);
        model_builder::attr_int(n, "sampling_ratio", 1);
        model_builder::attr_string(n, "coordinate_transformation_mode", transform);
        return run_x(m, filled(shape{2, 1, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40}));
    };
    // half_pixel: one sample at (y, x) = (0, 0), (0, 0) and (0, 1, clamped to the last column).
    const tensor half = roi_align("half_pixel");
    CHECK(half.dims() == shape{3, 1, 1, 1});
    check_close(floats_of(half), {1, 10, 2});
    // output_half_pixel: (0.5, 0.5) averages the four pixels; (0.5, 1.5) clamps x to column 1.
    check_close(floats_of(roi_align("output_half_pixel")), {2.5f, 25, 3});
}

TEST_CASE("PRelu: a rank-1 slope applies along X's last dim, a [C, 1, 1] one per channel") {
    const tensor x = filled(shape{1, 2, 1, 2}, {-1, -2, -3, 4});
    const auto prelu = [&](const std::vector<std::int64_t>& slope_dims) {
        model_builder m;
        m.input("x", {1, 2, 1, 2}).initializer("slope", slope_dims, {0.5f, 0.25f}).output("y");
        m.node("PRelu", {"x", "slope"}, {"y"}, "prelu");
        return floats_of(run_x(m, x));
    };
    // [2] broadcasts from the right: slope 0.5 for column 0, 0.25 for column 1 (here W = C).
    check_close(prelu({2}), {-0.5f, -0.5f, -1.5f, 4});
    // [2, 1, 1]: slope 0.5 for channel 0, 0.25 for channel 1.
    check_close(prelu({2, 1, 1}), {-0.5f, -1, -0.75f, 4});
}
