// stored_values.hpp: small hand-written inputs for the cpu plugin's op tests (f32 values, or
// stored values of any dtype) and checks of an output's stored values against hand-computed ones.
#pragma once

#include <algorithm>

#include "typed_values.hpp"

namespace cpu_test {

/// A row-major f32 tensor holding `v`.
inline tensor f32_tensor(const shape& dims, const std::vector<float>& v) {
    tensor t(tensor_desc(dims, dtype::f32));
    std::copy(v.begin(), v.end(), t.data_as<float>());
    return t;
}

/// A row-major tensor of `type` holding the stored values `raw`.
inline tensor stored_tensor(const shape& dims, dtype type, const quantization& q,
                            const std::vector<double>& raw) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    for (std::size_t i = 0; i < raw.size(); ++i)
        numeric::store_raw(type, static_cast<char*>(t.data()) + i * size_of(type), raw[i]);
    return t;
}

/// CHECKs the stored values of `t` are `want`.
inline void check_stored(const tensor& t, const std::vector<double>& want) {
    REQUIRE(t.num_elements() == static_cast<std::int64_t>(want.size()));
    for (std::size_t i = 0; i < want.size(); ++i) {
        CAPTURE(i);
        CHECK(numeric::load_raw(
                  t.type(), static_cast<const char*>(t.data()) + i * size_of(t.type())) == want[i]);
    }
}

}  // namespace cpu_test
