// test_memory.cpp: qcom-ml memory hooks and options: OpenCL buffers round-trip through the host
// copies (with layout and dtype conversion), import copies, zero-copy import and mapping are
// refused, device/platform options select devices.
#include "qcom_ml_plugin.hpp"

using namespace qcom_test;

TEST_CASE("row-major buffers round-trip, converting layout and dtype on the way") {
    load_plugin();
    backend b = backend::create("qcom-ml");
    const tensor src = values({2, 3, 4, 5}, 1);
    const tensor_desc plain = src.desc();
    buffer buf = b.allocate(plain);
    buf.copy_from_host(src.clone(layout::nhwc()), plain);
    tensor back(plain.with_layout(layout::nhwc()));
    buf.copy_to_host(plain, back);
    CHECK(max_rel_diff(back, src) == 0.0);
    tensor half(plain.with_type(dtype::f16));
    buf.copy_to_host(plain, half);
    CHECK(max_rel_diff(half, src) <= 1e-3);
}

TEST_CASE("import copies, while zero-copy import and mapping are refused") {
    load_plugin();
    backend b = backend::create("qcom-ml");
    tensor src = values({4, 8}, 2);
    buffer imported = b.import(src.data(), src.desc().size_bytes(), TSR_IMPORT_COPY);
    src.data_as<float>()[0] = 42.0f;  // the copy is independent of the caller's memory
    tensor back(src.desc());
    imported.copy_to_host(src.desc(), back);
    CHECK(back.data_as<float>()[0] != 42.0f);
    CHECK_THROWS_AS(b.import(src.data(), src.desc().size_bytes(), TSR_IMPORT_ZERO_COPY_RW), error);
    CHECK_THROWS_AS(imported.map(), error);
}

TEST_CASE("options: platform and device indices, unknown keys") {
    load_plugin();
    CHECK_NOTHROW(
        backend::create(backend_request{"qcom-ml", {{"platform", "0"}, {"device", "0"}}}));
    CHECK_THROWS_AS(backend::create(backend_request{"qcom-ml", {{"platform", "99"}}}), error);
    CHECK_THROWS_AS(backend::create(backend_request{"qcom-ml", {{"colour", "blue"}}}), error);
    CHECK_THROWS_AS(backend::create(backend_request{"qcom-ml", {{"device", "-1"}}}), error);
}
