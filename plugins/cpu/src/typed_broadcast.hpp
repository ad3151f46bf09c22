// typed_broadcast.hpp: the one N-D broadcast iterator of the cpu plugin's element-wise steps
// (binary, unary, compare, logical, where) on row-major tensors of any dtype. The output and
// its operands (numpy multidirectional broadcasting, any rank) are collapsed to the fewest dims
// with one stride per operand; the innermost dim is a run along which each operand either
// advances by one element or stays on one (a broadcast or scalar operand). Runs are computed by
// kernels typed on their element types, chosen once per step with the operands' run forms as
// compile-time flags, so each inner loop is a plain array loop the compiler vectorises. Large
// outputs are split over the runtime's threads (parallel_ranges.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <tessera/dtype.hpp>
#include <tessera/shape.hpp>

#include "parallel_ranges.hpp"
#include "program.hpp"

namespace tessera::plugins::cpu {

/// The output of N operands broadcast numpy-style, as collapsed dims (outermost first, the last
/// being the run) and per dim each operand's element stride (0 where it broadcasts).
template <std::size_t N>
class broadcast_plan {
  public:
    using offsets = std::array<std::int64_t, N>;

    broadcast_plan(const shape& out, const std::array<shape, N>& in) {
        const int rank = out.rank();
        std::vector<std::int64_t> extents;
        std::vector<offsets> strides;
        for (int d = 0; d < rank; ++d) {
            size_ *= out[d];
            if (out[d] == 1) continue;  // contributes nothing to any offset
            offsets s{};
            for (std::size_t k = 0; k < N; ++k) s[k] = stride_of(in[k], rank, d);
            extents.push_back(out[d]);
            strides.push_back(s);
        }
        // Merge a dim into the next inner one when every operand steps through both as one.
        for (std::size_t i = 0; i < extents.size(); ++i) {
            if (!extents_.empty() && mergeable(strides_.back(), strides[i], extents[i])) {
                extents_.back() *= extents[i];
                strides_.back() = strides[i];
                continue;
            }
            extents_.push_back(extents[i]);
            strides_.push_back(strides[i]);
        }
        if (extents_.empty()) {
            extents_.push_back(1);
            strides_.push_back(offsets{});
        }
    }

    /// Output elements.
    std::int64_t size() const { return size_; }
    /// Whether operand `k` stays on one element along a run (0 stride), else advances by one.
    bool run_uniform(std::size_t k) const { return strides_.back()[k] == 0; }
    std::array<bool, N> run_forms() const {
        std::array<bool, N> u{};
        for (std::size_t k = 0; k < N; ++k) u[k] = run_uniform(k);
        return u;
    }

    /// Calls body(output offset, length, operand offsets) for the runs covering output
    /// elements [begin, end), in order.
    template <typename Body>
    void for_runs(std::int64_t begin, std::int64_t end, Body&& body) const {
        if (begin >= end) return;
        const std::size_t outer = extents_.size() - 1;
        const std::int64_t run = extents_.back();
        std::vector<std::int64_t> index(outer);
        offsets at{};
        std::int64_t rest = begin / run;
        for (std::size_t d = outer; d-- > 0;) {
            index[d] = rest % extents_[d];
            rest /= extents_[d];
            for (std::size_t k = 0; k < N; ++k) at[k] += index[d] * strides_[d][k];
        }
        std::int64_t start = begin % run;
        for (std::int64_t pos = begin; pos < end;) {
            const std::int64_t len = std::min(run - start, end - pos);
            offsets here = at;
            for (std::size_t k = 0; k < N; ++k) here[k] += start * strides_.back()[k];
            body(pos, len, static_cast<const offsets&>(here));
            pos += len;
            start = 0;
            for (std::size_t d = outer; d-- > 0;) {  // the next outer index
                for (std::size_t k = 0; k < N; ++k) at[k] += strides_[d][k];
                if (++index[d] < extents_[d]) break;
                for (std::size_t k = 0; k < N; ++k) at[k] -= index[d] * strides_[d][k];
                index[d] = 0;
            }
        }
    }

  private:
    /// Operand dims aligned to the right of a rank-`rank` output: its row-major element stride
    /// at output dim `d`, 0 where it has extent 1 or no such dim.
    static std::int64_t stride_of(const shape& s, int rank, int d) {
        const int i = d - (rank - s.rank());
        if (i < 0 || s[i] == 1) return 0;
        std::int64_t stride = 1;
        for (int j = i + 1; j < s.rank(); ++j) stride *= s[j];
        return stride;
    }
    static bool mergeable(const offsets& outer, const offsets& inner, std::int64_t inner_extent) {
        for (std::size_t k = 0; k < N; ++k)
            if (outer[k] != inner[k] * inner_extent) return false;
        return true;
    }

