// elementwise_typed_test.cpp: compare, logical, where, binary and unary run natively on the cpu
// plugin ("cpu!": nothing emulated) for every dtype and broadcast form, and equal the reference
// backend: bit for bit for integers, bools, comparisons and selections, within the cpu
// tolerance for floating-point math.
#include <cmath>
#include <cstring>
#include <limits>

#include "cpu_plugin.hpp"

namespace cpu_elementwise_test {

using namespace cpu_test;

/// Broadcast forms: A's and B's shapes (same shape, trailing vector, both sides broadcast,
/// scalar operand, rank 5 with inner broadcast, a single element of each).
const std::vector<std::pair<shape, shape>> broadcast_forms = {
    {shape{2, 3, 4}, shape{2, 3, 4}},
    {shape{2, 3, 4}, shape{4}},
    {shape{2, 1, 4}, shape{3, 1}},
    {shape{5, 7}, shape{1}},
    {shape{1}, shape{4, 6}},
    {shape{2, 1, 3, 1, 5}, shape{2, 1, 4, 1}},
    {shape{1}, shape{1}},
};

const std::vector<dtype> plain_dtypes = {dtype::f32, dtype::f64, dtype::i8,  dtype::u8,
                                         dtype::i16, dtype::i32, dtype::i64, dtype::u16,
                                         dtype::u32, dtype::u64};

/// Deterministic elements of `type`: the extremes, zero, ±1, small values, and for floats NaN,
/// the infinities, signed zeros and halves, then a pseudo-random sequence (raw values: i8/u8
/// quantised by `q`).
tensor typed_values(const shape& dims, dtype type, std::uint32_t seed, const quantization& q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    tessera_test::lcg_sequence draws(seed, 7u);
    const double inf = std::numeric_limits<double>::infinity();
    const double floats[] = {std::nan(""), inf, -inf, 0.0, -0.0, 0.5, -2.5, 1.5, 3.0, -1.0};
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        void* p = static_cast<char*>(t.data()) + i * static_cast<std::int64_t>(size_of(type));
        const std::uint32_t r = draws.next();
        if (is_floating(type)) {
            const double v =
                (r % 4 == 0) ? floats[(r >> 4) % 10]
                             : static_cast<double>(static_cast<std::int32_t>(r >> 8) % 2000) / 64.0;
            numeric::store_raw(type, p, v);
            continue;
        }
        const std::uint64_t bits = (std::uint64_t{draws.next()} << 32) | draws.next();
        std::int64_t v = 0;
        switch (r % 6) {
            case 0:  // the extremes through the wide store (saturating)
                v = (r >> 3) % 2 ? std::numeric_limits<std::int64_t>::max()
                                 : std::numeric_limits<std::int64_t>::min();
                break;
            case 1:
                v = static_cast<std::int64_t>((r >> 3) % 3) - 1;  // -1, 0, 1
                break;
            case 2:
                v = static_cast<std::int64_t>(bits);  // any bits (wrapped below)
                break;
            default:
                v = static_cast<std::int64_t>((r >> 3) % 41) - 20;
        }
        if (r % 6 == 2) {
            std::memcpy(p, &bits, size_of(type));  // little-endian: the low bytes
        } else {
            numeric::store_raw_wide(type, p, static_cast<long double>(v));
        }
    }
    return t;
}

tensor booleans(const shape& dims, std::uint32_t seed) {
    tensor t(tensor_desc(dims, dtype::boolean));
    tessera_test::lcg_sequence draws(seed, 3u);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        t.data_as<std::uint8_t>()[i] = (draws.next() >> 13) % 2;
    }
    return t;
}

/// Runs `op` on "cpu!" (strict: any emulated or declined node fails the compile) and returns
/// its output, CHECKing the partition ran with nothing emulated.
tensor run_native(const op_desc& op, const std::vector<tensor>& inputs) {
    std::string report;
    const tensor got = run_op(op, inputs, "cpu!", {}, &report).at(0);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);
    return got;
}

/// Bit-for-bit equality of two dense tensors of one descriptor.
void check_same_bits(const tensor& got, const tensor& want, const std::string& what) {
    INFO(what);
    REQUIRE(got.dims() == want.dims());
    REQUIRE(got.type() == want.type());
    const auto size = static_cast<std::int64_t>(size_of(want.type()));
    std::int64_t bad = 0, first = -1;
    for (std::int64_t i = 0; i < want.num_elements(); ++i) {
        if (std::memcmp(static_cast<const char*>(got.data()) + i * size,
                        static_cast<const char*>(want.data()) + i * size,
                        static_cast<std::size_t>(size)) != 0) {
            if (first < 0) first = i;
            ++bad;
        }
    }
    CHECK_MESSAGE(bad == 0, bad << " elements differ, the first at " << first);
}

