// zaiu_plugin.hpp: the zaiu plugin under test for the shared plugin test helpers
// (tests/common/plugin_test_support.hpp): ops run strictly on "zaiu!" within its documented
// tolerance (tests/common/backend_tolerances.hpp).
#pragma once

#include "common/plugin_test_support.hpp"

namespace zaiu_test {

using namespace plugin_test;

/// Checks one op on "zaiu!" against the reference kernels; `ops` rounded steps, inputs marked
/// in `constant` as graph constants.
inline void check_op(const op_desc& op, const std::vector<tensor>& inputs,
                     const std::vector<bool>& constant = {}, int ops = 1) {
    plugin_test::check_op("zaiu!", op, inputs, tolerance_of("zaiu"), ops, constant);
}

}  // namespace zaiu_test
