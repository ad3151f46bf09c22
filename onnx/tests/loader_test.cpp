// loader_test.cpp: tessera::onnx::load on small in-memory models: names of inputs and outputs,
// initializers as constants, dynamic dims fixed by options, shape subgraphs folded to a static
// graph, every unsupported node listed in one typed error, and malformed or hostile bytes
// rejected with tessera::error. Results are checked against the reference kernels.
#include <doctest/doctest.h>

#include <random>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"

using namespace tessera;
using tessera::onnx::testing::model_builder;
namespace tx = tessera::onnx;

namespace {

tensor ramp(const shape& dims, float scale) {
    tensor t(dims, dtype::f32);
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = static_cast<float>(i % 7) * scale - 1.0f;
    return t;
}

/// Relu(x + W) with W an initializer, reshaped through a folded Shape -> Gather -> Concat chain.
model_builder relu_add_reshape() {
    model_builder m;
    m.input("x", {-1, 6})
        .initializer("W", {6}, {1, -1, 2, -2, 3, -3})
        .int64_initializer("zero", {}, {0})
        .int64_initializer("tail", {1}, {-1})
        .output("y");
    m.node("Add", {"x", "W"}, {"sum"}, "add");
    m.node("Relu", {"sum"}, {"r"}, "relu");
    m.node("Shape", {"r"}, {"shape"}, "shape");
    m.node("Gather", {"shape", "zero"}, {"batch"}, "gather");
    m.int64_initializer("axes0", {1}, {0});
    m.node("Unsqueeze", {"batch", "axes0"}, {"batch1"}, "unsqueeze");
    model_builder::attr_int(m.node("Concat", {"batch1", "tail"}, {"target"}, "concat"), "axis", 0);
    m.node("Reshape", {"r", "target"}, {"y"}, "reshape");
    return m;
}

}  // namespace

TEST_CASE("a model loads with its input and output names and runs like the reference ops") {
    auto m = relu_add_reshape();
    tx::load_options options;
    options.input_shapes["x"] = shape{2, 6};
    graph g = tx::load(m.bytes(), options);
    CHECK(g.desc(g.find("x")).dims() == shape{2, 6});
    auto cg = g.compile("reference");
    const tensor x = ramp(shape{2, 6}, 0.5f);
    const auto out = cg.run({{"x", x}});
    REQUIRE(out.count("y") == 1);
    const tensor& y = out.at("y");
    CHECK(y.dims() == shape{2, 6});
    const float w[6] = {1, -1, 2, -2, 3, -3};
    for (int i = 0; i < 12; ++i) {
        const float expected = std::max(0.0f, x.data_as<float>()[i] + w[i % 6]);
        CHECK(y.clone().data_as<float>()[i] == expected);
    }
}

TEST_CASE("the initializer is a constant and the shape subgraph is folded away") {
    auto m = relu_add_reshape();
    tx::load_options options;
    options.input_shapes["x"] = shape{3, 6};
    graph g = tx::load(m.bytes(), options);
    int constants = 0;
    for (const auto& t : g.tensors()) constants += t.role == graph::tensor_role::constant;
    CHECK(constants == 1);
    std::vector<std::string> kinds;
    for (const auto& n : g.nodes()) kinds.emplace_back(n.op.name());
    // Add, Relu and the Reshape remain; Shape, Gather, Unsqueeze and Concat are folded.
    CHECK(kinds == std::vector<std::string>{"binary", "activation", "reshape"});
    g.verify();
    CHECK(g.desc(g.find("y")).dims() == shape{3, 6});
}

TEST_CASE("a dynamic dim without input_shapes is an error naming the input") {
    auto m = relu_add_reshape();
    try {
        tx::load(m.bytes());
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.tensor() == "x");
        CHECK(std::string(e.what()).find("dynamic") != std::string::npos);
    }
}

TEST_CASE("input_shapes that contradict a fixed dim are rejected") {
    auto m = relu_add_reshape();
    tx::load_options options;
    options.input_shapes["x"] = shape{2, 5};
    CHECK_THROWS_AS(tx::load(m.bytes(), options), error);
}

