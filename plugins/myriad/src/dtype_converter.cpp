// dtype_converter.cpp: the conversion kernels, generated per type pair and built once.
#include "dtype_converter.hpp"

#include <string>

#include "layouts.hpp"
#include "tessera/error.hpp"

namespace tessera::plugins::myriad {

namespace {

using ::myriad::DType;

const char* cl_type(DType t) {
    switch (t) {
        case DType::f32:
            return "float";
        case DType::f16:
            return "half";
        case DType::i8:
            return "char";
        case DType::u8:
            return "uchar";
        case DType::i16:
            return "short";
        case DType::u16:
            return "ushort";
        case DType::i32:
            return "int";
        case DType::u32:
            return "uint";
    }
    return "float";
}

bool is_float(DType t) {
    return t == DType::f32 || t == DType::f16;
}

std::string source_for(DType from, DType to) {
    std::string load = from == DType::f16 ? "vload_half(i, src)" : "src[i]";
    std::string body;
    if (to == DType::f16) {
        body = "vstore_half_rte(convert_float(" + load + "), i, dst);";
    } else if (to == DType::f32) {
        body = "dst[i] = convert_float(" + load + ");";
    } else if (is_float(from)) {
        body = std::string("dst[i] = convert_") + cl_type(to) + "_sat_rte(convert_float(" + load +
               "));";
    } else {
        body = std::string("dst[i] = convert_") + cl_type(to) + "_sat(" + load + ");";
    }
    return std::string("__kernel void tessera_convert(__global const ") + cl_type(from) +
           "* src, __global " + cl_type(to) + "* dst) {\n  const size_t i = get_global_id(0);\n  " +
           body + "\n}\n";
}

}  // namespace

cl::Kernel dtype_converter::kernel(DType from, DType to) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::make_pair(from, to);
    const auto found = kernels_.find(key);
    if (found != kernels_.end()) return found->second;
    const std::string source = source_for(from, to);
    cl::Program program(runtime_.context(), source);
    try {
        program.build(std::vector<cl::Device>{runtime_.device()});
    } catch (const cl::Error&) {
        throw error(status::backend_failure,
                    std::string("cannot build the ") + ::myriad::to_string(from) + " to " +
                        ::myriad::to_string(to) + " conversion: " +
                        program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(runtime_.device()),
                    {backend_name, "", ""});
    }
    cl::Kernel k(program, "tessera_convert");
    kernels_.emplace(key, k);
    return k;
}

void dtype_converter::enqueue(const cl::Buffer& src, DType from, const cl::Buffer& dst, DType to,
                              std::size_t count) {
    if (count == 0) return;
    cl::Kernel k = kernel(from, to);
    k.setArg(0, src);
    k.setArg(1, dst);
    runtime_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(count), cl::NullRange);
}

}  // namespace tessera::plugins::myriad
