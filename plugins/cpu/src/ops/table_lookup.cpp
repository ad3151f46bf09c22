// ops/table_lookup.cpp: table_lookup on u8 and i16: out = lut[src + offset] where that index is
// inside the table, else src, as an integer gather split over the runtime's threads. A table
// that stores values unlike src (other quantisation) is converted into src's storage first,
// each element as the reference converts it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <tessera/numeric/convert.hpp>

#include "../parallel_ranges.hpp"
#include "../step_buffers.hpp"
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Elements per thread before a lookup is split over the runtime's threads.
constexpr std::int64_t lookup_grain = 1 << 16;

class table_lookup_step final : public step {
  public:
    table_lookup_step(const node_view& v, const op::table_lookup& t, const runtime::Context& ctx)
        : ctx_(ctx),
          src_(v.n.inputs[0]),
          lut_(v.n.inputs[1]),
          dst_(v.n.outputs[0]),
          src_desc_(v.in[0]),
          lut_desc_(v.in[1]),
          count_(v.in[1].dim(0)),
          offset_(t.effective_offset(v.in[0].type(), v.in[1].dim(0))) {}

    void run(const buffers& b) override {
        if (src_desc_.type() == dtype::u8) return look_up<std::uint8_t>(b);
        return look_up<std::int16_t>(b);
    }

  private:
    /// The table in src's storage: the lut buffer itself, or its elements converted.
    template <typename T>
    const T* table(const buffers& b) {
        const auto* lut = static_cast<const T*>(host_data_of(b, lut_));
        if (stores_alike(lut_desc_, src_desc_)) return lut;
        converted_.resize(static_cast<std::size_t>(count_) * sizeof(T));
        auto* to = reinterpret_cast<T*>(converted_.data());
        for (std::int64_t k = 0; k < count_; ++k)
            numeric::store_real_wide(
                src_desc_.type(), src_desc_.quant(), to + k,
                numeric::load_real_wide(lut_desc_.type(), lut_desc_.quant(), lut + k));
        return to;
    }

    template <typename T>
    void look_up(const buffers& b) {
        const T* lut = table<T>(b);
        const auto* src = static_cast<const T*>(host_data_of(b, src_));
        auto* out = static_cast<T*>(host_data_of(b, dst_));
        const std::int64_t n = src_desc_.num_elements(), count = count_, offset = offset_;
        parallel_ranges(ctx_, n, parts_for(ctx_, n, lookup_grain),
                        [&](std::int64_t begin, std::int64_t end, int) {
                            for (std::int64_t i = begin; i < end; ++i) {
                                const std::int64_t k = std::int64_t{src[i]} + offset;
                                out[i] = k >= 0 && k < count ? lut[k] : src[i];
                            }
                        });
    }

    const runtime::Context& ctx_;
    int src_, lut_, dst_;
    tensor_desc src_desc_, lut_desc_;
    std::int64_t count_, offset_;
    std::vector<unsigned char> converted_;  // the table in src's storage, when it differs
};

}  // namespace

void state_table_lookup(router& r) {
    state_native_step<op::table_lookup, table_lookup_step>(r);
}

}  // namespace tessera::plugins::cpu