TEST_CASE("every unsupported node is listed at once with its name, op type and reason") {
    model_builder m;
    m.input("x", {2, 3}).input("i", {2, 3}, 14).output("a").output("b").output("c").output("d");
    m.node("Det", {"x"}, {"a"}, "det_node");
    m.node("Relu", {"x"}, {"r"}, "fine");
    m.node("Gather", {"r", "i"}, {"b"}, "gather_node");
    m.node("Abs", {"i"}, {"c"}, "abs_of_complex64");
    auto& lrelu = m.node("LeakyRelu", {"x"}, {"d"});
    auto* a = lrelu.add_attribute();
    a->set_name("alpha");
    a->set_type(::onnx::AttributeProto::STRING);
    a->set_s("big");
    try {
        tx::load(m.bytes());
        FAIL("expected an import_error");
    } catch (const tx::import_error& e) {
        CHECK(e.code() == status::unsupported);
        REQUIRE(e.nodes().size() == 4);
        CHECK(e.nodes()[0].node == "det_node");
        CHECK(e.nodes()[0].op_type == "Det");
        CHECK(e.nodes()[0].reason == "the matrices are not square");
        CHECK(e.nodes()[1].node == "gather_node");
        CHECK(e.nodes()[1].reason.find("'i' has dtype complex64") != std::string::npos);
        CHECK(e.nodes()[2].node == "abs_of_complex64");
        CHECK(e.nodes()[2].reason.find("dtype complex64") != std::string::npos);
        CHECK(e.nodes()[3].node == "LeakyRelu#4");
        CHECK(e.nodes()[3].reason.find("alpha") != std::string::npos);
        const std::string text = e.what();
        CHECK(text.find("det_node (Det)") != std::string::npos);
        CHECK(text.find("LeakyRelu#4 (LeakyRelu)") != std::string::npos);
    }
}

TEST_CASE("an input that must be constant is named, and binding it loads the model") {
    model_builder m;
    m.input("x", {2, 6}).input("target", {2}, 7).output("y");
    m.node("Reshape", {"x", "target"}, {"y"}, "reshape");
    try {
        tx::load(m.bytes());
        FAIL("expected an import_error");
    } catch (const tx::import_error& e) {
        REQUIRE(e.needs_constant() == std::vector<std::string>{"target"});
        CHECK(e.nodes().at(0).reason.find("must be a constant") != std::string::npos);
    }
    tx::host_tensor target;
    target.type = tx::element_type::int64;
    target.dims = {2};
    const std::int64_t values[2] = {3, 4};
    target.bytes.assign(reinterpret_cast<const std::uint8_t*>(values),
                        reinterpret_cast<const std::uint8_t*>(values) + sizeof values);
    tx::load_options options;
    options.constant_inputs["target"] = target;
    graph g = tx::load(m.bytes(), options);
    g.verify();
    CHECK(g.desc(g.find("y")).dims() == shape{3, 4});
}

TEST_CASE("a constant computed from a graph input names that input, and binding it folds") {
    // Range's limit is Abs(n) with n an int32 graph input: n must be bound.
    model_builder m;
    m.input("n", {}, 6)
        .int32_initializer("start", {}, {0})
        .int32_initializer("delta", {}, {1})
        .output("y");
    m.node("Abs", {"n"}, {"limit"}, "abs");
    m.node("Range", {"start", "limit", "delta"}, {"y"}, "range");
    try {
        tx::load(m.bytes());
        FAIL("expected an import_error");
    } catch (const tx::import_error& e) {
        REQUIRE(e.needs_constant() == std::vector<std::string>{"n"});
        CHECK(e.nodes().at(0).reason.find("computed from graph input 'n'") != std::string::npos);
    }
    tx::load_options options;
    options.constant_inputs["n"] = tx::host_tensor::from_tensor("n", [] {
        tensor n(shape{}, dtype::i32);
        n.data_as<std::int32_t>()[0] = -3;
        return n;
    }());
    const tensor y = tx::load(m.bytes(), options).compile("reference").run({}).at("y").clone();
    REQUIRE(y.dims() == shape{3});
    for (std::int32_t i = 0; i < 3; ++i) CHECK(y.data_as<std::int32_t>()[i] == i);
}

