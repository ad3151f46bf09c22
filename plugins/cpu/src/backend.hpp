// backend.hpp: the "cpu" Tessera backend: routes ops onto the ACL-style runtime of backends/cpu
// (or its own reference kernels), keeps activations in nchw16c between its ops, converts at the
// edges.
#pragma once

#include <memory>

#include <tessera/cpu/context.hpp>
#include <tessera/sdk/backend.hpp>

namespace tessera::plugins::cpu {

class cpu_backend final : public sdk::backend {
  public:
    /// Options: threads=N (default: all cores), isa=avx512|avx2|sse2|neon.
    explicit cpu_backend(const sdk::options& options);

    std::vector<sdk::device> devices() const override;
    sdk::support query(const sdk::op_query& q) const override;
    std::unique_ptr<sdk::executable> compile(const sdk::partition& p) override;
    void copy_to_host(sdk::buffer& src, const tensor_desc& src_desc, const tensor& dst) override;
    void copy_from_host(const tensor& src, sdk::buffer& dst, const tensor_desc& dst_desc) override;

  private:
    std::unique_ptr<::tessera::cpu::Context> context_;
};

}  // namespace tessera::plugins::cpu
