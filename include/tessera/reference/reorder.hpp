// tessera/reference/reorder.hpp: reference kernel of op::reorder (element-wise copy with dtype
// conversion under the op's rounding and overflow policies, in extended precision so i64
// values beyond 2^53 survive).
#pragma once

#include <vector>

#include "tessera/ops/reorder.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::reorder& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const tensor& dst = out[0];
    const auto rounding = op.rounding();
    const auto overflow = op.overflow();
    tessera::detail::for_each_index(src.dims(), [&](const tessera::detail::index_t& idx) {
        const long double v =
            numeric::load_real_wide(src.type(), src.desc().quant(), src.address_of(idx));
        numeric::store_real_wide(dst.type(), dst.desc().quant(), dst.address_of(idx), v, rounding,
                                 overflow);
    });
}

}  // namespace tessera::reference
