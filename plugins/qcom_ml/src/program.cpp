// program.cpp: creation of a partition's CLML tensors and ops, recording, replay.
#include "program.hpp"

#include "layouts.hpp"
#include "tessera/error.hpp"
#include "tessera/sdk/plugin_api.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

cl_buffer& as_cl_buffer(sdk::buffer* b, std::size_t id) {
    auto* cb = dynamic_cast<cl_buffer*>(b);
    if (!cb)
        throw error(status::invalid_argument,
                    "partition tensor " + std::to_string(id) + " has no qcom-ml buffer");
    return *cb;
}

}  // namespace

partition_program::partition_program(std::shared_ptr<device_context> dev, const sdk::partition& p)
    : dev_(std::move(dev)), descs_(p.tensors) {
    const auto* api = clml_v1();
    for (const auto& d : descs_)
        tensors_.push_back(
            std::make_shared<const ml_tensor_handle>(create_tensor(dev_->context(), d)));
    const build_context ctx{dev_->context(), dev_->queue()};
    for (const auto& n : p.nodes) {
        node_tensors t;
        for (int id : n.inputs) {
            t.in_descs.push_back(descs_.at(static_cast<std::size_t>(id)));
            t.in.push_back(tensors_[static_cast<std::size_t>(id)]->get());
        }
        for (int id : n.outputs) {
            t.out_descs.push_back(descs_.at(static_cast<std::size_t>(id)));
            t.out.push_back(tensors_[static_cast<std::size_t>(id)]->get());
        }
        std::unique_ptr<built_op> built;
        try {
            if (!op_routes().states(n.op))
                throw op_declined(TSR_REASON_OP_KIND,
                                  std::string(n.op.name()) + " has no CLML V1 op");
            built = op_routes().build(n.op, ctx, t);
        } catch (const op_declined& e) {
            throw error(status::unsupported, e.what(), {backend_name, n.name, ""});
        }
        if (built->copy) {
            if (segments_.empty() || !segments_.back().ops.empty()) segments_.emplace_back();
            segments_.back().copies.push_back({n.inputs.at(0), n.outputs.at(0)});
            continue;
        }
        if (segments_.empty() || !segments_.back().copies.empty()) segments_.emplace_back();
        op_step s;
        s.op = std::move(*built);
        s.tensor_ids = n.inputs;
        s.tensor_ids.insert(s.tensor_ids.end(), n.outputs.begin(), n.outputs.end());
        s.outputs = n.outputs;
        segments_.back().ops.push_back(std::move(s));
    }
    std::vector<bool> produced(descs_.size(), false);
    for (const auto& n : p.nodes)
        for (int id : n.outputs) produced.at(static_cast<std::size_t>(id)) = true;
    // OPTIMAL sizes are known now; the host sized its buffers from query()'s answers.
    for (std::size_t i = 0; i < descs_.size(); ++i) {
        if (!is_optimal(descs_[i])) continue;
        cl_uint bytes = 0;
        const cl_int err =
            api->clGetMLTensorMemorySizeQCOM(dev_->context(), tensors_[i]->get(), &bytes);
        if (err != CL_SUCCESS)
            continue;  // not finalised by this partition (only copied): sized by its producer
        if (static_cast<std::int64_t>(bytes) > descs_[i].size_bytes()) {
            throw error(status::backend_failure, "OPTIMAL tensor " + std::to_string(i) + " needs " +
                                                     std::to_string(bytes) +
                                                     " bytes, the layout reported " +
                                                     std::to_string(descs_[i].size_bytes()));
        }
        if (!produced[i]) {
            cl_int mem_err = CL_SUCCESS;
            cl_mem staging =
                clCreateBuffer(dev_->context(), CL_MEM_READ_WRITE, bytes, nullptr, &mem_err);
            check_cl(mem_err, "clCreateBuffer (staging of a foreign OPTIMAL input)");
            foreign_inputs_.push_back({static_cast<int>(i), mem_handle(staging)});
        }
    }
    cl_ml_tensor_mem_desc_set_qcom set = nullptr;
    check_cl(api->clCreateMLTensorMemoryDescriptorSetQCOM(&set),
             "clCreateMLTensorMemoryDescriptorSetQCOM");
    set_ = desc_set_handle(set);
}

