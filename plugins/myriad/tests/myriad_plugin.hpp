// myriad_plugin.hpp: the myriad plugin under test (MYRIAD_PLUGIN, set by CMake) for the shared
// plugin test helpers: loading it, a scratch folder for bindings files
// and kernels, the support answer for one op, and host references of the layers used.
#pragma once

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "common/plugin_test_support.hpp"

namespace myriad_test {

using namespace plugin_test;

inline void load_plugins() {
    plugin_test::load_plugin(MYRIAD_PLUGIN, "myriad");
}

/// Writes `text` to MYRIAD_PLUGIN_TEST_TMPDIR/<dir>/<file>; returns the path.
inline std::string write_file(const std::string& dir, const std::string& file,
                              const std::string& text) {
    const std::string folder = std::string(MYRIAD_PLUGIN_TEST_TMPDIR) + "/" + dir;
    ::mkdir(MYRIAD_PLUGIN_TEST_TMPDIR, 0755);
    ::mkdir(folder.c_str(), 0755);
    const std::string path = folder + "/" + file;
    std::ofstream(path) << text;
    return path;
}

/// The support answer of a myriad backend created with `options` for one op.
inline op_support query_op(const op_desc& op, const std::vector<tensor_desc>& inputs,
                           const std::vector<std::pair<std::string, std::string>>& options = {}) {
    load_plugins();
    backend_request r;
    r.name = "myriad";
    r.options = options;
    backend b = backend::create(r);
    std::vector<tensor_desc> outputs;
    for (const auto& d : op.infer(inputs)) outputs.push_back(d.with_layout(layout::any()));
    return b.query(op, inputs, outputs, "probe");
}

/// The value as half precision holds it (round to nearest even; normal range).
inline float to_half(float v) {
    if (v == 0.0f || !std::isfinite(v)) return v;
    int e = 0;
    std::frexp(v, &e);
    const float step = std::ldexp(1.0f, std::max(e - 11, -24));
    return std::nearbyint(v / step) * step;
}

/// GRN over dim 1 of an N C H W tensor: x / sqrt(bias + sum_c x^2), in double.
inline tensor grn_reference(const tensor& x, double bias) {
    const auto d = x.dims();
    tensor out(tensor_desc(d, dtype::f32));
    const std::int64_t plane = d[2] * d[3];
    for (std::int64_t n = 0; n < d[0]; ++n)
        for (std::int64_t i = 0; i < plane; ++i) {
            double sum = bias;
            for (std::int64_t c = 0; c < d[1]; ++c) {
                const double v = x.data_as<float>()[(n * d[1] + c) * plane + i];
                sum += v * v;
            }
            for (std::int64_t c = 0; c < d[1]; ++c) {
                const std::int64_t k = (n * d[1] + c) * plane + i;
                out.data_as<float>()[k] =
                    static_cast<float>(x.data_as<float>()[k] / std::sqrt(sum));
            }
        }
    return out;
}

/// Occurrences of `what` in `text`.
inline std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t pos = text.find(what); pos != std::string::npos;
         pos = text.find(what, pos + 1))
        ++n;
    return n;
}

}  // namespace myriad_test
