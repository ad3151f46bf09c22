// layout_conversion_test.cpp: the conversions between host tensors and the blocked layout
// (graph inputs and outputs) and the runtime's reorders between blocked and row-major tensors
// inside a graph move every element unchanged, also for channel counts that leave part of the
// last 16-channel block as padding.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// max-pool (blocked; a graph output, converted to the host) -> permute (row-major: a reorder
/// back from blocked) -> output.
graph pool_then_permute(const shape& dims) {
    graph g;
    const auto x = g.input("x", tensor_desc(dims, dtype::f32));
    const auto pooled = g.apply("pool", op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(1, 1), {x});
    g.output(pooled);
    g.output(g.apply("permute", op::permute{0, 2, 3, 1}, {pooled}));
    return g;
}

}  // namespace

TEST_CASE("host <-> blocked conversions and blocked -> row-major reorders are exact") {
    load_cpu_plugin();
    for (const shape& dims : {shape::nchw(1, 3, 9, 11), shape::nchw(2, 19, 5, 4),
                              shape::nchw(1, 32, 3, 7), shape::nchw(1, 1, 2, 2)}) {
        CAPTURE(dims[1]);
        graph g = pool_then_permute(dims);
        auto cg = g.compile("cpu!");
        const std::string report = cg.placement_report();
        INFO(report);
        int inserted = 0;
        for (const auto& p : cg.placements()) {
            CHECK(p.level == TSR_SUPPORT_NATIVE);
            inserted += p.inserted;
        }
        CHECK(inserted == 1);  // the pool's blocked output reordered for the permute
        graph r = pool_then_permute(dims);
        auto ref = r.compile("reference");
        const tensor x = values(dims, 60);
        const auto got = cg.run({{"x", x}});
        const auto want = ref.run({{"x", x}});
        for (const char* name : {"pool", "permute"}) {
            CAPTURE(name);
            const tensor& a = got.at(name);
            const tensor& b = want.at(name);
            REQUIRE(a.dims() == b.dims());
            int differing = 0;
            for (std::int64_t i = 0; i < b.num_elements(); ++i)
                differing += a.data_as<float>()[i] != b.data_as<float>()[i];
            CHECK(differing == 0);
        }
    }
}
