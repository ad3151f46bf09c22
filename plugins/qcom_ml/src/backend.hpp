// backend.hpp: the "qcom-ml" Tessera backend: capability queries answered by probing the
// CLML library (creating the op on tensors without memory), partitions compiled into recorded
// CLML op sequences, OpenCL buffers, and host copies through CLML tensor reads and writes.
// Options: device=N (index over all OpenCL devices of all platforms), platform=P with device=N
// counting within platform P.
#pragma once

#include <memory>

#include "device_context.hpp"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::qcom_ml {

class qcom_ml_backend final : public sdk::backend {
  public:
    explicit qcom_ml_backend(const sdk::options& options);

    std::vector<sdk::device> devices() const override;
    sdk::support query(const sdk::op_query& q) const override;
    std::unique_ptr<sdk::executable> compile(const sdk::partition& p) override;

    std::unique_ptr<sdk::buffer> allocate(std::int64_t bytes) override;
    std::unique_ptr<sdk::buffer> import(void* host, std::int64_t bytes,
                                        tsr_import_mode mode) override;
    void copy_to_host(sdk::buffer& src, const tensor_desc& src_desc, const tensor& dst) override;
    void copy_from_host(const tensor& src, sdk::buffer& dst, const tensor_desc& dst_desc) override;

    /// The answer for an op CLML may build: the tensors checked (dtypes, shapes), then the op
    /// created on memory-less tensors with OPTIMAL outputs, else with everything NCHW.
    sdk::support answer_by_probing(const sdk::op_query& q) const;

  private:
    /// Creates the op on memory-less tensors; returns the output descriptors (OPTIMAL with the
    /// reported sizes where `optimal` says so). Throws op_declined or tessera::error.
    std::vector<tensor_desc> probe(const sdk::op_query& q, const std::vector<tensor_desc>& inputs,
                                   bool optimal_outputs) const;

    std::shared_ptr<device_context> dev_;
};

/// Index over all devices for the options device=N and platform=P.
int device_index_from(const sdk::options& options);

}  // namespace tessera::plugins::qcom_ml
