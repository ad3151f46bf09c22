// data_movement_test.cpp: slice, gather, concat, expand, tile, pad, depth_to_space and reorder
// (dtype conversions, strided layouts, row-major <-> blocked) run natively on the cpu plugin
// ("cpu!", no node emulated) in every form, for every dtype, and their outputs are bit-identical
// to the reference backend's; bad gather indices fail as on the reference. A reshape's output
// shares its input's buffer in the host's plan.
#include <algorithm>
#include <cstring>

#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

const dtype all_dtypes[] = {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i8,
                            dtype::u8,  dtype::i16, dtype::i32,  dtype::boolean,   dtype::i64,
                            dtype::f64, dtype::u16, dtype::u32,  dtype::u64};

/// NaNs of a binary float format (Bits: its storage) made the one quiet NaN, so no payload
/// depends on how the graph's host copies move it.
template <typename Bits>
void quiet_nans(void* data, std::int64_t n, Bits exponent, Bits quiet) {
    for (std::int64_t i = 0; i < n; ++i) {
        auto* p = static_cast<char*>(data) + i * static_cast<std::int64_t>(sizeof(Bits));
        Bits v;
        std::memcpy(&v, p, sizeof v);
        if ((v & exponent) == exponent && (v & ~exponent & ~(Bits{1} << (8 * sizeof(Bits) - 1))))
            std::memcpy(p, &quiet, sizeof quiet);
    }
}

/// A row-major tensor whose bytes are a pseudo-random sequence: floats include NaNs, infinities,
/// subnormals and extremes; booleans hold 0 or 1.
tensor random_bits(const shape& dims, dtype type, std::uint32_t seed, quantization q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    auto* bytes = static_cast<unsigned char*>(t.data());
    tessera_test::lcg_sequence draws(seed, 7u);
    const std::int64_t count = t.num_elements();
    const std::int64_t n = count * static_cast<std::int64_t>(size_of(type));
    for (std::int64_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<unsigned char>(draws.next() >> 24);
        if (type == dtype::boolean) bytes[i] &= 1u;
    }
    if (type == dtype::f32) quiet_nans<std::uint32_t>(bytes, count, 0x7f800000u, 0x7fc00000u);
    if (type == dtype::f16) quiet_nans<std::uint16_t>(bytes, count, 0x7c00u, 0x7e00u);
    if (type == dtype::bf16) quiet_nans<std::uint16_t>(bytes, count, 0x7f80u, 0x7fc0u);
    if (type == dtype::f64)
        quiet_nans<std::uint64_t>(bytes, count, 0x7ff0000000000000u, 0x7ff8000000000000u);
    return t;
}

/// A row-major tensor of `type` holding the values `first`, `first` + 1, ...
tensor counting(const shape& dims, dtype type, double first = 0.0) {
    tensor t(tensor_desc(dims, type));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        numeric::store_raw(type, static_cast<char*>(t.data()) + i * size_of(type),
                           first + static_cast<double>(i));
    return t;
}

/// An index tensor (i32 or i64) holding `v`.
tensor indices(const shape& dims, dtype type, const std::vector<std::int64_t>& v) {
    tensor t(tensor_desc(dims, type));
    REQUIRE(static_cast<std::int64_t>(v.size()) == t.num_elements());
    for (std::size_t i = 0; i < v.size(); ++i)
        numeric::store_raw(type, static_cast<char*>(t.data()) + i * size_of(type),
                           static_cast<double>(v[i]));
    return t;
}

/// `t`'s element bytes in row-major order.
std::vector<unsigned char> bytes_of(const tensor& t) {
    tensor dense(tensor_desc(t.dims(), t.type(), layout::row_major(), t.desc().quant()));
    tensor::copy_elements(t, dense);
    const auto* p = static_cast<const unsigned char*>(dense.data());
    return {p, p + dense.num_elements() * static_cast<std::int64_t>(size_of(t.type()))};
}

/// Runs `op` on `config` and checks that no node ran emulated and that every output is
/// bit-identical to the reference backend's.
void check_native_exact(const op_desc& op, const std::vector<tensor>& inputs,
                        const std::string& config = "cpu!") {
    std::string report;
    const auto got = run_op(op, inputs, config, {}, &report);
    INFO(op.describe() << " on " << to_string(inputs.at(0).type()) << "\n" << report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);  // the partition line
    CHECK(report.find("(emulated)") == std::string::npos);    // the query answers
    const auto want = reference::execute(op, inputs);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        REQUIRE(got[i].dims() == want[i].dims());
        CHECK(got[i].type() == want[i].type());
        const auto a = bytes_of(got[i]), b = bytes_of(want[i]);
        std::size_t differing = 0;
        for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) differing += a[k] != b[k];
        CHECK(a.size() == b.size());
        CHECK_MESSAGE(differing == 0, differing << " of " << b.size() << " bytes differ");
    }
}

}  // namespace

