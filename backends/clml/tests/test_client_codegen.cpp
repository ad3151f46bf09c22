// test_client_codegen.cpp -- drives the CLML API the way a code-generating client (a compiler's
// CLML runtime) does: every tensor requested OPTIMAL (weights with usage PARAMETER, activations
// CNN), NCHW placeholder tensors for the graph's input and output copied with
// clEnqueueCopyMLTensorDataQCOM, a tuning cache passed to every create call, all ops created
// before any memory exists, then sizes queried, memory allocated, one descriptor set for every
// op, weights written through the tensors. The network: conv 3x3 + bias + relu (fused), max pool
// 2x2, clip, flatten (reshape), dense (gemm with transposed weights), bias add (binary with an
// unused second input), softmax; fp32 and fp16; a second build loads the tuned cache.
#include <algorithm>
#include <memory>

#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

namespace {

constexpr cl_uint kC = 8, kH = 8, kW = 8, kO = 16, kUnits = 10;
constexpr cl_uint kPooled = kO * (kH / 2) * (kW / 2);  // 256 after flattening
constexpr float kClipLo = -0.3f, kClipHi = 0.3f;

struct Weights {
  std::vector<float> conv_w, conv_b, dense_w, dense_b;
};

Weights make_weights(cl_channel_type type) {
  Weights w;
  w.conv_w = quantize(random_values(size_t{kO} * kC * 9, -0.1f, 0.1f, 81), type);
  w.conv_b = quantize(random_values(kO, -0.1f, 0.1f, 82), type);
  w.dense_w = quantize(random_values(size_t{kUnits} * kPooled, -0.2f, 0.2f, 83), type);
  w.dense_b = quantize(random_values(kUnits, -0.5f, 0.5f, 84), type);
  return w;
}

// Host fp32 reference of the whole network.
std::vector<float> reference(const std::vector<float>& x, const Weights& w) {
  ref::ConvParams p;
  p.n = 1, p.c = kC, p.h = kH, p.w = kW, p.o = kO, p.kh = 3, p.kw = 3;
  p.pt = p.pl = p.pb = p.pr = 1;
  std::vector<float> t = ref::conv2d(p, x, w.conv_w, w.conv_b);
  for (float& v : t) v = std::max(v, 0.0f);
  t = ref::pool2d(1, kO, kH, kW, 2, 2, 2, 2, 0, 0, 0, 0, 0, kH / 2, kW / 2, t);
  for (float& v : t) v = std::min(std::max(v, kClipLo), kClipHi);
  std::vector<float> y = ref::gemm(1, kUnits, kPooled, false, true, 1, 0, t, w.dense_w, {});
  float top = -INFINITY;
  for (cl_uint i = 0; i < kUnits; ++i) top = std::max(top, y[i] += w.dense_b[i]);
  double sum = 0;
  for (float& v : y) sum += v = std::exp(v - top);
  for (float& v : y) v = static_cast<float>(v / sum);
  return y;
}

// One network instance: its tensors, ops, memory and descriptor set.
class CodegenNetwork {
 public:
  CodegenNetwork(cl_channel_type type, cl_ml_tuningcache_qcom cache) : type_(type), cache_(cache) {
    mode_ = type == CL_FLOAT ? CL_ARITHMETIC_MODE_FP32_QCOM : CL_ARITHMETIC_MODE_FP16_QCOM;
    // Tensors (OPTIMAL, no memory yet), in graph order.
    input_ = tensor(1, kC, kH, kW, CL_TENSOR_USAGE_CNN_QCOM);
    in_placeholder_ = tensor(1, kC, kH, kW, CL_TENSOR_USAGE_CNN_QCOM, CL_TENSOR_LAYOUT_NCHW_QCOM);
    conv_w_ = tensor(kO, kC, 3, 3, CL_TENSOR_USAGE_PARAMETER_QCOM);
    conv_b_ = tensor(1, kO, 1, 1, CL_TENSOR_USAGE_PARAMETER_QCOM);
    conv_out_ = tensor(1, kO, kH, kW, CL_TENSOR_USAGE_CNN_QCOM);
    pool_out_ = tensor(1, kO, kH / 2, kW / 2, CL_TENSOR_USAGE_CNN_QCOM);
    clip_out_ = tensor(1, kO, kH / 2, kW / 2, CL_TENSOR_USAGE_CNN_QCOM);
    flat_ = tensor(1, kPooled, 1, 1, CL_TENSOR_USAGE_CNN_QCOM);
    dense_w_ = tensor(kUnits, kPooled, 1, 1, CL_TENSOR_USAGE_PARAMETER_QCOM);
    dense_b_ = tensor(1, kUnits, 1, 1, CL_TENSOR_USAGE_PARAMETER_QCOM);
    dense_out_ = tensor(1, kUnits, 1, 1, CL_TENSOR_USAGE_CNN_QCOM);
    softmax_out_ = tensor(1, kUnits, 1, 1, CL_TENSOR_USAGE_CNN_QCOM);
    out_placeholder_ = tensor(1, kUnits, 1, 1, CL_TENSOR_USAGE_CNN_QCOM, CL_TENSOR_LAYOUT_NCHW_QCOM);
    cl_ml_tensor_desc_qcom unused_desc{};
    unused_desc.num_dimensions = CL_TENSOR_UNUSED_QCOM;
    REQUIRE(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &unused_desc, CL_TENSOR_USAGE_UNUSED_QCOM,
                                                &unused_) == CL_SUCCESS);
    create_ops();
  }

