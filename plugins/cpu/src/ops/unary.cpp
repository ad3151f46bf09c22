// ops/unary.cpp: element-wise erf (the GELU of exported transformers: x * 0.5 * (1 + erf(x/√2)))
// on row-major f32 tensors, as a rational approximation the compiler vectorises: x P(x²) / Q(x²)
// on x clamped to [-4, 4] (erf is ±1 in f32 beyond), within a few f32 ulps of erf, NaN kept.
// The other unary kinds, and erf on other dtypes, run on the reference kernel.
#include <algorithm>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice unary_route(const op::unary& u, const descs& in) {
    if (u.kind() != unary_kind::erf) return {route::reference, TSR_REASON_OP_KIND, "unary kind"};
    if (!all_f32(in)) return reference_because("non-f32 erf");
    return native(route::native_plain);
}

/// erf(x) as x P(x²) / Q(x²) on x clamped to [-4, 4] (the f32 approximation of Eigen and XLA).
inline float fast_erf(float v) {
    const float x = std::min(std::max(v, -4.0f), 4.0f);
    const float x2 = x * x;
    float p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
    p = x2 * p + -2.10102402082508e-06f;
    p = x2 * p + -5.69250639462346e-05f;
    p = x2 * p + -7.34990630326855e-04f;
    p = x2 * p + -2.95459980854025e-03f;
    p = x2 * p + -1.60960333262415e-02f;
    float q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
    q = x2 * q + -1.68282697438203e-03f;
    q = x2 * q + -7.37332916720468e-03f;
    q = x2 * q + -1.42647390514189e-02f;
    return x * p / q;  // NaN stays NaN: the clamp keeps it
}

class erf_step final : public step {
  public:
    explicit erf_step(const node_view& v)
        : src_(v.n.inputs[0]), dst_(v.n.outputs[0]), count_(v.out[0].num_elements()) {}

    void run(const buffers& b) override {
        const auto* src = static_cast<const float*>(b[static_cast<std::size_t>(src_)]->host_data());
        auto* dst = static_cast<float*>(b[static_cast<std::size_t>(dst_)]->host_data());
        for (std::int64_t i = 0; i < count_; ++i) dst[i] = fast_erf(src[i]);
    }

  private:
    int src_, dst_;
    std::int64_t count_;
};

}  // namespace

void state_unary(router& r) {
    r.state<op::unary>(
        [](const op::unary& u, const query_view& v) {
            return answer(unary_route(u, v.q.inputs), v.in, v.out);
        },
        [](const op::unary& u, const build_context& b) {
            return routed_step(unary_route(u, b.node.in), b,
                               [&] { return std::make_unique<erf_step>(b.node); });
        });
}

}  // namespace tessera::plugins::cpu
