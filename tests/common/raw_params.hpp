// tests/common/raw_params.hpp: with_raw_params, a copy of an op descriptor whose plugin-ABI
// parameter struct was edited, the way a peer across the C ABI could send any value (an enum
// outside its range, a boolean that is neither 0 nor 1). Tests of validation build hostile
// descriptors with it; the C++ API itself only sets valid values.
#pragma once

#include <utility>

namespace tessera::test {

/// `op` with `edit(params)` applied to a copy of its C parameters, rebuilt through from_c.
template <typename Op, typename Edit>
Op with_raw_params(const Op& op, Edit&& edit) {
    auto params = *static_cast<const typename Op::c_type*>(op.c_params());
    std::forward<Edit>(edit)(params);
    return Op::from_c(&params);
}

}  // namespace tessera::test
