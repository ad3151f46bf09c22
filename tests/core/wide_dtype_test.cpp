// wide_dtype_test.cpp: the 64-bit dtypes i64 and f64: C ABI values, properties, exact load and
// store of int64 values beyond 2^53 (numeric/convert.hpp), int64 rounding and overflow policies,
// long double stores rounded once, typed element access and formatting.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "error_check.hpp"
#include "tessera/format.hpp"
#include "tessera/numeric/convert.hpp"
#include "tessera/tensor.hpp"

using tessera::dtype;
using tessera::overflow_policy;
using tessera::rounding_policy;
using tessera::shape;
using tessera::status;
using tessera::tensor;
using tessera_test::check_error;
using namespace tessera::numeric;

namespace {
constexpr std::int64_t wide_two53 = std::int64_t{1} << 53;
constexpr std::int64_t wide_int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t wide_int64_min = std::numeric_limits<std::int64_t>::min();

std::int64_t wide_stored_i64(long double v, rounding_policy r = rounding_policy::to_nearest_even,
                             overflow_policy o = overflow_policy::saturate) {
    std::int64_t out = 0;
    store_raw_wide(dtype::i64, &out, v, r, o);
    return out;
}
}  // namespace

TEST_CASE("i64, f64: C ABI values are appended, existing values keep their numbers") {
    CHECK(TSR_BOOL == 9);
    CHECK(TSR_I32 == 8);
    CHECK(TSR_I64 == 10);
    CHECK(TSR_F64 == 11);
    CHECK(static_cast<int>(dtype::i64) == TSR_I64);
    CHECK(static_cast<int>(dtype::f64) == TSR_F64);
}

TEST_CASE("i64, f64: size, name and predicates") {
    CHECK(tessera::size_of(dtype::i64) == 8);
    CHECK(tessera::size_of(dtype::f64) == 8);
    CHECK(tessera::to_string(dtype::i64) == "i64");
    CHECK(tessera::to_string(dtype::f64) == "f64");
    CHECK(tessera::is_integer(dtype::i64));
    CHECK_FALSE(tessera::is_floating(dtype::i64));
    CHECK(tessera::is_floating(dtype::f64));
    CHECK_FALSE(tessera::is_integer(dtype::f64));
    CHECK(tessera::is_valid(dtype::i64));
    CHECK(tessera::is_valid(dtype::f64));
    CHECK(tessera::is_valid(static_cast<dtype>(TSR_F64 + 1)));  // u16 follows
    CHECK(tessera::is_wide(dtype::i64));
    CHECK(tessera::is_wide(dtype::f64));
    CHECK_FALSE(tessera::is_wide(dtype::i32));
    CHECK(tessera::dtype_of<std::int64_t>() == dtype::i64);
    CHECK(tessera::dtype_of<double>() == dtype::f64);
    CHECK(fmt::format("{}", dtype::i64) == "i64");
}

TEST_CASE("i64: values beyond 2^53 load and store exactly through the wide path") {
    for (const std::int64_t v : {wide_two53 + 1, -wide_two53 - 3, wide_int64_max, wide_int64_min,
                                 wide_int64_max - 1, std::int64_t{0}, std::int64_t{-1}}) {
        CAPTURE(v);
        std::int64_t buf = v;
        const long double wide = load_raw_wide(dtype::i64, &buf);
        CHECK(wide_stored_i64(wide) == v);
        CHECK(load_real_wide(dtype::i64, {}, &buf) == wide);
        std::int64_t out = 0;
        store_real_wide(dtype::i64, {}, &out, wide);
        CHECK(out == v);
    }
    // The double path is exact below 2^53.
    std::int64_t buf = 0;
    store_raw(dtype::i64, &buf, -123456789012.0);
    CHECK(buf == -123456789012);
    CHECK(load_raw(dtype::i64, &buf) == -123456789012.0);
}

