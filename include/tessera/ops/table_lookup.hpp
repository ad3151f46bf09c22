// tessera/ops/table_lookup.hpp: table_lookup, OpenVX's tensor LUT for u8 and i16.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// TableLookup. Input order: src, lut (rank 1, src's dtype: u8 with <= 256 entries or i16 with
/// <= 65536). out = lut[src + offset] where that index is inside the table, else src. The
/// default offset is OpenVX's (0 for u8, count/2 for i16). Output: like src.
struct table_lookup : pod_op<table_lookup, tsr_table_lookup_params, TSR_OP_TABLE_LOOKUP> {
    static constexpr std::string_view name = "table_lookup";

    table_lookup() = default;
    explicit table_lookup(std::int32_t off) { set_offset(off); }

    table_lookup& set_offset(std::int32_t off) {
        raw().has_offset = 1;
        raw().offset = off;
        return *this;
    }
    table_lookup& use_default_offset() {
        raw().has_offset = 0;
        raw().offset = 0;
        return *this;
    }

    /// The offset in effect for a LUT of `count` entries of type t.
    std::int64_t effective_offset(dtype t, std::int64_t count) const {
        if (raw().has_offset) return raw().offset;
        return t == dtype::i16 ? count / 2 : 0;
    }

    /// An explicit offset is set (else OpenVX's default for the dtype).
    bool has_offset() const { return raw().has_offset != 0; }
    /// The explicit offset (when has_offset).
    std::int32_t offset() const { return raw().offset; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_flag(check, "has_offset", raw().has_offset);
        check.count(inputs, 2, 2);
        const tensor_desc& src = inputs[0];
        const tensor_desc& lut = inputs[1];
        check.type_in("src", src, {dtype::u8, dtype::i16});
        check.same_type("lut", lut, src);
        check_non_negative_dims(check, "src", src);
        check.rank("lut", lut, 1);
        const std::int64_t limit = src.type() == dtype::u8 ? 256 : 65536;
        if (lut.dim(0) < 1 || lut.dim(0) > limit) {
            check.fail("lut", "dim 0 is " + std::to_string(lut.dim(0)) + ", must be 1 to " +
                                  std::to_string(limit));
        }
        return {output_like(src.dims(), src)};
    }
};

}  // namespace tessera::op
