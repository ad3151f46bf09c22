// program.hpp: a compiled myriad partition: one Myriad layer per node, enqueued in order on the
// runtime's queue with the partition's device buffers, so tensors stay on the device between the
// partition's ops; one wait at the end. Where a tensor's element type differs from the type the
// layer's kernels declare (an f32 network, a half kernel), a device conversion runs before or
// after the layer. Blob inputs (convolution weights) are read back once per run and the layer is
// re-created when their values changed (its kernels are compiled once: the runtime caches them).
#pragma once

#include <memory>
#include <vector>

#include "dtype_converter.hpp"
#include "layer_request.hpp"
#include "myriad/runtime.h"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::myriad {

class partition_program final : public sdk::executable {
  public:
    partition_program(std::shared_ptr<::myriad::Runtime> runtime,
                      std::shared_ptr<dtype_converter> converter, const sdk::partition& p);
    ~partition_program() override;

    void execute(const std::vector<sdk::buffer*>& buffers) override;

    /// For tests: the precision each node's layer ran in (after the first execute).
    std::vector<::myriad::Precision> precisions() const;

  private:
    struct step {
        std::string name;
        layer_request request;
        std::vector<tensor_desc> inputs, outputs;
        std::vector<int> input_ids;
        int output_id = 0;
        ::myriad::Layer layer;
        bool created = false;
        std::vector<std::vector<float>> blob_values;  ///< values the layer was created with
        std::vector<cl::Buffer> input_scratch;        ///< per port, when a conversion is needed
        cl::Buffer output_scratch;
    };

    void run_step(step& s, const std::vector<cl::Buffer>& mems);
    std::vector<float> read_values(const cl::Buffer& mem, const tensor_desc& d);

    std::shared_ptr<::myriad::Runtime> runtime_;
    std::shared_ptr<dtype_converter> converter_;
    std::vector<tensor_desc> descs_;
    std::vector<step> steps_;
};

}  // namespace tessera::plugins::myriad
