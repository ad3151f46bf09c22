// openvx_plugin.hpp: the openvx plugin under test (OPENVX_PLUGIN, set by CMake) for the shared
// plugin test helpers (tests/common/plugin_test_support.hpp): Q7.8 tensors from raw values,
// deterministic Q7.8 data, one op run strictly on "openvx!" against the reference backend, and
// the plugin's support answer for one op.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/plugin_test_support.hpp"

namespace openvx_test {

using namespace plugin_test;

inline void load_plugin() {
    plugin_test::load_plugin(OPENVX_PLUGIN, "openvx");
}

inline const quantization q7_8{1.0f, 0, 8};

/// An i16 tensor with fixed_point_pos `pos` holding `raw`.
inline tensor fixed(const shape& dims, const std::vector<std::int16_t>& raw, int pos = 8) {
    tensor t(tensor_desc(dims, dtype::i16, layout::row_major(), quantization{1.0f, 0, pos}));
    REQUIRE(static_cast<std::size_t>(t.num_elements()) == raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) t.data_as<std::int16_t>()[i] = raw[i];
    return t;
}

/// Deterministic raw values in [lo, hi] as an i16 tensor at `pos` (Q7.8 by default).
inline tensor random_fixed(const shape& dims, std::uint32_t seed, int lo, int hi, int pos = 8) {
    tensor t(tensor_desc(dims, dtype::i16, layout::row_major(), quantization{1.0f, 0, pos}));
    std::uint32_t state = seed * 2654435761u + 99u;
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        state = state * 1664525u + 1013904223u;
        t.data_as<std::int16_t>()[i] = static_cast<std::int16_t>(
            lo + static_cast<int>((state >> 8) % static_cast<std::uint32_t>(hi - lo + 1)));
    }
    return t;
}

/// The raw values of an i16 tensor.
inline std::vector<std::int16_t> raw_of(const tensor& t) {
    REQUIRE(t.type() == dtype::i16);
    return std::vector<std::int16_t>(t.data_as<std::int16_t>(),
                                     t.data_as<std::int16_t>() + t.num_elements());
}

/// Runs `op` strictly on "openvx!" and REQUIREs it bit-identical to tessera::reference::execute
/// (the OpenVX Q7.8 contract is the reference's: tolerance 0). Returns the openvx outputs.
inline std::vector<tensor> check_exact(const op_desc& op, const std::vector<tensor>& inputs,
                                       const std::vector<bool>& constant = {}) {
    load_plugin();
    std::string report;
    const auto got = run_op(op, inputs, "openvx!", constant, &report);
    const auto want = reference::execute(op, inputs);
    INFO(report);
    CHECK(report.find("-> openvx") != std::string::npos);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        REQUIRE(got[i].desc().type() == want[i].desc().type());
        REQUIRE(got[i].dims() == want[i].dims());
        const auto* a = static_cast<const std::uint8_t*>(got[i].data());
        const auto* b = static_cast<const std::uint8_t*>(want[i].data());
        const std::int64_t bytes = want[i].desc().size_bytes();
        std::int64_t differing = 0;
        for (std::int64_t k = 0; k < bytes; ++k) differing += a[k] != b[k];
        CHECK_MESSAGE(differing == 0, op.describe() << " output " << i << ": " << differing
                                                    << " bytes differ from the reference");
    }
    return got;
}

/// The support answer of openvx (with `options`, e.g. "precision=q7.8") for one op.
inline op_support query_op(const op_desc& op, const std::vector<tensor_desc>& inputs,
                           const std::string& precision_option = "") {
    load_plugin();
    backend_request r;
    r.name = "openvx";
    if (!precision_option.empty()) r.options.emplace_back("precision", precision_option);
    backend b = backend::create(r);
    std::vector<tensor_desc> outputs;
    for (const auto& d : op.infer(inputs)) outputs.push_back(d.with_layout(layout::any()));
    return b.query(op, inputs, outputs, "probe");
}

}  // namespace openvx_test
