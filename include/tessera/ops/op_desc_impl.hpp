// tessera/ops/op_desc_impl.hpp: the members of op_desc that visit every alternative of the op
// variant (describe, infer, c_params, from_c), defined once. Part of the runtime: included once
// per program, by tessera/implementation.hpp.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tessera/ops/op_desc.hpp"

namespace tessera {

namespace detail {

/// The ABI parameters of a descriptor, for printing raw values that may be outside their enum.
template <typename Op>
const typename Op::c_type& c_fields(const Op& o) {
    return *static_cast<const typename Op::c_type*>(o.c_params());
}

template <typename Op>
std::string_view describe_detail(const Op&) {
    return {};
}
std::string_view describe_detail(const op::activation& o) {
    return name_of_c<activation_kind>(c_fields(o).act.kind);
}
std::string_view describe_detail(const op::pooling& o) {
    return name_of_c<pooling_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::binary& o) {
    return name_of_c<binary_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::unary& o) {
    return name_of_c<unary_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::reduce& o) {
    return name_of_c<reduce_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::matmul& o) {
    return name_of_c<matmul_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::quantized_matmul& o) {
    return name_of_c<matmul_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::conv2d& o) {
    if (c_fields(o).mode == TSR_CONV_DIRECT && o.group_count() > 1) return "grouped";
    return name_of_c<conv_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::batchnorm& o) {
    return name_of_c<batchnorm_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::layer_norm& o) {
    return name_of_c<layer_norm_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::lrn& o) {
    return name_of_c<lrn_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::pad& o) {
    return name_of_c<pad_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::depth_to_space& o) {
    return name_of_c<depth_to_space_kind>(c_fields(o).mode);
}
std::string_view describe_detail(const op::compare& o) {
    return name_of_c<compare_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::logical& o) {
    return name_of_c<logical_kind>(c_fields(o).op);
}
std::string_view describe_detail(const op::lstm& o) {
    return name_of_c<rnn_direction>(c_fields(o).direction);
}
std::string_view describe_detail(const op::gru& o) {
    return name_of_c<rnn_direction>(c_fields(o).direction);
}

template <std::size_t I>
op_desc op_desc_from_c(std::int32_t kind, const void* params) {
    if constexpr (I == std::variant_size_v<op_variant>) {
        throw error(status::unsupported, "unknown op kind " + std::to_string(kind));
    } else {
        using Op = std::variant_alternative_t<I, op_variant>;
        if (kind == Op::op_kind) return op_desc(Op::from_c(params));
        return op_desc_from_c<I + 1>(kind, params);
    }
}

}  // namespace detail

op_desc::op_desc(const op_desc& other) = default;
op_desc::op_desc(op_desc&& other) noexcept = default;
op_desc& op_desc::operator=(const op_desc& other) = default;
op_desc& op_desc::operator=(op_desc&& other) noexcept = default;
op_desc::~op_desc() = default;

std::string op_desc::describe() const {
    std::string s(name());
    const std::string_view mode =
        std::visit([](const auto& o) { return detail::describe_detail(o); }, v_);
    if (!mode.empty()) s += "(" + std::string(mode) + ")";
    return s;
}

std::vector<tensor_desc> op_desc::infer(const std::vector<tensor_desc>& inputs) const {
    try {
        return std::visit([&](const auto& o) { return o.infer(inputs); }, v_);
    } catch (const error& e) {
        if (!e.op().empty()) throw;
        throw error(e.code(), e.message(), {e.backend(), std::string(name()), e.tensor()});
    }
}

const void* op_desc::c_params() const {
    return std::visit([](const auto& o) { return o.c_params(); }, v_);
}

op_desc op_desc::from_c(std::int32_t kind, const void* params) {
    return detail::op_desc_from_c<0>(kind, params);
}

}  // namespace tessera