/// Equal values: bit for bit, except NaN against any NaN.
void check_same_values(const tensor& got, const tensor& want, const std::string& what) {
    if (!is_floating(want.type())) return check_same_bits(got, want, what);
    INFO(what);
    REQUIRE(got.dims() == want.dims());
    const auto size = static_cast<std::int64_t>(size_of(want.type()));
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < want.num_elements(); ++i) {
        const auto* g = static_cast<const char*>(got.data()) + i * size;
        const auto* w = static_cast<const char*>(want.data()) + i * size;
        const double a = numeric::load_raw(want.type(), g), b = numeric::load_raw(want.type(), w);
        if (std::memcmp(g, w, static_cast<std::size_t>(size)) != 0 &&
            !(std::isnan(a) && std::isnan(b)))
            ++bad;
    }
    CHECK_MESSAGE(bad == 0, bad << " elements differ");
}

std::string name_of(const op_desc& op, const std::vector<tensor>& in) {
    std::string s = op.describe();
    for (const auto& t : in) s += " " + t.desc().to_string();
    return s;
}

TEST_CASE("compare runs natively for every dtype and broadcast form, exactly") {
    load_cpu_plugin();
    const compare_kind kinds[] = {compare_kind::equal, compare_kind::less, compare_kind::less_equal,
                                  compare_kind::greater, compare_kind::greater_equal};
    std::uint32_t seed = 1;
    for (dtype type : plain_dtypes) {
        for (const auto& form : broadcast_forms) {
            const tensor a = typed_values(form.first, type, seed++);
            // B partly copies A's values (equal elements) where the shapes agree
            tensor b = typed_values(form.second, type, seed++);
            if (form.first == form.second)
                std::memcpy(b.data(), a.data(),
                            static_cast<std::size_t>(a.desc().size_bytes() / 2));
            for (compare_kind k : kinds) {
                const op_desc op = op::compare(k);
                check_same_bits(run_native(op, {a, b}), reference::execute(op, {a, b}).at(0),
                                name_of(op, {a, b}));
            }
        }
    }
}

TEST_CASE("compare of bools, and of i8 with different quantisations, runs natively") {
    load_cpu_plugin();
    const tensor a = booleans(shape{3, 4}, 1), b = booleans(shape{4}, 2);
    const op_desc eq = op::compare(compare_kind::equal);
    check_same_bits(run_native(eq, {a, b}), reference::execute(eq, {a, b}).at(0), "bool equal");
    const tensor qa = typed_values(shape{6, 5}, dtype::i8, 3, quantization{0.5f, 3, 0});
    const tensor qb = typed_values(shape{6, 1}, dtype::i8, 4, quantization{0.25f, -2, 0});
    for (compare_kind k : {compare_kind::less, compare_kind::equal, compare_kind::greater_equal}) {
        const op_desc op = op::compare(k);
        check_same_bits(run_native(op, {qa, qb}), reference::execute(op, {qa, qb}).at(0),
                        name_of(op, {qa, qb}));
    }
}

TEST_CASE("logical and, or, xor and not run natively with broadcasting") {
    load_cpu_plugin();
    std::uint32_t seed = 10;
    for (const auto& form : broadcast_forms) {
        const tensor a = booleans(form.first, seed++), b = booleans(form.second, seed++);
        for (logical_kind k : {logical_kind::and_, logical_kind::or_, logical_kind::xor_}) {
            const op_desc op = op::logical(k);
            check_same_bits(run_native(op, {a, b}), reference::execute(op, {a, b}).at(0),
                            name_of(op, {a, b}));
        }
        const op_desc no = op::logical(logical_kind::not_);
        check_same_bits(run_native(no, {a}), reference::execute(no, {a}).at(0), "not");
    }
}

TEST_CASE("where selects natively for every element size and broadcast of all three") {
    load_cpu_plugin();
    const std::vector<std::array<shape, 3>> forms = {
        {shape{2, 3, 4}, shape{2, 3, 4}, shape{2, 3, 4}},
        {shape{3, 1}, shape{1, 4}, shape{1}},
        {shape{1}, shape{2, 5}, shape{5}},
        {shape{2, 1, 3, 1}, shape{4, 1, 5}, shape{2, 1, 1, 1, 1}},
        {shape{6}, shape{1}, shape{1}},
    };
    std::uint32_t seed = 30;
    for (dtype type : {dtype::i8, dtype::f16, dtype::i32, dtype::f32, dtype::i64, dtype::f64}) {
        for (const auto& f : forms) {
            const tensor c = booleans(f[0], seed++);
            const tensor x = typed_values(f[1], type, seed++);
            const tensor y = typed_values(f[2], type, seed++);
            const op_desc op = op::where();
            check_same_bits(run_native(op, {c, x, y}), reference::execute(op, {c, x, y}).at(0),
                            name_of(op, {c, x, y}));
        }
    }
}

