// gather_elements_test.cpp: gather_elements runs natively on the cpu plugin (not on the reference
// kernels) along every axis, with i32 and i64 indices, on 1-, 4- and 8-byte elements, threaded
// on large tensors, and its output is byte-identical to the reference backend's; an index out of
// range fails the run with an error naming the op and the indices.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// Indices of `type` and `dims` in [-extent, extent) from a fixed sequence.
tensor gather_indices(const shape& dims, dtype type, std::int64_t extent, std::uint32_t seed) {
    tensor t(tensor_desc(dims, type));
    tessera_test::lcg_sequence draws(seed, 7u);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        const std::int64_t v = static_cast<std::int64_t>(draws.next() >> 8) % (2 * extent) - extent;
        if (type == dtype::i64)
            t.data_as<std::int64_t>()[i] = v;
        else
            t.data_as<std::int32_t>()[i] = static_cast<std::int32_t>(v);
    }
    return t;
}

/// Data of `type` and `dims` whose bytes all differ from element to element.
tensor gather_data(const shape& dims, dtype type) {
    tensor t(tensor_desc(dims, type));
    auto* bytes = static_cast<unsigned char*>(t.data());
    const std::size_t n = static_cast<std::size_t>(t.desc().size_bytes());
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(i * 131 + i / 251);
    return t;
}

/// Runs gather_elements on "cpu!" (optionally with `threads`) and checks it ran natively and
/// that its output bytes equal the reference backend's.
void check_gather_elements(const op::gather_elements& op, const tensor& data, const tensor& index,
                           const std::string& config = "cpu!") {
    std::string report;
    const auto got = run_op(op, {data, index}, config, {}, &report);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);
    const auto want = reference::execute(op, {data, index});
    REQUIRE(got.at(0).dims() == want.at(0).dims());
    REQUIRE(got.at(0).type() == want.at(0).type());
    CHECK(std::memcmp(got.at(0).data(), want.at(0).data(),
                      static_cast<std::size_t>(want.at(0).desc().size_bytes())) == 0);
}

}  // namespace

TEST_CASE("gather_elements runs natively along every axis, byte-identical to the reference") {
    load_cpu_plugin();
    const shape data_dims{3, 5, 7, 4};
    for (int axis = 0; axis < data_dims.rank(); ++axis) {
        CAPTURE(axis);
        const std::int64_t n = data_dims[axis];
        // The index tensor is cropped on the other dims and longer along the axis.
        std::vector<std::int64_t> cropped;
        for (int k = 0; k < data_dims.rank(); ++k)
            cropped.push_back(k == axis ? n + 3 : std::max<std::int64_t>(1, data_dims[k] - 1));
        const shape index_dims(cropped.begin(), cropped.end());
        for (dtype type : {dtype::f32, dtype::i8, dtype::i64})
            for (dtype index_type : {dtype::i32, dtype::i64})
                check_gather_elements(op::gather_elements(axis - (axis % 2) * data_dims.rank()),
                                      gather_data(data_dims, type),
                                      gather_indices(index_dims, index_type, n, 1u + axis));
    }
}

TEST_CASE("gather_elements over many rows splits them over threads with the same result") {
    load_cpu_plugin();
    const tensor data = gather_data(shape{64, 96, 33}, dtype::f32);
    for (int axis : {0, 2}) {
        const tensor index = gather_indices(shape{64, 96, 33}, dtype::i64, axis == 0 ? 64 : 33, 9u);
        check_gather_elements(op::gather_elements(axis), data, index, "cpu!:threads=2");
        check_gather_elements(op::gather_elements(axis), data, index, "cpu!:threads=1");
    }
}

TEST_CASE("gather_elements with an index out of range fails the run naming the op") {
    load_cpu_plugin();
    tensor index(tensor_desc(shape{2, 2}, dtype::i32));
    const std::int32_t raw[] = {0, 1, 2, 3};  // 3 is past the axis of 3
    std::memcpy(index.data(), raw, sizeof raw);
    try {
        run_op(op::gather_elements(1), {values(shape{2, 3}, 1), index}, "cpu!");
        FAIL("an index past the axis ran");
    } catch (const error& e) {
        const std::string what = e.what();
        CHECK(e.code() == status::invalid_argument);
        for (const char* part : {"gather_elements", "indices", "index 3 is outside [-3, 3)"})
            CHECK_MESSAGE(what.find(part) != std::string::npos, what);
    }
}
