// WinogradWeightsTransform: G g G^T per (output, input) channel pair, in double and rounded once.
#include "functions/winograd_weights_transform.hpp"

#include <array>

namespace tessera::cpu {

namespace {

/// G g G^T of one 3x3 kernel g (row-major), G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1].
std::array<double, 16> transform_kernel(const float* g, double scale) {
    const auto apply_g = [](double a, double b, double c) {
        return std::array<double, 4>{a, 0.5 * (a + b + c), 0.5 * (a - b + c), c};
    };
    std::array<std::array<double, 4>, 3> columns{};  // G g, column by column of g
    for (int x = 0; x < 3; ++x) columns[x] = apply_g(g[x], g[3 + x], g[6 + x]);
    std::array<double, 16> u{};
    for (int r = 0; r < 4; ++r) {
        const std::array<double, 4> row = apply_g(columns[0][r], columns[1][r], columns[2][r]);
        for (int c = 0; c < 4; ++c) u[4 * r + c] = row[c] * scale;
    }
    return u;
}

}  // namespace

std::string WinogradWeightsTransform::uid() const {
    return "winograd2x2_3x3/nr" + std::to_string(plan_.nr) + "/" + scale_.id;
}

TensorInfo WinogradWeightsTransform::result_info() const {
    return TensorInfo({plan_.u_floats()}, DataType::f32, DataLayout::plain, {},
                      weights_.info().name() + ".winograd");
}

void WinogradWeightsTransform::run(Tensor& result) const {
    const float* w = weights_.data<float>();
    float* out = result.data<float>();
    const int64_t channels = plan_.channels;
    for (int64_t o = 0; o < plan_.outputs; ++o) {
        const int64_t oc_start = o / plan_.nr * plan_.nr, width = plan_.block_width(oc_start);
        const double scale = scale_.at(o);
        for (int64_t c = 0; c < channels; ++c) {
            const std::array<double, 16> u = transform_kernel(w + (o * channels + c) * 9, scale);
            for (int64_t xi = 0; xi < WinogradPlan::kValues; ++xi)
                out[plan_.u_offset(xi, oc_start) + c * width + (o - oc_start)] =
                    static_cast<float>(u[static_cast<std::size_t>(xi)]);
        }
    }
}

}  // namespace tessera::cpu
