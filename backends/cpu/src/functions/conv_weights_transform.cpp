// ConvWeightsTransform: packing in the step order of ConvChannelPlan.
#include "functions/conv_weights_transform.hpp"

namespace tessera::cpu {

std::string ConvWeightsTransform::uid() const {
    const char* order = plan_.columns_outer ? "/taps" : plan_.taps_inner ? "/rows-c" : "/rows";
    return "conv2d_pack/nr" + std::to_string(plan_.nr) + order + "/g" + std::to_string(groups_) +
           "/" + scale_.id;
}

TensorInfo ConvWeightsTransform::result_info() const {
    return TensorInfo({std::max<int64_t>(plan_.packed_floats, 1)}, DataType::f32, DataLayout::plain,
                      {}, weights_.info().name() + ".packed");
}

void ConvWeightsTransform::run(Tensor& result) const {
    const TensorInfo& wi = weights_.info();
    const int64_t oc = wi.dim(0), icg = wi.dim(1), kh = wi.dim(2), kw = wi.dim(3);
    const int64_t ocg = oc / groups_;
    const float* w = weights_.data<float>();
    float* out = result.data<float>();
    for (const ConvChannelPlan::Block& b : plan_.blocks) {
        float* panel = out + b.weights_offset;
        int64_t step = 0;
        plan_.for_each_step(b.ic_begin, b.ic_end, [&](int64_t c, int64_t y, int64_t x) {
            for (int64_t j = 0; j < b.width; ++j) {
                const int64_t o = b.oc_start + j;
                float v = 0.0f;
                if (o < oc && o / ocg == c / icg) {
                    const int64_t ci = c - (o / ocg) * icg;
                    v = w[((o * icg + ci) * kh + y) * kw + x];
                    if (!scale_.values.empty()) v *= scale_.at(o);
                }
                panel[step * b.width + j] = v;
            }
            ++step;
        });
    }
}

}  // namespace tessera::cpu
