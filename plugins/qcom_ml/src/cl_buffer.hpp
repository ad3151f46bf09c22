// cl_buffer.hpp: backend memory of the qcom-ml plugin: one OpenCL buffer (cl_mem, owned), not
// host-addressable. An OPTIMAL tensor's bytes can only be read through the CLML tensor that
// laid them out, so the buffer remembers the tensor of the op that last wrote it.
#pragma once

#include <memory>

#include "handles.hpp"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::qcom_ml {

/// A CLML tensor shared by an executable and the buffers its ops wrote.
using shared_tensor = std::shared_ptr<const ml_tensor_handle>;

class cl_buffer final : public sdk::buffer {
  public:
    cl_buffer(mem_handle mem, std::int64_t bytes) : mem_(std::move(mem)), size_(bytes) {}

    std::int64_t size() const override { return size_; }
    cl_mem mem() const { return mem_.get(); }

    /// The CLML tensor describing the current contents (null until an op wrote the buffer).
    const shared_tensor& written_by() const { return written_by_; }
    void set_written_by(shared_tensor t) { written_by_ = std::move(t); }

  private:
    mem_handle mem_;
    std::int64_t size_ = 0;
    shared_tensor written_by_;
};

}  // namespace tessera::plugins::qcom_ml
