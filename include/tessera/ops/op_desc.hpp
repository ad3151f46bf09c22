// tessera/ops/op_desc.hpp: op_desc, a value holding any one op descriptor, with the operations
// the graph, the loader and the plugins need: kind, name, shape inference and ABI marshalling.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tessera/ops/activation.hpp"
#include "tessera/ops/conv2d.hpp"
#include "tessera/ops/custom.hpp"
#include "tessera/ops/data_movement.hpp"
#include "tessera/ops/elementwise.hpp"
#include "tessera/ops/fully_connected.hpp"
#include "tessera/ops/gemm.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/matmul.hpp"
#include "tessera/ops/normalization.hpp"
#include "tessera/ops/pooling.hpp"
#include "tessera/ops/reduction.hpp"
#include "tessera/ops/reorder.hpp"
#include "tessera/ops/rnn.hpp"
#include "tessera/ops/softmax.hpp"

namespace tessera {

using op_variant =
    std::variant<op::conv2d, op::fully_connected, op::gemm, op::matmul, op::quantized_matmul,
                 op::pooling, op::batchnorm, op::lrn, op::layer_norm, op::norm, op::moments,
                 op::mean_reduce2d, op::reduce, op::softmax, op::activation, op::binary, op::unary,
                 op::concat, op::permute, op::transpose, op::reshape, op::depth_to_space,
                 op::resize_bilinear, op::pad, op::fill, op::table_lookup, op::reorder, op::lstm,
                 op::gru, op::custom>;

/// Thread safety: a plain value; const members (infer, c_params, ...) are safe from any threads
/// at once, modification is not.
class op_desc {
  public:
    template <typename Op, typename = std::enable_if_t<std::is_constructible_v<op_variant, Op>>>
    op_desc(Op op) : v_(std::move(op)) {}

    tsr_op_kind kind() const {
        return std::visit([](const auto& o) { return std::decay_t<decltype(o)>::op_kind; }, v_);
    }
    std::string_view name() const {
        return std::visit([](const auto& o) { return std::decay_t<decltype(o)>::name; }, v_);
    }
    /// The op with its defining mode spelled out, for reports and tool output:
    /// "activation(relu)", "pooling(max)", "binary(add)", "conv2d(depthwise)", "reduce(sum)";
    /// ops without such a mode print their name alone. A raw value outside its enum prints
    /// "unknown".
    std::string describe() const {
        std::string s(name());
        const std::string_view detail =
            std::visit([](const auto& o) { return describe_detail(o); }, v_);
        if (!detail.empty()) s += "(" + std::string(detail) + ")";
        return s;
    }
    /// Validates the inputs and returns the output descriptors (row-major unless the op says).
    /// Errors from shared code (descriptor sizes) that do not name an op are given this op's.
    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        try {
            return std::visit([&](const auto& o) { return o.infer(inputs); }, v_);
        } catch (const error& e) {
            if (!e.op().empty()) throw;
            throw error(e.code(), e.message(), {e.backend(), std::string(name()), e.tensor()});
        }
    }
    /// The parameter struct for the ABI; valid while this op_desc lives and is not modified.
    const void* c_params() const {
        return std::visit([](const auto& o) { return o.c_params(); }, v_);
    }
    template <typename Op>
    const Op* get_if() const {
        return std::get_if<Op>(&v_);
    }
    const op_variant& variant() const { return v_; }

    /// Rebuilds a descriptor received across the ABI; unknown kinds throw.
    static op_desc from_c(std::int32_t kind, const void* params) {
        return from_c_impl<0>(kind, params);
    }

  private:
    template <typename Op>
    static std::string_view describe_detail(const Op&) {
        return {};
    }
    static std::string_view describe_detail(const op::activation& o) {
        return name_of_c<activation_kind>(o.act.kind);
    }
    static std::string_view describe_detail(const op::pooling& o) {
        return name_of_c<pooling_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::binary& o) {
        return name_of_c<binary_kind>(o.op);
    }
    static std::string_view describe_detail(const op::unary& o) {
        return name_of_c<unary_kind>(o.op);
    }
    static std::string_view describe_detail(const op::reduce& o) {
        return name_of_c<reduce_kind>(o.op);
    }
    static std::string_view describe_detail(const op::matmul& o) {
        return name_of_c<matmul_kind>(o.op);
    }
    static std::string_view describe_detail(const op::quantized_matmul& o) {
        return name_of_c<matmul_kind>(o.op);
    }
    static std::string_view describe_detail(const op::conv2d& o) {
        if (o.mode == TSR_CONV_DIRECT && o.group_count() > 1) return "grouped";
        return name_of_c<conv_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::batchnorm& o) {
        return name_of_c<batchnorm_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::layer_norm& o) {
        return name_of_c<layer_norm_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::lrn& o) {
        return name_of_c<lrn_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::pad& o) {
        return name_of_c<pad_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::depth_to_space& o) {
        return name_of_c<depth_to_space_kind>(o.mode);
    }
    static std::string_view describe_detail(const op::lstm& o) {
        return name_of_c<rnn_direction>(o.direction);
    }
    static std::string_view describe_detail(const op::gru& o) {
        return name_of_c<rnn_direction>(o.direction);
    }

    template <std::size_t I>
    static op_desc from_c_impl(std::int32_t kind, const void* params) {
        if constexpr (I == std::variant_size_v<op_variant>) {
            throw error(status::unsupported, "unknown op kind " + std::to_string(kind));
        } else {
            using Op = std::variant_alternative_t<I, op_variant>;
            if (kind == Op::op_kind) return op_desc(Op::from_c(params));
            return from_c_impl<I + 1>(kind, params);
        }
    }

    op_variant v_;
};

}  // namespace tessera
