// wide_dtype_support_test.cpp: what each backend of the build does with the dtypes no device
// runtime has: i64, f64, u16, u32 and u64. The reference runs them; cpu moves them natively by
// element size (reshape, permute), computes the element-wise ops (binary, unary, compare,
// logical, where) natively and runs every other op on them on its reference kernels
// (emulated, reason dtype); every other plugin declines them with reason dtype, so none runs an
// wide_i64 or wide_f64 tensor as another dtype.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runner.hpp"

using namespace conformance;

namespace {

constexpr std::int64_t wide_big = (std::int64_t{1} << 53) + 1;  // not a double

tensor wide_i64(const shape& dims, const std::vector<std::int64_t>& v) {
    tensor t(dims, dtype::i64);
    std::memcpy(t.data(), v.data(), v.size() * sizeof(std::int64_t));
    return t;
}

tensor wide_u64(const shape& dims, const std::vector<std::uint64_t>& v) {
    tensor t(dims, dtype::u64);
    std::memcpy(t.data(), v.data(), v.size() * sizeof(std::uint64_t));
    return t;
}

tensor wide_f64(const shape& dims, const std::vector<double>& v) {
    tensor t(dims, dtype::f64);
    std::memcpy(t.data(), v.data(), v.size() * sizeof(double));
    return t;
}

struct wide_case {
    const char* form;
    op_desc op;
    std::vector<tensor> inputs;
    bool cpu_native;  ///< cpu moves the elements natively
};

std::vector<wide_case> wide_dtype_cases() {
    const tensor a = wide_i64(shape{2, 3}, {wide_big, -wide_big, 3, 4, 5, wide_big + 2});
    const tensor d = wide_f64(shape{2, 3}, {0.1, 0.2, -0.3, 1e300, 5, 6});
    const std::uint64_t top = ~std::uint64_t{0};
    const tensor u = wide_u64(shape{2, 3}, {top, wide_big, 3, 4, top - 7, 1});
    const tensor u32 =
        reference::execute(op::reorder(tensor_desc(shape{2, 3}, dtype::u32)), {u})[0];
    const tensor u16 = reference::execute(op::reorder(tensor_desc(shape{2}, dtype::u16)),
                                          {wide_u64(shape{2}, {65535, 7})})[0];
    return {
        {"reshape i64", op::reshape({3, 2}), {a}, true},
        {"permute f64", op::permute({1, 0}), {d}, true},
        {"add i64", op::binary(binary_kind::add), {a, a}, true},
        {"mul f64", op::binary(binary_kind::mul), {d, d}, true},
        {"greater i64",
         op::compare(compare_kind::greater),
         {a, wide_i64(shape{1}, {wide_big - 1})},
         true},
        {"reduce sum i64", op::reduce(reduce_kind::sum).along(1), {a}, true},
        {"gather f64 by i64", op::gather(1), {d, wide_i64(shape{2}, {2, -3})}, false},
        {"cast i64 -> f32", op::reorder(tensor_desc(shape{2, 3}, dtype::f32)), {a}, false},
        {"cast f32 -> f64",
         op::reorder(tensor_desc(shape{2}, dtype::f64)),
         {tensor(shape{2}, dtype::f32)},
         false},
        {"concat i64", op::concat(0), {a, a}, false},
        {"reshape u64", op::reshape({3, 2}), {u}, true},
        {"add u64", op::binary(binary_kind::add), {u, u}, true},
        {"max u32", op::binary(binary_kind::max), {u32, u32}, true},
        {"cast u16 -> f32", op::reorder(tensor_desc(shape{2}, dtype::f32)), {u16}, false},
        {"reduce sum u64", op::reduce(reduce_kind::sum).along(1), {u}, true},
    };
}

}  // namespace

TEST_CASE(
    "i64, f64, u16, u32 and u64 ops: run exactly on reference and cpu, declined with reason dtype "
    "elsewhere") {
    for (const auto& b : backend_table()) {
        std::string why;
        INFO("backend " << b.name);
        REQUIRE_MESSAGE(load_backend(b, why), why);
    }
    for (const auto& c : wide_dtype_cases()) {
        INFO("case " << c.form);
        const std::vector<tensor> want = reference::execute(c.op, c.inputs);
        for (const auto& b : backend_table()) {
            INFO("backend " << b.name);
            const outcome o =
                run_case(b, {std::string(c.op.name()), c.form, c.op, c.inputs, 1}, want);
            INFO("detail: " << o.detail);
            if (b.name == "reference") {
                CHECK(o.v == verdict::native);
            } else if (b.name == "cpu") {
                CHECK(o.v == (c.cpu_native ? verdict::native : verdict::emulated));
            } else {
                CHECK(o.v == verdict::declined);
                CHECK(o.detail.find("(dtype)") != std::string::npos);
            }
        }
    }
}

TEST_CASE("cpu: an i64 add past 2^53 is exact") {
    const auto& table = backend_table();
    for (const auto& b : table) {
        if (b.name != "cpu") continue;
        std::string why;
        REQUIRE_MESSAGE(load_backend(b, why), why);
        graph g;
        const auto x = g.input("x", tensor_desc(shape{2}, dtype::i64));
        g.output(g.apply("add", op::binary(binary_kind::add), {x, x}));
        auto cg = g.compile(b.config);
        REQUIRE(cg.placements().size() == 1);
        CHECK(cg.placements()[0].level == TSR_SUPPORT_EMULATED);
        const tensor y = cg.run({{"x", wide_i64(shape{2}, {wide_big, -wide_big})}}).at("add");
        REQUIRE(y.type() == dtype::i64);
        CHECK(y.data_as<std::int64_t>()[0] == 2 * wide_big);
        CHECK(y.data_as<std::int64_t>()[1] == -2 * wide_big);
    }
}

TEST_CASE("cpu: a u64 add past 2^63 wraps exactly") {
    for (const auto& b : backend_table()) {
        if (b.name != "cpu") continue;
        std::string why;
        REQUIRE_MESSAGE(load_backend(b, why), why);
        graph g;
        const auto x = g.input("x", tensor_desc(shape{2}, dtype::u64));
        op::binary add(binary_kind::add);
        add.set_overflow(overflow_policy::wrap);
        g.output(g.apply("add", add, {x, x}));
        auto cg = g.compile(b.config);
        REQUIRE(cg.placements().size() == 1);
        CHECK(cg.placements()[0].level == TSR_SUPPORT_EMULATED);
        const std::uint64_t top = ~std::uint64_t{0};
        const tensor y = cg.run({{"x", wide_u64(shape{2}, {top, wide_big})}}).at("add");
        REQUIRE(y.type() == dtype::u64);
        CHECK(y.data_as<std::uint64_t>()[0] == top - 1);  // 2^65 - 2 mod 2^64
        CHECK(y.data_as<std::uint64_t>()[1] == 2 * static_cast<std::uint64_t>(wide_big));
    }
}
