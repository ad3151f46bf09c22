// by_index_test.cpp: GatherElements, ScatterElements, GatherND, ScatterND,
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss as the importer lowers them, with i32
// indices and targets (the lowering takes any integer dtype), checked against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"
#include "test_values.hpp"

using namespace tessera;
using namespace tessera::onnx::testing;
namespace tx = tessera::onnx;

namespace {

tensor i32(const shape& dims, const std::vector<std::int32_t>& values) {
    tensor t(dims, dtype::i32);
    for (std::size_t i = 0; i < values.size(); ++i)
        t.data_as<std::int32_t>()[static_cast<std::int64_t>(i)] = values[i];
    return t;
}

/// Runs `m` on the reference backend with inputs x (f32) and t (i32); returns output `out`.
tensor run_xt(const model_builder& m, const tensor& x, const tensor& t,
              const std::string& out = "y") {
    return tx::load(m.bytes()).compile("reference").run({{"x", x}, {"t", t}}).at(out);
}

const std::vector<float> log_probs = {-1.5f, -0.5f, -2.0f, -0.25f, -3.0f, -1.0f};

}  // namespace

TEST_CASE("GatherElements picks data[index] along the axis, negative indices from the end") {
    model_builder m(13);
    m.input("x", {3, 3}).input("t", {2, 3}, 6).output("y");
    m.node("GatherElements", {"x", "t"}, {"y"}, "gather_elements");
    const tensor y = run_xt(m, filled(shape{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                            i32(shape{2, 3}, {1, 2, 0, 2, 0, -1}));
    REQUIRE(y.dims() == shape{2, 3});
    CHECK(floats_of(y) == std::vector<float>{4, 8, 3, 7, 2, 9});

    model_builder cols(13);
    cols.input("x", {3, 3}).input("t", {3, 1}, 6).output("y");
    model_builder::attr_int(cols.node("GatherElements", {"x", "t"}, {"y"}, "ge"), "axis", 1);
    CHECK(floats_of(run_xt(cols, filled(shape{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                           i32(shape{3, 1}, {0, 2, 1}))) == std::vector<float>{1, 6, 8});
}

TEST_CASE("NegativeLogLikelihoodLoss: weights, ignore_index and the three reductions") {
    // x [2, 3], target {2, 0}, weight {1, 2, 3}.
    const auto loss = [](const std::string& reduction, bool weighted, bool ignore_zero) {
        model_builder m(13);
        m.input("x", {2, 3}).input("t", {2}, 6).output("y");
        std::vector<std::string> inputs{"x", "t"};
        if (weighted) {
            m.initializer("w", {3}, {1, 2, 3});
            inputs.push_back("w");
        }
        auto& n = m.node("NegativeLogLikelihoodLoss", inputs, {"y"}, "nll");
        model_builder::attr_string(n, "reduction", reduction);
        if (ignore_zero) model_builder::attr_int(n, "ignore_index", 0);
        return floats_of(run_xt(m, filled(shape{2, 3}, log_probs), i32(shape{2}, {2, 0})));
    };
    // Picked: x[0, 2] = -2, x[1, 0] = -0.25.
    CHECK(loss("none", false, false) == std::vector<float>{2.0f, 0.25f});
    CHECK(loss("none", false, true) == std::vector<float>{2.0f, 0.0f});
    CHECK(loss("sum", true, false) == std::vector<float>{6.25f});  // 2 * 3 + 0.25 * 1
    CHECK(loss("mean", true, false)[0] == doctest::Approx(6.25 / 4));
    CHECK(loss("mean", true, true)[0] == doctest::Approx(6.0 / 3));
    CHECK(loss("mean", false, false)[0] == doctest::Approx(2.25 / 2));

    model_builder spatial(13);  // [N, C, d1] with target [N, d1]
    spatial.input("x", {1, 2, 2}).input("t", {1, 2}, 6).output("y");
    spatial.node("NegativeLogLikelihoodLoss", {"x", "t"}, {"y"}, "nll");
    // x[0, :, 0] = {-1, -3}, x[0, :, 1] = {-2, -4}; targets 1 and 0: mean of 3 and 2.
    CHECK(floats_of(run_xt(spatial, filled(shape{1, 2, 2}, {-1, -2, -3, -4}),
                           i32(shape{1, 2}, {1, 0})))[0] == doctest::Approx(2.5));
}

TEST_CASE("SoftmaxCrossEntropyLoss is the NLL loss of log_softmax, with log_prob as output 1") {
    model_builder m(13);
    m.input("x", {2, 3}).input("t", {2}, 6).output("y").output("log_prob");
    m.node("SoftmaxCrossEntropyLoss", {"x", "t"}, {"y", "log_prob"}, "sce");
    const std::vector<float> scores = {1, 2, 3, 0, 0, 1};
    const auto out = tx::load(m.bytes())
                         .compile("reference")
                         .run({{"x", filled(shape{2, 3}, scores)}, {"t", i32(shape{2}, {1, 2})}});
    const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
    const double lse1 = std::log(2.0 + std::exp(1.0));
    const auto lp = floats_of(out.at("log_prob"));
    REQUIRE(lp.size() == 6);
    CHECK(lp[1] == doctest::Approx(2.0 - lse0));
    CHECK(lp[5] == doctest::Approx(1.0 - lse1));
    CHECK(floats_of(out.at("y"))[0] == doctest::Approx(((lse0 - 2.0) + (lse1 - 1.0)) / 2));
}

TEST_CASE("ScatterElements writes or adds updates at the indexed positions") {
    model_builder m(16);
    m.input("x", {3, 3})
        .input("t", {2, 3}, 6)
        .initializer("u", {2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f})
        .output("y");
    m.node("ScatterElements", {"x", "t", "u"}, {"y"}, "scatter");
    // ONNX's example: row 0 of the updates goes to rows 1, 0, 2; row 1 to rows 0, 2, 1.
    CHECK(floats_of(run_xt(m, filled(shape{3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}),
                           i32(shape{2, 3}, {1, 0, 2, 0, 2, 1}))) ==
          std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f});

    model_builder add(16);  // duplicate indices with reduction add, a negative index
    add.input("x", {1, 5}).input("t", {1, 3}, 6).initializer("u", {1, 3}, {1, 2, 10}).output("y");
    auto& n = add.node("ScatterElements", {"x", "t", "u"}, {"y"}, "scatter");
    model_builder::attr_int(n, "axis", 1);
    model_builder::attr_string(n, "reduction", "add");
    CHECK(floats_of(run_xt(add, filled(shape{1, 5}, {1, 2, 3, 4, 5}),
                           i32(shape{1, 3}, {1, 1, -1}))) == std::vector<float>{1, 5, 3, 4, 15});
}

TEST_CASE("GatherND reads index tuples, with batch dims; ScatterND writes them") {
    const auto gather_nd = [](const shape& data_dims, const std::vector<float>& data,
                              const shape& index_dims, const std::vector<std::int32_t>& index,
                              int batch_dims) {
        model_builder m(13);
        m.input("x", std::vector<std::int64_t>(data_dims.begin(), data_dims.end()))
            .input("t", std::vector<std::int64_t>(index_dims.begin(), index_dims.end()), 6)
            .output("y");
        model_builder::attr_int(m.node("GatherND", {"x", "t"}, {"y"}, "gather_nd"), "batch_dims",
                                batch_dims);
        return run_xt(m, filled(data_dims, data), i32(index_dims, index));
    };
    CHECK(floats_of(gather_nd(shape{2, 2}, {0, 1, 2, 3}, shape{2, 2}, {0, 0, 1, 1}, 0)) ==
          std::vector<float>{0, 3});
    const tensor rows = gather_nd(shape{2, 2}, {0, 1, 2, 3}, shape{2, 1}, {1, -2}, 0);
    CHECK(rows.dims() == shape{2, 2});
    CHECK(floats_of(rows) == std::vector<float>{2, 3, 0, 1});
    // batch_dims 1: batch 0 reads its row 1, batch 1 its row 0.
    CHECK(floats_of(gather_nd(shape{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}, shape{2, 1}, {1, 0}, 1)) ==
          std::vector<float>{2, 3, 4, 5});

    model_builder s(13);
    s.input("x", {8}).input("t", {4, 1}, 6).initializer("u", {4}, {9, 10, 11, 12}).output("y");
    s.node("ScatterND", {"x", "t", "u"}, {"y"}, "scatter_nd");
    CHECK(floats_of(run_xt(s, filled(shape{8}, {1, 2, 3, 4, 5, 6, 7, 8}),
                           i32(shape{4, 1}, {4, 3, 1, 7}))) ==
          std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12});

    model_builder slices(13);  // tuples of length 1 into [3, 2] data write whole rows
    slices.input("x", {3, 2}).input("t", {1, 1}, 6).initializer("u", {1, 2}, {7, 8}).output("y");
    slices.node("ScatterND", {"x", "t", "u"}, {"y"}, "scatter_nd");
    CHECK(floats_of(run_xt(slices, filled(shape{3, 2}, {1, 2, 3, 4, 5, 6}),
                           i32(shape{1, 1}, {-1}))) == std::vector<float>{1, 2, 3, 4, 7, 8});
}

TEST_CASE("ReverseSequence reverses the first sequence_lens steps of each batch") {
    model_builder m(10);
    m.input("x", {3, 2}).int32_initializer("lens", {2}, {3, 2}).output("y");
    m.node("ReverseSequence", {"x", "lens"}, {"y"}, "reverse");  // time 0, batch 1
    // x[t, b] = 10 t + b: batch 0 reverses 3 steps, batch 1 the first 2.
    const tensor y = tx::load(m.bytes())
                         .compile("reference")
                         .run({{"x", filled(shape{3, 2}, {0, 1, 10, 11, 20, 21})}})
                         .at("y");
    CHECK(floats_of(y) == std::vector<float>{20, 11, 10, 1, 0, 21});
}
