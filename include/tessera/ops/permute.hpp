// tessera/ops/permute.hpp: permute (any order of dims) and transpose (swap two dims).
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Permute. Input order: src. Output dim i (and its label) is src dim order[i].
struct permute : pod_op<permute, tsr_permute_params, TSR_OP_PERMUTE> {
    static constexpr std::string_view name = "permute";

    permute() = default;
    permute(std::initializer_list<int> ord) { set_order(ord); }

    permute& set_order(std::initializer_list<int> ord) {
        raw().rank = 0;
        for (int d : ord) {
            if (raw().rank < TSR_MAX_DIMS) raw().order[raw().rank] = d;
            ++raw().rank;
        }
        return *this;
    }
    template <typename Container>
    permute& set_order(const Container& ord) {
        raw().rank = 0;
        for (auto d : ord) {
            if (raw().rank < TSR_MAX_DIMS) raw().order[raw().rank] = static_cast<std::int32_t>(d);
            ++raw().rank;
        }
        return *this;
    }

    /// Number of entries of the order (the rank of src).
    int rank() const { return raw().rank; }
    /// Output dim i is src dim order()[i].
    std::vector<int> order() const {
        const int n = raw().rank < 0 ? 0 : (raw().rank > TSR_MAX_DIMS ? TSR_MAX_DIMS : raw().rank);
        return std::vector<int>(raw().order, raw().order + n);
    }

    /// The permutation that undoes this one.
    permute inverse() const {
        permute p;
        p.raw().rank = raw().rank;
        for (int i = 0; i < raw().rank && i < TSR_MAX_DIMS; ++i) {
            if (raw().order[i] >= 0 && raw().order[i] < raw().rank)
                p.raw().order[raw().order[i]] = i;
        }
        return p;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        if (raw().rank < 0 || raw().rank > TSR_MAX_DIMS) {
            check.fail("", "order has " + std::to_string(raw().rank) + " entries, must be 0 to " +
                               std::to_string(TSR_MAX_DIMS));
        }
        if (raw().rank != src.rank()) {
            check.fail("src", "rank is " + std::to_string(src.rank()) + ", but order has " +
                                  std::to_string(raw().rank) + " entries");
        }
        std::array<bool, TSR_MAX_DIMS> seen{};
        const shape in = src.dims();
        shape out;
        for (int i = 0; i < raw().rank; ++i) {
            const int d = raw().order[i];
            if (d < 0 || d >= raw().rank || seen[d]) {
                check.fail("", "order entry " + std::to_string(i) + " is " + std::to_string(d) +
                                   ": order is not a permutation of 0.." +
                                   std::to_string(raw().rank - 1));
            }
            seen[d] = true;
            out.push_back(in[d], in.label(d));
        }
        return {output_like(out, src)};
    }
};

/// Transpose: swaps dims dim_a and dim_b (negative counts from the end; default the last two,
/// i.e. matrix transpose). Input order: src (rank >= 2).
struct transpose : pod_op<transpose, tsr_transpose_params, TSR_OP_TRANSPOSE> {
    static constexpr std::string_view name = "transpose";

    transpose() {
        raw().dim_a = -2;
        raw().dim_b = -1;
    }
    transpose(int a, int b) : transpose() {
        raw().dim_a = a;
        raw().dim_b = b;
    }

    transpose& set_dims(int a, int b) {
        raw().dim_a = a;
        raw().dim_b = b;
        return *this;
    }

    /// The two swapped dims; negative counts from the end.
    int dim_a() const { return raw().dim_a; }
    int dim_b() const { return raw().dim_b; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        if (src.rank() < 2)
            check.fail("src", "rank is " + std::to_string(src.rank()) + ", expected >= 2");
        const int a = normalize_axis(check, "dim_a", raw().dim_a, src.rank());
        const int b = normalize_axis(check, "dim_b", raw().dim_b, src.rank());
        const shape in = src.dims();
        shape out;
        for (int i = 0; i < in.rank(); ++i) {
            const int from = i == a ? b : (i == b ? a : i);
            out.push_back(in[from], in.label(from));
        }
        return {output_like(out, src)};
    }

    /// The equivalent permutation for a tensor of rank r (dims already validated).
    permute as_permute(int r) const {
        const int a = raw().dim_a < 0 ? raw().dim_a + r : raw().dim_a;
        const int b = raw().dim_b < 0 ? raw().dim_b + r : raw().dim_b;
        std::vector<int> order(static_cast<std::size_t>(r));
        for (int i = 0; i < r; ++i)
            order[static_cast<std::size_t>(i)] = i == a ? b : (i == b ? a : i);
        return permute().set_order(order);
    }
};

}  // namespace tessera::op
