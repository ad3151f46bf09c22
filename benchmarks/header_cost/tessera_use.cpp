// tessera_use.cpp: a typical Tessera user file for the header-cost benchmark (run.sh): builds a
// small graph, compiles it for the reference backend, runs it and reads the result.
#include <tessera/tessera.hpp>

int main() {
    using namespace tessera;
    graph g;
    const tensor_desc d(shape{2, 3}, dtype::f32);
    const auto x = g.input("x", d);
    const auto y = g.apply("relu", op::activation(activation_kind::relu), {x});
    g.output(y);
    auto cg = g.compile("reference");
    tensor in(d);
    for (int i = 0; i < 6; ++i) in.data_as<float>()[i] = static_cast<float>(i - 3);
    const tensor out = cg.run({{"x", in}}).at("relu");
    return out.data_as<float>()[0] == 0.0f ? 0 : 1;
}
