// backend.cpp: query (through the op router: probe creation, layout choice), compile, memory and
// host copies.
#include "backend.hpp"

#include "cl_buffer.hpp"
#include "layouts.hpp"
#include "ops/built_op.hpp"
#include "program.hpp"
#include "tessera/error.hpp"
#include "tessera/sdk/wide_dtypes.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

int parse_int(const std::string& key, const std::string& value) {
    try {
        std::size_t used = 0;
        const int v = std::stoi(value, &used);
        if (used == value.size() && v >= 0) return v;
    } catch (const std::exception&) {
    }
    throw error(status::invalid_argument,
                "qcom-ml option " + key + "=" + value + ": expected a non-negative integer");
}

cl_buffer& as_cl_buffer(sdk::buffer& b) {
    auto* cb = dynamic_cast<cl_buffer*>(&b);
    if (!cb) throw error(status::invalid_argument, "not a qcom-ml buffer");
    return *cb;
}

/// Whether `d` (rank 4) is dense NHWC with no offset.
bool is_nhwc(const tensor_desc& d) {
    if (d.rank() != 4 || !d.is_strided() || d.offset() != 0) return false;
    const auto n = d.dims();
    const std::int64_t want[4] = {n[1] * n[2] * n[3], 1, n[3] * n[1], n[1]};
    for (int i = 0; i < 4; ++i)
        if (n[i] != 1 && d.stride(i) != want[i]) return false;
    return true;
}

/// Declines tensors CLML ops cannot take: a dtype other than f32/f16, mixed dtypes, shapes
/// without a CLML form; throws op_declined.
void check_tensors(const std::vector<tensor_desc>& inputs,
                   const std::vector<tensor_desc>& outputs) {
    dtype common = dtype::undef;
    auto check_tensor = [&](const tensor_desc& d, const char* role, std::size_t i) {
        if (!channel_type(d.type())) {
            throw op_declined(TSR_REASON_DTYPE, std::string(role) + " " + std::to_string(i) +
                                                    " is " + std::string(to_string(d.type())) +
                                                    ": CLML ops here take f32 or f16");
        }
        if (common == dtype::undef) common = d.type();
        if (d.type() != common)
            throw op_declined(TSR_REASON_DTYPE, "CLML ops need one storage type for all tensors");
        std::string why;
        if (!map_shape(d, &why))
            throw op_declined(TSR_REASON_SHAPE,
                              std::string(role) + " " + std::to_string(i) + ": " + why);
    };
    for (std::size_t i = 0; i < inputs.size(); ++i) check_tensor(inputs[i], "input", i);
    for (std::size_t i = 0; i < outputs.size(); ++i) check_tensor(outputs[i], "output", i);
}

}  // namespace

int device_index_from(const sdk::options& options) {
    int device = 0, platform = -1;
    for (const auto& [k, v] : options) {
        if (k == "device")
            device = parse_int(k, v);
        else if (k == "platform")
            platform = parse_int(k, v);
        else
            throw error(status::invalid_argument,
                        "qcom-ml: unknown option '" + k + "' (options: device=N, platform=N)");
    }
    if (platform < 0) return device;
    const auto all = list_devices();
    std::vector<cl_platform_id> platforms;
    for (const auto& d : all)
        if (platforms.empty() || platforms.back() != d.platform) platforms.push_back(d.platform);
    if (platform >= static_cast<int>(platforms.size()))
        throw error(status::not_found, "qcom-ml: platform=" + std::to_string(platform) + ", but " +
                                           std::to_string(platforms.size()) +
                                           " platforms have devices");
    int index = 0, within = 0;
    for (const auto& d : all) {
        if (d.platform == platforms[static_cast<std::size_t>(platform)] && within++ == device)
            return index;
        ++index;
    }
    throw error(status::not_found, "qcom-ml: platform " + std::to_string(platform) +
                                       " has no device " + std::to_string(device));
}

qcom_ml_backend::qcom_ml_backend(const sdk::options& options)
    : dev_(std::make_shared<device_context>(device_index_from(options))) {}

std::vector<sdk::device> qcom_ml_backend::devices() const {
    // The chosen device first (the host ranks backends by their first device), then the others.
    std::vector<sdk::device> out{
        {dev_->device().name, dev_->device().kind, "selected; " + dev_->device().details}};
    for (const auto& d : list_devices())
        if (d.id != dev_->device().id) out.push_back({d.name, d.kind, d.details});
    return out;
}

