// program.hpp: a compiled myriad partition: one Myriad layer per node, enqueued in order on the
// runtime's queue with the partition's device buffers, so tensors stay on the device between the
// partition's ops; one wait at the end. Where a tensor's element type differs from the type the
// layer's kernels declare (an f32 network, a half kernel), a device conversion runs before or
// after the layer. Every layer is created at compile; blob inputs (convolution weights) stay on
// the device: they are converted into the layer's blob on the device at the first run and again
// only when their buffer was written since (a constant: once), never read back to the host.
#pragma once

#include <memory>
#include <vector>

#include "device_buffer.hpp"
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

    /// For tests: the precision each node's layer runs in.
    std::vector<::myriad::Precision> precisions() const;

  private:
    struct step {
        std::string name;
        layer_request request;
        std::vector<tensor_desc> inputs, outputs;
        std::vector<int> input_ids;
        int output_id = 0;
        ::myriad::Layer layer;
        /// Per request blob: the generation of the buffer its values were taken from (0: none).
        std::vector<std::uint64_t> blob_generations;
        std::vector<cl::Buffer> input_scratch;  ///< per port, when a conversion is needed
        cl::Buffer output_scratch;
    };

    void run_step(step& s, const std::vector<device_buffer*>& buffers);

    std::shared_ptr<::myriad::Runtime> runtime_;
    std::shared_ptr<dtype_converter> converter_;
    std::vector<tensor_desc> descs_;
    std::vector<step> steps_;
};

}  // namespace tessera::plugins::myriad
