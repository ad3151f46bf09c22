// handles.hpp: RAII owners for OpenCL and CLML objects. Each owner releases its object through
// the matching release function (the CLML table's for CLML objects); move-only.
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <utility>

#include "clml_interface.hpp"

namespace tessera::plugins::qcom_ml {

/// Owns one handle of type T, released by Release::operator() when not null.
template <typename T, typename Release>
class unique_handle {
  public:
    unique_handle() = default;
    explicit unique_handle(T h) : h_(h) {}
    unique_handle(unique_handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    unique_handle& operator=(unique_handle&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    unique_handle(const unique_handle&) = delete;
    unique_handle& operator=(const unique_handle&) = delete;
    ~unique_handle() { reset(); }

    T get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }
    void reset() {
        if (h_) Release{}(h_);
        h_ = nullptr;
    }

  private:
    T h_ = nullptr;
};

struct release_context {
    void operator()(cl_context c) const { clReleaseContext(c); }
};
struct release_queue {
    void operator()(cl_command_queue q) const { clReleaseCommandQueue(q); }
};
struct release_mem {
    void operator()(cl_mem m) const { clReleaseMemObject(m); }
};
struct release_ml_tensor {
    void operator()(cl_ml_tensor_qcom t) const { clml_v1()->clReleaseMLTensorQCOM(t); }
};
struct release_ml_op {
    void operator()(cl_ml_op_qcom o) const { clml_v1()->clReleaseMLOpQCOM(o); }
};
struct release_desc_set {
    void operator()(cl_ml_tensor_mem_desc_set_qcom s) const {
        clml_v1()->clReleaseMLTensorMemoryDescriptorSetQCOM(s);
    }
};
struct release_recording {
    void operator()(cl_recording_qcom r) const { clReleaseRecordingQCOM(r); }
};

using context_handle = unique_handle<cl_context, release_context>;
using queue_handle = unique_handle<cl_command_queue, release_queue>;
using mem_handle = unique_handle<cl_mem, release_mem>;
using ml_tensor_handle = unique_handle<cl_ml_tensor_qcom, release_ml_tensor>;
using ml_op_handle = unique_handle<cl_ml_op_qcom, release_ml_op>;
using desc_set_handle = unique_handle<cl_ml_tensor_mem_desc_set_qcom, release_desc_set>;
using recording_handle = unique_handle<cl_recording_qcom, release_recording>;

}  // namespace tessera::plugins::qcom_ml