TEST_CASE("slice moves every dtype natively, bit-identical to the reference") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        const tensor x = random_bits(shape{3, 5, 7, 6}, t, 1);
        // Steps 1, 2, -1 and -2; negative starts and ends; ends past the extent, clamped.
        check_native_exact(op::slice()
                               .set_dim(0, 1, 3)
                               .set_dim(1, 0, 100, 2)
                               .set_dim(2, -1, -8, -1)
                               .set_dim(3, 4, 0, -2),
                           {x});
        check_native_exact(op::slice().set_dim(3, 1, -1), {x});      // inner run of 4
        check_native_exact(op::slice().set_dim(1, 3, 3), {x});       // empty
        check_native_exact(op::slice().set_dim(0, -100, 100), {x});  // whole
    }
}

TEST_CASE("gather with i32 and i64 indices, negative ones included, matches the reference") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        const tensor x = random_bits(shape{4, 6, 5}, t, 2);
        check_native_exact(op::gather(0), {x, indices(shape{3}, dtype::i64, {3, -4, 0})});
        check_native_exact(op::gather(1), {x, indices(shape{2, 2}, dtype::i32, {-1, 0, 5, -6})});
        check_native_exact(op::gather(-1), {x, indices(shape{4}, dtype::i64, {4, 4, -5, 2})});
        check_native_exact(op::gather(2), {x, indices(shape{}, dtype::i32, {1})});
    }
}

TEST_CASE("gather of an index out of range fails like the reference, without a wild read") {
    load_cpu_plugin();
    const tensor x = counting(shape{4, 3}, dtype::f32);
    for (std::int64_t bad : {std::int64_t{4}, std::int64_t{-5}, std::int64_t{1} << 40}) {
        CAPTURE(bad);
        const dtype type = bad > (1 << 30) ? dtype::i64 : dtype::i32;
        const tensor idx = indices(shape{3}, type, {0, bad, 1});
        CHECK_THROWS_AS(reference::execute(op::gather(0), {x, idx}), error);
        try {
            run_op(op::gather(0), {x, idx}, "cpu!");
            FAIL("no error for index " << bad);
        } catch (const error& e) {
            CHECK(e.code() == status::invalid_argument);
            CHECK(std::string(e.what()).find("index " + std::to_string(bad) + " is outside") !=
                  std::string::npos);
        }
    }
}

TEST_CASE("concat joins every dtype natively along any axis") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        const tensor a = random_bits(shape{2, 3, 4}, t, 3), b = random_bits(shape{2, 5, 4}, t, 4),
                     c = random_bits(shape{2, 1, 4}, t, 5), e = random_bits(shape{2, 0, 4}, t, 6);
        check_native_exact(op::concat(1), {a, b, e, c});
        check_native_exact(op::concat(-1), {a, random_bits(shape{2, 3, 7}, t, 7)});
        check_native_exact(op::concat(0), {a, random_bits(shape{1, 3, 4}, t, 8), a});
    }
}

TEST_CASE("expand and tile repeat every dtype natively") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        check_native_exact(op::expand(shape{2, 3, 4}), {random_bits(shape{3, 1}, t, 9)});
        check_native_exact(op::expand(shape{5, 6}), {random_bits(shape{1}, t, 10)});
        check_native_exact(op::expand(shape{1, 1}), {random_bits(shape{4, 1, 3}, t, 11)});
        check_native_exact(op::tile{2, 3}, {random_bits(shape{2, 3}, t, 12)});
        check_native_exact(op::tile{1, 4, 2}, {random_bits(shape{3, 1, 2}, t, 13)});
        check_native_exact(op::tile{3, 0}, {random_bits(shape{2, 2}, t, 14)});
    }
}

TEST_CASE("pad in every mode, and the constant in the output's dtype, matches the reference") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        const tensor x = random_bits(shape{2, 3, 4, 5}, t, 15);
        check_native_exact(op::pad({0, 1, 2, 1}, {1, 0, 1, 3}, pad_kind::constant, 1.5), {x});
        check_native_exact(op::pad({0, 2, 3, 4}, {1, 2, 1, 2}, pad_kind::reflect), {x});
        check_native_exact(op::pad({1, 3, 0, 5}, {0, 1, 4, 2}, pad_kind::symmetric), {x});
        check_native_exact(op::pad({2, 0, 5, 6}, {0, 4, 1, 7}, pad_kind::edge), {x});
    }
    // Constants rounded, saturated and quantised as the reference stores them.
    check_native_exact(op::pad({2}, {1}, pad_kind::constant, -300.7),
                       {random_bits(shape{4}, dtype::i8, 16)});
    check_native_exact(op::pad({1, 1}, {0, 2}, pad_kind::constant, 2.5),
                       {random_bits(shape{2, 3}, dtype::u8, 17, quantization{0.5f, 7, 0})});
    check_native_exact(op::pad({1}, {1}, pad_kind::constant, 0.1),
                       {random_bits(shape{3}, dtype::bf16, 18)});
}

