// tessera/ops/compare.hpp: the ops that produce or consume bool tensors: compare (equal, less,
// less_equal, greater, greater_equal), logical (and, or, xor, not) and where (select by a
// condition), all with numpy broadcasting.
#pragma once

#include <string_view>
#include <vector>

#include "tessera/c/ops_elementwise.h"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Comparison: out = A op B (bool) of the broadcast shape. Input order: A, B of one dtype
/// (quantisation may differ: real values are compared); bool inputs only for equal. A comparison
/// with NaN is false.
struct compare : pod_op<compare, tsr_compare_params, TSR_OP_COMPARE> {
    static constexpr std::string_view name = "compare";

    compare() { raw().op = TSR_COMPARE_EQUAL; }
    explicit compare(compare_kind k) : compare() { raw().op = to_c(k); }

    compare& set_op(compare_kind k) {
        raw().op = to_c(k);
        return *this;
    }
    /// The comparison as a typed value (throws for a raw value outside the enum).
    compare_kind kind() const { return tessera::from_c<compare_kind>(raw().op); }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("compare op", raw().op, TSR_COMPARE_EQUAL, TSR_COMPARE_GREATER_EQUAL);
        check.count(inputs, 2, 2);
        check_valid_type(check, "A", inputs[0]);
        check_valid_type(check, "B", inputs[1]);
        check.same_type("B", inputs[1], inputs[0]);
        if (inputs[0].type() == dtype::boolean && raw().op != TSR_COMPARE_EQUAL)
            check.fail("A", "dtype bool is only compared for equality");
        check_non_negative_dims(check, "A", inputs[0]);
        check_non_negative_dims(check, "B", inputs[1]);
        return {tensor_desc(broadcast_shapes(check, inputs[0].dims(), inputs[1].dims(), "B"),
                            dtype::boolean)};
    }
};

/// Logical op on bool tensors: and, or, xor of A and B (numpy broadcasting), or not of A alone.
/// Output: bool.
struct logical : pod_op<logical, tsr_logical_params, TSR_OP_LOGICAL> {
    static constexpr std::string_view name = "logical";

    logical() { raw().op = TSR_LOGICAL_AND; }
    explicit logical(logical_kind k) : logical() { raw().op = to_c(k); }

    logical& set_op(logical_kind k) {
        raw().op = to_c(k);
        return *this;
    }
    /// The operation as a typed value (throws for a raw value outside the enum).
    logical_kind kind() const { return tessera::from_c<logical_kind>(raw().op); }
    /// Number of inputs the operation takes (1 for not, else 2).
    std::size_t arity() const { return raw().op == TSR_LOGICAL_NOT ? 1 : 2; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("logical op", raw().op, TSR_LOGICAL_AND, TSR_LOGICAL_NOT);
        check.count(inputs, arity(), arity());
        check.type_in("A", inputs[0], {dtype::boolean});
        check_non_negative_dims(check, "A", inputs[0]);
        if (arity() == 1) return {tensor_desc(inputs[0].dims(), dtype::boolean)};
        check.type_in("B", inputs[1], {dtype::boolean});
        check_non_negative_dims(check, "B", inputs[1]);
        return {tensor_desc(broadcast_shapes(check, inputs[0].dims(), inputs[1].dims(), "B"),
                            dtype::boolean)};
    }
};

/// Where: out = condition ? X : Y. Input order: condition (bool), X, Y (X's dtype and
/// quantisation); the three broadcast numpy style. Output: X's dtype and quantisation.
struct where : pod_op<where, tsr_where_params, TSR_OP_WHERE> {
    static constexpr std::string_view name = "where";

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 3, 3);
        check.type_in("condition", inputs[0], {dtype::boolean});
        check_valid_type(check, "X", inputs[1]);
        check_same_storage(check, "Y", inputs[2], inputs[1]);
        check_non_negative_dims(check, "condition", inputs[0]);
        check_non_negative_dims(check, "X", inputs[1]);
        check_non_negative_dims(check, "Y", inputs[2]);
        const shape cx = broadcast_shapes(check, inputs[0].dims(), inputs[1].dims(), "X");
        return {output_like(broadcast_shapes(check, cx, inputs[2].dims(), "Y"), inputs[1])};
    }
};

}  // namespace tessera::op
