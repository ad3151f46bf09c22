// typed_values.hpp: inputs of any dtype for the cpu plugin's reduction, scan and softmax tests
// (deterministic values on a grid, so ties, saturation and exact results are exercised), and
// running one op natively ("cpu!", nothing emulated) to compare with the reference backend
// byte for byte or within the cpu tolerance.
#pragma once

#include <cstring>
#include <limits>

#include <tessera/numeric/convert.hpp>

#include "cpu_plugin.hpp"

namespace cpu_test {

/// A dtype and the value grid test inputs of it are drawn from (see grid()).
struct typed_input {
    const char* what;
    dtype type;
    double lo, step;
    int steps;
    quantization quant;
};

/// Values lo + step * n (n a deterministic sequence per seed), stored raw in `type` (integers
/// as they are, floats rounded to the format); `nan_at` (if >= 0) holds NaN.
inline tensor grid(const shape& dims, dtype type, std::uint32_t seed, double lo, double step,
                   int steps, const quantization& q = {}, std::int64_t nan_at = -1) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    tessera_test::lcg_sequence draws(seed, 12345u);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        const std::uint32_t r = draws.next();
        const double v = i == nan_at ? std::numeric_limits<double>::quiet_NaN()
                                     : lo + step * static_cast<double>((r >> 8) % steps);
        numeric::store_raw(type, static_cast<char*>(t.data()) + i * size_of(type), v);
    }
    return t;
}

/// Runs `op` on "cpu!" (compiling fails if any node would be emulated or declined) and returns
/// the outputs with the reference backend's.
inline std::pair<std::vector<tensor>, std::vector<tensor>> run_native(
    const op_desc& op, const std::vector<tensor>& inputs) {
    std::string report;
    auto got = run_op(op, inputs, "cpu!", {}, &report);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);
    return {std::move(got), reference::execute(op, inputs)};
}

/// CHECKs that `got` equals `want` byte for byte (dtype, dims and every element).
inline void check_same_bytes(const tensor& got, const tensor& want, const std::string& what) {
    INFO(what);
    REQUIRE(got.type() == want.type());
    REQUIRE(got.dims() == want.dims());
    const auto bytes = static_cast<std::size_t>(want.num_elements()) * size_of(want.type());
    int bad = 0;
    const std::size_t size = size_of(want.type());
    for (std::size_t i = 0; i < bytes; i += size) {
        if (std::memcmp(static_cast<const char*>(got.data()) + i,
                        static_cast<const char*>(want.data()) + i, size) == 0)
            continue;
        if (++bad <= 5) {
            FAIL_CHECK(
                "element " << i / size << ": "
                           << numeric::load_raw(got.type(), static_cast<char*>(got.data()) + i)
                           << " vs reference "
                           << numeric::load_raw(want.type(), static_cast<char*>(want.data()) + i));
        }
    }
    CHECK_MESSAGE(bad == 0, bad << " elements differ");
}

/// Runs `op` natively and CHECKs every output equals the reference's byte for byte.
inline void check_exact(const op_desc& op, const std::vector<tensor>& inputs) {
    const auto [got, want] = run_native(op, inputs);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        check_same_bytes(got[i], want[i], op.describe() + " output " + std::to_string(i));
}

/// Runs `op` natively and CHECKs every output is within the cpu tolerance of the reference's.
inline void check_near(const op_desc& op, const std::vector<tensor>& inputs, int k = 2) {
    const auto [got, want] = run_native(op, inputs);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        check_close(got[i], want[i], tolerance_of("cpu"), k,
                    op.describe() + " output " + std::to_string(i));
}

}  // namespace cpu_test
