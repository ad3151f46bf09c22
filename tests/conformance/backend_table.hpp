// backend_table.hpp: the backends the conformance suite drives, each selected with a strict
// config (a decline is reported, never hidden by a fallback), with its tolerance against the
// reference backend from the one tolerance table (tests/common/backend_tolerances.hpp). Plugins
// come from the build tree (paths set by CMake). Adding a backend is one row here and its
// plugin target's name in CMakeLists.txt.
#pragma once

#include <string>
#include <vector>

#include "common/backend_tolerances.hpp"

namespace conformance {

using tessera_test::tolerance;

struct backend_entry {
    std::string name;    ///< the backend's registered name
    std::string config;  ///< strict config string, e.g. "cpu!"
    std::string plugin;  ///< plugin file to load; empty for the built-in reference backend
    tolerance tol;
};

inline backend_entry strict(const std::string& name, const std::string& plugin) {
    return {name, name + "!", plugin, tessera_test::tolerance_of(name)};
}

/// Every backend this build has, the reference backend first.
inline const std::vector<backend_entry>& backend_table() {
    static const std::vector<backend_entry> table = {
        strict("reference", ""),
#ifdef CONFORMANCE_CPU_PLUGIN
        strict("cpu", CONFORMANCE_CPU_PLUGIN),
#endif
#ifdef CONFORMANCE_ZAIU_PLUGIN
        strict("zaiu", CONFORMANCE_ZAIU_PLUGIN),
#endif
#ifdef CONFORMANCE_QCOM_ML_PLUGIN
        strict("qcom-ml", CONFORMANCE_QCOM_ML_PLUGIN),
#endif
#ifdef CONFORMANCE_MYRIAD_PLUGIN
        strict("myriad", CONFORMANCE_MYRIAD_PLUGIN),
#endif
#ifdef CONFORMANCE_OPENVX_PLUGIN
        strict("openvx", CONFORMANCE_OPENVX_PLUGIN),
#endif
    };
    return table;
}

}  // namespace conformance
