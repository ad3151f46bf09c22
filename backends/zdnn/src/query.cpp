// Library initialisation, zAIU capability queries and version functions. The emulated zAIU is
// always "installed" with every function, parameter-block format, data type, layout format and
// conversion of the newest API level the 1.2.0 reference describes.
#include <cstdarg>

#include "common.hpp"
#include "settings.hpp"
#include "status.hpp"
#include "tensor_checks.hpp"

namespace tessera::zdnn {
namespace {

constexpr uint32_t kLibraryVersion = 0x00010200;
constexpr uint32_t kMaxRunnableVersion = 0x000102FF;

bool is_known_function(int code) {
  switch (code) {
  case NNPA_QAF:
  case NNPA_ADD:
  case NNPA_SUB:
  case NNPA_MUL:
  case NNPA_DIV:
  case NNPA_MIN:
  case NNPA_MAX:
  case NNPA_LOG:
  case NNPA_EXP:
  case NNPA_SQRT:
  case NNPA_INVSQRT:
  case NNPA_RELU:
  case NNPA_TANH:
  case NNPA_SIGMOID:
  case NNPA_SOFTMAX:
  case NNPA_GELU:
  case NNPA_BATCHNORMALIZATION:
  case NNPA_MOMENTS:
  case NNPA_LAYERNORM:
  case NNPA_NORM:
  case NNPA_MAXPOOL2D:
  case NNPA_AVGPOOL2D:
  case NNPA_LSTMACT:
  case NNPA_GRUACT:
  case NNPA_CONVOLUTION:
  case NNPA_MATMUL_OP:
  case NNPA_MATMUL_OP_BCAST23:
  case NNPA_MATMUL_OP_BCAST1:
  case NNPA_TRANSFORM:
  case NNPA_REDUCE: return true;
  default: return false;
  }
}

// Runs zdnn_init() when the shared library is loaded, as the real library does.
struct LoadTimeInit {
  LoadTimeInit() { zdnn_init(); }
};
const LoadTimeInit load_time_init;

}  // namespace
}  // namespace tessera::zdnn

using namespace tessera::zdnn;

extern "C" {

void zdnn_init(void) {
  reload_settings();
}

uint32_t zdnn_get_nnpa_max_dim_idx_size(void) {
  return kMaxDimIndexSize;
}

uint32_t zdnn_get_max_for_dim(uint8_t dimension) {
  return (dimension >= 1 && dimension <= 4) ? kMaxDimIndexSize : 0;
}

uint64_t zdnn_get_nnpa_max_tensor_size(void) {
  return kMaxTensorBytes;
}

bool zdnn_is_nnpa_installed(void) {
  return true;
}

bool zdnn_is_nnpa_function_installed(int count, ...) {
  va_list args;
  va_start(args, count);
  bool all = true;
  for (int i = 0; i < count; ++i) all = is_known_function(va_arg(args, int)) && all;
  va_end(args);
  return all;
}

bool zdnn_is_nnpa_parmblk_fmt_installed(int count, ...) {
  va_list args;
  va_start(args, count);
  bool all = true;
  for (int i = 0; i < count; ++i) {
    const int format = va_arg(args, int);
    all = (format == NNPA_PARMBLKFORMAT_0 || format == NNPA_PARMBLKFORMAT_1) && all;
  }
  va_end(args);
  return all;
}

bool zdnn_is_nnpa_datatype_installed(uint16_t types_bitmask) {
  constexpr uint16_t installed =
      QUERY_DATATYPE_INTERNAL1 | QUERY_DATATYPE_BINARY_FP32 | QUERY_DATATYPE_BINARY_INT8 | QUERY_DATATYPE_BINARY_INT32;
  return (types_bitmask & ~installed) == 0;
}

bool zdnn_is_nnpa_layout_fmt_installed(uint32_t layout_bitmask) {
  constexpr uint32_t installed = static_cast<uint32_t>(QUERY_LAYOUTFMT_4DFEATURE) | QUERY_LAYOUTFMT_4DKERNEL |
                                 QUERY_LAYOUTFMT_4DWEIGHTS | QUERY_LAYOUTFMT_4DGENERIC;
  return (layout_bitmask & ~installed) == 0;
}

bool zdnn_is_nnpa_conversion_installed(nnpa_data_type type, uint16_t format_bitmask) {
  constexpr uint16_t installed = QUERY_BFPFMT_TINY | QUERY_BFPFMT_SHORT;
  return type == NNPA_DATATYPE_1 && (format_bitmask & ~installed) == 0;
}

uint32_t zdnn_get_library_version(void) {
  return kLibraryVersion;
}

char* zdnn_get_library_version_str(void) {
  static char text[] = "1.2.0 (Tessera x86-64 zAIU emulation)";
  return text;
}

zdnn_status zdnn_refresh_nnpa_query_result(void) {
  return ZDNN_OK;
}

bool zdnn_is_version_runnable(uint32_t ver_num) {
  return (ver_num >> 16) == (kMaxRunnableVersion >> 16) && ver_num <= kMaxRunnableVersion;
}

uint32_t zdnn_get_max_runnable_version(void) {
  return kMaxRunnableVersion;
}

}  // extern "C"
