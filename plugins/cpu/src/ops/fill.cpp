// ops/fill.cpp: fill on every dtype: the value stored once as the reference stores it (rounded
// to nearest even, saturated, quantised), then repeated over the row-major output as elements
// of its size, split over the runtime's threads.
#include <algorithm>
#include <array>
#include <cstring>

#include "../element_moves.hpp"
#include "../element_values.hpp"
#include "../parallel_ranges.hpp"
#include "../step_buffers.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Output elements per thread before a fill is split over the runtime's threads.
constexpr std::int64_t fill_grain = 1 << 16;

class fill_step final : public step {
  public:
    fill_step(const build_context& b, const op::fill& f)
        : ctx_(b.ctx),
          dst_(b.node.n.outputs[0]),
          count_(b.node.out[0].num_elements()),
          size_(size_of(b.node.out[0].type())) {
        store_real_value(b.node.out[0].type(), b.node.out[0].quant(), value_.data(), f.value());
    }

    void run(const buffers& b) override {
        with_element_bits(size_, [&](auto bits) {
            using Element = decltype(bits);
            Element value;
            std::memcpy(&value, value_.data(), sizeof value);
            auto* to = static_cast<Element*>(host_data_of(b, dst_));
            parallel_ranges(ctx_, count_, parts_for(ctx_, count_, fill_grain),
                            [&](std::int64_t begin, std::int64_t end, int) {
                                std::fill(to + begin, to + end, value);
                            });
        });
    }

  private:
    const runtime::Context& ctx_;
    int dst_;
    std::int64_t count_;
    std::size_t size_;
    std::array<unsigned char, 8> value_{};  // one element as stored
};

}  // namespace

void state_fill(router& r) {
    r.state<op::fill>(
        [](const op::fill&, const query_view& v) {
            return answer(element_size_route(v.out[0]), v.in, v.out);
        },
        [](const op::fill& f, const build_context& b) {
            return routed_step(element_size_route(b.node.out[0]), b,
                               [&] { return std::make_unique<fill_step>(b, f); });
        });
}

}  // namespace tessera::plugins::cpu
