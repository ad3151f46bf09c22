// program.hpp: a compiled zaiu partition and its parts. A step holds the zDNN descriptors of its
// operands (views of the stored sticks in the layout its zDNN call wants) and any scratch
// tensors; run() binds the partition's buffers and makes the zDNN calls. The router maps each op
// type to its query rule and step builder (stated in ops/*.cpp).
#pragma once

#include <memory>
#include <vector>

#include "tessera/sdk/backend.hpp"
#include "tessera/sdk/op_router.hpp"
#include "zdnn_call.hpp"

namespace tessera::plugins::zaiu {

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

/// The zaiu router: a query rule gets the query, a build rule the node and the partition's
/// tensor descriptors.
using router =
    tessera::sdk::op_router<tessera::sdk::support(const tessera::sdk::op_query& q),
                            std::unique_ptr<step>(const tessera::sdk::node& n,
                                                  const std::vector<tessera::tensor_desc>& t)>;

/// The router with every op of ops/*.cpp stated; unstated ops are declined.
const router& op_routes();

/// A compiled partition: its steps in order.
class program final : public tessera::sdk::executable {
  public:
    explicit program(const tessera::sdk::partition& p);
    void execute(const std::vector<tessera::sdk::buffer*>& b) override;

  private:
    std::vector<tessera::tensor_desc> tensors_;
    std::vector<std::unique_ptr<step>> steps_;
};

}  // namespace tessera::plugins::zaiu
