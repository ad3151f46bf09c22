// graph_test.cpp: building, verifying, compiling and running graphs on the reference backend,
// checked against the same ops run one by one through reference::execute.
#include <doctest/doctest.h>

#include <cmath>

#include <tessera/reference/backend.hpp>
#include <tessera/tessera.hpp>

#include "common/activation_chain.hpp"

using namespace tessera;

namespace {

tensor ramp(const tensor_desc& d, float scale, float shift) {
    tensor t(d);
    auto* p = t.data_as<float>();
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        p[i] = std::sin(static_cast<float>(i) * scale) + shift;
    return t;
}

void check_equal(const tensor& a, const tensor& b) {
    REQUIRE(a.dims() == b.dims());
    const tensor ca = a.clone(), cb = b.clone();
    for (std::int64_t i = 0; i < ca.num_elements(); ++i)
        CHECK(ca.data_as<float>()[i] == cb.data_as<float>()[i]);
}

const tensor_desc image = tensor_desc(shape::nchw(2, 3, 4, 5), dtype::f32);

struct small_net {
    graph g;
    graph::tensor_id x, y, out;
    small_net() {
        x = g.input("x", image);
        y = g.input("y", image);
        const auto r = g.apply("relu", op::activation(activation_kind::relu), {x});
        const auto s = g.apply("sum", op::binary(binary_kind::add), {r, y});
        out = g.apply("tanh", op::activation(activation_kind::tanh, 1.0f, 1.0f), {s});
        g.output(out);
    }
    static tensor expected(const tensor& xv, const tensor& yv) {
        auto r = reference::execute(op::activation(activation_kind::relu), {xv})[0];
        auto s = reference::execute(op::binary(binary_kind::add), {r, yv})[0];
        return reference::execute(op::activation(activation_kind::tanh, 1.0f, 1.0f), {s})[0];
    }
};

}  // namespace

TEST_CASE("a compiled graph matches op-by-op reference results, run after run") {
    small_net net;
    auto cg = net.g.compile("reference");
    for (int run = 0; run < 3; ++run) {
        const tensor xv = ramp(image, 0.3f + run, -0.2f), yv = ramp(image, 0.7f, 0.1f * run);
        const auto outputs = cg.run({{"x", xv}, {"y", yv}});
        REQUIRE(outputs.count("tanh") == 1);
        check_equal(outputs.at("tanh"), small_net::expected(xv, yv));
    }
    CHECK(cg.placements().size() == 3);
    for (const auto& p : cg.placements()) CHECK(p.backend == "reference");
}

TEST_CASE("asynchronous runs give the same answer") {
    small_net net;
    auto cg = net.g.compile("reference");
    const tensor xv = ramp(image, 0.5f, 0.0f), yv = ramp(image, 0.25f, 0.3f);
    run_event ev = cg.run_async({{"x", xv}, {"y", yv}});
    ev.wait();
    CHECK(ev.ready());
    check_equal(ev.get().at("tanh"), small_net::expected(xv, yv));
}

TEST_CASE("inputs in another layout are converted on the way in") {
    small_net net;
    auto cg = net.g.compile("reference");
    const tensor xv = ramp(image, 0.5f, 0.0f), yv = ramp(image, 0.25f, 0.3f);
    const auto out = cg.run({{"x", xv.clone(layout::nhwc())}, {"y", yv}}).at("tanh");
    check_equal(out, small_net::expected(xv, yv));
}

TEST_CASE("constants are uploaded once and used by every run") {
    graph g;
    const tensor bias = ramp(image, 0.9f, 1.0f);
    const auto x = g.input("x", image);
    const auto b = g.constant("bias", bias);
    const auto s = g.apply("add", op::binary(binary_kind::add), {x, b});
    g.output(s);
    auto cg = g.compile("reference");
    const tensor xv = ramp(image, 0.1f, 0.0f);
    check_equal(cg.run({{"x", xv}}).at("add"),
                reference::execute(op::binary(binary_kind::add), {xv, bias})[0]);
}

TEST_CASE("intermediate buffers are reused once their readers have run") {
    graph g;
    const tensor_desc d(shape::nchw(1, 8, 16, 16), dtype::f32);
    g.output(tessera_test::linear_activation_chain(g, d, 6));
    auto cg = g.compile("reference");
    const auto m = cg.memory();
    CHECK(m.tensors == 7);
    CHECK(m.buffers <= 3);  // the input plus two buffers that alternate
    CHECK(m.planned_bytes < m.unshared_bytes);
    const tensor xv = ramp(d, 0.2f, 0.0f);
    const auto out = cg.run({{"x", xv}}).at("act5");
    for (std::int64_t i = 0; i < xv.num_elements(); ++i) {
        const float v = tessera_test::linear_activation_chain_value(xv.data_as<float>()[i], 6);
        CHECK(out.data_as<float>()[i] == doctest::Approx(v).epsilon(1e-6));
    }
}

