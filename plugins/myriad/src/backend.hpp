// backend.hpp: the "myriad" Tessera backend: Myriad-style custom layers (bindings XML plus OpenCL C
// kernels, backends/myriad) on any OpenCL device. Options: config=FILE[;FILE...] (bindings files,
// searched in order before the shipped standard layers, so they override them), device=N (index
// over all OpenCL devices of all platforms). Tensors are dense row-major OpenCL buffers on the
// runtime's device and stay there between the myriad ops of a partition.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dtype_converter.hpp"
#include "layer_request.hpp"
#include "myriad/runtime.h"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::myriad {

/// What the options say.
struct backend_options {
    std::vector<std::string> config_files;
    int device = 0;
};

/// Parses config=FILE[;FILE...] (given twice through the C API, the lists add up) and device=N;
/// throws invalid_argument.
backend_options parse_options(const sdk::options& options);

/// The directory of the shipped standard layers: MYRIAD_STANDARD_LAYERS, else
/// <prefix>/share/tessera/myriad/layers beside an installed plugin, else the runtime's default.
std::string standard_layers_directory();

class myriad_backend final : public sdk::backend {
  public:
    explicit myriad_backend(const sdk::options& options);

    std::vector<sdk::device> devices() const override;
    sdk::support query(const sdk::op_query& q) const override;
    std::unique_ptr<sdk::executable> compile(const sdk::partition& p) override;

    std::unique_ptr<sdk::buffer> allocate(std::int64_t bytes) override;
    std::unique_ptr<sdk::buffer> import(void* host, std::int64_t bytes,
                                        tsr_import_mode mode) override;
    void copy_to_host(sdk::buffer& src, const tensor_desc& src_desc, const tensor& dst) override;
    void copy_from_host(const tensor& src, sdk::buffer& dst, const tensor_desc& dst_desc) override;

    /// The answer for a node described as `r`: its tensors checked, then the layer created on the
    /// runtime (binding choice, kernels compiled); the text names the binding and the precision.
    sdk::support answer(const sdk::op_query& q, const layer_request& r) const;

    ::myriad::Runtime& runtime() const { return *runtime_; }
    dtype_converter& converter() const { return *converter_; }

  private:
    std::shared_ptr<::myriad::Runtime> runtime_;
    std::shared_ptr<dtype_converter> converter_;
};

}  // namespace tessera::plugins::myriad