partition_program::~partition_program() = default;

std::vector<cl_mem> partition_program::memory_of(const op_step& s,
                                                 const std::vector<cl_mem>& mems) const {
    std::vector<cl_mem> out;
    for (const auto& [tensor, pos] : s.op.node_bindings)
        out.push_back(mems[static_cast<std::size_t>(s.tensor_ids[static_cast<std::size_t>(pos)])]);
    return out;
}

void partition_program::enqueue_direct(cl_command_queue q, const op_step& s,
                                       const std::vector<cl_mem>& mems) {
    std::vector<cl_ml_tensor_memory_desc_qcom> descs;
    const auto node_mems = memory_of(s, mems);
    for (std::size_t i = 0; i < node_mems.size(); ++i)
        descs.push_back({s.op.node_bindings[i].first, node_mems[i]});
    for (const auto& [tensor, mem] : s.op.internal_bindings) descs.push_back({tensor, mem});
    const auto* api = clml_v1();
    check_cl(api->clUpdateMLTensorMemoryDescriptorSetQCOM(
                 set_.get(), static_cast<uint32_t>(descs.size()), descs.data()),
             "clUpdateMLTensorMemoryDescriptorSetQCOM");
    check_cl(api->clEnqueueMLOpQCOM(q, s.op.op.get(), set_.get(), 0, nullptr, nullptr),
             "clEnqueueMLOpQCOM");
    if (s.op.then_op)
        check_cl(api->clEnqueueMLOpQCOM(q, s.op.then_op.get(), set_.get(), 0, nullptr, nullptr),
                 "clEnqueueMLOpQCOM (second op)");
}

void partition_program::record(segment& seg, const std::vector<cl_mem>& mems) {
    cl_int err = CL_SUCCESS;
    cl_recording_qcom rec = clNewRecordingQCOM(dev_->record_queue(), &err);
    if (err != CL_SUCCESS || !rec) {
        recording_supported_ = false;  // run op by op from now on
        sdk::log(TSR_LOG_WARN, backend_name,
                 "clNewRecordingQCOM failed (" + cl_error_name(err) + "); enqueuing ops directly");
        return;
    }
    seg.recording = recording_handle(rec);
    for (const auto& s : seg.ops) {
        enqueue_direct(dev_->record_queue(), s, mems);
        seg.recorded_memory.push_back(memory_of(s, mems));
    }
    check_cl(clEndRecordingQCOM(rec), "clEndRecordingQCOM");
    sdk::log(TSR_LOG_DEBUG, backend_name,
             "recorded " + std::to_string(seg.ops.size()) + " CLML ops");
}

void partition_program::replay(segment& seg, const std::vector<cl_mem>& mems) {
    // Per-dispatch memory updates for the ops whose buffers differ from the recorded ones. A node
    // with a second CLML op occupies two dispatch indices; the second names only its own tensors.
    // Both vectors are sized first: args point into updates.
    std::vector<std::vector<cl_ml_tensor_memory_desc_qcom>> updates;
    std::vector<cl_uint> dispatch_of;
    cl_uint dispatch = 0;
    for (std::size_t i = 0; i < seg.ops.size(); ++i) {
        const built_op& op = seg.ops[i].op;
        const auto now = memory_of(seg.ops[i], mems);
        const bool changed = now != seg.recorded_memory[i];
        if (changed) {
            auto& u = updates.emplace_back();
            for (std::size_t k = 0; k < now.size(); ++k)
                u.push_back({op.node_bindings[k].first, now[k]});
            dispatch_of.push_back(dispatch);
        }
        ++dispatch;
        if (!op.then_op) continue;
        if (changed) {
            auto& u = updates.emplace_back();
            for (std::size_t k = 0; k < now.size(); ++k)
                for (cl_ml_tensor_qcom t : op.then_tensors)
                    if (op.node_bindings[k].first == t) u.push_back({t, now[k]});
            dispatch_of.push_back(dispatch);
        }
        ++dispatch;
    }
    std::vector<cl_ml_op_array_arg_qcom> args;
    for (std::size_t k = 0; k < updates.size(); ++k)
        args.push_back(
            {dispatch_of[k], updates[k].data(), static_cast<cl_uint>(updates[k].size())});
    check_cl(clml_v1()->clEnqueueRecordingMLOpQCOM(
                 dev_->queue(), seg.recording.get(), 0, nullptr, args.size(),
                 args.empty() ? nullptr : args.data(), 0, nullptr, 0, nullptr, 0, nullptr, 0,
                 nullptr, 0, nullptr, 0, nullptr, nullptr),
             "clEnqueueRecordingMLOpQCOM");
    sdk::log(TSR_LOG_TRACE, backend_name,
             "replayed a recording of " + std::to_string(seg.ops.size()) + " ops, " +
                 std::to_string(args.size()) + " with new memory");
}

