// cpu_plugin.hpp: the cpu plugin under test (CPU_PLUGIN, set by CMake) for the shared plugin
// test helpers (tests/common/plugin_test_support.hpp).
#pragma once

#include "common/plugin_test_support.hpp"

namespace cpu_test {

using namespace plugin_test;

inline void load_cpu_plugin() {
    load_plugin(CPU_PLUGIN, "cpu");
}

}  // namespace cpu_test
