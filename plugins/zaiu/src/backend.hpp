// backend.hpp: the Tessera backend "zaiu": Tessera ops mapped onto the public zDNN API
// (zdnn.h), tensors kept in zDNN's transformed stick layouts between consecutive zaiu ops.
#pragma once

#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::zaiu {

class zaiu_backend final : public tessera::sdk::backend {
  public:
    explicit zaiu_backend(const tessera::sdk::options& opts);

    std::vector<tessera::sdk::device> devices() const override;
    tessera::sdk::support query(const tessera::sdk::op_query& q) const override;
    std::unique_ptr<tessera::sdk::executable> compile(const tessera::sdk::partition& p) override;

    std::unique_ptr<tessera::sdk::buffer> allocate(std::int64_t bytes) override;
    std::unique_ptr<tessera::sdk::buffer> import(void* host, std::int64_t bytes,
                                                 tsr_import_mode mode) override;
    void copy_to_host(tessera::sdk::buffer& src, const tessera::tensor_desc& src_desc,
                      const tessera::tensor& dst) override;
    void copy_from_host(const tessera::tensor& src, tessera::sdk::buffer& dst,
                        const tessera::tensor_desc& dst_desc) override;
};

}  // namespace tessera::plugins::zaiu
