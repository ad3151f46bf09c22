// unsigned_dtype_test.cpp: the unsigned dtypes u16, u32 and u64: C ABI values, properties, exact
// load and store of uint64 values beyond 2^53 (numeric/convert.hpp), rounding and overflow
// policies (saturation at 0 and 2^n - 1, wrap modulo 2^n), typed element access and formatting.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

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
constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
constexpr long double two64 = 18446744073709551616.0L;

std::uint64_t stored_u64(long double v, rounding_policy r = rounding_policy::to_nearest_even,
                         overflow_policy o = overflow_policy::saturate) {
    std::uint64_t out = 0;
    store_raw_wide(dtype::u64, &out, v, r, o);
    return out;
}
}  // namespace

TEST_CASE("u16, u32, u64: C ABI values are appended after f64") {
    CHECK(TSR_F64 == 11);
    CHECK(TSR_U16 == 12);
    CHECK(TSR_U32 == 13);
    CHECK(TSR_U64 == 14);
    CHECK(static_cast<int>(dtype::u16) == TSR_U16);
    CHECK(static_cast<int>(dtype::u32) == TSR_U32);
    CHECK(static_cast<int>(dtype::u64) == TSR_U64);
}

TEST_CASE("u16, u32, u64: size, name and predicates") {
    CHECK(tessera::size_of(dtype::u16) == 2);
    CHECK(tessera::size_of(dtype::u32) == 4);
    CHECK(tessera::size_of(dtype::u64) == 8);
    CHECK(tessera::to_string(dtype::u16) == "u16");
    CHECK(tessera::to_string(dtype::u32) == "u32");
    CHECK(tessera::to_string(dtype::u64) == "u64");
    for (const dtype t : {dtype::u16, dtype::u32, dtype::u64}) {
        CAPTURE(t);
        CHECK(tessera::is_integer(t));
        CHECK(tessera::is_unsigned(t));
        CHECK_FALSE(tessera::is_floating(t));
        CHECK(tessera::is_valid(t));
        CHECK(tessera::is_wide(t));
    }
    CHECK(tessera::is_unsigned(dtype::u8));
    CHECK_FALSE(tessera::is_unsigned(dtype::i64));
    CHECK(tessera::is_int64_class(dtype::u64));
    CHECK(tessera::is_int64_class(dtype::i64));
    CHECK_FALSE(tessera::is_int64_class(dtype::u32));
    CHECK_FALSE(tessera::is_valid(static_cast<dtype>(TSR_U64 + 1)));
    CHECK(tessera::dtype_of<std::uint32_t>() == dtype::u32);
    CHECK(tessera::dtype_of<std::uint64_t>() == dtype::u64);
    CHECK(fmt::format("{}", dtype::u64) == "u64");
}

TEST_CASE("u64: values beyond 2^53 and 2^63 load and store exactly through the wide path") {
    for (const std::uint64_t v :
         {(std::uint64_t{1} << 53) + 1, (std::uint64_t{1} << 63) + 1, u64_max, u64_max - 1,
          std::uint64_t{0}, std::uint64_t{4294967296}}) {
        CAPTURE(v);
        std::uint64_t buf = v;
        const long double wide = load_raw_wide(dtype::u64, &buf);
        CHECK(stored_u64(wide) == v);
        CHECK(load_real_wide(dtype::u64, {}, &buf) == wide);
        std::uint64_t out = 0;
        store_real_wide(dtype::u64, {}, &out, wide);
        CHECK(out == v);
    }
}

TEST_CASE("u64: rounding and overflow policies") {
    CHECK(stored_u64(2.5L) == 2);
    CHECK(stored_u64(3.5L) == 4);
    CHECK(stored_u64(2.7L, rounding_policy::to_zero) == 2);
    CHECK(stored_u64(-1.0L) == 0);  // saturates at 0
    CHECK(stored_u64(two64) == u64_max);
    CHECK(stored_u64(std::numeric_limits<long double>::infinity()) == u64_max);
    CHECK(stored_u64(std::numeric_limits<long double>::quiet_NaN()) == 0);
    // Wrap modulo 2^64: -1 -> 2^64 - 1, 2^64 + 4096 -> 4096.
    CHECK(stored_u64(-1.0L, rounding_policy::to_zero, overflow_policy::wrap) == u64_max);
    CHECK(stored_u64(two64 + 4096, rounding_policy::to_zero, overflow_policy::wrap) == 4096);
    // store_raw from a double saturates at the uint64 range.
    std::uint64_t buf = 0;
    store_raw(dtype::u64, &buf, 1e300);
    CHECK(buf == u64_max);
    store_raw(dtype::u64, &buf, 1.8e19);
    CHECK(buf == 18000000000000000000u);
}

TEST_CASE("u16, u32: stores saturate or wrap at 2^16 and 2^32") {
    std::uint16_t h = 0;
    store_raw(dtype::u16, &h, 70000.0);
    CHECK(h == 65535);
    store_raw(dtype::u16, &h, 65536.0 + 7, rounding_policy::to_zero, overflow_policy::wrap);
    CHECK(h == 7);
    store_raw(dtype::u16, &h, -1.0);
    CHECK(h == 0);
    CHECK(load_raw(dtype::u16, &h) == 0.0);
    std::uint32_t w = 0;
    store_raw(dtype::u32, &w, 4294967295.0 + 3, rounding_policy::to_zero, overflow_policy::wrap);
    CHECK(w == 2);
    store_raw(dtype::u32, &w, 5e9);
    CHECK(w == 4294967295u);
    CHECK(load_raw(dtype::u32, &w) == 4294967295.0);
    store_raw_wide(dtype::u32, &w, 4000000000.0L);
    CHECK(w == 4000000000u);
}

TEST_CASE("u16, u32, u64 tensors: typed access and formatting") {
    tensor t(shape{2}, dtype::u64);
    t.at<std::uint64_t>({0}) = u64_max;
    t.at<std::uint64_t>({1}) = (std::uint64_t{1} << 53) + 1;
    CHECK(fmt::format("{}", t).find("18446744073709551615") != std::string::npos);
    CHECK(fmt::format("{}", t).find("9007199254740993") != std::string::npos);
    check_error([&] { t.at<std::int64_t>({0}); }, status::invalid_argument, "std::uint64_t");
    tensor w(shape{1}, dtype::u32);
    w.at<std::uint32_t>({0}) = 4000000000u;
    CHECK(fmt::format("{}", w).find("4000000000") != std::string::npos);
    tensor h(shape{1}, dtype::u16);
    h.at<std::uint16_t>({0}) = 65535;
    CHECK(fmt::format("{}", h).find("65535") != std::string::npos);
    CHECK(h.desc().size_bytes() == 2);
}
