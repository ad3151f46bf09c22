// sdk_test.cpp: the SDK's C table as the host sees it: options, errors crossing the boundary as
// codes and text, buffers (allocate, zero-copy import, map), layout-converting copies.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

#include <tessera/plugin/backend.hpp>
#include <tessera/reference/backend.hpp>
#include <tessera/tessera.hpp>

using namespace tessera;

TEST_CASE("backend options reach the plugin and bad ones come back as typed errors") {
    backend_request req;
    req.name = "reference";
    req.options = {{"device", "3"}};
    try {
        backend b(reference::plugin_table(), req);
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.backend() == "reference");
        CHECK(e.message().find("unknown option 'device'") != std::string::npos);
    }
}

TEST_CASE("an invalid op is declined with a reason code, not thrown") {
    backend b(reference::plugin_table());
    const tensor_desc a(shape{2, 3}, dtype::f32), c(shape{4, 3}, dtype::f32);
    const op_support s =
        b.query(op::binary(binary_kind::add), {a, c}, {a.with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_NONE);
    CHECK(s.reason == TSR_REASON_INVALID);
    CHECK(s.text.find("binary") != std::string::npos);
}

TEST_CASE("buffers: allocate, map, and copies that convert layouts") {
    backend b(reference::plugin_table());
    const tensor_desc nchw(shape::nchw(1, 3, 2, 2), dtype::f32);
    const tensor_desc nhwc = nchw.with_layout(layout::nhwc());
    buffer buf = b.allocate(nhwc);
    CHECK(buf.size() == 48);

    tensor src(nchw);
    for (int i = 0; i < 12; ++i) src.data_as<float>()[i] = static_cast<float>(i);
    buf.copy_from_host(src, nhwc);  // NCHW host -> NHWC buffer
    {
        const mapped_region m = buf.map(TSR_MAP_READ);
        const auto* p = static_cast<const float*>(m.data());
        // NHWC order: (h,w,c); element (n0,c1,h0,w1) = 1*4 + 0*2 + 1 = 5 sits at (0*2+1)*3 + 1 = 4.
        CHECK(p[4] == 5.0f);
        CHECK(p[0] == 0.0f);
        CHECK(p[1] == 4.0f);
        CHECK(p[2] == 8.0f);
    }
    tensor back(nchw);
    buf.copy_to_host(nhwc, back);
    for (int i = 0; i < 12; ++i) CHECK(back.data_as<float>()[i] == static_cast<float>(i));

    tensor half(nchw.with_type(dtype::f16));
    buf.copy_to_host(nhwc, half);  // and converts dtype on the way
    CHECK(half.get({0, 2, 1, 1}) == 11.0);
}

TEST_CASE("zero-copy import shares memory, misaligned memory is refused") {
    backend b(reference::plugin_table());
    void* raw = std::aligned_alloc(64, 256);
    std::memset(raw, 0, 256);
    {
        buffer shared = b.import(raw, 256, TSR_IMPORT_ZERO_COPY_RW);
        const mapped_region m = shared.map();
        CHECK(m.data() == raw);
        static_cast<float*>(m.data())[3] = 7.5f;
    }
    CHECK(static_cast<float*>(raw)[3] == 7.5f);
    {
        buffer copied = b.import(raw, 256, TSR_IMPORT_COPY);
        static_cast<float*>(raw)[3] = 1.0f;
        CHECK(static_cast<float*>(copied.map().data())[3] == 7.5f);  // copied at import time
    }
    try {
        b.import(static_cast<char*>(raw) + 4, 128, TSR_IMPORT_ZERO_COPY_RO);
        FAIL("expected an alignment error");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.message().find("aligned") != std::string::npos);
    }
    std::free(raw);
}

TEST_CASE("execute errors carry the node name across the boundary") {
    backend b(reference::plugin_table());
    const tensor_desc d(shape{4}, dtype::f32);
    op_desc relu = op::activation(activation_kind::relu);
    tsr_tensor_desc descs[2] = {d.c_desc(), d.c_desc()};
    const int in_id = 0, out_id = 1;
    tsr_node n{};
    n.struct_size = sizeof n;
    n.op.struct_size = sizeof n.op;
    n.op.kind = relu.kind();
    n.op.params = relu.c_params();
    n.op.name = "my_relu";
    n.op.num_inputs = 1;
    n.op.inputs = &descs[0];
    n.op.num_outputs = 1;
    n.op.outputs = &descs[1];
    n.input_ids = &in_id;
    n.output_ids = &out_id;
    tsr_partition p{};
    p.struct_size = sizeof p;
    p.num_tensors = 2;
    p.tensors = descs;
    p.num_nodes = 1;
    p.nodes = &n;
    compiled_partition c = b.compile(p);
    buffer x = b.allocate(d);
    try {
        c.execute({x.handle()});  // one buffer for two tensors
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.message().find("expected 2 buffers") != std::string::npos);
    }
    buffer y = b.allocate(d);
    tensor in(d);
    for (int i = 0; i < 4; ++i) in.data_as<float>()[i] = static_cast<float>(i) - 1.5f;
    x.copy_from_host(in, d);
    c.execute({x.handle(), y.handle()});
    tensor out(d);
    y.copy_to_host(d, out);
    CHECK(out.data_as<float>()[0] == 0.0f);
    CHECK(out.data_as<float>()[3] == 1.5f);
}

TEST_CASE("a dtype-changing reorder inside a graph keeps its target across the plugin ABI") {
    // The reorder's target is not part of its C parameters: the SDK takes it from the output the
    // host states. Without that, the reorder's output took the input's dtype (f32) and the i32
    // add after it was rejected.
    graph g;
    const auto x = g.input("x", tensor_desc(shape{4}, dtype::f32));
    const auto y = g.input("y", tensor_desc(shape{4}, dtype::i32));
    op::reorder to_i32(tensor_desc(shape{4}, dtype::i32));
    to_i32.set_rounding(rounding_policy::to_zero);
    const auto xi = g.apply("cast", to_i32, {x});
    g.output(g.apply("sum", op::binary(binary_kind::add), {xi, y}));
    auto cg = g.compile("reference");
    tensor xv(tensor_desc(shape{4}, dtype::f32)), yv(tensor_desc(shape{4}, dtype::i32));
    const float xs[] = {1.75f, -2.5f, 3.0f, 100.9f};
    for (int i = 0; i < 4; ++i) {
        xv.data_as<float>()[i] = xs[i];
        yv.data_as<std::int32_t>()[i] = 10 * i;
    }
    const tensor out = cg.run({{"x", xv}, {"y", yv}}).at("sum");
    REQUIRE(out.type() == dtype::i32);
    const std::int32_t want[] = {1, 8, 23, 130};
    for (int i = 0; i < 4; ++i) CHECK(out.data_as<std::int32_t>()[i] == want[i]);
}

TEST_CASE("with_reorder_target: a reorder takes its stated output, other ops pass unchanged") {
    const tensor_desc out_any = tensor_desc(shape{2, 3}, dtype::i8, layout::any(), {0.5f, 1, 0});
    const op_desc r = sdk::detail::with_reorder_target(op_desc(op::reorder()), {out_any});
    const auto inferred = r.infer({tensor_desc(shape{2, 3}, dtype::f32)});
    REQUIRE(inferred.size() == 1);
    CHECK(inferred[0].type() == dtype::i8);
    CHECK(inferred[0].quant().scale == 0.5f);
    CHECK(inferred[0].is_row_major());
    const op_desc relu = sdk::detail::with_reorder_target(op_desc(op::activation()), {out_any});
    CHECK(relu.get_if<op::activation>() != nullptr);
}
