// Shared test helpers: random data, tolerance checks, contexts for each available instruction set.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "tessera/cpu/context.hpp"

namespace tessera::cpu::test {

inline std::vector<float> random_vector(std::size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

/// max |a-b| / (atol + rtol*|b|) <= 1 for every element.
inline bool all_close(const std::vector<float>& got, const std::vector<float>& want, float atol = 1e-4f,
                      float rtol = 1e-4f) {
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
