// test_recording_tuning.cpp -- enqueue with events, immutable enqueue, recordings with tensor
// memory updates, tuning with save/load, the rejection of truncated or foreign blobs, and caches
// with hostile work-group sizes (rejected entries, ops that still run untuned), and the blocked gemm
// kernel's fixed work-group size in caches.
#include "clml_test_support.h"
#include "reference_ops.h"

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

uint64_t fnv1a(const unsigned char* data, size_t size) {
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

template <class Int>
Int get_le(const std::vector<unsigned char>& blob, size_t& pos) {
  Int value = 0;
  for (size_t i = 0; i < sizeof(Int); ++i) value |= static_cast<Int>(blob.at(pos + i)) << (8 * i);
  pos += sizeof(Int);
  return value;
}

template <class Int>
void put_le(std::vector<unsigned char>& out, Int value) {
  for (size_t i = 0; i < sizeof(Int); ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

// A saved cache (format in backends/clml/README.md) with every entry's local size replaced by
// `local`, checksum recomputed: what a hostile or foreign file can hold.
std::vector<unsigned char> with_local_sizes(const std::vector<unsigned char>& blob,
                                            const std::vector<uint64_t>& local) {
  std::vector<unsigned char> out(blob.begin(), blob.begin() + 16);  // magic, version, count
  size_t pos = 12;
  const uint32_t count = get_le<uint32_t>(blob, pos);
  for (uint32_t e = 0; e < count; ++e) {
    const uint32_t key_size = get_le<uint32_t>(blob, pos);
    put_le<uint32_t>(out, key_size);
    out.insert(out.end(), blob.begin() + static_cast<std::ptrdiff_t>(pos),
               blob.begin() + static_cast<std::ptrdiff_t>(pos + key_size));
    pos += key_size;
    const uint32_t dims = get_le<uint32_t>(blob, pos);
    pos += 8 * dims;
    put_le<uint32_t>(out, static_cast<uint32_t>(local.size()));
    for (uint64_t v : local) put_le<uint64_t>(out, v);
  }
  put_le<uint64_t>(out, fnv1a(out.data(), out.size()));
  return out;
}

uint32_t entry_count(cl_ml_tuningcache_qcom cache) {
  size_t size = 0;
  REQUIRE(api().clSaveMLTuningCacheQCOM(cache, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<unsigned char> blob(size);
  REQUIRE(api().clSaveMLTuningCacheQCOM(cache, size, blob.data(), nullptr) == CL_SUCCESS);
  size_t pos = 12;
  return get_le<uint32_t>(blob, pos);
}

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

TEST_CASE("tuning: hostile work-group sizes are rejected at load or ignored at creation, ops run untuned") {
  DeviceTensor a, b, c;
  const int n = 64;
  for (DeviceTensor* t : {&a, &b, &c}) create(*t, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, n));
  const std::vector<float> va = random_values(n * n, -1, 1, 91), vb = random_values(n * n, -1, 1, 92);
  a.write(va);
  b.write(vb);
  c.allocate();
  const std::vector<float> want = ref::gemm(n, n, n, false, false, 1, 0, va, vb, {});
  const cl_ml_op_gemm_desc_qcom desc{n,
                                     n,
                                     n,
                                     CL_GEMM_TRANSFORM_NONE_QCOM,
                                     CL_GEMM_TRANSFORM_NONE_QCOM,
                                     fp32_value(1),
                                     fp32_value(0),
                                     CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  cl_ml_tensor_memory_desc_qcom descs[] = {{a.tensor, a.memory}, {b.tensor, b.memory}, {c.tensor, c.memory}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 3, descs) == CL_SUCCESS);
  // A genuine tuned entry for this op gives the keys.
  cl_ml_tuningcache_qcom tuned = nullptr;
  REQUIRE(api().clCreateMLTuningCacheQCOM(&tuned) == CL_SUCCESS);
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, tuned) ==
          CL_SUCCESS);
  REQUIRE(api().clTuneMLOpQCOM(env().queue, op, set, tuned, nullptr) == CL_SUCCESS);
  REQUIRE(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  REQUIRE(entry_count(tuned) == 1);
  size_t size = 0;
  REQUIRE(api().clSaveMLTuningCacheQCOM(tuned, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<unsigned char> blob(size);
  REQUIRE(api().clSaveMLTuningCacheQCOM(tuned, size, blob.data(), nullptr) == CL_SUCCESS);

  size_t max_group = 0;
  REQUIRE(clGetDeviceInfo(env().device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_group), &max_group, nullptr) ==
          CL_SUCCESS);
  struct Hostile {
    const char* what;
    std::vector<uint64_t> local;
    uint32_t entries_after_load;  // beyond the device's limits: dropped at load
  };
  const Hostile cases[] = {
      {"beyond the device's work-group limits", {uint64_t{1} << 20, uint64_t{1} << 20}, 0},
      {"one dimension beyond the device's maximum", {uint64_t{max_group} + 1, 1}, 0},
      {"32-bit maxima in 3 dimensions", {0xffffffffu, 0xffffffffu, 0xffffffffu}, 0},
      {"within the device's limits but not dividing the range", {3, 1}, 1},
      {"more dimensions than the kernel's range", {1, 1, 1}, 1},
  };
  for (const Hostile& h : cases) {
    CAPTURE(h.what);
    const std::vector<unsigned char> hostile = with_local_sizes(blob, h.local);
    cl_ml_tuningcache_qcom cache = nullptr;
    REQUIRE(api().clCreateMLTuningCacheQCOM(&cache) == CL_SUCCESS);
    REQUIRE(api().clLoadMLTuningCacheQCOM(cache, hostile.size(), const_cast<unsigned char*>(hostile.data())) ==
            CL_SUCCESS);
    CHECK(entry_count(cache) == h.entries_after_load);
    // Requiring a hit: the unusable entry is no hit.
    cl_ml_op_properties_qcom require_hit[] = {CL_ML_OP_REQUIRE_TUNING_CACHE_HIT_QCOM, 1, 0};
    CHECK(api().clCreateMLOpGemmQCOM(env().context, require_hit, &desc, a.tensor, b.tensor, c.tensor, &op, cache) ==
          CL_INVALID_VALUE);
    // Otherwise the op is created and runs untuned, with the right result.
    REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, cache) ==
            CL_SUCCESS);
    REQUIRE(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env().queue) == CL_SUCCESS);
    check_close(c.read(), want, 1e-5f);
    CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
    CHECK(api().clReleaseMLTuningCacheQCOM(cache) == CL_SUCCESS);
  }
  CHECK(api().clReleaseMLTuningCacheQCOM(tuned) == CL_SUCCESS);
  CHECK(api().clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_SUCCESS);
}

TEST_CASE("tuning: the blocked gemm kernel keeps its cache entry and runs only with its required work-group size") {
  // The GPU kernel, forced onto this device; the 64x64x16_4x4 tile needs 16 x 16 work-groups.
  const ScopedGemmKernel scoped("64x64x16_4x4");
  DeviceTensor a, b, c;
  const int n = 64;
  for (DeviceTensor* t : {&a, &b, &c}) create(*t, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, 1, n, n));
  const std::vector<float> va = random_values(n * n, -1, 1, 93), vb = random_values(n * n, -1, 1, 94);
  a.write(va);
  b.write(vb);
  c.allocate();
  const std::vector<float> want = ref::gemm(n, n, n, false, false, 1, 0, va, vb, {});
  const cl_ml_op_gemm_desc_qcom desc{n,
                                     n,
                                     n,
                                     CL_GEMM_TRANSFORM_NONE_QCOM,
                                     CL_GEMM_TRANSFORM_NONE_QCOM,
                                     fp32_value(1),
                                     fp32_value(0),
                                     CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_tensor_mem_desc_set_qcom set = nullptr;
  REQUIRE(api().clCreateMLTensorMemoryDescriptorSetQCOM(&set) == CL_SUCCESS);
  cl_ml_tensor_memory_desc_qcom descs[] = {{a.tensor, a.memory}, {b.tensor, b.memory}, {c.tensor, c.memory}};
  REQUIRE(api().clUpdateMLTensorMemoryDescriptorSetQCOM(set, 3, descs) == CL_SUCCESS);
  cl_ml_op_properties_qcom require_hit[] = {CL_ML_OP_REQUIRE_TUNING_CACHE_HIT_QCOM, 1, 0};

  // Tuning stores the one size the kernel runs with; a cache holding it is a hit.
  cl_ml_tuningcache_qcom tuned = nullptr;
  REQUIRE(api().clCreateMLTuningCacheQCOM(&tuned) == CL_SUCCESS);
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, tuned) ==
          CL_SUCCESS);
  REQUIRE(api().clTuneMLOpQCOM(env().queue, op, set, tuned, nullptr) == CL_SUCCESS);
  REQUIRE(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  REQUIRE(entry_count(tuned) == 1);
  REQUIRE(api().clCreateMLOpGemmQCOM(env().context, require_hit, &desc, a.tensor, b.tensor, c.tensor, &op, tuned) ==
          CL_SUCCESS);
  REQUIRE(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(env().queue) == CL_SUCCESS);
  check_close(c.read(), want, 1e-5f);
  CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
  size_t size = 0;
  REQUIRE(api().clSaveMLTuningCacheQCOM(tuned, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<unsigned char> blob(size);
  REQUIRE(api().clSaveMLTuningCacheQCOM(tuned, size, blob.data(), nullptr) == CL_SUCCESS);

  // An empty cache misses.
  cl_ml_tuningcache_qcom empty = nullptr;
  REQUIRE(api().clCreateMLTuningCacheQCOM(&empty) == CL_SUCCESS);
  CHECK(api().clCreateMLOpGemmQCOM(env().context, require_hit, &desc, a.tensor, b.tensor, c.tensor, &op, empty) ==
        CL_INVALID_VALUE);
  CHECK(api().clReleaseMLTuningCacheQCOM(empty) == CL_SUCCESS);

  // Sizes that divide the range and fit the device but are not the required 16 x 16 (and the
  // implementation's choice) are no hit; without requiring one the op runs with its own size.
  const std::vector<std::vector<uint64_t>> others = {{8, 8}, {32, 8}, {}};
  for (const std::vector<uint64_t>& local : others) {
    CAPTURE(local.size());
    const std::vector<unsigned char> other = with_local_sizes(blob, local);
    cl_ml_tuningcache_qcom cache = nullptr;
    REQUIRE(api().clCreateMLTuningCacheQCOM(&cache) == CL_SUCCESS);
    REQUIRE(api().clLoadMLTuningCacheQCOM(cache, other.size(), const_cast<unsigned char*>(other.data())) == CL_SUCCESS);
    REQUIRE(entry_count(cache) == 1);
    CHECK(api().clCreateMLOpGemmQCOM(env().context, require_hit, &desc, a.tensor, b.tensor, c.tensor, &op, cache) ==
          CL_INVALID_VALUE);
    REQUIRE(api().clCreateMLOpGemmQCOM(env().context, nullptr, &desc, a.tensor, b.tensor, c.tensor, &op, cache) ==
            CL_SUCCESS);
    c.write(std::vector<float>(n * n, 0.0f));
    REQUIRE(api().clEnqueueMLOpQCOM(env().queue, op, set, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env().queue) == CL_SUCCESS);
    check_close(c.read(), want, 1e-5f);
    CHECK(api().clReleaseMLOpQCOM(op) == CL_SUCCESS);
    CHECK(api().clReleaseMLTuningCacheQCOM(cache) == CL_SUCCESS);
  }
  CHECK(api().clReleaseMLTuningCacheQCOM(tuned) == CL_SUCCESS);
  CHECK(api().clReleaseMLTensorMemoryDescriptorSetQCOM(set) == CL_SUCCESS);
}