TEST_CASE("integer binary ops run natively and exactly: division by zero, overflow, rounding") {
    load_cpu_plugin();
    const binary_kind kinds[] = {binary_kind::add, binary_kind::sub, binary_kind::mul,
                                 binary_kind::min, binary_kind::max, binary_kind::div,
                                 binary_kind::pow};
    std::uint32_t seed = 50;
    for (dtype type : {dtype::i8, dtype::u8, dtype::i16, dtype::i32, dtype::i64, dtype::u16,
                       dtype::u32, dtype::u64}) {
        for (const auto& form : broadcast_forms) {
            const tensor a = typed_values(form.first, type, seed++);
            const tensor b = typed_values(form.second, type, seed++);
            for (binary_kind k : kinds) {
                for (auto overflow : {overflow_policy::saturate, overflow_policy::wrap}) {
                    for (auto rounding :
                         {rounding_policy::to_nearest_even, rounding_policy::to_zero}) {
                        const op_desc op =
                            op::binary(k).set_overflow(overflow).set_rounding(rounding);
                        check_same_bits(run_native(op, {a, b}),
                                        reference::execute(op, {a, b}).at(0), name_of(op, {a, b}));
                    }
                }
            }
        }
    }
}

TEST_CASE("f64 binary ops run natively and scaled, gamma and quantised forms equal the reference") {
    load_cpu_plugin();
    std::uint32_t seed = 90;
    for (const auto& form : broadcast_forms) {
        const tensor a = typed_values(form.first, dtype::f64, seed++);
        const tensor b = typed_values(form.second, dtype::f64, seed++);
        for (binary_kind k : {binary_kind::add, binary_kind::sub, binary_kind::mul,
                              binary_kind::div, binary_kind::min, binary_kind::max}) {
            const op_desc op = op::binary(k);  // one IEEE operation: exact
            check_same_values(run_native(op, {a, b}), reference::execute(op, {a, b}).at(0),
                              name_of(op, {a, b}));
        }
        const op_desc pow = op::binary(binary_kind::pow);
        check_close(run_native(pow, {a, b}), reference::execute(pow, {a, b}).at(0),
                    tolerance_of("cpu"), 1, name_of(pow, {a, b}));
    }
    // alpha A op beta B + gamma C in f32, C broadcast; stored once from extended precision
    const tensor a = values(shape{4, 5}, 1), b = values(shape{5}, 2), c = values(shape{4, 1}, 3);
    const op_desc scaled = op::binary(binary_kind::sub).set_alpha(0.5f).set_beta(-3.0f);
    check_same_values(run_native(scaled, {a, b}), reference::execute(scaled, {a, b}).at(0),
                      "scaled sub");
    const op_desc with_c = op::binary(binary_kind::mul).set_gamma(2.0f);
    check_same_values(run_native(with_c, {a, b, c}), reference::execute(with_c, {a, b, c}).at(0),
                      "mul + 2 C");
    // u8 quantised operands: real values, requantised to A's scale and zero point
    const tensor qa = typed_values(shape{3, 4}, dtype::u8, 5, quantization{0.5f, 3, 0});
    const tensor qb = typed_values(shape{4}, dtype::u8, 6, quantization{0.25f, 10, 0});
    for (binary_kind k : {binary_kind::add, binary_kind::mul, binary_kind::div}) {
        const op_desc op = op::binary(k).set_scale(0.75f);
        check_same_bits(run_native(op, {qa, qb}), reference::execute(op, {qa, qb}).at(0),
                        name_of(op, {qa, qb}));
    }
}

