// program.hpp: a compiled qcom-ml partition. compile() creates one CLML tensor per
// partition tensor (shared by its producer and consumers: OPTIMAL stays OPTIMAL between ops)
// and every CLML op once. The first execute() records each run of consecutive ops
// (clNewRecordingQCOM / clEnqueueMLOpQCOM / clEndRecordingQCOM) with the buffers it was given;
// every execute() then replays the recordings with clEnqueueRecordingMLOpQCOM, passing the
// buffers as per-dispatch tensor-memory updates when they differ from the recorded ones, and
// waits once (clFinish) at the end. Reorders (OPTIMAL -> NCHW) are CLML tensor copies between
// recordings. OPTIMAL inputs another partition produced are converted into this partition's
// layout first (the CLML library may lay two OPTIMAL tensors of one shape out differently).
#pragma once

#include <memory>
#include <vector>

#include "cl_buffer.hpp"
#include "device_context.hpp"
#include "ops/built_op.hpp"
#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::qcom_ml {

class partition_program final : public sdk::executable {
  public:
    partition_program(std::shared_ptr<device_context> dev, const sdk::partition& p);
    ~partition_program() override;

    void execute(const std::vector<sdk::buffer*>& buffers) override;

    /// For tests: how many recordings the partition uses, and whether replays use them.
    int recording_count() const { return static_cast<int>(segments_.size()); }
    bool recorded() const { return recorded_; }

  private:
    struct op_step {
        built_op op;
        std::vector<int>
            tensor_ids;            ///< partition tensor id of each node position (inputs, outputs)
        std::vector<int> outputs;  ///< partition ids the op writes
    };
    struct copy_step {
        int src = 0, dst = 0;
    };
    /// A run of ops replayed from one recording, or one copy.
    struct segment {
        std::vector<op_step> ops;
        std::vector<copy_step> copies;  ///< used when ops is empty
        recording_handle recording;
        std::vector<std::vector<cl_mem>> recorded_memory;  ///< per op, per node binding
    };

    std::vector<cl_mem> memory_of(const op_step& s, const std::vector<cl_mem>& mems) const;
    void enqueue_direct(cl_command_queue q, const op_step& s, const std::vector<cl_mem>& mems);
    void record(segment& seg, const std::vector<cl_mem>& mems);
    void replay(segment& seg, const std::vector<cl_mem>& mems);

    std::shared_ptr<device_context> dev_;
    std::vector<tensor_desc> descs_;
    std::vector<shared_tensor> tensors_;
    std::vector<segment> segments_;
    /// OPTIMAL inputs produced by another partition: this partition's ops laid out their own
    /// CLML tensor for them, which need not agree with the producer's layout, so each run copies
    /// (clEnqueueCopyMLTensorDataQCOM converts) into a staging buffer in this partition's layout.
    struct foreign_input {
        int id = 0;
        mem_handle staging;
    };
    std::vector<foreign_input> foreign_inputs_;
    desc_set_handle set_;
    bool recorded_ = false;
    bool recording_supported_ = true;
};

}  // namespace tessera::plugins::qcom_ml
