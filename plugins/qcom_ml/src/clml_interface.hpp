// clml_interface.hpp: access to the CLML V1 function table (clQueryMLInterfaceVersionsQCOM /
// clGetMLInterfaceQCOM, newest V1 minor), to the V2 table where the library offers one (its clip
// op), and the error check used by every CLML/OpenCL call of the plugin. Only the public
// cl_qcom_ml_ops interface is used, so a vendor CLML can replace ours.
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <string>

namespace tessera::plugins::qcom_ml {

/// The V1 table, or nullptr (with `why` filled) when the library offers no V1 interface.
const CLMLInterfaceV1QCOM* clml_v1(std::string* why = nullptr);

/// The newest V2 table (V1 plus clCreateMLOpClipQCOM), or nullptr when the library offers no V2.
const CLMLInterfaceV2QCOM* clml_v2();

/// The CLML/OpenCL name of an error code, e.g. "CL_INVALID_VALUE".
std::string cl_error_name(cl_int code);

/// Throws tessera::error(backend_failure) naming the call when code != CL_SUCCESS.
void check_cl(cl_int code, const char* what);

}  // namespace tessera::plugins::qcom_ml
