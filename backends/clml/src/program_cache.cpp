// program_cache.cpp -- per-context cache of built kernel programs.
#include "program_cache.h"

#include <map>
#include <mutex>
#include <tuple>

namespace tessera::clml {

cl::Device context_device(const cl::Context& context) {
  return context.getInfo<CL_CONTEXT_DEVICES>().at(0);
}

bool device_has_fp16(const cl::Device& device) {
  return device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp16") != std::string::npos;
}

std::string build_options(const KernelConfig& config, const cl::Device& device) {
  const int dt = config.dtype == CL_FLOAT ? 0 : config.dtype == CL_HALF_FLOAT ? 1 : 2;
  const bool half_compute =
      config.dtype == CL_HALF_FLOAT && device_has_fp16(device) && config.mode != CL_ARITHMETIC_MODE_FP32_QCOM;
  const bool half_accumulate = half_compute && config.mode == CL_ARITHMETIC_MODE_FP16_QCOM;
  std::string options = "-DDT=" + std::to_string(dt);
  options += half_compute ? " -DREAL_HALF=1" : " -DREAL_HALF=0";
  options += half_accumulate ? " -DACC_HALF=1" : " -DACC_HALF=0";
  if (!config.extra.empty()) options += " " + config.extra;
  return options;
}

namespace {

struct ProgramCache {
  std::mutex mutex;
  // The context is retained by the stored cl::Context, so its address cannot be reused while
  // the entry exists.
  std::map<std::tuple<cl_context, std::string, std::string>, std::pair<cl::Context, cl::Program>> programs;
};

ProgramCache& cache() {
  static auto* instance = new ProgramCache();  // never destroyed: see handle_registry.h
  return *instance;
}

}  // namespace

cl::Program get_program(const cl::Context& context, const char* name, const char* source, const std::string& options) {
  auto key = std::make_tuple(context(), std::string(name), options);
  ProgramCache& programs = cache();
  std::lock_guard<std::mutex> lock(programs.mutex);
  auto it = programs.programs.find(key);
  if (it != programs.programs.end()) return it->second.second;
  cl::Program program(context, std::string(kKernelPrelude) + source);
  program.build(options.c_str());
  programs.programs.emplace(key, std::make_pair(context, program));
  return program;
}

const char* const kKernelPrelude = R"CLC(
// ---- prelude: storage type T, compute type real, accumulator type acc_t ----
#if REAL_HALF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half real;
#else
typedef float real;
#endif
#if ACC_HALF
typedef half acc_t;
#else
typedef float acc_t;
#endif

#if DT == 0
typedef float T;
inline float ldf(const global T* p, int i) { return p[i]; }
inline void stf(global T* p, int i, float v) { p[i] = v; }
#elif DT == 1
typedef half T;
inline float ldf(const global T* p, int i) { return vload_half(i, p); }
inline void stf(global T* p, int i, float v) { vstore_half_rte(v, i, p); }
#else
typedef char T;
inline float ldf(const global T* p, int i) { return (float)p[i]; }
inline void stf(global T* p, int i, float v) { p[i] = convert_char_sat_rte(v); }
#endif
#define LD(p, i) ((real)ldf((p), (i)))
#define ST(p, i, v) stf((p), (i), (float)(v))

// Offset of logical element (n, c, d, h, w) for strides st = (n, c, d, h, w, -, -, -).
inline int off5(int8 st, int n, int c, int d, int h, int w) {
  return n * st.s0 + c * st.s1 + d * st.s2 + h * st.s3 + w * st.s4;
}

// Splits a linear index over `shape` (n, c, d, h, w) into coordinates.
#define UNRAVEL5(idx, shape, n, c, d, h, w)                   \
  {                                                           \
    int u_ = (idx);                                           \
    w = u_ % (shape).s4; u_ /= (shape).s4;                    \
    h = u_ % (shape).s3; u_ /= (shape).s3;                    \
    d = u_ % (shape).s2; u_ /= (shape).s2;                    \
    c = u_ % (shape).s1; n = u_ / (shape).s1;                 \
  }

// Activation functions; function ids follow cl_activation_function_qcom.
inline real activate(real x, int fn, real param, int propagate_nan) {
  switch (fn) {
    case 0: return propagate_nan ? (x < (real)0 ? (real)0 : x) : fmax(x, (real)0);
    case 1: return tanh(x);
    case 2: return (real)1 / ((real)1 + exp(-x));
    case 3: return propagate_nan ? (x < (real)0 ? (real)0 : (x > (real)6 ? (real)6 : x))
                                 : fmin(fmax(x, (real)0), (real)6);
    case 4: return x > (real)0 ? x : param * (exp(x) - (real)1);
    case 5:
    case 6: return x > (real)0 ? x : param * x;
    default: return x;  // -1: no activation
  }
}
)CLC";

}  // namespace tessera::clml
