// program.cpp: building a partition's layers and running them on the device.
#include "program.hpp"

#include <algorithm>

#include "device_buffer.hpp"
#include "layouts.hpp"
#include "ops/ops.hpp"
#include "tessera/error.hpp"
#include "tessera/tensor.hpp"

namespace tessera::plugins::myriad {

namespace {

::myriad::DType dtype_or_throw(const tensor_desc& d, const std::string& node) {
    const auto t = kernel_dtype(d.type());
    if (!t)
        throw error(status::unsupported, "tensor type " + std::string(to_string(d.type())),
                    {backend_name, node, ""});
    return *t;
}

}  // namespace

partition_program::partition_program(std::shared_ptr<::myriad::Runtime> runtime,
                                     std::shared_ptr<dtype_converter> converter,
                                     const sdk::partition& p)
    : runtime_(std::move(runtime)), converter_(std::move(converter)), descs_(p.tensors) {
    for (const sdk::node& n : p.nodes) {
        step s;
        s.name = n.name.empty() ? std::string(n.op.name()) : n.name;
        for (int id : n.inputs) s.inputs.push_back(descs_.at(static_cast<std::size_t>(id)));
        for (int id : n.outputs) s.outputs.push_back(descs_.at(static_cast<std::size_t>(id)));
        if (!op_routes().states(n.op) || n.outputs.size() != 1)
            throw error(status::unsupported,
                        std::string(n.op.name()) + " has no Myriad custom layer form",
                        {backend_name, s.name, ""});
        for (const auto& d : s.inputs)
            if (!is_dense_row_major(d))
                throw error(
                    status::unsupported,
                    "input layout " + d.to_string() + " (myriad tensors are dense row-major)",
                    {backend_name, s.name, ""});
        if (!is_dense_row_major(s.outputs[0]))
            throw error(status::unsupported, "output layout " + s.outputs[0].to_string(),
                        {backend_name, s.name, ""});
        try {
            s.request = *op_routes().build(n.op, s.inputs, s.outputs);
        } catch (const op_declined& e) {
            throw error(status::unsupported, e.what(), {backend_name, s.name, ""});
        }
        s.input_ids = n.inputs;
        s.output_id = n.outputs[0];
        // Blobs start as zeros; each run's first use writes their values on the device.
        s.layer = runtime_->create_layer(make_spec(s.request, s.inputs, s.outputs));
        s.blob_generations.assign(s.request.blobs.size(), 0);
        s.input_scratch.resize(s.request.ports.size());
        steps_.push_back(std::move(s));
    }
}

partition_program::~partition_program() = default;

std::vector<::myriad::Precision> partition_program::precisions() const {
    std::vector<::myriad::Precision> out;
    for (const step& s : steps_) out.push_back(s.layer.precision());
    return out;
}

void partition_program::run_step(step& s, const std::vector<device_buffer*>& buffers) {
    const layer_request& r = s.request;
    for (std::size_t i = 0; i < r.blobs.size(); ++i) {
        const auto input = static_cast<std::size_t>(r.blobs[i].first);
        device_buffer& b = *buffers[static_cast<std::size_t>(s.input_ids.at(input))];
        if (b.generation() == s.blob_generations[i]) continue;  // unchanged since last written
        const tensor_desc& d = s.inputs.at(input);
        s.layer.write_blob(r.blobs[i].second,
                           ::myriad::DeviceTensor{b.mem(), *layer_shape(d), ::myriad::Layout::BFYX,
                                                  dtype_or_throw(d, s.name)});
        s.blob_generations[i] = b.generation();
    }
    std::vector<::myriad::DeviceTensor> inputs;
    for (std::size_t port = 0; port < r.ports.size(); ++port) {
        const auto input = static_cast<std::size_t>(r.ports[port]);
        const tensor_desc& d = s.inputs[input];
        const ::myriad::DType have = dtype_or_throw(d, s.name);
        const ::myriad::DType want = s.layer.input_dtype(static_cast<int>(port));
        const auto count = static_cast<std::size_t>(d.num_elements());
        ::myriad::DeviceTensor t{buffers[static_cast<std::size_t>(s.input_ids[input])]->mem(),
                                 port_shape(r, port, d), ::myriad::Layout::BFYX, have};
        if (have != want) {
            cl::Buffer& scratch = s.input_scratch[port];
            if (scratch.get() == nullptr)
                scratch = cl::Buffer(runtime_->context(), CL_MEM_READ_WRITE,
                                     std::max<std::size_t>(count * ::myriad::size_of(want), 4));
            converter_->enqueue(t.buffer, have, scratch, want, count);
            t.buffer = scratch;
            t.dtype = want;
        }
        inputs.push_back(std::move(t));
    }
    const tensor_desc& od = s.outputs[0];
    const ::myriad::DType have = dtype_or_throw(od, s.name);
    const ::myriad::DType made = s.layer.output_dtype();
    const auto count = static_cast<std::size_t>(od.num_elements());
    const cl::Buffer& out_mem = buffers[static_cast<std::size_t>(s.output_id)]->mem();
    ::myriad::DeviceTensor out{out_mem, output_shape(r, od), ::myriad::Layout::BFYX, have};
    if (have != made) {
        if (s.output_scratch.get() == nullptr)
            s.output_scratch =
                cl::Buffer(runtime_->context(), CL_MEM_READ_WRITE,
                           std::max<std::size_t>(count * ::myriad::size_of(made), 4));
        out.buffer = s.output_scratch;
        out.dtype = made;
    }
    s.layer.enqueue(inputs, out);
    if (have != made) converter_->enqueue(s.output_scratch, made, out_mem, have, count);
    buffers[static_cast<std::size_t>(s.output_id)]->mark_written();
}

void partition_program::execute(const std::vector<sdk::buffer*>& buffers) {
    if (buffers.size() < descs_.size())
        throw error(status::invalid_argument,
                    "execute got " + std::to_string(buffers.size()) + " buffers for " +
                        std::to_string(descs_.size()) + " partition tensors",
                    {backend_name, "", ""});
    std::vector<device_buffer*> device_buffers;
    for (std::size_t i = 0; i < descs_.size(); ++i) {
        auto* b = dynamic_cast<device_buffer*>(buffers[i]);
        if (!b || b->size() < descs_[i].size_bytes())
            throw error(
                status::invalid_argument,
                "partition tensor " + std::to_string(i) + " has no myriad buffer of its size",
                {backend_name, "", std::to_string(i)});
        device_buffers.push_back(b);
    }
    try {
        for (step& s : steps_) run_step(s, device_buffers);
        runtime_->queue().finish();
    } catch (const cl::Error& e) {
        throw error(status::backend_failure,
                    std::string(e.what()) + " failed with OpenCL error " + std::to_string(e.err()),
                    {backend_name, "", ""});
    }
}

}  // namespace tessera::plugins::myriad