  ~CodegenNetwork() {
    for (cl_ml_op_qcom op : ops_) api().clReleaseMLOpQCOM(op);
    if (set_) api().clReleaseMLTensorMemoryDescriptorSetQCOM(set_);
    api().clReleaseMLTensorQCOM(unused_);
  }

  // Sizes are known only now that every op exists: allocate, describe, write the weights.
  void allocate(const Weights& w) {
    std::vector<cl_ml_tensor_memory_desc_qcom> descs;
    for (const auto& t : tensors_) {
      cl_uint size = 0;
      REQUIRE(api().clGetMLTensorMemorySizeQCOM(env().context, t->tensor, &size) == CL_SUCCESS);
      REQUIRE(size == t->elements() * (type_ == CL_FLOAT ? 4 : 2));  // OPTIMAL layouts are packed
      cl_int err = CL_SUCCESS;
      t->memory = clCreateBuffer(env().context, CL_MEM_READ_WRITE, size, nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      descs.push_back({t->tensor, t->memory});
    }
    REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set_) == CL_SUCCESS);
    REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set_, static_cast<uint32_t>(descs.size()), descs.data()) ==
            CL_SUCCESS);
    conv_w_->write(w.conv_w);
    conv_b_->write(w.conv_b);
    dense_w_->write(w.dense_w);
    dense_b_->write(w.dense_b);
  }

  // Input bytes into the NCHW placeholder, copy into the OPTIMAL input, every op with the one
  // set, copy out into the NCHW placeholder; one wait at the end.
  std::vector<float> run(const std::vector<float>& x) {
    const std::vector<unsigned char> in_bytes = to_bytes(x);
    REQUIRE(clEnqueueWriteBuffer(env().queue, in_placeholder_->memory, CL_FALSE, 0, in_bytes.size(), in_bytes.data(), 0,
                                 nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(api().clEnqueueCopyMLTensorDataQCOM(env().queue, in_placeholder_->tensor, in_placeholder_->memory,
                                                input_->tensor, input_->memory, 0, nullptr, nullptr) == CL_SUCCESS);
    for (cl_ml_op_qcom op : ops_)
      REQUIRE(api().clEnqueueMLOpQCOM(env().queue, op, set_, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(api().clEnqueueCopyMLTensorDataQCOM(env().queue, softmax_out_->tensor, softmax_out_->memory,
                                                out_placeholder_->tensor, out_placeholder_->memory, 0, nullptr,
                                                nullptr) == CL_SUCCESS);
    std::vector<unsigned char> out_bytes(kUnits * (type_ == CL_FLOAT ? 4 : 2));
    REQUIRE(clEnqueueReadBuffer(env().queue, out_placeholder_->memory, CL_TRUE, 0, out_bytes.size(), out_bytes.data(),
                                0, nullptr, nullptr) == CL_SUCCESS);
    return from_bytes(out_bytes);
  }

  void tune() {
    for (cl_ml_op_qcom op : ops_) REQUIRE(api().clTuneMLOpQCOM(env().queue, op, set_, cache_, nullptr) == CL_SUCCESS);
  }

 private:
  DeviceTensor* tensor(cl_uint n, cl_uint c, cl_uint h, cl_uint w, cl_ml_tensor_usage_qcom usage,
                       cl_ml_tensor_layout_qcom layout = CL_TENSOR_LAYOUT_OPTIMAL_QCOM) {
    auto t = std::make_unique<DeviceTensor>();
    t->desc = make_desc(type_, layout, n, c, h, w);
    REQUIRE(api().clCreateMLTensorWithUsageQCOM(env().context, nullptr, &t->desc, usage, &t->tensor) == CL_SUCCESS);
    tensors_.push_back(std::move(t));
    return tensors_.back().get();
  }

  void create_ops() {
    cl_ml_op_qcom op = nullptr;
    cl_ml_op_convolution_desc_qcom conv{
        CL_CONVOLUTION_MODE_CONVOLUTION_QCOM, 1, 4, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 0, mode_};
    const cl_ml_op_activation_desc_qcom relu{CL_ACTIVATION_RELU, CL_PROPAGATE_NAN_QCOM, mode_};
    REQUIRE(api().clCreateMLOpFusedConvolutionActivationForwardQCOM(
                env().context, nullptr, &conv, &relu, input_->tensor, conv_w_->tensor, conv_b_->tensor, unused_,
                conv_out_->tensor, &op, cache_) == CL_SUCCESS);
    ops_.push_back(op);
    const cl_ml_op_pooling_desc_qcom pool{CL_POOLING_MODE_MAX_QCOM, 4,    {0, 0}, {0, 0}, {2, 2}, {2, 2},
                                          CL_PROPAGATE_NAN_QCOM,    mode_};
    REQUIRE(api().clCreateMLOpPoolingForwardQCOM(env().context, nullptr, &pool, conv_out_->tensor, nullptr,
                                                 pool_out_->tensor, &op, cache_) == CL_SUCCESS);
    ops_.push_back(op);
    const cl_ml_op_clip_desc_qcom clip = {CL_CLIP_BY_VALUE_QCOM, {{kClipHi}, CL_FLOAT}, {{kClipLo}, CL_FLOAT}, mode_};
    REQUIRE(api().clCreateMLOpClipQCOM(env().context, nullptr, &clip, pool_out_->tensor, clip_out_->tensor, &op,
                                       cache_) == CL_SUCCESS);
    ops_.push_back(op);
    REQUIRE(api().clCreateMLOpReshapeQCOM(env().context, nullptr, clip_out_->tensor, flat_->tensor, &op, cache_) ==
            CL_SUCCESS);
    ops_.push_back(op);
    const cl_ml_op_gemm_desc_qcom dense{1,
                                        kUnits,
                                        kPooled,
                                        CL_GEMM_TRANSFORM_NONE_QCOM,
                                        CL_GEMM_TRANSFORM_TRANSPOSE_QCOM,
                                        {{1.0f}, CL_FLOAT},
                                        {{0.0f}, CL_FLOAT},
                                        mode_};
    REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &dense, flat_->tensor, dense_w_->tensor,
                                       dense_out_->tensor, &op, cache_) == CL_SUCCESS);
    ops_.push_back(op);
    const cl_ml_op_binary_desc_qcom bias_add{
        CL_TENSOR_OP_ADD_QCOM, {{1.0f}, CL_FLOAT}, {{1.0f}, CL_FLOAT}, {{1.0f}, CL_FLOAT}, mode_};
    REQUIRE(api().clCreateMLOpBinaryQCOM(env().context, nullptr, &bias_add, dense_b_->tensor, unused_,
                                         dense_out_->tensor, &op, cache_) == CL_SUCCESS);
    ops_.push_back(op);
    const cl_ml_op_softmax_desc_qcom softmax{CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM, CL_SOFTMAX_MODE_CHANNEL_QCOM, mode_};
    REQUIRE(api().clCreateMLOpSoftmaxQCOM(env().context, nullptr, &softmax, dense_out_->tensor, softmax_out_->tensor,
                                          &op, cache_) == CL_SUCCESS);
    ops_.push_back(op);
  }

  std::vector<unsigned char> to_bytes(const std::vector<float>& v) const {
    std::vector<unsigned char> bytes(v.size() * (type_ == CL_FLOAT ? 4 : 2));
    for (size_t i = 0; i < v.size(); ++i) {
      if (type_ == CL_FLOAT) {
        std::memcpy(&bytes[4 * i], &v[i], 4);
      } else {
        const uint16_t h = float_to_half(v[i]);
        std::memcpy(&bytes[2 * i], &h, 2);
      }
    }
    return bytes;
  }

  std::vector<float> from_bytes(const std::vector<unsigned char>& bytes) const {
    std::vector<float> v(bytes.size() / (type_ == CL_FLOAT ? 4 : 2));
    for (size_t i = 0; i < v.size(); ++i) {
      if (type_ == CL_FLOAT) {
        std::memcpy(&v[i], &bytes[4 * i], 4);
      } else {
        uint16_t h;
        std::memcpy(&h, &bytes[2 * i], 2);
        v[i] = half_to_float(h);
      }
    }
    return v;
  }

  cl_channel_type type_;
  cl_arithmetic_mode_qcom mode_;
  cl_ml_tuningcache_qcom cache_;
  std::vector<std::unique_ptr<DeviceTensor>> tensors_;
  DeviceTensor *input_, *in_placeholder_, *conv_w_, *conv_b_, *conv_out_, *pool_out_, *clip_out_, *flat_, *dense_w_,
      *dense_b_, *dense_out_, *softmax_out_, *out_placeholder_;
  cl_ml_tensor_qcom unused_ = nullptr;
  std::vector<cl_ml_op_qcom> ops_;
  cl_ml_tensor_mem_desc_set_qcom set_ = nullptr;
};

std::vector<unsigned char> save(cl_ml_tuningcache_qcom cache) {
  size_t size = 0;
  REQUIRE(api().clSaveMLTuningCacheQCOM(cache, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<unsigned char> blob(size);
  REQUIRE(api().clSaveMLTuningCacheQCOM(cache, size, blob.data(), nullptr) == CL_SUCCESS);
  return blob;
}

}  // namespace

TEST_CASE("a code-generating client: OPTIMAL everywhere, a cache on every create, one descriptor set") {
  for (cl_channel_type type : {cl_channel_type{CL_FLOAT}, cl_channel_type{CL_HALF_FLOAT}}) {
    CAPTURE(type);
    const float tol = tolerance(type, 1e-5f, 1e-2f);
    const Weights w = make_weights(type);
    const std::vector<float> x1 = quantize(random_values(size_t{kC} * kH * kW, -1, 1, 85), type);
    const std::vector<float> x2 = quantize(random_values(size_t{kC} * kH * kW, -1, 1, 86), type);
    const std::vector<float> want1 = reference(x1, w), want2 = reference(x2, w);
    // Tuning run: a fresh cache, every op tuned after a first inference, the cache saved.
    cl_ml_tuningcache_qcom cache = nullptr;
    REQUIRE(api().clCreateMLTuningCacheQCOM(&cache) == CL_SUCCESS);
    std::vector<unsigned char> blob;
    {
      CodegenNetwork net(type, cache);
      net.allocate(w);
      check_close(net.run(x1), want1, tol);
      net.tune();
      check_close(net.run(x2), want2, tol);
      blob = save(cache);
    }
    // Deployment run: the saved cache loaded before the ops are created with it.
    cl_ml_tuningcache_qcom loaded = nullptr;
    REQUIRE(api().clCreateMLTuningCacheQCOM(&loaded) == CL_SUCCESS);
    REQUIRE(api().clLoadMLTuningCacheQCOM(loaded, blob.size(), blob.data()) == CL_SUCCESS);
    CHECK(save(loaded) == blob);  // every tuned entry survived validation at load
    {
      CodegenNetwork net(type, loaded);
      net.allocate(w);
      check_close(net.run(x2), want2, tol);
      check_close(net.run(x1), want1, tol);
    }
    CHECK(api().clReleaseMLTuningCacheQCOM(loaded) == CL_SUCCESS);
    CHECK(api().clReleaseMLTuningCacheQCOM(cache) == CL_SUCCESS);
  }
}