TEST_CASE("verify rejects broken graphs with clear errors") {
    auto expect = [](graph& g, status code, const char* text) {
        try {
            g.verify();
            FAIL("expected an error");
        } catch (const error& e) {
            CHECK(e.code() == code);
            CHECK(std::string(e.what()).find(text) != std::string::npos);
        }
    };
    SUBCASE("empty") {
        graph g;
        expect(g, status::invalid_graph, "no tensor is marked as a graph output");
    }
    SUBCASE("two writers") {
        graph g;
        const auto x = g.input("x", image);
        const auto t = g.intermediate("t");
        g.node("a", op::activation(activation_kind::relu), {x}, {t});
        g.node("b", op::activation(activation_kind::abs), {x}, {t});
        g.output(t);
        expect(g, status::invalid_graph, "tensor 't' has two writers: 'a' and 'b'");
    }
    SUBCASE("cycle") {
        graph g;
        const auto x = g.input("x", image);
        const auto t = g.intermediate("t"), u = g.intermediate("u");
        g.node("a", op::binary(binary_kind::add), {x, u}, {t});
        g.node("b", op::activation(activation_kind::relu), {t}, {u});
        g.output(u);
        expect(g, status::invalid_graph, "cycle through nodes a, b");
    }
    SUBCASE("read before written") {
        graph g;
        const auto x = g.input("x", image);
        const auto ghost = g.intermediate("ghost");
        const auto t = g.intermediate("t");
        g.node("a", op::binary(binary_kind::add), {x, ghost}, {t});
        g.output(t);
        expect(g, status::invalid_graph, "virtual tensor 'ghost' is read but no node writes it");
    }
    SUBCASE("writing an input") {
        graph g;
        const auto x = g.input("x", image);
        const auto y = g.input("y", image);
        g.node("a", op::activation(activation_kind::relu), {x}, {y});
        g.output(y);
        expect(g, status::invalid_graph, "writes input 'y'");
    }
    SUBCASE("no output") {
        graph g;
        const auto x = g.input("x", image);
        g.apply("a", op::activation(activation_kind::relu), {x});
        expect(g, status::invalid_graph, "no tensor is marked as a graph output");
    }
    SUBCASE("shape errors name the node") {
        graph g;
        const auto x = g.input("x", image);
        const auto y = g.input("y", tensor_desc(shape{7, 7}, dtype::f32));
        const auto t = g.intermediate("t");
        g.node("mix", op::binary(binary_kind::add), {x, y}, {t});
        g.output(t);
        expect(g, status::invalid_argument, "mix (binary)");
    }
}

TEST_CASE("bad inputs to run are named") {
    small_net net;
    auto cg = net.g.compile("reference");
    const tensor xv = ramp(image, 0.5f, 0.0f);
    auto expect = [&](const std::map<std::string, tensor>& in, const char* text) {
        try {
            cg.run(in);
            FAIL("expected an error");
        } catch (const error& e) {
            CHECK(e.code() == status::invalid_argument);
            CHECK(std::string(e.what()).find(text) != std::string::npos);
        }
    };
    expect({{"x", xv}}, "input 'y' was not given");
    expect({{"x", xv}, {"y", xv}, {"z", xv}}, "'z' is not a graph input");
    expect({{"x", xv}, {"y", tensor(tensor_desc(shape{3}, dtype::f32))}},
           "the graph expects f32 2x3x4x5");
}

TEST_CASE("config errors: unknown, optional and strict backends") {
    small_net net;
    try {
        net.g.compile("no-such-backend|reference");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::not_found);
        CHECK(std::string(e.what()).find("names backend 'no-such-backend'") != std::string::npos);
        CHECK(std::string(e.what()).find("Loader report") != std::string::npos);
    }
    auto cg = net.g.compile("no-such-backend?|reference");
    CHECK(cg.backends() == std::vector<std::string>{"reference"});
    CHECK_NOTHROW(net.g.compile("reference!"));
    try {
        net.g.compile("reference|");
        FAIL("expected a parse error");
    } catch (const error& e) {
        CHECK(e.code() == status::parse_error);
    }
}

TEST_CASE("desc() answers for a node output as soon as apply() inferred it") {
    graph g;
    const auto x = g.input("x", image);
    const auto p = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {x});
    // 2x3x4x5 pooled 2x2 stride 2 (floor): 2x3x2x2, before any verify()
    CHECK(g.desc(p).dims() == shape{2, 3, 2, 2});
    CHECK(g.desc(p).type() == dtype::f32);
    const auto r = g.apply("sum", op::reduce(reduce_kind::max_idx).along(1).keep(false), {p});
    CHECK(g.desc(r).dims() == shape{2, 2, 2});
    CHECK(g.desc(r).type() == dtype::i32);
    g.output(r);
    g.verify();
    CHECK(g.desc(r).dims() == shape{2, 2, 2});
    // a tensor attached with node() is still known only after verify()
    graph h;
    const auto hx = h.input("x", image);
    const auto t = h.intermediate("t");
    h.node("relu", op::activation(activation_kind::relu), {hx}, {t});
    h.output(t);
    CHECK_THROWS_AS(h.desc(t), error);
    h.verify();
    CHECK(h.desc(t).dims() == image.dims());
}

TEST_CASE("a graph without nodes compiles and returns its inputs") {
    graph g;
    const auto x = g.input("x", image);
    const auto y = g.input("y", tensor_desc(shape{3}, dtype::i8));
    g.output(x);
    g.output(y);
    CHECK(g.verify().empty());
    auto cg = g.compile("reference");
    CHECK(cg.placements().empty());
    const tensor xv = ramp(image, 0.7f, -0.2f);
    tensor yv(tensor_desc(shape{3}, dtype::i8));
    yv.at<std::int8_t>(0) = -7;
    yv.at<std::int8_t>(1) = 0;
    yv.at<std::int8_t>(2) = 100;
    for (int run = 0; run < 2; ++run) {
        const auto out = cg.run({{"x", xv}, {"y", yv}});
        REQUIRE(out.size() == 2);
        check_equal(out.at("x"), xv);
        CHECK(out.at("y").at<std::int8_t>(0) == -7);
        CHECK(out.at("y").at<std::int8_t>(1) == 0);
        CHECK(out.at("y").at<std::int8_t>(2) == 100);
    }
}
