// tessera/ops/indexing.hpp: slice (numpy/ONNX start:end:step per dim, clamped), gather (numpy
// take along one axis with i32 or i64 indices) and gather_elements (take_along_axis). They move
// raw elements: every dtype works.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// One dim of a slice resolved against the dim's extent: the first element, the count and the
/// step.
struct slice_range {
    std::int64_t first = 0;
    std::int64_t count = 0;
    std::int64_t step = 1;
};

/// Slice. Input order: src. For each dim i < rank(), the elements start(i), start(i) + step(i),
/// ... up to but excluding end(i); negative start/end count from the end of the dim, then both
/// are clamped (ONNX Slice: [0, n] for a positive step, [-1, n - 1] for a negative one). Dims at
/// or past rank() are kept whole. Output: src's dtype and quantisation, row-major.
struct slice : pod_op<slice, tsr_slice_params, TSR_OP_SLICE> {
    static constexpr std::string_view name = "slice";

    slice() {
        for (int i = 0; i < TSR_MAX_DIMS; ++i) keep_whole(i);
    }

    /// Slices dim i as start:end:step (dims below i not set yet stay whole).
    slice& set_dim(int i, std::int64_t start, std::int64_t end, std::int64_t step = 1) {
        if (i < 0 || i >= TSR_MAX_DIMS) {
            raw().rank = TSR_MAX_DIMS + 1;  // reported by infer()
            return *this;
        }
        if (raw().rank <= i) raw().rank = i + 1;
        raw().start[i] = start;
        raw().end[i] = end;
        raw().step[i] = step;
        return *this;
    }

    /// Number of leading dims the slice describes.
    int rank() const { return raw().rank; }
    /// First index of dim i as given (before resolving negatives and clamping).
    std::int64_t start(int i) const { return in_range(i) ? raw().start[i] : 0; }
    /// End (exclusive) of dim i as given.
    std::int64_t end(int i) const {
        return in_range(i) ? raw().end[i] : std::numeric_limits<std::int64_t>::max();
    }
    /// Step of dim i (negative: backwards).
    std::int64_t step(int i) const { return in_range(i) ? raw().step[i] : 1; }

    /// Dim i resolved against its extent n (the step must be non-zero).
    slice_range resolve(int i, std::int64_t n) const {
        const std::int64_t k = step(i);
        std::int64_t s = start(i), e = end(i);
        if (s < 0) s += n;
        if (e < 0) e += n;
        slice_range r;
        r.step = k;
        if (k > 0) {
            s = s < 0 ? 0 : (s > n ? n : s);
            e = e < 0 ? 0 : (e > n ? n : e);
            r.first = s;
            r.count = e > s ? (e - s - 1) / k + 1 : 0;
        } else {
            s = s < 0 ? 0 : (s > n - 1 ? n - 1 : s);
            e = e < -1 ? -1 : (e > n - 1 ? n - 1 : e);
            r.first = s;
            r.count = s > e ? (s - e - 1) / -k + 1 : 0;
        }
        return r;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        check_non_negative_dims(check, "src", src);
        if (raw().rank < 0 || raw().rank > src.rank()) {
            check.fail("src", "the slice describes " + std::to_string(raw().rank) +
                                  " dims, the tensor has rank " + std::to_string(src.rank()));
        }
        shape out;
        for (int i = 0; i < src.rank(); ++i) {
            if (step(i) == 0) check.fail("", "step of dim " + std::to_string(i) + " is 0");
            if (step(i) == std::numeric_limits<std::int64_t>::min())
                check.fail("", "step of dim " + std::to_string(i) + " is INT64_MIN");
            out.push_back(resolve(i, src.dim(i)).count, src.dims().label(i));
        }
        return {output_like(out, src)};
    }

  private:
    bool in_range(int i) const { return i >= 0 && i < raw().rank && i < TSR_MAX_DIMS; }
    void keep_whole(int i) {
        raw().start[i] = 0;
        raw().end[i] = std::numeric_limits<std::int64_t>::max();
        raw().step[i] = 1;
    }
};

/// The inputs of gather and gather_elements with the axis resolved against data's rank.
struct gather_operands {
    const tensor_desc& data;
    const tensor_desc& indices;
    int axis;
};