std::vector<tensor_desc> qcom_ml_backend::probe(const sdk::op_query& q,
                                                const std::vector<tensor_desc>& inputs,
                                                bool optimal_outputs) const {
    node_tensors t;
    std::vector<ml_tensor_handle> owned;
    std::vector<tensor_desc> outputs;
    for (const auto& d : inputs) {
        owned.push_back(create_tensor(dev_->context(), d));
        t.in_descs.push_back(d);
        t.in.push_back(owned.back().get());
    }
    for (const auto& d : q.outputs) {
        const tensor_desc concrete = row_major(d);
        owned.push_back(create_tensor(
            dev_->context(), concrete,
            optimal_outputs ? CL_TENSOR_LAYOUT_OPTIMAL_QCOM : CL_TENSOR_LAYOUT_NCHW_QCOM));
        t.out_descs.push_back(optimal_outputs ? as_optimal(concrete, 0) : concrete);
        t.out.push_back(owned.back().get());
    }
    std::unique_ptr<built_op> op =
        op_routes().build(q.op, build_context{dev_->context(), nullptr}, t);
    for (std::size_t i = 0; i < q.outputs.size(); ++i) {
        if (!optimal_outputs) {
            outputs.push_back(t.out_descs[i]);
            continue;
        }
        cl_uint bytes = 0;
        check_cl(clml_v1()->clGetMLTensorMemorySizeQCOM(dev_->context(), t.out[i], &bytes),
                 "clGetMLTensorMemorySizeQCOM");
        outputs.push_back(as_optimal(row_major(q.outputs[i]), bytes));
    }
    op->then_op.reset();  // the ops before their tensors
    op->op.reset();
    return outputs;
}

sdk::support qcom_ml_backend::query(const sdk::op_query& q) const {
    if (auto wide = sdk::decline_wide_dtypes(q, backend_name)) return *wide;  // CLML has no i64/f64
    return op_routes().query(q.op, q, *this);
}

sdk::support qcom_ml_backend::answer_by_probing(const sdk::op_query& q) const {
    try {
        check_tensors(q.inputs, q.outputs);
        // First choice: keep OPTIMAL inputs from qcom-ml producers, OPTIMAL outputs. If CLML
        // refuses OPTIMAL for this op (gemm, transpose read plain matrices), everything NCHW.
        std::vector<tensor_desc> inputs;
        for (const auto& d : q.inputs) inputs.push_back(is_optimal(d) ? d : row_major(d));
        std::string first_error;
        try {
            sdk::support s = sdk::support::native();
            s.outputs = probe(q, inputs, true);
            s.inputs = inputs;
            return s;
        } catch (const error& e) {
            first_error = e.message();
        }
        std::vector<tensor_desc> plain;
        for (const auto& d : q.inputs) plain.push_back(row_major(d));
        try {
            sdk::support s = sdk::support::native();
            s.outputs = probe(q, plain, false);
            s.inputs = plain;
            return s;
        } catch (const error& e) {
            return sdk::support::declined(
                TSR_REASON_ATTRIBUTE,
                "CLML refused the op: " + first_error + " (OPTIMAL), " + e.message() + " (NCHW)");
        }
    } catch (const op_declined& e) {
        return sdk::support::declined(e.reason, e.what());
    }
}

std::unique_ptr<sdk::executable> qcom_ml_backend::compile(const sdk::partition& p) {
    std::lock_guard<std::mutex> lock(dev_->queue_mutex());
    return std::make_unique<partition_program>(dev_, p);
}

std::unique_ptr<sdk::buffer> qcom_ml_backend::allocate(std::int64_t bytes) {
    cl_int err = CL_SUCCESS;
    mem_handle mem(clCreateBuffer(dev_->context(), CL_MEM_READ_WRITE,
                                  static_cast<size_t>(std::max<std::int64_t>(bytes, 4)), nullptr,
                                  &err));
    check_cl(err, "clCreateBuffer");
    return std::make_unique<cl_buffer>(std::move(mem), bytes);
}

std::unique_ptr<sdk::buffer> qcom_ml_backend::import(void* host, std::int64_t bytes,
                                                     tsr_import_mode mode) {
    if (mode != TSR_IMPORT_COPY)
        throw error(status::unsupported,
                    "qcom-ml buffers are OpenCL device memory: zero-copy import is not supported; "
                    "use copy mode");
    auto b = allocate(bytes);
    if (bytes > 0) {
        std::lock_guard<std::mutex> lock(dev_->queue_mutex());
        check_cl(clEnqueueWriteBuffer(dev_->queue(), as_cl_buffer(*b).mem(), CL_TRUE, 0,
                                      static_cast<size_t>(bytes), host, 0, nullptr, nullptr),
                 "clEnqueueWriteBuffer");
    }
    return b;
}

