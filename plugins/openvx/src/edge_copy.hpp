// edge_copy.hpp: copies of a whole partition tensor between a host buffer and its OpenVX tensor
// (vxCopyTensorPatch), converting f32 to and from Q7.8 (round to nearest even, saturate) under
// precision=q7.8.
#pragma once

#include <cstdint>
#include <vector>

#include "layouts.hpp"
#include "vx_handles.hpp"

namespace tessera::plugins::openvx {

class edge_copy {
  public:
    edge_copy(vx_context ctx, const tensor_desc& d, vx_format f);
    /// Host buffer -> OpenVX tensor (f32 quantised to Q7.8 when the tensor holds f32).
    void in(vx_tensor t, tessera::sdk::buffer& b);
    /// OpenVX tensor -> host buffer (Q7.8 widened to f32 when the tensor holds f32).
    void out(vx_tensor t, tessera::sdk::buffer& b);

  private:
    void* host_of(tessera::sdk::buffer& b) const;

    tensor_desc desc_;
    vx_format f_;
    std::size_t elements_ = 0;
    vx_owned<vx_tensor_addressing> addr_;
    std::vector<std::int16_t> staging_;
};

}  // namespace tessera::plugins::openvx