    std::int64_t size_ = 1;
    std::vector<std::int64_t> extents_;
    std::vector<offsets> strides_;
};

/// Computes one run: the output's first element, each operand's first element, the length.
template <std::size_t N>
using run_kernel =
    std::function<void(char* out, const std::array<const char*, N>& in, std::int64_t len)>;

namespace detail {

/// Calls f(std::bool_constant<u[0]>{}, ...) for the flags of `u` (2^N instantiations).
template <std::size_t I = 0, std::size_t N, typename F, typename... Flags>
void with_flags(const std::array<bool, N>& u, F& f, Flags... flags) {
    if constexpr (I == N) {
        f(flags...);
    } else if (u[I]) {
        with_flags<I + 1>(u, f, flags..., std::true_type{});
    } else {
        with_flags<I + 1>(u, f, flags..., std::false_type{});
    }
}

/// Element i of a run operand, or its only element when it is uniform.
template <bool Uniform, typename T>
inline T element(const T* p, std::int64_t i) {
    if constexpr (Uniform) {
        return p[0];
    } else {
        return p[i];
    }
}

template <typename Out, typename... In, typename F, typename... Flags, std::size_t... I>
run_kernel<sizeof...(In)> make_kernel(F f, std::index_sequence<I...>, Flags...) {
    return [f](char* out, const std::array<const char*, sizeof...(In)>& in, std::int64_t len) {
        auto* o = reinterpret_cast<Out*>(out);
        const std::tuple<const In*...> src{reinterpret_cast<const In*>(in[I])...};
        for (std::int64_t i = 0; i < len; ++i)
            o[i] = f(element<Flags::value>(std::get<I>(src), i)...);
    };
}

}  // namespace detail

/// The run kernel out[i] = f(in0[i], in1[i], ...) on Out and In... elements, an operand with
/// run_forms()[k] set read at its first element throughout.
template <typename Out, typename... In, typename F>
run_kernel<sizeof...(In)> elementwise_kernel(F f, const std::array<bool, sizeof...(In)>& uniform) {
    run_kernel<sizeof...(In)> kernel;
    auto pick = [&](auto... flags) {
        kernel = detail::make_kernel<Out, In...>(f, std::index_sequence_for<In...>{}, flags...);
    };
    detail::with_flags(uniform, pick);
    return kernel;
}

/// Output elements per thread before a step is split over the runtime's threads.
inline constexpr std::int64_t broadcast_grain = 1 << 15;

/// A step computing one output from N operands (partition tensors, row-major) run by run with a
/// kernel chosen for the plan's run forms; split over the context's threads when large.
template <std::size_t N>
class broadcast_step final : public step {
  public:
    using kernel_for = std::function<run_kernel<N>(const std::array<bool, N>& uniform)>;

    /// `operands`: partition tensor ids of the operands (descriptors `in`), `make`: the kernel
    /// for the plan's run forms.
    broadcast_step(const node_view& v, const runtime::Context& ctx,
                   const std::array<int, N>& operands, const std::array<tensor_desc, N>& in,
                   const kernel_for& make)
        : ctx_(ctx), ids_(operands), dst_(v.n.outputs[0]), plan_(v.out[0].dims(), dims_of(in)) {
        for (std::size_t k = 0; k < N; ++k)
            sizes_[k] = static_cast<std::int64_t>(size_of(in[k].type()));
        out_size_ = static_cast<std::int64_t>(size_of(v.out[0].type()));
        kernel_ = make(plan_.run_forms());
    }

    void run(const buffers& b) override {
        std::array<const char*, N> base{};
        for (std::size_t k = 0; k < N; ++k)
            base[k] = static_cast<const char*>(b[static_cast<std::size_t>(ids_[k])]->host_data());
        char* out = static_cast<char*>(b[static_cast<std::size_t>(dst_)]->host_data());
        const auto runs = [&](std::int64_t begin, std::int64_t end, int) {
            plan_.for_runs(begin, end,
                           [&](std::int64_t pos, std::int64_t len,
                               const typename broadcast_plan<N>::offsets& at) {
                               std::array<const char*, N> in{};
                               for (std::size_t k = 0; k < N; ++k)
                                   in[k] = base[k] + at[k] * sizes_[k];
                               kernel_(out + pos * out_size_, in, len);
                           });
        };
        parallel_ranges(ctx_, plan_.size(), parts_for(ctx_, plan_.size(), broadcast_grain), runs);
    }

  private:
    static std::array<shape, N> dims_of(const std::array<tensor_desc, N>& in) {
        std::array<shape, N> s;
        for (std::size_t k = 0; k < N; ++k) s[k] = in[k].dims();
        return s;
    }

    const runtime::Context& ctx_;
    std::array<int, N> ids_;
    int dst_;
    broadcast_plan<N> plan_;
    std::array<std::int64_t, N> sizes_{};
    std::int64_t out_size_ = 0;
    run_kernel<N> kernel_;
};

/// Whether the stored value of `d`'s elements is its real value (no quantisation, no 16-bit
/// float encoding): the dtypes whose native C++ type computes exactly like the reference.
inline bool plain_values(const tensor_desc& d) {
    const quantization q = d.quant();
    switch (d.type()) {
        case dtype::f16:
        case dtype::bf16:
        case dtype::dlfloat16:
        case dtype::undef:
            return false;
        case dtype::i8:
        case dtype::u8:
            return q.scale == 1.0f && q.zero_point == 0;
        case dtype::i16:
            return q.fixed_point_pos == 0;
        default:
            return true;
    }
}

/// Calls f(T{}) with T the C++ type of plain dtype `t` (bool stored as std::uint8_t); false for
/// the 16-bit float formats, which have none.
template <typename F>
bool with_plain_type(dtype t, F&& f) {
    switch (t) {
        case dtype::f32:
            return f(float{}), true;
        case dtype::f64:
            return f(double{}), true;
        case dtype::i8:
            return f(std::int8_t{}), true;
        case dtype::u8:
        case dtype::boolean:
            return f(std::uint8_t{}), true;
        case dtype::i16:
            return f(std::int16_t{}), true;
        case dtype::i32:
            return f(std::int32_t{}), true;
        case dtype::i64:
            return f(std::int64_t{}), true;
        case dtype::u16:
            return f(std::uint16_t{}), true;
        case dtype::u32:
            return f(std::uint32_t{}), true;
        case dtype::u64:
            return f(std::uint64_t{}), true;
        default:
            return false;
    }
}

}  // namespace tessera::plugins::cpu
