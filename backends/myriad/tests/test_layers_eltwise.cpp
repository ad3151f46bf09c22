// test_layers_eltwise.cpp: the shipped Eltwise layer (one binding per operation) against double
// references, with fp16 tolerances (inputs rounded to half first).
#include <doctest/doctest.h>

#include <algorithm>

#include "myriad/runtime.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::check_close;
using myriad_test::random_values;
using myriad_test::runtime;
using myriad_test::to_half;

TEST_CASE("layers: Eltwise sum, sub, mul, div, max, min in BFYX and BYXF") {
    const Shape shape{2, 3, 4, 5};
    const auto a = to_half(random_values(120, -4, 4, 41));
    auto b = to_half(random_values(120, 0.5f, 3, 42));
    for (std::size_t i = 0; i < b.size(); i += 2) b[i] = -b[i];  // both signs, never zero
    for (const char* op : {"sum", "sub", "mul", "div", "max", "min"}) {
        CAPTURE(op);
        const std::string o = op;
        std::vector<double> want;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double x = a[i], y = b[i];
            want.push_back(o == "sum"   ? x + y
                           : o == "sub" ? x - y
                           : o == "mul" ? x * y
                           : o == "div" ? x / y
                           : o == "max" ? std::max(x, y)
                                        : std::min(x, y));
        }
        for (Layout layout : {Layout::BFYX, Layout::BYXF}) {
            Layer layer = runtime().create_layer(LayerSpec{
                "Eltwise", {{"operation", o}}, {shape, shape}, {layout, layout}, shape, {}});
            CHECK_FALSE(layer.converts_input_layouts());
            // values in the layout's memory order: element-wise ops do not care which
            check_close(layer.run({{shape, layout, a}, {shape, layout, b}}, layout).values, want,
                        1e-3, 1e-3);
        }
    }
    CHECK_THROWS_WITH_AS(runtime().create_layer(LayerSpec{
                             "Eltwise", {{"operation", "pow"}}, {shape, shape}, {}, shape, {}}),
                         doctest::Contains("Where does not hold"), tessera::error);
}
