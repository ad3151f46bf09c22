// ops/reduce.cpp: sum and mean along one axis (ONNX ReduceMean/ReduceSum, e.g. a decomposed layer
// norm) on row-major f32 tensors: for each outer index, the reduced dim is summed in double
// with the dims after it as the contiguous inner loop. Other kinds and dtypes run on the
// reference kernel.
#include <algorithm>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice reduce_route(const op::reduce& r, const descs& in) {
    if (r.kind() != reduce_kind::sum && r.kind() != reduce_kind::mean)
        return {route::reference, TSR_REASON_OP_KIND, "reduce kind"};
    if (!all_f32(in)) return reference_because("non-f32 reduction");
    return native(route::native_plain);
}

class reduce_step final : public step {
  public:
    reduce_step(const node_view& v, const op::reduce& r)
        : src_(v.n.inputs[0]), dst_(v.n.outputs[0]), mean_(r.kind() == reduce_kind::mean) {
        const tensor_desc& src = v.in[0];
        const int axis = r.axis() < 0 ? r.axis() + src.rank() : r.axis();
        for (int d = 0; d < src.rank(); ++d)
            (d < axis ? outer_ : d == axis ? length_ : inner_) *= src.dim(d);
        sums_.resize(static_cast<std::size_t>(inner_));
    }

    void run(const buffers& b) override {
        const auto* x = static_cast<const float*>(b[static_cast<std::size_t>(src_)]->host_data());
        auto* y = static_cast<float*>(b[static_cast<std::size_t>(dst_)]->host_data());
        const double scale = mean_ ? 1.0 / static_cast<double>(length_) : 1.0;
        for (std::int64_t o = 0; o < outer_; ++o, y += inner_) {
            std::fill(sums_.begin(), sums_.end(), 0.0);
            for (std::int64_t k = 0; k < length_; ++k, x += inner_)
                for (std::int64_t i = 0; i < inner_; ++i)
                    sums_[static_cast<std::size_t>(i)] += x[i];
            for (std::int64_t i = 0; i < inner_; ++i)
                y[i] = static_cast<float>(sums_[static_cast<std::size_t>(i)] * scale);
        }
    }

  private:
    int src_, dst_;
    bool mean_;
    std::int64_t outer_ = 1, length_ = 1, inner_ = 1;
    std::vector<double> sums_;
};

}  // namespace

void state_reduce(router& r) {
    r.state<op::reduce>(
        [](const op::reduce& o, const query_view& v) {
            return answer(reduce_route(o, v.q.inputs), v.in, v.out);
        },
        [](const op::reduce& o, const build_context& b) {
            return routed_step(reduce_route(o, b.node.in), b,
                               [&] { return std::make_unique<reduce_step>(b.node, o); });
        });
}

}  // namespace tessera::plugins::cpu
