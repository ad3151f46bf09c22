// copy_kernels.cpp -- strided copy / reshape kernels and their host-side launcher.
#include "copy_kernels.h"

namespace tessera::clml {

const char* const kCopyKernelSource = R"CLC(
#if DST_DT == 0
typedef float D;
inline void st_dst(global D* p, int i, float v) { p[i] = v; }
#elif DST_DT == 1
typedef half D;
inline void st_dst(global D* p, int i, float v) { vstore_half_rte(v, i, p); }
#else
typedef char D;
inline void st_dst(global D* p, int i, float v) { p[i] = convert_char_sat_rte(v); }
#endif

// One work-item per element of `shape`; logical order n, c, d, h, w.
kernel void copy_strided(const global T* src, int src_off, int8 sst, global D* dst, int dst_off,
                         int8 dst_st, int8 shape) {
  int i = get_global_id(0);
  int w = i % shape.s4; i /= shape.s4;
  int h = i % shape.s3; i /= shape.s3;
  int d = i % shape.s2; i /= shape.s2;
  int c = i % shape.s1;
  int n = i / shape.s1;
  st_dst(dst, dst_off + off5(dst_st, n, c, d, h, w), ldf(src, src_off + off5(sst, n, c, d, h, w)));
}

// One work-item per row (n, c, d, h): the loop over w needs no index arithmetic per element
// (layout conversions and repacks of whole tensors). Range: (H, N * C * D).
kernel void copy_rows(const global T* src, int src_off, int8 sst, global D* dst, int dst_off,
                      int8 dst_st, int8 shape) {
  const int h = get_global_id(0);
  int z = get_global_id(1);
  const int d = z % shape.s2; z /= shape.s2;
  const int c = z % shape.s1;
  const int n = z / shape.s1;
  const int s = src_off + off5(sst, n, c, d, h, 0);
  const int t = dst_off + off5(dst_st, n, c, d, h, 0);
  for (int w = 0; w < shape.s4; ++w) st_dst(dst, t + w * dst_st.s4, ldf(src, s + w * sst.s4));
}

// Reshape: the i-th element in logical order of the input goes to the i-th of the output.
kernel void reshape_copy(const global T* src, int8 sst, int8 sshape, global D* dst, int8 dst_st,
                         int8 dshape) {
  int i = get_global_id(0);
  int j = i;
  int w = j % sshape.s4; j /= sshape.s4;
  int h = j % sshape.s3; j /= sshape.s3;
  int d = j % sshape.s2; j /= sshape.s2;
  int c = j % sshape.s1;
  int n = j / sshape.s1;
  float v = ldf(src, off5(sst, n, c, d, h, w));
  j = i;
  w = j % dshape.s4; j /= dshape.s4;
  h = j % dshape.s3; j /= dshape.s3;
  d = j % dshape.s2; j /= dshape.s2;
  c = j % dshape.s1;
  n = j / dshape.s1;
  st_dst(dst, off5(dst_st, n, c, d, h, w), v);
}
)CLC";

KernelConfig copy_config(cl_channel_type src, cl_channel_type dst) {
  KernelConfig config;
  config.dtype = src;
  const int dst_code = dst == CL_FLOAT ? 0 : dst == CL_HALF_FLOAT ? 1 : 2;
  config.extra = "-DDST_DT=" + std::to_string(dst_code);
  return config;
}

namespace {
cl_int8 to_arg(const Shape5& v) {
  cl_int8 out{};
  for (int a = 0; a < 5; ++a) out.s[a] = static_cast<cl_int>(v[a]);
  return out;
}
}  // namespace

cl::NDRange rows_range(const Shape5& shape) {
  return cl::NDRange(static_cast<size_t>(shape[kH]), static_cast<size_t>(shape[kN] * shape[kC] * shape[kD]));
}

void enqueue_strided_copy(const cl::CommandQueue& queue, const cl::Context& context, cl_mem src,
                          cl_channel_type src_type, int src_offset, const Shape5& src_strides, cl_mem dst,
                          cl_channel_type dst_type, int dst_offset, const Shape5& dst_strides, const Shape5& shape,
                          const std::vector<cl::Event>* wait, cl::Event* done) {
  const cl::Device device = context_device(context);
  cl::Program program =
      get_program(context, "copy", kCopyKernelSource, build_options(copy_config(src_type, dst_type), device));
  cl::Kernel kernel(program, "copy_rows");
  kernel.setArg(0, sizeof(cl_mem), &src);
  kernel.setArg(1, src_offset);
  kernel.setArg(2, to_arg(src_strides));
  kernel.setArg(3, sizeof(cl_mem), &dst);
  kernel.setArg(4, dst_offset);
  kernel.setArg(5, to_arg(dst_strides));
  kernel.setArg(6, to_arg(shape));
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, rows_range(shape), cl::NullRange, wait, done);
}

}  // namespace tessera::clml
