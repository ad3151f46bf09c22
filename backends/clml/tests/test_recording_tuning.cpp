// test_recording_tuning.cpp -- enqueue with events, immutable enqueue, recordings with tensor
// memory updates, tuning with save/load and the rejection of truncated or foreign blobs.
#include "clml_test_support.h"

using namespace clml_test;

namespace {

// relu op from a to b (NCHW fp32 1x2x3x4).
struct ReluSetup {
  DeviceTensor a, b, b2;
  cl_ml_op_qcom op = nullptr;
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  std::vector<float> x;
  ReluSetup() {
    create(a, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4));
    create(b, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 2, 3, 4));
    x = random_values(a.elements());
    a.write(x);
    b.allocate();
    cl_int err;
    b2.memory = clCreateBuffer(env().context, CL_MEM_READ_WRITE, b.elements() * 4, nullptr, &err);
    cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_RELU, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
    REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, a.tensor, nullptr, b.tensor, &op,
                                                    nullptr) == CL_SUCCESS);
    REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
    cl_ml_tensor_memory_desc_qcom descs[] = {{a.tensor, a.memory}, {b.tensor, b.memory}};
    REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 2, descs) == CL_SUCCESS);
  }
  ~ReluSetup() {
    api().clReleaseMLTensorMemoryDescriptorSetQCOM(set);
    api().clReleaseMLOpQCOM(op);
  }
  std::vector<float> expected() const {
    std::vector<float> y(x);
    for (float& v : y) v = std::max(v, 0.0f);
    return y;
  }
  std::vector<float> read_mem(cl_mem m) {
    std::vector<float> out(b.elements());
    REQUIRE(clEnqueueReadBuffer(env().queue, m, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    return out;
  }
};

}  // namespace

