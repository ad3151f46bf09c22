// lcg_sequence.hpp: the linear congruential sequence the tests draw deterministic inputs from
// (state = seed * 2654435761 + offset, then state * 1664525 + 1013904223 per draw), so each
// input generator states only how it maps the draws to values.
#pragma once

#include <cstdint>

namespace tessera_test {

class lcg_sequence {
  public:
    /// The sequence of `seed`; `offset` tells apart generators that share a seed.
    lcg_sequence(std::uint32_t seed, std::uint32_t offset) : state_(seed * 2654435761u + offset) {}

    /// The next draw.
    std::uint32_t next() {
        state_ = state_ * 1664525u + 1013904223u;
        return state_;
    }

  private:
    std::uint32_t state_;
};

}  // namespace tessera_test
