// steps.hpp: compiled zaiu nodes. A step holds the zDNN descriptors of its operands (views of
// the stored sticks in the layout its zDNN call wants) and any scratch tensors; run() binds the
// partition's buffers and makes the zDNN calls.
#pragma once

#include <memory>
#include <vector>

#include "tessera/sdk/backend.hpp"
#include "zdnn_call.hpp"

namespace zaiu {

using buffers = std::vector<tessera::sdk::buffer*>;

class step {
  public:
    virtual ~step() = default;
    virtual void run(const buffers& b) = 0;
};

/// The pre-transformed shape, in `layout`, whose transformed form is exactly `t` (throws if
/// there is none: the query chose layouts that make one exist).
pre_shape view_shape(const zdnn_tensor_desc& t, zdnn_data_layouts layout);

/// One partition tensor seen through a zDNN view of its sticks.
class operand {
  public:
    operand() = default;
    operand(int id, const tessera::tensor_desc& stored, zdnn_data_layouts layout);

    zdnn_ztensor* in(const buffers& b) const { return bind(b, true); }
    zdnn_ztensor* out(const buffers& b) const { return bind(b, false); }
    const zdnn_tensor_desc& transformed() const { return view_->transformed(); }
    explicit operator bool() const { return view_ != nullptr; }
    /// Makes the view a quantised ztensor with this scale and offset (zero point).
    void quantize(float scale, float offset) { view_->quantize(scale, offset); }

  private:
    zdnn_ztensor* bind(const buffers& b, bool transformed) const;
    int id_ = -1;
    std::unique_ptr<zview> view_;
};

/// Scratch sticks owned by a step (intermediate results, constant zeros).
class scratch {
  public:
    scratch() = default;
    scratch(const pre_shape& shape, zdnn_data_types type)
        : view_(std::make_unique<zview>(shape, type)) {}
    /// Scratch holding transformed zeros.
    static scratch zeros(const pre_shape& shape);

    zdnn_ztensor* in() const { return view_->bind_scratch(true); }
    zdnn_ztensor* out() const { return view_->bind_scratch(false); }
    explicit operator bool() const { return view_ != nullptr; }

  private:
    std::unique_ptr<zview> view_;
};

/// A step for node `n` of a partition whose tensors are `tensors`.
std::unique_ptr<step> make_step(const tessera::sdk::node& n,
                                const std::vector<tessera::tensor_desc>& tensors);

// Per-family builders (steps_*.cpp); each returns null when the node is not of its family.
std::unique_ptr<step> make_elementwise_step(const tessera::sdk::node& n,
                                            const std::vector<tessera::tensor_desc>& t);
std::unique_ptr<step> make_matmul_step(const tessera::sdk::node& n,
                                       const std::vector<tessera::tensor_desc>& t);
std::unique_ptr<step> make_spatial_step(const tessera::sdk::node& n,
                                        const std::vector<tessera::tensor_desc>& t);
std::unique_ptr<step> make_statistics_step(const tessera::sdk::node& n,
                                           const std::vector<tessera::tensor_desc>& t);
std::unique_ptr<step> make_rnn_step(const tessera::sdk::node& n,
                                    const std::vector<tessera::tensor_desc>& t);
std::unique_ptr<step> make_quantized_step(const tessera::sdk::node& n,
                                          const std::vector<tessera::tensor_desc>& t);

}  // namespace zaiu
