// tessera/ops/reduction.hpp: reductions: moments (zDNN: mean and variance), mean_reduce2d (zDNN
// meanreduce2d over H and W) and reduce (zDNN reduce min/max and their index forms, plus sum,
// mean and product).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// zDNN moments. Inputs: 0 src. Outputs: mean and variance over dims [first_axis, rank) (default
/// 1: per batch index), shaped like src with those dims 1. Variance divides by n (POPULATION) or
/// n - 1 (SAMPLE; needs n > 1). Floating only.
struct moments : pod_op<moments, tsr_moments_params, TSR_OP_MOMENTS> {
    static constexpr std::string_view name = "moments";

    moments() {
        raw().bessel = TSR_BESSEL_POPULATION;
        raw().first_axis = 1;
    }
    moments& correction(tsr_bessel_correction b) {
        raw().bessel = b;
        return *this;
    }
    moments& correction(bessel_correction b) { return correction(to_c(b)); }
    moments& from_axis(int a) {
        raw().first_axis = a;
        return *this;
    }

    /// Divide by n or by n - 1 (throws for a raw value outside the enum).
    bessel_correction bessel() const { return tessera::from_c<bessel_correction>(raw().bessel); }
    /// First reduced dim; negative counts from the end.
    int first_axis() const { return raw().first_axis; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("bessel", raw().bessel, TSR_BESSEL_POPULATION, TSR_BESSEL_SAMPLE);
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check.type_in("src", src, {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
        if (src.rank() < 1) check.fail("src", "rank is 0, expected at least 1");
        check.positive_dims("src", src);
        const int a = normalize_axis(check, "src", "first_axis", raw().first_axis, src.rank());
        shape out = src.dims();
        std::int64_t count = 1;
        for (int d = a; d < src.rank(); ++d) {
            count = check.mul("src", count, out[d]);
            out[d] = 1;
        }
        if (raw().bessel == TSR_BESSEL_SAMPLE && count < 2) {
            check.fail("src", "sample variance needs more than one element per moment, got " +
                                  std::to_string(count));
        }
        return {output_like(out, src), output_like(out, src)};
    }
};

/// zDNN meanreduce2d. Inputs: 0 src [N, C, H, W]. Output [N, C, 1, 1], the mean over H and W.
/// Integer types average their stored values with `rounding`.
struct mean_reduce2d : pod_op<mean_reduce2d, tsr_mean_reduce2d_params, TSR_OP_MEAN_REDUCE2D> {
    static constexpr std::string_view name = "mean_reduce2d";

    mean_reduce2d() { raw().rounding = TSR_ROUND_TO_NEAREST_EVEN; }

    /// Integer means: how they round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("rounding", raw().rounding, TSR_ROUND_TO_ZERO,
                            TSR_ROUND_TO_NEAREST_EVEN);
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check.type_in("src", src,
                      {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i16, dtype::i8,
                       dtype::u8});
        check.rank("src", src, 4);
        check.positive_dims("src", src);
        return {output_like(image_shape(src.dim(0), src.dim(1), 1, 1), src)};
    }
};

/// Reduction along one axis. Inputs: 0 src. Output: src's dims with `axis` (default -1, zDNN's
/// dimension 1) set to 1 (keep_dims) or removed. MIN/MAX/SUM/MEAN/PROD keep src's dtype; the
/// *_IDX forms output i32 indices of the first (select_last_index: last) minimum/maximum. Integer
/// sums and products
/// saturate; integer means round with `rounding`.
struct reduce : pod_op<reduce, tsr_reduce_params, TSR_OP_REDUCE>, axis_setters<reduce> {
    friend struct axis_setters<reduce>;
    static constexpr std::string_view name = "reduce";

    reduce() {
        op = TSR_REDUCE_MAX;
        raw().axis = -1;
        raw().keep_dims = 1;
        raw().rounding = TSR_ROUND_TO_NEAREST_EVEN;
    }
    explicit reduce(tsr_reduce_op o) : reduce() { op = o; }

    reduce& operation(tsr_reduce_op o) {
        op = o;
        return *this;
    }
    explicit reduce(reduce_kind o) : reduce(to_c(o)) {}
    reduce& operation(reduce_kind o) { return operation(to_c(o)); }
    /// The operation as a typed value (throws for a raw value outside the enum).
    reduce_kind kind() const { return tessera::from_c<reduce_kind>(op); }
    reduce& keep(bool k) {
        raw().keep_dims = k ? 1 : 0;
        return *this;
    }
    /// Index forms: return the last extreme element's index instead of the first.
    reduce& set_select_last_index(bool on) {
        raw().select_last_index = on ? 1 : 0;
        return *this;
    }
    /// Index forms: the last extreme element's index is returned (else the first).
    bool select_last_index() const { return raw().select_last_index != 0; }

    bool is_index() const { return op == TSR_REDUCE_MIN_IDX || op == TSR_REDUCE_MAX_IDX; }

    /// The reduced dim; negative counts from the end.
    int axis() const { return raw().axis; }
    /// The reduced dim stays as extent 1.
    bool keep_dims() const { return raw().keep_dims != 0; }
    /// Integer means: how they round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("op", op, TSR_REDUCE_MIN, TSR_REDUCE_PROD);
        check_bool(check, "keep_dims", raw().keep_dims);
        check_bool(check, "select_last_index", raw().select_last_index);
        check.enum_in_range("rounding", raw().rounding, TSR_ROUND_TO_ZERO,
                            TSR_ROUND_TO_NEAREST_EVEN);
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check.type_in(
            "src", src,
            {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i16, dtype::i8,
             dtype::u8, dtype::i32, dtype::i64, dtype::f64, dtype::u16, dtype::u32, dtype::u64});
        if (src.rank() < 1) check.fail("src", "rank is 0, expected at least 1");
        check.positive_dims("src", src);
        const int a = normalize_axis(check, "src", "axis", raw().axis, src.rank());
        const shape in = src.dims();
        shape out;
        for (int d = 0; d < in.rank(); ++d) {
            if (d != a) {
                out.push_back(in[d], in.label(d));
            } else if (raw().keep_dims) {
                out.push_back(1, in.label(d));
            }
        }
        if (is_index()) return {tensor_desc(out, dtype::i32)};
        return {output_like(out, src)};
    }
};

}  // namespace tessera::op