TEST_CASE("opsets outside 1 to 17 and foreign domains are rejected with a reason") {
    model_builder newer(18);
    newer.input("x", {1}).output("y");
    newer.node("Relu", {"x"}, {"y"});
    CHECK_THROWS_WITH_AS(tx::load(newer.bytes()), doctest::Contains("opset 18"), error);

    model_builder foreign;
    foreign.input("x", {1}).output("y");
    foreign.node("Relu", {"x"}, {"y"}, "custom").set_domain("com.example");
    CHECK_THROWS_WITH_AS(tx::load(foreign.bytes()), doctest::Contains("com.example"),
                         tx::import_error);
}

TEST_CASE("truncated, garbage and inconsistent bytes give tessera::error, not a crash") {
    const auto good = relu_add_reshape().bytes();
    tx::load_options options;
    options.input_shapes["x"] = shape{1, 6};
    CHECK_NOTHROW(tx::load(good, options));
    int rejected = 0;
    for (std::size_t cut = 0; cut < good.size(); cut += 7) {
        const std::vector<std::uint8_t> part(good.begin(), good.begin() + static_cast<long>(cut));
        try {
            tx::load(part, options);
        } catch (const error&) {
            ++rejected;
        }
    }
    CHECK(rejected > 0);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::uint8_t> bytes = good;
        for (int k = 0; k < 8; ++k) bytes[rng() % bytes.size()] = static_cast<std::uint8_t>(rng());
        try {
            tx::load(bytes, options);
        } catch (const error&) {
        }
    }
    std::vector<std::uint8_t> garbage(4096);
    for (auto& b : garbage) b = static_cast<std::uint8_t>(rng());
    CHECK_THROWS_AS(tx::load(garbage, options), error);
    CHECK_THROWS_AS(tx::load(std::vector<std::uint8_t>{}, options), error);
    CHECK_THROWS_AS(tx::load(std::filesystem::path("/nonexistent/model.onnx")), error);

    // An initializer whose raw data does not match its dims.
    model_builder m;
    m.input("x", {2}).output("y");
    auto* t = m.model().mutable_graph()->add_initializer();
    t->set_name("w");
    t->set_data_type(1);
    t->add_dims(1000000);
    t->set_raw_data(std::string(8, '\0'));
    m.node("Add", {"x", "w"}, {"y"});
    CHECK_THROWS_WITH_AS(tx::load(m.bytes()), doctest::Contains("raw_data"), error);

    // Dims whose product overflows.
    model_builder huge;
    huge.input("x", {2}).output("y");
    auto* h = huge.model().mutable_graph()->add_initializer();
    h->set_name("w");
    h->set_data_type(1);
    for (int i = 0; i < 4; ++i) h->add_dims(INT64_C(1) << 40);
    huge.node("Add", {"x", "w"}, {"y"});
    CHECK_THROWS_AS(tx::load(huge.bytes()), error);
}

TEST_CASE("read_tensor reads a TensorProto and rejects malformed ones") {
    ::onnx::TensorProto p;
    p.set_name("t");
    p.set_data_type(7);
    p.add_dims(3);
    for (std::int64_t v : {5, -2, 9}) p.add_int64_data(v);
    std::string s;
    p.SerializeToString(&s);
    const auto t = tx::read_tensor(s.data(), s.size());
    CHECK(t.name == "t");
    CHECK(t.type == tx::element_type::int64);
    CHECK(t.integer(1) == -2);
    CHECK(t.real(2) == 9.0);
    CHECK(t.has_tessera_type());  // int64 is i64
    CHECK(t.to_tensor().type() == dtype::i64);
    ::onnx::TensorProto u;  // uint32 is u32 (its values travel in uint64_data)
    u.set_data_type(12);
    u.add_dims(1);
    u.add_uint64_data(4000000000u);
    std::string us;
    u.SerializeToString(&us);
    const auto ut = tx::read_tensor(us.data(), us.size());
    CHECK(ut.has_tessera_type());
    const tensor u32 = ut.to_tensor();
    CHECK(u32.type() == dtype::u32);
    CHECK(u32.get({0}) == 4000000000.0);
    p.add_int64_data(1);  // 4 values for 3 elements
    p.SerializeToString(&s);
    CHECK_THROWS_AS(tx::read_tensor(s.data(), s.size()), error);
    const std::string junk = "\xff\xff\xff\xff\x0f";
    CHECK_THROWS_AS(tx::read_tensor(junk.data(), junk.size()), error);
}