TEST_CASE("depth_to_space in DCR and CRD order moves every dtype natively") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        const tensor x = random_bits(shape::nchw(2, 8, 3, 4), t, 19);
        check_native_exact(op::depth_to_space(2, depth_to_space_kind::dcr), {x});
        check_native_exact(op::depth_to_space(2, depth_to_space_kind::crd), {x});
        const tensor y = random_bits(shape::nchw(1, 18, 2, 3), t, 20);
        check_native_exact(op::depth_to_space(3, depth_to_space_kind::dcr), {y});
        check_native_exact(op::depth_to_space(3, depth_to_space_kind::crd), {y});
    }
}

TEST_CASE("transpose (a permute of its rank) moves every dtype natively") {
    load_cpu_plugin();
    for (dtype t : all_dtypes) {
        CAPTURE(to_string(t));
        check_native_exact(op::transpose(), {random_bits(shape{2, 3, 5, 4}, t, 45)});
        check_native_exact(op::transpose(), {random_bits(shape{7, 3}, t, 46)});
    }
}

TEST_CASE("large transposes, permutes and reshapes split over threads move every element") {
    load_cpu_plugin();
    // 49152 elements (three parts at 3 threads) and a 512 KiB reshape (three parts too).
    for (dtype t : {dtype::f32, dtype::i8, dtype::f16}) {
        CAPTURE(to_string(t));
        const tensor x = random_bits(shape{64, 8, 96}, t, 47);
        for (const char* config : {"cpu!:threads=1", "cpu!:threads=3"}) {
            CAPTURE(config);
            check_native_exact(op::transpose(), {x}, config);
            check_native_exact(op::permute({1, 0, 2}), {x}, config);
            check_native_exact(op::permute({2, 0, 1}), {x}, config);
            check_native_exact(op::reshape({96, 512}), {x}, config);
        }
    }
    check_native_exact(op::reshape({512, 256}), {random_bits(shape{256, 512}, dtype::f32, 48)},
                       "cpu!:threads=3");
}

TEST_CASE("a reshape shares its input's buffer: the plan holds one buffer for both, values exact") {
    load_cpu_plugin();
    // a = relu(x), t = reshape(a), u = a + reshape(t): node by node a, t and u need a buffer each
    // (both are read by the sum); with the reshapes aliased, a and t share one.
    const auto build = [](const char* config) {
        graph g;
        const auto a = g.apply("relu", op::activation(activation_kind::relu),
                               {g.input("x", tensor_desc(shape{4, 6, 10}, dtype::f32))});
        const auto t = g.apply("flat", op::reshape({240}), {a});
        const auto back = g.apply("back", op::reshape({4, 6, 10}), {t});
        g.output(g.apply("sum", op::binary(binary_kind::add), {a, back}));
        return g.compile(config);
    };
    CHECK(build("reference").memory().buffers == 4);
    compiled_graph cg = build("cpu!");
    CHECK(cg.memory().buffers == 3);
    tensor x(tensor_desc(shape{4, 6, 10}, dtype::f32));
    for (std::int64_t i = 0; i < x.num_elements(); ++i)
        x.data_as<float>()[i] = 0.25f * static_cast<float>(i % 17) - 2.0f;
    const tensor out = cg.run({{"x", x}}).at("sum");
    for (std::int64_t i = 0; i < x.num_elements(); ++i)
        CHECK(out.data_as<float>()[i] == 2.0f * std::max(0.0f, x.data_as<float>()[i]));
}

TEST_CASE("reorder converts between every pair of dtypes exactly as the reference") {
    load_cpu_plugin();
    const shape dims{3, 7, 5};
    for (dtype from : all_dtypes) {
        const tensor x = random_bits(dims, from, 21 + static_cast<std::uint32_t>(from));
        for (dtype to : all_dtypes) {
            CAPTURE(to_string(from));
            CAPTURE(to_string(to));
            check_native_exact(op::reorder(tensor_desc(dims, to)), {x});
            check_native_exact(op::reorder(tensor_desc(dims, to))
                                   .set_rounding(rounding_policy::to_zero)
                                   .set_overflow(overflow_policy::wrap),
                               {x});
        }
    }
}