TEST_CASE("every unary kind runs natively on f32 and f64 within the cpu tolerance") {
    load_cpu_plugin();
    for (int k = TSR_UNARY_LOG; k <= TSR_UNARY_ATANH; ++k) {
        const op_desc op = op::unary(static_cast<tsr_unary_op>(k), 1e-3f);
        for (dtype type : {dtype::f32, dtype::f64}) {
            // values in [-0.9, 0.9] (inside every domain but log's and acosh's, which give NaN
            // there), halves for round, then NaN, the infinities and signed zeros
            tensor x(tensor_desc(shape{3, 67}, type));
            for (std::int64_t i = 0; i < x.num_elements(); ++i) {
                double v = static_cast<double>(i % 67 - 33) / 36.0;
                if (i / 67 == 1) v = static_cast<double>(i % 67 - 33) / 2.0;
                numeric::store_raw(type, static_cast<char*>(x.data()) + i * size_of(type), v);
            }
            const double specials[] = {std::nan(""), std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(), 0.0, -0.0};
            for (std::int64_t i = 0; i < 5; ++i)
                numeric::store_raw(type, static_cast<char*>(x.data()) + (134 + i) * size_of(type),
                                   specials[i]);
            const tensor got = run_native(op, {x});
            const tensor want = reference::execute(op, {x}).at(0);
            check_close(got, want, tolerance_of("cpu"), 1, name_of(op, {x}));
            const auto kind = static_cast<unary_kind>(k);
            if (kind == unary_kind::round || kind == unary_kind::floor ||
                kind == unary_kind::ceil || kind == unary_kind::sign || kind == unary_kind::neg ||
                kind == unary_kind::abs || type == dtype::f64)
                check_same_values(got, want, name_of(op, {x}));
        }
    }
}

TEST_CASE("unary kinds on integer dtypes run natively and equal the reference exactly") {
    load_cpu_plugin();
    std::uint32_t seed = 120;
    for (dtype type : {dtype::i8, dtype::u8, dtype::i16, dtype::i32, dtype::i64, dtype::u16,
                       dtype::u32, dtype::u64}) {
        const tensor x = typed_values(shape{4, 33}, type, seed++);
        for (unary_kind k : {unary_kind::neg, unary_kind::abs, unary_kind::sign, unary_kind::floor,
                             unary_kind::round, unary_kind::exp, unary_kind::sqrt,
                             unary_kind::reciprocal, unary_kind::sin}) {
            const op_desc op = op::unary(k);
            check_same_bits(run_native(op, {x}), reference::execute(op, {x}).at(0),
                            name_of(op, {x}));
        }
    }
    const tensor q = typed_values(shape{40}, dtype::i8, 7, quantization{0.125f, -4, 0});
    const op_desc exp = op::unary(unary_kind::exp);
    check_same_bits(run_native(exp, {q}), reference::execute(exp, {q}).at(0), "quantised exp");
}

TEST_CASE("large element-wise outputs split over threads equal the reference") {
    load_cpu_plugin();
    const tensor a = typed_values(shape{3, 257, 129}, dtype::i32, 200);
    const tensor b = typed_values(shape{257, 1}, dtype::i32, 201);
    const op_desc add = op::binary(binary_kind::add);
    check_same_bits(run_native(add, {a, b}), reference::execute(add, {a, b}).at(0), "i32 add");
    const op_desc less = op::compare(compare_kind::less);
    const tensor less_ab = run_native(less, {a, b});
    check_same_bits(less_ab, reference::execute(less, {a, b}).at(0), "i32 less");
    const op_desc where = op::where();
    check_same_bits(run_native(where, {less_ab, a, b}),
                    reference::execute(where, {less_ab, a, b}).at(0), "where");
    const tensor x = values(shape{5, 70001}, 9, -3.0f, 3.0f);
    const op_desc exp = op::unary(unary_kind::exp);
    check_close(run_native(exp, {x}), reference::execute(exp, {x}).at(0), tolerance_of("cpu"));
}

TEST_CASE("queries for the element-wise ops on wide dtypes are answered native") {
    load_cpu_plugin();
    backend cpu = backend::create("cpu");
    const tensor_desc d(shape{3, 5}, dtype::i64), f(shape{5}, dtype::f64);
    const tensor_desc b(shape{3, 5}, dtype::boolean);
    const auto any = [](const tensor_desc& t) { return t.with_layout(layout::any()); };
    CHECK(cpu.query(op::compare(compare_kind::less), {d, d}, {any(b)}).level == TSR_SUPPORT_NATIVE);
    CHECK(cpu.query(op::binary(binary_kind::div), {d, d}, {any(d)}).level == TSR_SUPPORT_NATIVE);
    CHECK(cpu.query(op::unary(unary_kind::exp), {f}, {any(f)}).level == TSR_SUPPORT_NATIVE);
    CHECK(cpu.query(op::where(), {b, d, d}, {any(d)}).level == TSR_SUPPORT_NATIVE);
}

}  // namespace cpu_elementwise_test
