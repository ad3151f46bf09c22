// hostile_input_test.cpp: graph inputs, constants and hand-wired nodes that once reached memory
// errors: a node declaring more outputs than its op infers, input layouts that reach before the
// buffer, overlap or overflow (rejected by name), and reversed or padded views (accepted, packed
// before backends read them, and checked against the reference ops on every backend built).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <tessera/reference/backend.hpp>
#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

/// Backends the reversed-view runs are checked on.
std::vector<std::string> backends_under_test() {
#if defined(TESSERA_TEST_CPU_PLUGIN)
    return {"reference", "cpu"};
#else
    return {"reference"};
#endif
}

/// Elements 0..n-1 of `t` (any layout) in row-major order.
std::vector<double> values(const tensor& t) {
    std::vector<double> v;
    detail::for_each_index(t.dims(), [&](const detail::index_t& i) {
        v.push_back(numeric::load_real(t.type(), t.desc().quant(), t.address_of(i)));
    });
    return v;
}

/// A 2x3x4 f32 view over `buffer` with every dim reversed: element (i, j, k) at 23 - 12i - 4j - k.
tensor reversed_view(std::vector<float>& buffer) {
    buffer.resize(24);
    for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = 0.25f * static_cast<float>(i) - 3;
    const tensor_desc d =
        tensor_desc(shape{2, 3, 4}, dtype::f32, layout::strided({-12, -4, -1})).with_offset(23);
    return tensor::borrow(d, buffer.data());
}

/// Runs `fn`; it must throw `code` naming `op_name` and `tensor_name`, `reason` in the message.
template <typename Fn>
void check_named(Fn&& fn, status code, const std::string& op_name, const std::string& tensor_name,
                 const std::string& reason) {
    try {
        fn();
        FAIL("no error; expected " << op_name << " / '" << tensor_name << "': " << reason);
    } catch (const error& e) {
        INFO("what(): " << e.what());
        CHECK(e.code() == code);
        CHECK(e.op() == op_name);
        CHECK(e.tensor() == tensor_name);
        CHECK(e.message().find(reason) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("add() through a hand-wired node with more outputs than its op infers") {
    graph g;
    const auto x = g.input("x", tensor_desc(shape{4}, dtype::f32));
    const auto first = g.intermediate("first"), extra = g.intermediate("extra");
    g.node("relu", op::activation(activation_kind::relu), {x}, {first, extra});
    check_named(
        [&] { g.apply("tanh", op::activation(activation_kind::tanh, 1.0f, 1.0f), {extra}); },
        status::invalid_graph, "relu (activation)", "extra",
        "output 1 is attached but the op produces 1 outputs");
    // The declared output the op does infer is still usable.
    CHECK(g.apply("abs", op::activation(activation_kind::abs), {first}) >= 0);
}

TEST_CASE("graph inputs with layouts no buffer can hold are rejected by name") {
    graph g;
    const auto f32x4 = [](std::initializer_list<std::int64_t> strides) {
        return tensor_desc(shape{4}, dtype::f32, layout::strided(strides));
    };
    check_named([&] { g.input("backwards", f32x4({-1})); }, status::invalid_argument, "input",
                "backwards", "before the start of the buffer");
    check_named([&] { g.input("early", tensor_desc(shape{4}, dtype::f32).with_offset(-2)); },
                status::invalid_argument, "input", "early", "before the start of the buffer");
    check_named([&] { g.input("broadcast", f32x4({0})); }, status::invalid_argument, "input",
                "broadcast", "overlap");
    check_named(
        [&] {
            g.input("ones", tensor_desc(shape{2, 3}, dtype::f32, layout::strided({1, 1})));
        },
        status::invalid_argument, "input", "ones", "overlap");
    check_named([&] { g.input("far", f32x4({std::int64_t{1} << 62})); }, status::invalid_argument,
                "input", "far", "do not fit int64");
    check_named([&] { g.input("untyped", tensor_desc(shape{4}, dtype::undef)); },
                status::invalid_argument, "input", "untyped", "dtype value 0 is not valid");
    const tensor broadcast(tensor_desc(shape{4, 3}, dtype::f32, layout::strided({0, 1})));
    check_named([&] { g.constant("weights", broadcast); }, status::invalid_argument, "constant",
                "weights", "overlap");
    CHECK(g.tensors().empty());
    // A reversed view is a valid input layout.
    CHECK(g.input("reversed", f32x4({-1}).with_offset(3)) == 0);
}

TEST_CASE("reversed and padded views run correctly on every backend") {
    std::vector<float> x_buffer;
    const tensor x = reversed_view(x_buffer);
    // y: 2x3x4 with rows padded to 5 elements and the outer dim reversed.
    std::vector<float> y_buffer(40);
    for (std::size_t i = 0; i < y_buffer.size(); ++i) y_buffer[i] = 0.5f * static_cast<float>(i);
    const tensor y = tensor::borrow(
        tensor_desc(shape{2, 3, 4}, dtype::f32, layout::strided({-20, 5, 1})).with_offset(20),
        y_buffer.data());

    const auto expected_relu =
        reference::execute(op::activation(activation_kind::relu), {x.clone()})[0];
    const auto expected_sum =
        reference::execute(op::binary(binary_kind::add), {expected_relu, y.clone()})[0];
    for (const auto& backend : backends_under_test()) {
        CAPTURE(backend);
        graph g;
        // x is declared in its reversed layout, y row-major; both are fed as views.
        const auto xi = g.input("x", x.desc());
        const auto yi = g.input("y", tensor_desc(shape{2, 3, 4}, dtype::f32));
        const auto r = g.apply("relu", op::activation(activation_kind::relu), {xi});
        const auto s = g.apply("sum", op::binary(binary_kind::add), {r, yi});
        g.output(s);
        auto cg = g.compile(backend);
        // The plan holds every element of x, not the one element the undercount gave.
        CHECK(cg.memory().unshared_bytes >= 3 * 24 * 4);
        for (int run = 0; run < 2; ++run) {
            const auto out = cg.run({{"x", x}, {"y", y}});
            CHECK(values(out.at("sum")) == values(expected_sum));
        }
        // The same views fed to a graph that declared plain layouts.
        graph plain;
        const auto px = plain.input("x", tensor_desc(shape{2, 3, 4}, dtype::f32));
        plain.output(plain.apply("relu", op::activation(activation_kind::relu), {px}));
        auto cp = plain.compile(backend);
        CHECK(values(cp.run({{"x", x}}).at("relu")) == values(expected_relu));
        // A reversed view as a constant is packed into a row-major copy.
        graph with_constant;
        const auto cx = with_constant.input("y", tensor_desc(shape{2, 3, 4}, dtype::f32));
        const auto w = with_constant.constant("w", x);
        CHECK(with_constant.desc(w).is_row_major());
        with_constant.output(with_constant.apply("sum", op::binary(binary_kind::add), {cx, w}));
        auto cc = with_constant.compile(backend);
        const auto expected_constant_sum =
            reference::execute(op::binary(binary_kind::add), {y.clone(), x.clone()})[0];
        CHECK(values(cc.run({{"y", y}}).at("sum")) == values(expected_constant_sum));
    }
}