// Found by the ONNX fuzzer: dims claiming far more elements than the typed data field holds made
// the loader size the tensor from the dims first (a 1.8 TB allocation) and compare afterwards.
TEST_CASE("a TensorProto whose dims claim more elements than its data holds is rejected first") {
    for (const int type : {1, 6, 7, 10, 11, 12}) {  // float, int32, int64, float16, double, uint32
        ::onnx::TensorProto p;
        p.set_name("huge");
        p.set_data_type(type);
        p.add_dims(std::int64_t{1} << 20);
        p.add_dims(std::int64_t{1} << 19);
        if (type == 1) p.add_float_data(1.0f);
        else if (type == 11) p.add_double_data(1.0);
        else if (type == 7) p.add_int64_data(1);
        else if (type == 12) p.add_uint64_data(1);
        else p.add_int32_data(1);
        std::string s;
        p.SerializeToString(&s);
        CAPTURE(type);
        try {
            tx::read_tensor(s.data(), s.size());
            FAIL("accepted");
        } catch (const error& e) {
            CHECK(std::string(e.what()).find("holds 1 values for 549755813888 elements") !=
                  std::string::npos);
        }
    }
}

TEST_CASE("Gather with constant int64 indices, Split and Slice run on computed tensors") {
    // y = Gather(Relu(x), [2, 0, -1], axis 1); Split(y) along axis 1 into [1, 2]; Slice of the
    // second part backwards.
    model_builder m;
    m.input("x", {2, 4})
        .int64_initializer("idx", {3}, {2, 0, -1})
        .int64_initializer("parts", {2}, {1, 2})
        .int64_initializer("starts", {1}, {-1})
        .int64_initializer("ends", {1}, {-100})
        .int64_initializer("axes", {1}, {1})
        .int64_initializer("steps", {1}, {-1})
        .output("first")
        .output("reversed");
    m.node("Relu", {"x"}, {"r"}, "relu");
    model_builder::attr_int(m.node("Gather", {"r", "idx"}, {"g"}, "gather"), "axis", 1);
    model_builder::attr_int(m.node("Split", {"g", "parts"}, {"first", "rest"}, "split"), "axis", 1);
    m.node("Slice", {"rest", "starts", "ends", "axes", "steps"}, {"reversed"}, "slice");
    graph g = tx::load(m.bytes());
    auto cg = g.compile("reference");
    tensor x(shape{2, 4}, dtype::f32);
    const float xs[] = {1, -2, 3, 4, 5, 6, -7, 8};
    for (int i = 0; i < 8; ++i) x.data_as<float>()[i] = xs[i];
    const auto out = cg.run({{"x", x}});
    // relu(x) = [[1, 0, 3, 4], [5, 6, 0, 8]]; gathered columns 2, 0, 3: [[3, 1, 4], [0, 5, 8]].
    const tensor first = out.at("first").clone(), reversed = out.at("reversed").clone();
    REQUIRE(first.dims() == shape{2, 1});
    REQUIRE(reversed.dims() == shape{2, 2});
    CHECK(first.data_as<float>()[0] == 3);
    CHECK(first.data_as<float>()[1] == 0);
    const float want[] = {4, 1, 8, 5};
    for (int i = 0; i < 4; ++i) CHECK(reversed.data_as<float>()[i] == want[i]);
}

TEST_CASE("Pow with an exponent of another dtype converts the exponent to the base's") {
    model_builder m;
    m.input("x", {3}).input("e", {3}, 6).output("y");  // e: int32
    m.node("Pow", {"x", "e"}, {"y"}, "pow");
    auto cg = tx::load(m.bytes()).compile("reference");
    tensor x(shape{3}, dtype::f32), e(shape{3}, dtype::i32);
    const float xs[] = {2, -3, 0.5f};
    const std::int32_t es[] = {3, 2, -2};
    for (int i = 0; i < 3; ++i) {
        x.data_as<float>()[i] = xs[i];
        e.data_as<std::int32_t>()[i] = es[i];
    }
    const tensor y = cg.run({{"x", x}, {"e", e}}).at("y").clone();
    REQUIRE(y.type() == dtype::f32);
    const float want[] = {8, 9, 4};
    for (int i = 0; i < 3; ++i) CHECK(y.data_as<float>()[i] == want[i]);
}
