// backend.hpp: the Tessera backend "openvx": graph partitions mapped onto vx_graphs of the OpenVX
// Neural Network extension (backends/openvx, libopenvx.so.1) for i16 fixed-point (Q7.8) and
// i8/u8 tensors; with the option precision=q7.8 also f32 graphs, quantised to Q7.8 at the
// partition edges.
#pragma once

#include "layouts.hpp"
#include "program.hpp"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::openvx {

/// The precision an options list asks for (throws status::invalid_argument naming an unknown
/// option or value).
precision precision_from(const tessera::sdk::options& opts);

class openvx_backend final : public tessera::sdk::backend {
  public:
    explicit openvx_backend(const tessera::sdk::options& opts);

    std::vector<tessera::sdk::device> devices() const override;
    tessera::sdk::support query(const tessera::sdk::op_query& q) const override;
    std::unique_ptr<tessera::sdk::executable> compile(const tessera::sdk::partition& p) override;

  private:
    precision precision_;
    shared_context context_;
};

}  // namespace tessera::plugins::openvx
