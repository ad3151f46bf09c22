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
