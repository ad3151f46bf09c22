// Shared test helpers: random data, tolerance checks, contexts for each available instruction set.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tessera/cpu/context.hpp"

namespace tessera::cpu::test {

inline std::vector<float> random_vector(std::size_t n, uint32_t seed, float lo = -1.0f,
                                        float hi = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

/// max |a-b| / (atol + rtol*|b|) <= 1 for every element.
inline bool all_close(const std::vector<float>& got, const std::vector<float>& want,
                      float atol = 1e-4f, float rtol = 1e-4f) {
    if (got.size() != want.size()) return false;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(got[i]) && std::isnan(want[i])) continue;  // untouched poison
        const float tol = atol + rtol * std::fabs(want[i]);
        if (!(std::fabs(got[i] - want[i]) <= tol)) {
            MESSAGE("mismatch at " << i << ": got " << got[i] << " want " << want[i]);
            return false;
        }
    }
    return true;
}

/// Every instruction set this CPU can run (best first).
inline std::vector<Isa> available_isas() {
    std::vector<Isa> isas;
    for (Isa isa : {Isa::avx512, Isa::avx2, Isa::sse2, Isa::neon})
        if (Context::isa_available(isa)) isas.push_back(isa);
    return isas;
}

}  // namespace tessera::cpu::test

#include <memory>

#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu::test {

/// An allocated tensor.
inline std::unique_ptr<Tensor> make_tensor(std::vector<int64_t> shape,
                                           DataLayout layout = DataLayout::plain,
                                           DataType type = DataType::f32,
                                           PaddingSize padding = {}) {
    TensorInfo info(std::move(shape), type, layout, {}, "t");
    info.extend_padding(padding);
    auto t = std::make_unique<Tensor>(info);
    t->allocator().allocate();
    std::memset(t->buffer(), 0xff, t->info().total_size_in_bytes());  // poison (NaN) everywhere
    return t;
}

/// Logical NCHW contents of a 4-D f32 tensor, read element by element (or a plain tensor's data).
inline std::vector<float> read_nchw(const ITensor& t) {
    const TensorInfo& i = t.info();
    std::vector<float> out;
    if (!i.is_4d_layout()) {
        out.assign(t.data<float>(), t.data<float>() + i.element_count());
        return out;
    }
    for (int64_t n = 0; n < i.n(); ++n)
        for (int64_t c = 0; c < i.c(); ++c)
            for (int64_t h = 0; h < i.h(); ++h)
                for (int64_t w = 0; w < i.w(); ++w) {
                    float v;
                    std::memcpy(&v, t.buffer() + i.offset_of(n, c, h, w), sizeof v);
                    out.push_back(v);
                }
    return out;
}

/// Writes logical NCHW values into a 4-D f32 tensor (or a plain tensor's data).
inline void write_nchw(ITensor& t, const std::vector<float>& values) {
    const TensorInfo& i = t.info();
    if (!i.is_4d_layout()) {
        std::memcpy(t.data<float>(), values.data(), values.size() * sizeof(float));
        return;
    }
    std::size_t k = 0;
    for (int64_t n = 0; n < i.n(); ++n)
        for (int64_t c = 0; c < i.c(); ++c)
            for (int64_t h = 0; h < i.h(); ++h)
                for (int64_t w = 0; w < i.w(); ++w)
                    std::memcpy(t.buffer() + i.offset_of(n, c, h, w), &values[k++], 4);
}

}  // namespace tessera::cpu::test