void qcom_ml_backend::copy_to_host(sdk::buffer& src, const tensor_desc& src_desc,
                                   const tensor& dst) {
    cl_buffer& b = as_cl_buffer(src);
    if (src_desc.size_bytes() > b.size())
        throw error(status::invalid_argument,
                    "tensor " + src_desc.to_string() + " exceeds its buffer");
    std::lock_guard<std::mutex> lock(dev_->queue_mutex());
    if (is_optimal(src_desc)) {
        const shared_tensor& t = b.written_by();
        if (!t)
            throw error(status::invalid_argument,
                        "OPTIMAL buffer was never written by a qcom-ml op: its layout is unknown");
        const bool same_type = dst.type() == src_desc.type();
        const bool direct_nchw = same_type && dst.desc().is_row_major();
        const bool direct_nhwc = same_type && !direct_nchw && is_nhwc(dst.desc());
        tensor staging;
        if (!direct_nchw && !direct_nhwc) staging = tensor(row_major(src_desc));
        void* host = staging.empty() ? dst.data() : staging.data();
        check_cl(clml_v1()->clEnqueueReadMLTensorDataQCOM(
                     dev_->queue(), t->get(), b.mem(), host,
                     direct_nhwc ? CL_TENSOR_LAYOUT_NHWC_QCOM : CL_TENSOR_LAYOUT_NCHW_QCOM, 0,
                     nullptr, nullptr),
                 "clEnqueueReadMLTensorDataQCOM");
        check_cl(clFinish(dev_->queue()), "clFinish");
        if (!staging.empty()) tensor::copy_elements(staging, dst);
        return;
    }
    if (!src_desc.is_strided())
        throw error(status::unsupported, "qcom-ml cannot read layout " + src_desc.to_string());
    const std::int64_t bytes = src_desc.size_bytes();
    const bool direct = dst.desc() == src_desc;
    tensor staging;
    if (!direct) staging = tensor(src_desc);
    void* host = direct ? dst.base() : staging.base();
    if (bytes > 0)
        check_cl(clEnqueueReadBuffer(dev_->queue(), b.mem(), CL_TRUE, 0, static_cast<size_t>(bytes),
                                     host, 0, nullptr, nullptr),
                 "clEnqueueReadBuffer");
    if (!direct) tensor::copy_elements(staging, dst);
}

void qcom_ml_backend::copy_from_host(const tensor& src, sdk::buffer& dst,
                                     const tensor_desc& dst_desc) {
    cl_buffer& b = as_cl_buffer(dst);
    if (dst_desc.size_bytes() > b.size())
        throw error(status::invalid_argument,
                    "tensor " + dst_desc.to_string() + " exceeds its buffer");
    std::lock_guard<std::mutex> lock(dev_->queue_mutex());
    if (is_optimal(dst_desc)) {
        // OPTIMAL memory is laid out by the tensor of the op that finalised it; only a buffer an
        // op has written carries that tensor.
        const shared_tensor& t = b.written_by();
        if (!t)
            throw error(
                status::unsupported,
                "qcom-ml cannot write an OPTIMAL tensor no op has laid out; give it as row-major");
        tensor staging(row_major(dst_desc));
        tensor::copy_elements(src, staging);
        check_cl(clml_v1()->clEnqueueWriteMLTensorDataQCOM(dev_->queue(), staging.data(),
                                                           CL_TENSOR_LAYOUT_NCHW_QCOM, t->get(),
                                                           b.mem(), 0, nullptr, nullptr),
                 "clEnqueueWriteMLTensorDataQCOM");
        check_cl(clFinish(dev_->queue()), "clFinish");
        return;
    }
    if (!dst_desc.is_strided())
        throw error(status::unsupported, "qcom-ml cannot write layout " + dst_desc.to_string());
    const std::int64_t bytes = dst_desc.size_bytes();
    const bool direct = src.desc() == dst_desc;
    tensor staging;
    if (!direct) {
        staging = tensor(dst_desc);
        tensor::copy_elements(src, staging);
    }
    const void* host = direct ? src.base() : staging.base();
    if (bytes > 0)
        check_cl(clEnqueueWriteBuffer(dev_->queue(), b.mem(), CL_TRUE, 0,
                                      static_cast<size_t>(bytes), host, 0, nullptr, nullptr),
                 "clEnqueueWriteBuffer");
    b.set_written_by(nullptr);
}

}  // namespace tessera::plugins::qcom_ml
