// legacy_opset_test.cpp: models of opsets 1 to 6 through tessera::onnx::load: ops whose semantics
// did not change load as at later opsets, the older forms the importer reads (limited broadcast
// with broadcast/axis, Tile-1's tiles and axis, Cast-1's type name, Reshape-1's shape attribute)
// compute hand-derived results, and older semantics it does not implement (training-mode
// BatchNormalization and Dropout, broadcasting without broadcast = 1) fail naming node and reason.
#include <doctest/doctest.h>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"
#include "test_values.hpp"

using namespace tessera;
using namespace tessera::onnx::testing;
namespace tx = tessera::onnx;

TEST_CASE("opset 1 and 6 models load; ops unchanged since then compute as at later opsets") {
    model_builder m(6);
    m.input("x", {4}).output("y");
    model_builder::attr_float(m.node("Elu", {"x"}, {"e"}, "elu"), "alpha", 2.0f);
    m.node("Softsign", {"e"}, {"y"}, "softsign");
    auto cg = tx::load(m.bytes()).compile("reference");
    const auto y = floats_of(cg.run({{"x", filled(shape{4}, {-1, 0, 1, 3})}}).at("y"));
    // elu(-1) = 2 (e^-1 - 1) = -1.2642411; softsign(v) = v / (1 + |v|).
    const float e0 = 2.0f * (std::exp(-1.0f) - 1.0f);
    CHECK(y[0] == doctest::Approx(e0 / (1.0f - e0)));
    CHECK(y[1] == 0.0f);
    CHECK(y[2] == doctest::Approx(0.5f));
    CHECK(y[3] == doctest::Approx(0.75f));
}

TEST_CASE("Add-6 broadcasts B from axis only with broadcast = 1") {
    // A [2, 3, 2] + B [3] from axis 1: B[j] is added along dim 1.
    model_builder m(6);
    m.input("a", {2, 3, 2}).initializer("b", {3}, {10, 20, 30}).output("y");
    auto& add = m.node("Add", {"a", "b"}, {"y"}, "add");
    model_builder::attr_int(add, "broadcast", 1);
    model_builder::attr_int(add, "axis", 1);
    auto cg = tx::load(m.bytes()).compile("reference");
    std::vector<float> a(12);
    for (int i = 0; i < 12; ++i) a[static_cast<std::size_t>(i)] = static_cast<float>(i);
    const auto y = floats_of(cg.run({{"a", filled(shape{2, 3, 2}, a)}}).at("y"));
    REQUIRE(y.size() == 12);
    for (int i = 0; i < 12; ++i) {
        const int j = (i / 2) % 3;
        CHECK(y[static_cast<std::size_t>(i)] == static_cast<float>(i + 10 * (j + 1)));
    }

    model_builder suffix(6);  // suffix matching without axis: B [2] along the last dim
    suffix.input("a", {3, 2}).initializer("b", {2}, {1, -1}).output("y");
    model_builder::attr_int(suffix.node("Sub", {"a", "b"}, {"y"}, "sub"), "broadcast", 1);
    const auto ys = floats_of(tx::load(suffix.bytes())
                                  .compile("reference")
                                  .run({{"a", filled(shape{3, 2}, {0, 0, 1, 1, 2, 2})}})
                                  .at("y"));
    CHECK(ys == std::vector<float>{-1, 1, 0, 2, 1, 3});

    model_builder unset(6);  // shapes differ and broadcast is not set: the model is invalid
    unset.input("a", {3, 2}).initializer("b", {2}, {1, -1}).output("y");
    unset.node("Mul", {"a", "b"}, {"y"}, "mul");
    const std::string reason = import_failure(unset);
    CHECK(reason.find("mul (Mul)") == 0);
    CHECK(reason.find("broadcast is not set") != std::string::npos);

    model_builder mismatch(6);  // B does not match A's dims from the axis
    mismatch.input("a", {2, 3}).initializer("b", {2}, {1, 2}).output("y");
    auto& bad = mismatch.node("Add", {"a", "b"}, {"y"}, "add");
    model_builder::attr_int(bad, "broadcast", 1);
    model_builder::attr_int(bad, "axis", 1);
    CHECK(import_failure(mismatch).find("B's dims do not match A's from axis 1") !=
          std::string::npos);
}

TEST_CASE(
    "Tile-1 repeats along its axis input, Cast-1 names its type, Reshape-1 has a shape attr") {
    model_builder m(1);
    m.input("x", {2, 2})
        .int64_initializer("tiles", {}, {3})
        .int64_initializer("axis", {}, {1})
        .output("tiled")
        .output("as_int")
        .output("flat");
    m.node("Tile", {"x", "tiles", "axis"}, {"tiled"}, "tile");
    model_builder::attr_string(m.node("Cast", {"x"}, {"as_int"}, "cast"), "to", "INT32");
    model_builder::attr_ints(m.node("Reshape", {"x"}, {"flat"}, "reshape"), "shape", {-1});
    auto cg = tx::load(m.bytes()).compile("reference");
    const auto out = cg.run({{"x", filled(shape{2, 2}, {1.5f, -2.5f, 3, 4})}});
    CHECK(out.at("tiled").dims() == shape{2, 6});
    CHECK(floats_of(out.at("tiled")) ==
          std::vector<float>{1.5f, -2.5f, 1.5f, -2.5f, 1.5f, -2.5f, 3, 4, 3, 4, 3, 4});
    CHECK(out.at("as_int").type() == dtype::i32);
    CHECK(floats_of(out.at("as_int")) == std::vector<float>{1, -2, 3, 4});
    CHECK(out.at("flat").dims() == shape{4});

    model_builder unknown(1);
    unknown.input("x", {2}).output("y");
    model_builder::attr_string(unknown.node("Cast", {"x"}, {"y"}, "cast"), "to", "FLOAT99");
    CHECK(import_failure(unknown).find("names no data type: 'FLOAT99'") != std::string::npos);
}

TEST_CASE("training-mode BatchNormalization and Dropout of opset 6 are refused, test mode runs") {
    model_builder bn(6);
    bn.input("x", {1, 2, 1, 1})
        .initializer("scale", {2}, {1, 2})
        .initializer("bias", {2}, {0, 1})
        .initializer("mean", {2}, {1, 0})
        .initializer("var", {2}, {4, 1})
        .output("y");
    auto& node = bn.node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y"}, "bn");
    model_builder::attr_float(node, "epsilon", 0.0f);
    CHECK(import_failure(bn).find("bn (BatchNormalization): is_test = 0") == 0);
    model_builder::attr_int(node, "is_test", 1);
    const auto y = floats_of(tx::load(bn.bytes())
                                 .compile("reference")
                                 .run({{"x", filled(shape{1, 2, 1, 1}, {5, 3})}})
                                 .at("y"));
    // (5 - 1) / 2 * 1 + 0 = 2; (3 - 0) / 1 * 2 + 1 = 7.
    CHECK(y[0] == doctest::Approx(2.0f));
    CHECK(y[1] == doctest::Approx(7.0f));

    model_builder drop(6);
    drop.input("x", {3}).output("y");
    auto& d = drop.node("Dropout", {"x"}, {"y"}, "drop");
    CHECK(import_failure(drop).find("drop (Dropout): is_test = 0") == 0);
    model_builder::attr_int(d, "is_test", 1);
    const auto yd = floats_of(tx::load(drop.bytes())
                                  .compile("reference")
                                  .run({{"x", filled(shape{3}, {1, 2, 3})}})
                                  .at("y"));
    CHECK(yd == std::vector<float>{1, 2, 3});
}