TEST_CASE("reorder with quantised and fixed-point sides matches the reference") {
    load_cpu_plugin();
    const shape dims{4, 9};
    const quantization u8q{0.5f, 10, 0}, i8q{0.25f, -3, 0}, q78{1.0f, 0, 8};
    const tensor real = counting(dims, dtype::f32, -20.25);
    check_native_exact(op::reorder(tensor_desc(dims, dtype::u8, layout::row_major(), u8q)), {real});
    check_native_exact(op::reorder(tensor_desc(dims, dtype::i16, layout::row_major(), q78)),
                       {real});
    const tensor u8 = random_bits(dims, dtype::u8, 40, u8q);
    check_native_exact(op::reorder(tensor_desc(dims, dtype::i8, layout::row_major(), i8q)), {u8});
    check_native_exact(op::reorder(tensor_desc(dims, dtype::f16)), {u8});
    check_native_exact(op::reorder(tensor_desc(dims, dtype::i64)), {u8});
}

TEST_CASE("reorder into a strided layout moves and converts every element") {
    load_cpu_plugin();
    const shape dims{3, 4, 5};
    for (dtype to : {dtype::f32, dtype::f16, dtype::i64}) {
        CAPTURE(to_string(to));
        const tensor x = random_bits(dims, dtype::f32, 41);
        check_native_exact(op::reorder(tensor_desc(dims, to, layout::strided({1, 15, 3}))), {x});
        check_native_exact(op::reorder(tensor_desc(dims, to, layout::nhwc())), {x});
    }
}

namespace {

shape pooled_dims(const shape& in) {
    return shape::nchw(in[0], in[1], in[2] - 1, in[3] - 1);
}

/// x (u8 or i8, quantised) -> reorder to f32 -> max pool (blocked) -> reorder to `out_type`.
graph integer_pool(const tensor_desc& x, dtype out_type) {
    graph g;
    const auto in = g.input("x", x);
    const auto real = g.apply("to_f32", op::reorder(tensor_desc(x.dims(), dtype::f32)), {in});
    const auto pooled =
        g.apply("pool", op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(1, 1), {real});
    g.output(g.apply("back", op::reorder(tensor_desc(pooled_dims(x.dims()), out_type)), {pooled}));
    return g;
}

}  // namespace

TEST_CASE("integer row-major <-> blocked f32 reorders run natively and exactly") {
    load_cpu_plugin();
    for (dtype t : {dtype::u8, dtype::i8}) {
        for (dtype out_type : {dtype::f32, dtype::u8, dtype::i32, dtype::i64}) {
            CAPTURE(to_string(t));
            CAPTURE(to_string(out_type));
            const tensor x = random_bits(shape::nchw(2, 19, 5, 4), t, 44, quantization{0.5f, 3, 0});
            graph g = integer_pool(x.desc(), out_type);
            auto cg = g.compile("cpu!");
            const std::string report = cg.placement_report();
            INFO(report);
            CHECK(report.find(" 0 emulated,") != std::string::npos);
            for (const auto& p : cg.placements()) CHECK(p.level == TSR_SUPPORT_NATIVE);
            graph r = integer_pool(x.desc(), out_type);
            const tensor got = cg.run({{"x", x}}).at("back");
            const tensor want = r.compile("reference").run({{"x", x}}).at("back");
            CHECK(bytes_of(got) == bytes_of(want));
        }
    }
}

TEST_CASE("large movements split over threads give the reference's bytes") {
    load_cpu_plugin();
    const std::string config = "cpu:threads=4!";
    const tensor x = random_bits(shape{64, 96, 130}, dtype::f32, 42);
    check_native_exact(op::slice().set_dim(1, 90, 1, -1).set_dim(2, 1, 129), {x}, config);
    check_native_exact(op::gather(1),
                       {x, indices(shape{50}, dtype::i32, std::vector<std::int64_t>(50, -7))},
                       config);
    check_native_exact(op::concat(2), {x, x}, config);
    check_native_exact(op::expand(shape{2, 64, 96, 130}), {x}, config);
    check_native_exact(op::tile{2, 1, 2}, {x}, config);
    check_native_exact(op::pad({1, 2, 3}, {3, 2, 1}, pad_kind::reflect), {x}, config);
    check_native_exact(op::depth_to_space(2, depth_to_space_kind::crd),
                       {random_bits(shape::nchw(4, 64, 40, 30), dtype::u16, 43)}, config);
    check_native_exact(op::reorder(tensor_desc(x.dims(), dtype::bf16)), {x}, config);
}
