// tessera/ops/op_desc.hpp: op_desc, a value holding any one op descriptor, with the operations
// the graph, the loader and the plugins need: kind, name, shape inference and ABI marshalling.
// kind() and name() are table look-ups; the members that visit every alternative (describe,
// infer, c_params, from_c) are defined once, in the runtime (op_desc_impl.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tessera/ops/activation.hpp"
#include "tessera/ops/broadcast.hpp"
#include "tessera/ops/compare.hpp"
#include "tessera/ops/conv2d.hpp"
#include "tessera/ops/custom.hpp"
#include "tessera/ops/data_movement.hpp"
#include "tessera/ops/elementwise.hpp"
#include "tessera/ops/fully_connected.hpp"
#include "tessera/ops/gemm.hpp"
#include "tessera/ops/indexing.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/matmul.hpp"
#include "tessera/ops/normalization.hpp"
#include "tessera/ops/pooling.hpp"
#include "tessera/ops/reduction.hpp"
#include "tessera/ops/reorder.hpp"
#include "tessera/ops/rnn.hpp"
#include "tessera/ops/scan.hpp"
#include "tessera/ops/softmax.hpp"

namespace tessera {

using op_variant =
    std::variant<op::conv2d, op::fully_connected, op::gemm, op::matmul, op::quantized_matmul,
                 op::pooling, op::batchnorm, op::lrn, op::layer_norm, op::norm, op::moments,
                 op::mean_reduce2d, op::reduce, op::softmax, op::activation, op::binary, op::unary,
                 op::concat, op::permute, op::transpose, op::reshape, op::depth_to_space,
                 op::resize_bilinear, op::pad, op::fill, op::table_lookup, op::reorder, op::lstm,
                 op::gru, op::custom, op::compare, op::logical, op::where, op::slice, op::gather,
                 op::expand, op::tile, op::cumsum, op::topk, op::gather_elements>;

namespace detail {

template <std::size_t... I>
constexpr std::array<tsr_op_kind, sizeof...(I)> op_kinds_of(std::index_sequence<I...>) {
    return {std::variant_alternative_t<I, op_variant>::op_kind...};
}
template <std::size_t... I>
constexpr std::array<std::string_view, sizeof...(I)> op_names_of(std::index_sequence<I...>) {
    return {std::string_view(std::variant_alternative_t<I, op_variant>::name)...};
}
/// Kind and name of each alternative of op_variant, by index.
inline constexpr auto op_kinds =
    op_kinds_of(std::make_index_sequence<std::variant_size_v<op_variant>>{});
inline constexpr auto op_names =
    op_names_of(std::make_index_sequence<std::variant_size_v<op_variant>>{});

/// Whether T is one of the variant's alternatives (a fold, cheaper to compile than asking the
/// variant's converting constructor, which resolves an overload over every alternative).
template <typename T, typename Variant>
struct is_alternative;
template <typename T, typename... Ts>
struct is_alternative<T, std::variant<Ts...>> : std::disjunction<std::is_same<T, Ts>...> {};

}  // namespace detail

/// Thread safety: a plain value; const members (infer, c_params, ...) are safe from any threads
/// at once, modification is not.
class op_desc {
  public:
    template <typename Op,
              typename = std::enable_if_t<detail::is_alternative<Op, op_variant>::value>>
    op_desc(Op op) : v_(std::in_place_type<Op>, std::move(op)) {}
    // Copies, moves and destruction visit the variant's alternatives: defined in the runtime.
    op_desc(const op_desc& other);
    op_desc(op_desc&& other) noexcept;
    op_desc& operator=(const op_desc& other);
    op_desc& operator=(op_desc&& other) noexcept;
    ~op_desc();

    tsr_op_kind kind() const { return detail::op_kinds[v_.index()]; }
    std::string_view name() const { return detail::op_names[v_.index()]; }
    /// The op with its defining mode spelled out, for reports and tool output:
    /// "activation(relu)", "pooling(max)", "binary(add)", "conv2d(depthwise)", "reduce(sum)";
    /// ops without such a mode print their name alone. A raw value outside its enum prints
    /// "unknown".
    std::string describe() const;
    /// Validates the inputs and returns the output descriptors (row-major unless the op says).
    /// Errors from shared code (descriptor sizes) that do not name an op are given this op's.
    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const;
    /// The parameter struct for the ABI; valid while this op_desc lives and is not modified.
    const void* c_params() const;
    template <typename Op>
    const Op* get_if() const {
        return std::get_if<Op>(&v_);
    }
    const op_variant& variant() const { return v_; }

    /// Rebuilds a descriptor received across the ABI; unknown kinds throw.
    static op_desc from_c(std::int32_t kind, const void* params);

  private:
    op_variant v_;
};

}  // namespace tessera
