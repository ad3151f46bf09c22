// zdnn_get_status_message and the status reporting / diagnostic hook.
#include "status.hpp"

#include <cstdio>

#include "log.hpp"
#include "settings.hpp"

namespace tessera::zdnn {

const char* status_message(zdnn_status status) {
  switch (status) {
  case ZDNN_OK: return "Success.";
  case ZDNN_ELEMENT_RANGE_VIOLATION: return "zAIU operation resulted in data that was out of the normal range.";
  case ZDNN_INVALID_SHAPE: return "Invalid shape information in one (or more) of the input/output tensor(s).";
  case ZDNN_INVALID_LAYOUT: return "Invalid layout information in one (or more) of the input/output tensor(s).";
  case ZDNN_INVALID_TYPE: return "Invalid type information in one (or more) of the input/output tensor(s).";
  case ZDNN_INVALID_FORMAT: return "Invalid format information in one (or more) of the input/output tensor(s).";
  case ZDNN_INVALID_DIRECTION: return "Invalid RNN direction.";
  case ZDNN_INVALID_CONCAT_INFO: return "Invalid concatenation info.";
  case ZDNN_INVALID_STRIDE_PADDING: return "Invalid padding type parameter for current strides.";
  case ZDNN_INVALID_STRIDES: return "Invalid stride height or width parameter.";
  case ZDNN_MISALIGNED_PARMBLOCK: return "NNPA parameter block is not on double word boundary.";
  case ZDNN_INVALID_CLIPPING_VALUE: return "Invalid clipping for the specified operation.";
  case ZDNN_INVALID_ADJUSTMENT_FACTOR: return "Invalid adjustment for the specified operation.";
  case ZDNN_INVALID_EPSILON: return "Invalid epsilon for the specified operation.";
  case ZDNN_INVALID_TRANSFORM_TYPE: return "Invalid transformation type.";
  case ZDNN_INVALID_BETA: return "Invalid beta value for the specified operation.";
  case ZDNN_INVALID_GAMMA: return "Invalid gamma value for the specified operation.";
  case ZDNN_INVALID_BESSEL_CORRECTION: return "Invalid bessel correction value for the specified operation.";
  case ZDNN_INVALID_SCALE: return "Invalid scale value for the specified operation.";
  case ZDNN_INVALID_OFFSET: return "Invalid offset value for the specified operation.";
  case ZDNN_ALLOCATION_FAILURE: return "Can not allocate storage.";
  case ZDNN_INVALID_BUFFER: return "Buffer address is NULL or not on 4K-byte boundary or insufficient buffer size.";
  case ZDNN_CONVERT_FAILURE: return "Floating point data conversion failure.";
  case ZDNN_INVALID_STATE: return "Invalid zTensor state.";
  case ZDNN_UNSUPPORTED_AIU_EXCEPTION: return "zAIU operation returned an unexpected exception.";
  case ZDNN_UNSUPPORTED_PARMBLOCK: return "NNPA parameter block format is not supported by the model.";
  case ZDNN_UNAVAILABLE_FUNCTION: return "Specified NNPA function is not defined or installed on the machine.";
  case ZDNN_UNSUPPORTED_FORMAT: return "Specified tensor data layout format is not supported.";
  case ZDNN_UNSUPPORTED_TYPE: return "Specified tensor data type is not supported.";
  case ZDNN_EXCEEDS_MDIS: return "Tensor dimension exceeds maximum dimension index size (MDIS).";
  case ZDNN_EXCEEDS_MTS: return "Total number of bytes in tensor exceeds maximum tensor size. (MTS).";
  case ZDNN_MISALIGNED_TENSOR: return "Tensor address is not on 4K-byte boundary.";
  case ZDNN_MISALIGNED_SAVEAREA: return "Function specific save area address is not on 4K-byte boundary.";
  case ZDNN_FUNC_RC_F000: return "Function specific response code (F000).";
  case ZDNN_FUNC_RC_F001: return "Function specific response code (F001).";
  case ZDNN_FUNC_RC_F002: return "Function specific response code (F002).";
  case ZDNN_FUNC_RC_F003: return "Function specific response code (F003).";
  case ZDNN_FUNC_RC_F004: return "Function specific response code (F004).";
  case ZDNN_FUNC_RC_F005: return "Function specific response code (F005).";
  case ZDNN_FUNC_RC_F006: return "Function specific response code (F006).";
  case ZDNN_FUNC_RC_F007: return "Function specific response code (F007).";
  case ZDNN_FUNC_RC_F008: return "Function specific response code (F008).";
  case ZDNN_FUNC_RC_F009: return "Function specific response code (F009).";
  }
  return "(Status string is not defined.)";
}

zdnn_status report(zdnn_status status, const char* where, const char* detail) {
  if (status != ZDNN_OK) {
    const LogLevel level = is_error(status) ? LogLevel::error : LogLevel::warn;
    log_message(level, "status", where, "%s (0x%08X)%s%s", status_message(status), static_cast<unsigned>(status),
                detail ? ": " : "", detail ? detail : "");
  }
  const Settings s = current_settings();
  if (s.diag_enabled && s.diag_status == static_cast<uint32_t>(status)) {
    std::fprintf(stderr,
                 "zDNN Diagnostic\n==================================================\n"
                 "status = 0x%08X, %s\nin %s%s%s\n",
                 static_cast<unsigned>(status), status_message(status), where, detail ? ": " : "",
                 detail ? detail : "");
  }
  return status;
}

}  // namespace tessera::zdnn

extern "C" const char* zdnn_get_status_message(zdnn_status status) {
  return tessera::zdnn::status_message(status);
}
