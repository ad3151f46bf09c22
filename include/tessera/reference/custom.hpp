// tessera/reference/custom.hpp: op::custom on the reference backend: the one op it cannot run
// (custom kernels need a backend that compiles their sources); it throws status::unsupported.
#pragma once

#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/ops/custom.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

[[noreturn]] inline void run(const op::custom& op, const std::vector<tensor>&,
                             const std::vector<tensor>&) {
    throw error(
        status::unsupported,
        "custom layer type '" + op.type_name() +
            "' cannot run on the reference backend: custom kernels run only on backends that "
            "compile their sources (e.g. OpenCL)",
        {"reference", "custom", ""});
}

}  // namespace tessera::reference