void partition_program::execute(const std::vector<sdk::buffer*>& buffers) {
    if (buffers.size() < descs_.size())
        throw error(status::invalid_argument, "execute got " + std::to_string(buffers.size()) +
                                                  " buffers for " + std::to_string(descs_.size()) +
                                                  " partition tensors");
    std::vector<cl_mem> mems;
    std::vector<cl_buffer*> bufs;
    for (std::size_t i = 0; i < descs_.size(); ++i) {
        cl_buffer& b = as_cl_buffer(buffers[i], i);
        if (b.size() < descs_[i].size_bytes())
            throw error(status::invalid_argument,
                        "buffer of partition tensor " + std::to_string(i) + " is too small");
        bufs.push_back(&b);
        mems.push_back(b.mem());
    }
    std::lock_guard<std::mutex> lock(dev_->queue_mutex());
    const auto* api = clml_v1();
    for (const auto& f : foreign_inputs_) {
        const auto id = static_cast<std::size_t>(f.id);
        const shared_tensor& src = bufs[id]->written_by();
        if (!src || src == tensors_[id]) continue;  // host-written, or laid out by this partition
        check_cl(api->clEnqueueCopyMLTensorDataQCOM(dev_->queue(), src->get(), mems[id],
                                                    tensors_[id]->get(), f.staging.get(), 0,
                                                    nullptr, nullptr),
                 "clEnqueueCopyMLTensorDataQCOM (foreign OPTIMAL input)");
        mems[id] = f.staging.get();
    }
    if (!recorded_) {
        for (auto& seg : segments_)
            if (!seg.ops.empty() && recording_supported_) record(seg, mems);
        recorded_ = recording_supported_;
    }
    for (auto& seg : segments_) {
        for (const auto& c : seg.copies) {
            // The source's layout is the one of the tensor that wrote it (its producer may be in
            // another partition).
            const shared_tensor& src = bufs[static_cast<std::size_t>(c.src)]->written_by()
                                           ? bufs[static_cast<std::size_t>(c.src)]->written_by()
                                           : tensors_[static_cast<std::size_t>(c.src)];
            check_cl(api->clEnqueueCopyMLTensorDataQCOM(
                         dev_->queue(), src->get(), mems[static_cast<std::size_t>(c.src)],
                         tensors_[static_cast<std::size_t>(c.dst)]->get(),
                         mems[static_cast<std::size_t>(c.dst)], 0, nullptr, nullptr),
                     "clEnqueueCopyMLTensorDataQCOM");
            bufs[static_cast<std::size_t>(c.dst)]->set_written_by(
                tensors_[static_cast<std::size_t>(c.dst)]);
        }
        if (seg.ops.empty()) continue;
        if (recorded_) {
            replay(seg, mems);
        } else {
            for (const auto& s : seg.ops) enqueue_direct(dev_->queue(), s, mems);
        }
        for (const auto& s : seg.ops)
            for (int id : s.outputs)
                bufs[static_cast<std::size_t>(id)]->set_written_by(
                    tensors_[static_cast<std::size_t>(id)]);
    }
    check_cl(clFinish(dev_->queue()), "clFinish");
}

}  // namespace tessera::plugins::qcom_ml
