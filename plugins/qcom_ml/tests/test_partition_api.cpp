// test_partition_api.cpp: a qcom-ml partition driven through the plugin ABI directly: the
// recording made on the first execute is replayed with other buffers (per-dispatch tensor
// memory updates) and again with the first ones; OPTIMAL tensors cross partitions.
#include "qcom_ml_plugin.hpp"

using namespace qcom_test;

namespace {

tsr_node make_node(const op_desc& op, const char* name, const tsr_tensor_desc* in,
                   const std::int32_t* in_ids, const tsr_tensor_desc* out,
                   const std::int32_t* out_ids) {
    tsr_node n{};
    n.struct_size = sizeof n;
    n.op.struct_size = sizeof n.op;
    n.op.kind = op.kind();
    n.op.params = op.c_params();
    n.op.name = name;
    n.op.num_inputs = 1;
    n.op.inputs = in;
    n.op.num_outputs = 1;
    n.op.outputs = out;
    n.input_ids = in_ids;
    n.output_ids = out_ids;
    return n;
}

}  // namespace

TEST_CASE("a compiled partition replays its recording with the buffers of each call") {
    load_plugin();
    backend b = backend::create("qcom-ml");
    const tensor_desc x(shape{1, 4, 6, 6}, dtype::f32);
    const op_desc relu = op::activation(activation_kind::elu, 1.0f),
                  sig = op::activation(activation_kind::sigmoid);
    const auto s1 = b.query(relu, {x}, {x.with_layout(layout::any())}, "elu");
    REQUIRE(s1.supported());
    const tensor_desc t1 = s1.outputs.at(0);
    CHECK(t1.is_opaque());
    const auto s2 = b.query(sig, {t1}, {x.with_layout(layout::any())}, "sigmoid");
    REQUIRE(s2.supported());
    CHECK(s2.inputs.at(0) == t1);  // OPTIMAL accepted as it is
    const tensor_desc t2 = s2.outputs.at(0);

    const std::vector<tsr_tensor_desc> tensors = {x.c_desc(), t1.c_desc(), t2.c_desc()};
    const std::int32_t id0[] = {0}, id1[] = {1}, id2[] = {2};
    const tsr_node nodes[] = {make_node(relu, "elu", &tensors[0], id0, &tensors[1], id1),
                              make_node(sig, "sigmoid", &tensors[1], id1, &tensors[2], id2)};
    tsr_partition p{};
    p.struct_size = sizeof p;
    p.num_tensors = 3;
    p.tensors = tensors.data();
    p.num_nodes = 2;
    p.nodes = nodes;
    const compiled_partition cp = b.compile(p);

    struct buffer_set {
        std::vector<buffer> buffers;
        std::vector<tsr_buffer> handles;
    };
    auto make_set = [&] {
        buffer_set s;
        for (const auto& d : {x, t1, t2}) {
            s.buffers.push_back(b.allocate(d));
            s.handles.push_back(s.buffers.back().handle());
        }
        return s;
    };
    buffer_set first = make_set(), second = make_set();
    auto run = [&](const buffer_set& s, int seed) {
        const tensor in = values({1, 4, 6, 6}, seed, -3.0f, 3.0f);
        s.buffers[0].copy_from_host(in, x);
        cp.execute(s.handles);
        tensor out(x);
        s.buffers[2].copy_to_host(t2, out);
        const tensor want = reference::execute(sig, {reference::execute(relu, {in}).at(0)}).at(0);
        CHECK(max_rel_diff(out, want) <= 1e-5);
        tensor mid(x.with_layout(layout::nhwc()));  // OPTIMAL read back as NHWC through CLML
        s.buffers[1].copy_to_host(t1, mid);
        CHECK(max_rel_diff(mid, reference::execute(relu, {in}).at(0)) <= 1e-5);
    };
    run(first, 1);   // records with `first`
    run(second, 2);  // replays with memory updates
    run(first, 3);   // replays as recorded
    run(second, 4);
}

TEST_CASE("an OPTIMAL tensor read by a later qcom-ml partition stays OPTIMAL") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{1, 4, 8, 8}, dtype::f32));
    const auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                           {x, g.constant("w", values({4, 4, 3, 3}, 1))});
    const auto u = g.apply("exp", op::unary(unary_kind::exp), {t});  // reference
    const auto v = g.apply("add", op::binary(binary_kind::add),
                           {t, u});  // t straight from the first partition
    g.output(v);
    compiled_graph cg = g.compile("qcom-ml|reference");
    const std::string report = cg.placement_report();
    INFO(report);
    // Two host transfers: t to the reference for exp, u back. t itself reaches add without one.
    CHECK(report.find("transfer 'conv' qcom-ml") != std::string::npos);
    CHECK(report.find("transfer 'exp' reference") != std::string::npos);
    std::size_t into_qcom = 0;
    for (auto pos = report.find("-> qcom-ml ["); pos != std::string::npos;
         pos = report.find("-> qcom-ml [", pos + 1))
        ++into_qcom;
    CHECK(into_qcom == 1);
    compiled_graph ref = g.compile("reference");
    for (int run = 0; run < 2; ++run) {
        const tensor in = values({1, 4, 8, 8}, 5 + run);
        CHECK(max_rel_diff(cg.run({{"x", in}}).at("add"), ref.run({{"x", in}}).at("add")) <= 1e-5);
    }
}