/// Checks the data and indices inputs of gather and gather_elements (data of any dtype and rank
/// >= 1, indices i32 or i64, no negative dims) and resolves `axis` against data's rank.
inline gather_operands check_gather_inputs(const checker& check,
                                           const std::vector<tensor_desc>& inputs, int axis) {
    check.count(inputs, 2, 2);
    const tensor_desc& data = inputs[0];
    const tensor_desc& indices = inputs[1];
    check_valid_type(check, "data", data);
    check.type_in("indices", indices, {dtype::i32, dtype::i64});
    if (data.rank() < 1) check.fail("data", "rank is 0, expected at least 1");
    check_non_negative_dims(check, "data", data);
    check_non_negative_dims(check, "indices", indices);
    return {data, indices, normalize_axis(check, "axis", axis, data.rank())};
}

/// Fails when there is an index to look up but data's dim `axis` is empty.
inline void check_gather_source(const checker& check, const gather_operands& in) {
    bool any_index = true;
    for (int i = 0; i < in.indices.rank(); ++i) any_index = any_index && in.indices.dim(i) > 0;
    if (in.data.dim(in.axis) == 0 && any_index)
        check.fail("data", "dim " + std::to_string(in.axis) + " is 0: nothing to gather from");
}

/// Gather (numpy take). Input order: data (any dtype), indices (i32 or i64, any shape; negative
/// counts from the end of the axis). Output: data's dims with dim `axis` replaced by the indices'
/// dims, data's dtype and quantisation. An index outside [-n, n) fails when the op runs.
struct gather : pod_op<gather, tsr_gather_params, TSR_OP_GATHER>, axis_setters<gather> {
    friend struct axis_setters<gather>;
    static constexpr std::string_view name = "gather";

    gather() { raw().axis = 0; }
    explicit gather(int axis) : gather() { raw().axis = axis; }

    /// The gathered dim; negative counts from the end.
    int axis() const { return raw().axis; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        const gather_operands in = check_gather_inputs(check, inputs, raw().axis);
        if (in.data.rank() - 1 + in.indices.rank() > TSR_MAX_DIMS) {
            check.fail("indices", "the output rank " +
                                      std::to_string(in.data.rank() - 1 + in.indices.rank()) +
                                      " exceeds " + std::to_string(TSR_MAX_DIMS));
        }
        check_gather_source(check, in);
        shape out;
        for (int i = 0; i < in.axis; ++i) out.push_back(in.data.dim(i), in.data.dims().label(i));
        for (int i = 0; i < in.indices.rank(); ++i) out.push_back(in.indices.dim(i));
        for (int i = in.axis + 1; i < in.data.rank(); ++i)
            out.push_back(in.data.dim(i), in.data.dims().label(i));
        check.fits("indices", out, in.data.type());
        return {output_like(out, in.data)};
    }
};

/// GatherElements (ONNX; numpy take_along_axis). Input order: data (any dtype), indices (i32 or
/// i64, data's rank, each dim other than `axis` at most data's; negative counts from the end of
/// the axis). Output: the indices' dims, data's dtype and quantisation, out[i] = data[i with its
/// `axis` coordinate replaced by indices[i]]. An index outside [-n, n) fails when the op runs.
struct gather_elements
    : pod_op<gather_elements, tsr_gather_elements_params, TSR_OP_GATHER_ELEMENTS>,
      axis_setters<gather_elements> {
    friend struct axis_setters<gather_elements>;
    static constexpr std::string_view name = "gather_elements";

    gather_elements() { raw().axis = 0; }
    explicit gather_elements(int axis) : gather_elements() { raw().axis = axis; }

    /// The indexed dim; negative counts from the end.
    int axis() const { return raw().axis; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        const gather_operands in = check_gather_inputs(check, inputs, raw().axis);
        if (in.indices.rank() != in.data.rank()) {
            check.fail("indices", "rank " + std::to_string(in.indices.rank()) +
                                      " differs from data's " + std::to_string(in.data.rank()));
        }
        for (int i = 0; i < in.data.rank(); ++i) {
            if (i != in.axis && in.indices.dim(i) > in.data.dim(i)) {
                check.fail("indices", "dim " + std::to_string(i) + " is " +
                                          std::to_string(in.indices.dim(i)) +
                                          ", more than data's " + std::to_string(in.data.dim(i)));
            }
        }
        check_gather_source(check, in);
        shape out;
        for (int i = 0; i < in.indices.rank(); ++i) out.push_back(in.indices.dim(i));
        check.fits("indices", out, in.data.type());
        return {output_like(out, in.data)};
    }
};

}  // namespace tessera::op
