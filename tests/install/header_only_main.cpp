// header_only_main.cpp: compiled with nothing but -I<prefix>/include (no CMake, no libraries):
// the one source file of the program includes <tessera/implementation.hpp> for the runtime's
// definitions; the built-in reference backend runs a graph and the answer is checked by hand.
#include <cstdio>

#include <tessera/implementation.hpp>
#include <tessera/tessera.hpp>

int main() {
    using namespace tessera;
    graph g;
    const auto x = g.input("x", tensor_desc(shape{2, 3}, dtype::f32));
    const auto y = g.apply("relu", op::activation(TSR_ACT_RELU), {x});
    g.output(y);
    auto cg = g.compile("reference");
    tensor in(tensor_desc(shape{2, 3}, dtype::f32));
    const float values[6] = {-2, -1, 0, 1, 2, 3};
    for (int i = 0; i < 6; ++i) in.data_as<float>()[i] = values[i];
    const tensor out = cg.run({{"x", in}}).at("relu");
    const float expected[6] = {0, 0, 0, 1, 2, 3};
    for (int i = 0; i < 6; ++i) {
        if (out.data_as<float>()[i] != expected[i]) {
            std::printf("header-only: element %d is %g, expected %g\n", i, out.data_as<float>()[i],
                        expected[i]);
            return 1;
        }
    }
    std::printf("header-only: all checks passed\n");
    return 0;
}
