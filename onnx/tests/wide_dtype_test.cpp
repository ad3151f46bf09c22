// wide_dtype_test.cpp: ONNX int64 and double tensors through tessera::onnx::load: graph inputs,
// outputs, initializers, Constant values and Cast targets map to wide_i64 and f64; int64 values
// beyond 2^53 survive exactly; ArgMax and TopK indices come out as int64; shape subgraphs still
// fold.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"

using namespace tessera;
using tessera::onnx::testing::model_builder;
namespace tx = tessera::onnx;

namespace {

constexpr int wide_onnx_float = 1, wide_onnx_int64 = 7, wide_onnx_double = 11;
constexpr std::int64_t wide_big = (std::int64_t{1} << 53) + 1;  // the nearest double is 2^53

tensor wide_i64(const shape& dims, const std::vector<std::int64_t>& v) {
    tensor t(dims, dtype::i64);
    std::memcpy(t.data(), v.data(), v.size() * sizeof(std::int64_t));
    return t;
}

std::vector<std::int64_t> wide_ints(const tensor& t) {
    REQUIRE(t.type() == dtype::i64);
    const tensor dense = t.clone();
    std::vector<std::int64_t> v(static_cast<std::size_t>(dense.num_elements()));
    std::memcpy(v.data(), dense.data(), v.size() * sizeof(std::int64_t));
    return v;
}

}  // namespace

TEST_CASE("int64 inputs, initializers and outputs load as i64 and stay exact beyond 2^53") {
    model_builder m;
    m.input("x", {3}, wide_onnx_int64).int64_initializer("w", {3}, {1, wide_big, -2}).output("y");
    m.node("Add", {"x", "w"}, {"sum"}, "add");
    m.node("Identity", {"sum"}, {"y"}, "identity");
    graph g = tx::load(m.bytes());
    CHECK(g.desc(g.find("x")).type() == dtype::i64);
    const tensor y =
        g.compile("reference").run({{"x", wide_i64(shape{3}, {wide_big, 0, wide_big})}}).at("y");
    CHECK(wide_ints(y) == std::vector<std::int64_t>{wide_big + 1, wide_big, wide_big - 2});
    // Read back through the host tensor the node tests compare with.
    const auto h = tx::host_tensor::from_tensor("y", y);
    CHECK(h.integer(0) == wide_big + 1);
}

TEST_CASE("Gather with int64 indices from a graph input, and a Cast to int64") {
    model_builder m;
    m.input("data", {2, 2}, wide_onnx_int64)
        .input("idx", {2}, wide_onnx_int64)
        .output("g")
        .output("c");
    model_builder::attr_int(m.node("Gather", {"data", "idx"}, {"g"}, "gather"), "axis", 1);
    m.input("f", {2});
    model_builder::attr_int(m.node("Cast", {"f"}, {"c"}, "cast"), "to", wide_onnx_int64);
    auto cg = tx::load(m.bytes()).compile("reference");
    tensor f(shape{2}, dtype::f32);
    f.data_as<float>()[0] = -2.7f;
    f.data_as<float>()[1] = 3.9f;
    const auto out = cg.run({{"data", wide_i64(shape{2, 2}, {wide_big, 1, 2, -wide_big})},
                             {"idx", wide_i64(shape{2}, {-1, 0})},
                             {"f", f}});
    CHECK(wide_ints(out.at("g")) == std::vector<std::int64_t>{1, wide_big, -wide_big, 2});
    CHECK(wide_ints(out.at("c")) == std::vector<std::int64_t>{-2, 3});  // ONNX Cast truncates
}

TEST_CASE("double inputs and Cast to and from double load as f64") {
    model_builder m;
    m.input("d", {2}, wide_onnx_double).input("x", {2}).output("to_float").output("to_double");
    model_builder::attr_int(m.node("Cast", {"d"}, {"to_float"}, "c1"), "to", wide_onnx_float);
    model_builder::attr_int(m.node("Cast", {"x"}, {"to_double"}, "c2"), "to", wide_onnx_double);
    graph g = tx::load(m.bytes());
    CHECK(g.desc(g.find("d")).type() == dtype::f64);
    tensor d(shape{2}, dtype::f64), x(shape{2}, dtype::f32);
    d.data_as<double>()[0] = 0.1;
    d.data_as<double>()[1] = -1e300;
    x.data_as<float>()[0] = 0.1f;
    x.data_as<float>()[1] = 3.0f;
    const auto out = g.compile("reference").run({{"d", d}, {"x", x}});
    const tensor a = out.at("to_float").clone(), b = out.at("to_double").clone();
    REQUIRE(a.type() == dtype::f32);
    REQUIRE(b.type() == dtype::f64);
    CHECK(a.data_as<float>()[0] == 0.1f);
    CHECK(a.data_as<float>()[1] == -std::numeric_limits<float>::infinity());
    CHECK(b.data_as<double>()[0] == static_cast<double>(0.1f));
    CHECK(b.data_as<double>()[1] == 3.0);
}

TEST_CASE("ArgMax and TopK indices are int64; Shape of a tensor is an int64 output") {
    model_builder m;
    m.input("x", {2, 3}).output("arg").output("vals").output("idx").output("shape");
    model_builder::attr_int(m.node("ArgMax", {"x"}, {"arg"}, "argmax"), "axis", 1);
    m.int64_initializer("k", {1}, {2});
    m.node("TopK", {"x", "k"}, {"vals", "idx"}, "topk");
    m.node("Shape", {"x"}, {"shape"}, "shape");
    auto cg = tx::load(m.bytes()).compile("reference");
    tensor x(shape{2, 3}, dtype::f32);
    const float xs[] = {1, 5, 3, 9, -1, 4};
    for (int i = 0; i < 6; ++i) x.data_as<float>()[i] = xs[i];
    const auto out = cg.run({{"x", x}});
    CHECK(wide_ints(out.at("arg")) == std::vector<std::int64_t>{1, 0});
    CHECK(wide_ints(out.at("idx")) == std::vector<std::int64_t>{1, 2, 0, 2});
    CHECK(out.at("vals").type() == dtype::f32);
    CHECK(wide_ints(out.at("shape")) == std::vector<std::int64_t>{2, 3});
}

TEST_CASE("an int64 Constant feeds a computed tensor") {
    model_builder m;
    m.input("x", {2}, wide_onnx_int64).output("y");
    auto& c = m.node("Constant", {}, {"k"}, "const");
    auto* a = c.add_attribute();
    a->set_name("value");
    a->set_type(::onnx::AttributeProto::TENSOR);
    auto* t = a->mutable_t();
    t->set_data_type(wide_onnx_int64);
    t->add_dims(2);
    t->add_int64_data(wide_big);
    t->add_int64_data(-1);
    m.node("Mul", {"x", "k"}, {"y"}, "mul");
    auto cg = tx::load(m.bytes()).compile("reference");
    CHECK(wide_ints(cg.run({{"x", wide_i64(shape{2}, {1, wide_big})}}).at("y")) ==
          std::vector<std::int64_t>{wide_big, -wide_big});
}
