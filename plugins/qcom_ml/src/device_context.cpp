// device_context.cpp: OpenCL device enumeration, context and queue creation.
#include "device_context.hpp"

#include "tessera/error.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

std::string platform_text(cl_platform_id p, cl_platform_info what) {
    size_t n = 0;
    if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
    std::string s(n, '\0');
    clGetPlatformInfo(p, what, n, s.data(), nullptr);
    s.resize(n - 1);
    return s;
}

std::string device_text(cl_device_id d, cl_device_info what) {
    size_t n = 0;
    if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
    std::string s(n, '\0');
    clGetDeviceInfo(d, what, n, s.data(), nullptr);
    s.resize(n - 1);
    return s;
}

bool has_extension(const std::string& list, const std::string& name) {
    std::size_t pos = 0;
    while ((pos = list.find(name, pos)) != std::string::npos) {
        const bool starts = pos == 0 || list[pos - 1] == ' ';
        const bool ends = pos + name.size() == list.size() || list[pos + name.size()] == ' ';
        if (starts && ends) return true;
        pos += name.size();
    }
    return false;
}

std::string kind_of(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "gpu";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "cpu";
}

}  // namespace

std::vector<device_entry> list_devices() {
    std::vector<device_entry> out;
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
    std::vector<cl_platform_id> platforms(np);
    if (clGetPlatformIDs(np, platforms.data(), nullptr) != CL_SUCCESS) return out;
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0)
            continue;
        std::vector<cl_device_id> devices(nd);
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr) != CL_SUCCESS)
            continue;
        for (cl_device_id d : devices) {
            device_entry e;
            e.platform = p;
            e.id = d;
            e.name = device_text(d, CL_DEVICE_NAME);
            cl_device_type type = 0;
            clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
            e.kind = kind_of(type);
            const std::string ext = device_text(d, CL_DEVICE_EXTENSIONS);
            e.has_fp16 = has_extension(ext, "cl_khr_fp16");
            e.has_recordable_queues = has_extension(ext, "cl_qcom_recordable_queues");
            const bool native_ml = has_extension(ext, "cl_qcom_ml_ops");
            e.details =
                "platform " + platform_text(p, CL_PLATFORM_NAME) + " (" +
                platform_text(p, CL_PLATFORM_VERSION) + "); driver " +
                device_text(d, CL_DRIVER_VERSION) + "; " + device_text(d, CL_DEVICE_VERSION) +
                "; cl_khr_fp16 " + (e.has_fp16 ? "yes" : "no (f16 stored, computed in f32)") +
                "; cl_qcom_ml_ops " +
                (native_ml ? "listed" : "not listed (open CLML over OpenCL)") +
                "; cl_qcom_recordable_queues " + (e.has_recordable_queues ? "listed" : "emulated");
            out.push_back(std::move(e));
        }
    }
    return out;
}

device_context::device_context(int index) {
    const auto devices = list_devices();
    if (devices.empty()) throw error(status::not_found, "no OpenCL device");
    if (index < 0 || index >= static_cast<int>(devices.size())) {
        throw error(status::not_found, "device=" + std::to_string(index) + ": there are " +
                                           std::to_string(devices.size()) + " OpenCL devices (0.." +
                                           std::to_string(devices.size() - 1) + ")");
    }
    device_ = devices[static_cast<std::size_t>(index)];
    cl_int err = CL_SUCCESS;
    const cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device_.platform), 0};
    context_ = context_handle(clCreateContext(props, 1, &device_.id, nullptr, nullptr, &err));
    check_cl(err, "clCreateContext");
    queue_ =
        queue_handle(clCreateCommandQueueWithProperties(context_.get(), device_.id, nullptr, &err));
    check_cl(err, "clCreateCommandQueueWithProperties");
    if (device_.has_recordable_queues) {
        const cl_queue_properties rec[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_RECORDABLE_QCOM, 0};
        record_queue_ =
            queue_handle(clCreateCommandQueueWithProperties(context_.get(), device_.id, rec, &err));
    } else {
        record_queue_ = queue_handle(
            clCreateCommandQueueWithProperties(context_.get(), device_.id, nullptr, &err));
    }
    check_cl(err, "clCreateCommandQueueWithProperties (recording queue)");
}

}  // namespace tessera::plugins::qcom_ml