TEST_CASE("enqueue with a wait list and an event") {
  ReluSetup s;
  cl_int err;
  cl_event user = clCreateUserEvent(env().context, &err);
  cl_event done = nullptr;
  REQUIRE(api().clEnqueueMLOpQCOM(env().queue, s.op, s.set, 1, &user, &done) == CL_SUCCESS);
  clFlush(env().queue);
  clSetUserEventStatus(user, CL_COMPLETE);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  clReleaseEvent(done);
  clReleaseEvent(user);
  check_close(s.read_mem(s.b.memory), s.expected(), 0);
  // Immutable enqueue needs a recordable (recording) queue.
  CHECK(api().clEnqueueMLOpImmutableQCOM(env().queue, s.op, s.set, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("recording: capture, replay, replay with updated output memory") {
  ReluSetup s;
  cl_int err;
  cl_command_queue rq = clCreateCommandQueueWithProperties(env().context, env().device, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_recording_qcom rec = clNewRecordingQCOM(rq, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clNewRecordingQCOM(rq, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  // Events are not allowed while recording.
  cl_event ev = nullptr;
  CHECK(api().clEnqueueMLOpQCOM(rq, s.op, s.set, 0, nullptr, &ev) == CL_INVALID_VALUE);
  REQUIRE(api().clEnqueueMLOpImmutableQCOM(rq, s.op, s.set, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(api().clEnqueueMLOpQCOM(rq, s.op, s.set, 0, nullptr, nullptr) == CL_SUCCESS);
  // Not ended yet.
  CHECK(api().clEnqueueRecordingMLOpQCOM(env().queue, rec, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                                         0, nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  REQUIRE(clEndRecordingQCOM(rec) == CL_SUCCESS);
  // Nothing ran during recording.
  std::vector<float> zeros(s.b.elements(), 0.0f);
  REQUIRE(clEnqueueWriteBuffer(env().queue, s.b.memory, CL_TRUE, 0, zeros.size() * 4, zeros.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  cl_event done = nullptr;
  REQUIRE(api().clEnqueueRecordingMLOpQCOM(env().queue, rec, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                                           0, nullptr, 0, nullptr, 0, nullptr, &done) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  clReleaseEvent(done);
  check_close(s.read_mem(s.b.memory), s.expected(), 0);
  // Replay dispatch 1 into another buffer.
  cl_ml_tensor_memory_desc_qcom update{s.b.tensor, s.b2.memory};
  cl_ml_op_array_arg_qcom op_arg{1, &update, 1};
  REQUIRE(api().clEnqueueRecordingMLOpQCOM(env().queue, rec, 0, nullptr, 1, &op_arg, 0, nullptr, 0, nullptr, 0, nullptr,
                                           0, nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(env().queue);
  check_close(s.read_mem(s.b2.memory), s.expected(), 0);
  // Bad dispatch index / bad tensor / kernel-arg update.
  op_arg.dispatch_index = 2;
  CHECK(api().clEnqueueRecordingMLOpQCOM(env().queue, rec, 0, nullptr, 1, &op_arg, 0, nullptr, 0, nullptr, 0, nullptr,
                                         0, nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_KERNEL_ARGS);
  cl_array_arg_qcom karg{0, 0, sizeof(cl_mem), &s.b2.memory};
  CHECK(api().clEnqueueRecordingMLOpQCOM(env().queue, rec, 1, &karg, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                                         nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_ARG_INDEX);
  // The plain recording entry point replays too.
  REQUIRE(clEnqueueRecordingQCOM(env().queue, rec, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                                 nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(env().queue);
  CHECK(clRetainRecordingQCOM(rec) == CL_SUCCESS);
  CHECK(clReleaseRecordingQCOM(rec) == CL_SUCCESS);
  CHECK(clReleaseRecordingQCOM(rec) == CL_SUCCESS);
  CHECK(clReleaseRecordingQCOM(rec) == CL_INVALID_VALUE);
  clReleaseCommandQueue(rq);
}

TEST_CASE("tuning: tune, save with size query, load into a new cache, reject bad blobs") {
  DeviceTensor a, b, c;
  const int n = 64;
  for (DeviceTensor* t : {&a, &b, &c}) create(*t, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, n));
  a.write(random_values(n * n));
  b.write(random_values(n * n));
  c.allocate();
  cl_ml_tuningcache_qcom cache = nullptr;
  REQUIRE(api().clCreateMLTuningCacheQCOM(&cache) == CL_SUCCESS);
  cl_ml_op_gemm_desc_qcom desc{n,
                               n,
                               n,
                               CL_GEMM_TRANSFORM_NONE_QCOM,
                               CL_GEMM_TRANSFORM_NONE_QCOM,
                               fp32_value(1),
                               fp32_value(0),
                               CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, cache) ==
          CL_SUCCESS);
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  cl_ml_tensor_memory_desc_qcom descs[] = {{a.tensor, a.memory}, {b.tensor, b.memory}, {c.tensor, c.memory}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 3, descs) == CL_SUCCESS);
  cl_ulong best = 0;
  REQUIRE(api().clTuneMLOpQCOM(env().queue, op, set, cache, &best) == CL_SUCCESS);
  CHECK(best > 0);
  size_t size = 0;
  REQUIRE(api().clSaveMLTuningCacheQCOM(cache, 0, nullptr, &size) == CL_SUCCESS);
  REQUIRE(size > 0);
  std::vector<unsigned char> blob(size);
  CHECK(api().clSaveMLTuningCacheQCOM(cache, size - 1, blob.data(), nullptr) == CL_INVALID_VALUE);
  CHECK(api().clSaveMLTuningCacheQCOM(cache, 0, blob.data(), nullptr) == CL_INVALID_VALUE);
  REQUIRE(api().clSaveMLTuningCacheQCOM(cache, size, blob.data(), &size) == CL_SUCCESS);
  cl_ml_tuningcache_qcom loaded = nullptr;
  REQUIRE(api().clCreateMLTuningCacheQCOM(&loaded) == CL_SUCCESS);
  REQUIRE(api().clLoadMLTuningCacheQCOM(loaded, blob.size(), blob.data()) == CL_SUCCESS);
  // A tuned op requiring a cache hit is created from the loaded cache.
  cl_ml_op_properties_qcom props[] = {CL_ML_OP_REQUIRE_TUNING_CACHE_HIT_QCOM, 1, 0};
  cl_ml_op_qcom tuned = nullptr;
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, props, &desc, a.tensor, b.tensor, c.tensor, &tuned, loaded) ==
          CL_SUCCESS);
  REQUIRE(api().clEnqueueMLOpQCOM(env().queue, tuned, set, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(env().queue);
  // Truncated, corrupted and foreign blobs are rejected.
  CHECK(api().clLoadMLTuningCacheQCOM(loaded, blob.size() - 1, blob.data()) == CL_INVALID_VALUE);
  std::vector<unsigned char> corrupt(blob);
  corrupt[corrupt.size() / 2] ^= 0x40;
  CHECK(api().clLoadMLTuningCacheQCOM(loaded, corrupt.size(), corrupt.data()) == CL_INVALID_VALUE);
  std::vector<unsigned char> foreign(64, 0xAB);
  CHECK(api().clLoadMLTuningCacheQCOM(loaded, foreign.size(), foreign.data()) == CL_INVALID_VALUE);
  for (size_t cut = 0; cut < blob.size(); cut += 7)
    CHECK(api().clLoadMLTuningCacheQCOM(loaded, cut, blob.data()) == CL_INVALID_VALUE);
  CHECK(api().clLoadMLTuningCacheQCOM(loaded, blob.size(), nullptr) == CL_INVALID_VALUE);
  // An empty cache misses: the op requiring a hit is refused.
  cl_ml_tuningcache_qcom empty = nullptr;
  REQUIRE(api().clCreateMLTuningCacheQCOM(&empty) == CL_SUCCESS);
  cl_ml_op_qcom missed = nullptr;
  CHECK(api().clCreateMLOpGemmQCOM(env().context, props, &desc, a.tensor, b.tensor, c.tensor, &missed, empty) ==
        CL_INVALID_VALUE);
  CHECK(api().clReleaseMLTuningCacheQCOM(empty) == CL_SUCCESS);
  CHECK(api().clReleaseMLTuningCacheQCOM(loaded) == CL_SUCCESS);
  CHECK(api().clReleaseMLTuningCacheQCOM(cache) == CL_SUCCESS);
  CHECK(api().clReleaseMLTuningCacheQCOM(cache) == CL_INVALID_VALUE);
  api().clReleaseMLOpQCOM(tuned);
  api().clReleaseMLOpQCOM(op);
  api().clReleaseMLTensorMemoryDescriptorSetQCOM(set);
}

TEST_CASE("ops keep their tensors alive after the client releases them") {
  DeviceTensor in, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 2, 2));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, 2, 2));
  cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_TANH, CL_DO_NOT_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpActivationForwardQCOM(env().context, nullptr, &act, in.tensor, nullptr, out.tensor, &op,
                                                  nullptr) == CL_SUCCESS);
  cl_ml_tensor_qcom tensor = in.tensor;
  CHECK(api().clReleaseMLTensorQCOM(tensor) == CL_SUCCESS);
  in.tensor = nullptr;
  CHECK(api().clReleaseMLTensorQCOM(tensor) == CL_INVALID_VALUE);
  CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
}