TEST_CASE("i64: rounding and overflow policies") {
    CHECK(wide_stored_i64(2.5L) == 2);
    CHECK(wide_stored_i64(3.5L) == 4);
    CHECK(wide_stored_i64(-2.5L) == -2);
    CHECK(wide_stored_i64(2.7L, rounding_policy::to_zero) == 2);
    CHECK(wide_stored_i64(-2.7L, rounding_policy::to_zero) == -2);
    CHECK(wide_stored_i64(std::numeric_limits<long double>::quiet_NaN()) == 0);
    // Saturation at the int64 range; the largest double below 2^63 stays as it is.
    CHECK(wide_stored_i64(1e19L) == wide_int64_max);
    CHECK(wide_stored_i64(-1e19L) == wide_int64_min);
    CHECK(wide_stored_i64(std::numeric_limits<long double>::infinity()) == wide_int64_max);
    CHECK(wide_stored_i64(9223372036854774784.0L) == 9223372036854774784);
    // Wrap-around modulo 2^64.
    const long double two63 = 9223372036854775808.0L;
    CHECK(wide_stored_i64(two63, rounding_policy::to_nearest_even, overflow_policy::wrap) ==
          wide_int64_min);
    CHECK(wide_stored_i64(2 * two63 + 4096, rounding_policy::to_nearest_even,
                          overflow_policy::wrap) == 4096);
    CHECK(wide_stored_i64(-two63 - 1, rounding_policy::to_nearest_even, overflow_policy::wrap) ==
          wide_int64_max);
    // store_raw from a double saturates at the int64 range too (not at 9e18).
    std::int64_t buf = 0;
    store_raw(dtype::i64, &buf, 9.2e18);
    CHECK(buf == 9200000000000000000);
    store_raw(dtype::i64, &buf, 1e300);
    CHECK(buf == wide_int64_max);
}

TEST_CASE("f64: stores and loads doubles bit for bit") {
    double buf = 0;
    store_raw(dtype::f64, &buf, 0.1);
    CHECK(buf == 0.1);
    CHECK(load_raw(dtype::f64, &buf) == 0.1);
    store_raw_wide(dtype::f64, &buf, 0.1L + 0.2L);
    CHECK(buf == static_cast<double>(0.1L + 0.2L));
    store_raw(dtype::f64, &buf, -0.0);
    CHECK(std::signbit(load_raw(dtype::f64, &buf)));
}

TEST_CASE("wide stores into narrower floats round once") {
    REQUIRE(std::numeric_limits<long double>::digits >= 64);
    // 1 + 2^-24 + 2^-60: just above the f32 tie, so it rounds up. Through a double (which drops
    // 2^-60) it would land on the tie and round to even, 1.0f.
    const long double v = 1.0L + std::ldexp(1.0L, -24) + std::ldexp(1.0L, -60);
    float f = 0;
    store_raw_wide(dtype::f32, &f, v);
    CHECK(f == 1.0f + std::ldexp(1.0f, -23));
    // i64 2^53 + 1 -> f64: the nearest double is 2^53 (ties to even).
    double d = 0;
    std::int64_t big = wide_two53 + 1;
    store_raw_wide(dtype::f64, &d, load_raw_wide(dtype::i64, &big));
    CHECK(d == 9007199254740992.0);
}

TEST_CASE("i64, f64 tensors: typed access and formatting") {
    tensor t(shape{2}, dtype::i64);
    t.at<std::int64_t>({0}) = wide_two53 + 1;
    t.at<std::int64_t>({1}) = wide_int64_min;
    CHECK(t.data_as<std::int64_t>()[0] == wide_two53 + 1);
    CHECK(fmt::format("{}", t).find("9007199254740993") != std::string::npos);
    CHECK(fmt::format("{}", t).find("-9223372036854775808") != std::string::npos);
    check_error([&] { t.at<std::int32_t>({0}); }, status::invalid_argument, "std::int64_t");
    tensor d(shape{1}, dtype::f64);
    d.at<double>({0}) = 0.1;
    CHECK(fmt::format("{}", d).find("0.1") != std::string::npos);
    check_error([&] { d.at<float>({0}); }, status::invalid_argument, "double");
    CHECK(d.desc().size_bytes() == 8);
}

TEST_CASE("i64 tensors: dtype-converting copies go through the exact path") {
    constexpr std::int64_t p60 = std::int64_t{1} << 60;
    tensor src(shape{3}, dtype::i64);
    src.at<std::int64_t>({0}) = wide_two53 + 1;
    src.at<std::int64_t>({1}) = -3;
    // Just above the f32 tie between 2^60 and 2^60 + 2^37: rounds up when rounded once; through
    // a double (which drops the + 1) it would tie and round to even, 2^60.
    src.at<std::int64_t>({2}) = p60 + (std::int64_t{1} << 36) + 1;
    tensor f(shape{3}, dtype::f32), i(shape{3}, dtype::i32), back(shape{3}, dtype::i64);
    tensor::copy_elements(src, f);
    tensor::copy_elements(src, i);
    tensor::copy_elements(src, back);
    CHECK(f.at<float>({0}) == 9007199254740992.0f);
    CHECK(f.at<float>({2}) == std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37));
    CHECK(i.at<std::int32_t>({0}) == std::numeric_limits<std::int32_t>::max());
    CHECK(i.at<std::int32_t>({1}) == -3);
    CHECK(back.at<std::int64_t>({0}) == wide_two53 + 1);
    CHECK(back.at<std::int64_t>({2}) == p60 + (std::int64_t{1} << 36) + 1);
}
