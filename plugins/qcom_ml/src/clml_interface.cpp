// clml_interface.cpp: finds the newest CLML V1 and V2 interfaces and names OpenCL/CLML error
// codes.
#include "clml_interface.hpp"

#include <mutex>
#include <vector>

#include "tessera/error.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

// The newest minor of interface `Major` (versions are listed ascending), as its table type.
template <class Table, cl_int Major>
const Table* find_interface(std::string& why) {
    cl_uint count = 0;
    if (clQueryMLInterfaceVersionsQCOM(nullptr, nullptr, 0, &count) != CL_SUCCESS || count == 0) {
        why = "clQueryMLInterfaceVersionsQCOM lists no interface version";
        return nullptr;
    }
    std::vector<cl_int> majors(count), minors(count);
    if (clQueryMLInterfaceVersionsQCOM(majors.data(), minors.data(), count, nullptr) !=
        CL_SUCCESS) {
        why = "clQueryMLInterfaceVersionsQCOM failed";
        return nullptr;
    }
    for (cl_uint i = count; i-- > 0;) {
        if (majors[i] != Major) continue;
        Table* table = nullptr;
        if (clGetMLInterfaceQCOM(&table, Major, minors[i]) == CL_SUCCESS && table) return table;
    }
    why = "the CLML library offers no interface V" + std::to_string(Major);
    return nullptr;
}

}  // namespace

const CLMLInterfaceV1QCOM* clml_v1(std::string* why) {
    static std::once_flag once;
    static const CLMLInterfaceV1QCOM* table = nullptr;
    static std::string reason;
    std::call_once(once, [] { table = find_interface<CLMLInterfaceV1QCOM, 1>(reason); });
    if (!table && why) *why = reason;
    return table;
}

const CLMLInterfaceV2QCOM* clml_v2() {
    static const CLMLInterfaceV2QCOM* const table = [] {
        std::string unused;
        return find_interface<CLMLInterfaceV2QCOM, 2>(unused);
    }();
    return table;
}

std::string cl_error_name(cl_int code) {
    switch (code) {
        case CL_SUCCESS:
            return "CL_SUCCESS";
        case CL_DEVICE_NOT_FOUND:
            return "CL_DEVICE_NOT_FOUND";
        case CL_OUT_OF_RESOURCES:
            return "CL_OUT_OF_RESOURCES";
        case CL_OUT_OF_HOST_MEMORY:
            return "CL_OUT_OF_HOST_MEMORY";
        case CL_MEM_OBJECT_ALLOCATION_FAILURE:
            return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        case CL_BUILD_PROGRAM_FAILURE:
            return "CL_BUILD_PROGRAM_FAILURE";
        case CL_INVALID_VALUE:
            return "CL_INVALID_VALUE";
        case CL_INVALID_CONTEXT:
            return "CL_INVALID_CONTEXT";
        case CL_INVALID_COMMAND_QUEUE:
            return "CL_INVALID_COMMAND_QUEUE";
        case CL_INVALID_MEM_OBJECT:
            return "CL_INVALID_MEM_OBJECT";
        case CL_INVALID_OPERATION:
            return "CL_INVALID_OPERATION";
        case CL_INVALID_BUFFER_SIZE:
            return "CL_INVALID_BUFFER_SIZE";
        case CL_INVALID_KERNEL_ARGS:
            return "CL_INVALID_KERNEL_ARGS";
        case CL_INVALID_ARG_INDEX:
            return "CL_INVALID_ARG_INDEX";
        case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR:
            return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
        case CL_ML_OP_NOT_ACCELERATED_QCOM:
            return "CL_ML_OP_NOT_ACCELERATED_QCOM";
        case CL_ML_INVALID_TENSOR_LAYOUT_QCOM:
            return "CL_ML_INVALID_TENSOR_LAYOUT_QCOM";
        default:
            return "OpenCL error " + std::to_string(code);
    }
}

void check_cl(cl_int code, const char* what) {
    if (code == CL_SUCCESS) return;
    const status s = code == CL_OUT_OF_HOST_MEMORY || code == CL_MEM_OBJECT_ALLOCATION_FAILURE
                         ? status::out_of_memory
                         : status::backend_failure;
    throw error(s, std::string(what) + " failed: " + cl_error_name(code));
}

}  // namespace tessera::plugins::qcom_ml
