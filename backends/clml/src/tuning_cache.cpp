// tuning_cache.cpp -- tuning caches: on-device timing of local work-group sizes on a profiling
// queue, and the serialised form:
//   "TCLMLTC\0" | u32 version (1) | u32 entry count |
//   entries: u32 key length, key bytes, u32 dims (0..3), dims x u64 local size |
//   u64 FNV-1a checksum of everything before it.   (all integers little-endian)
// Keys start with the device name ("name|op signature#dispatch"). Loading drops entries whose
// local size the named device cannot run; op creation checks a tuned size against the kernel.
#include "tuning_cache.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "api_guard.h"
#include "descriptor_set.h"
#include "handle_registry.h"
#include "op.h"

namespace tessera::clml {

namespace {

constexpr char kMagic[8] = {'T', 'C', 'L', 'M', 'L', 'T', 'C', '\0'};
constexpr uint32_t kFormatVersion = 1;

uint64_t fnv1a(const unsigned char* data, size_t size) {
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

template <class Int>
void put(std::vector<unsigned char>& out, Int value) {
  for (size_t i = 0; i < sizeof(Int); ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

class Reader {
 public:
  Reader(const unsigned char* data, size_t size) : data_(data), size_(size) {}
  template <class Int>
  bool get(Int& value) {
    if (size_ - pos_ < sizeof(Int)) return false;
    value = 0;
    for (size_t i = 0; i < sizeof(Int); ++i) value |= static_cast<Int>(data_[pos_ + i]) << (8 * i);
    pos_ += sizeof(Int);
    return true;
  }
  bool bytes(size_t count, std::string& out) {
    if (size_ - pos_ < count) return false;
    out.assign(reinterpret_cast<const char*>(data_ + pos_), count);
    pos_ += count;
    return true;
  }
  size_t position() const { return pos_; }

 private:
  const unsigned char* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Work-group limits of one device (the smallest over devices that share a name).
struct DeviceLimits {
  size_t max_group = 0;
  std::vector<size_t> max_items;
};

// The limits of every OpenCL device present, by CL_DEVICE_NAME.
std::map<std::string, DeviceLimits> device_limits_by_name() {
  std::map<std::string, DeviceLimits> limits;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return limits;  // no platform: nothing to validate against
  }
  for (const cl::Platform& platform : platforms) {
    std::vector<cl::Device> devices;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;
    }
    for (const cl::Device& device : devices) {
      const std::string name = device.getInfo<CL_DEVICE_NAME>();
      const size_t max_group = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      const std::vector<size_t> max_items = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
      auto [it, inserted] = limits.emplace(name, DeviceLimits{max_group, max_items});
      if (inserted) continue;
      DeviceLimits& known = it->second;
      known.max_group = std::min(known.max_group, max_group);
      if (max_items.size() < known.max_items.size()) known.max_items.resize(max_items.size());
      for (size_t d = 0; d < known.max_items.size(); ++d)
        known.max_items[d] = std::min(known.max_items[d], max_items[d]);
    }
  }
  return limits;
}

bool within_limits(const std::vector<size_t>& local, const DeviceLimits& limits) {
  if (local.size() > limits.max_items.size()) return false;
  int64_t product = 1;
  for (size_t d = 0; d < local.size(); ++d) {
    if (local[d] > limits.max_items[d]) return false;
    if (!checked_mul(product, static_cast<int64_t>(local[d]), product)) return false;
  }
  return static_cast<uint64_t>(product) <= limits.max_group;
}

// Drops the entries whose local size exceeds the limits of the device their key names. Entries
// for devices not present are kept (a cache may serve several devices; they never match here).
void drop_unrunnable_entries(std::map<std::string, std::vector<size_t>>& entries) {
  const std::map<std::string, DeviceLimits> limits = device_limits_by_name();
  for (auto it = entries.begin(); it != entries.end();) {
    const std::string device = it->first.substr(0, it->first.find('|'));
    auto found = limits.find(device);
    if (found != limits.end() && !within_limits(it->second, found->second))
      it = entries.erase(it);
    else
      ++it;
  }
}

}  // namespace

bool local_size_usable(const std::vector<size_t>& local, const cl::NDRange& global, const cl::Kernel& kernel,
                       const cl::Device& device) {
  // A kernel declared with reqd_work_group_size runs with exactly that size.
  size_t required[3] = {0, 0, 0};
  if (clGetKernelWorkGroupInfo(kernel(), device(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(required), required,
                               nullptr) != CL_SUCCESS)
    return false;
  const bool has_required = required[0] != 0;
  if (local.empty()) return !has_required;  // the implementation's choice
  if (local.size() != global.dimensions()) return false;
  int64_t product = 1;
  const std::vector<size_t> max_items = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  for (size_t d = 0; d < local.size(); ++d) {
    if (local[d] == 0 || d >= max_items.size() || local[d] > max_items[d] || global.get()[d] % local[d] != 0)
      return false;
    if (has_required && (d >= 3 || local[d] != required[d])) return false;
    if (!checked_mul(product, static_cast<int64_t>(local[d]), product)) return false;
  }
  return static_cast<uint64_t>(product) <= kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
}

void TuningCache::store(const std::string& key, const std::vector<size_t>& local) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_[key] = local;
}

std::optional<std::vector<size_t>> TuningCache::lookup(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

std::vector<unsigned char> TuningCache::serialize() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<unsigned char> out(kMagic, kMagic + sizeof(kMagic));
  put<uint32_t>(out, kFormatVersion);
  put<uint32_t>(out, static_cast<uint32_t>(entries_.size()));
  for (const auto& [key, local] : entries_) {
    put<uint32_t>(out, static_cast<uint32_t>(key.size()));
    out.insert(out.end(), key.begin(), key.end());
    put<uint32_t>(out, static_cast<uint32_t>(local.size()));
    for (size_t v : local) put<uint64_t>(out, v);
  }
  put<uint64_t>(out, fnv1a(out.data(), out.size()));
  return out;
}

bool TuningCache::deserialize(const unsigned char* data, size_t size) {
  constexpr size_t kMinimum = sizeof(kMagic) + 4 + 4 + 8;
  if (data == nullptr || size < kMinimum || std::memcmp(data, kMagic, sizeof(kMagic)) != 0) return false;
  uint64_t stored = 0;
  for (size_t i = 0; i < 8; ++i) stored |= static_cast<uint64_t>(data[size - 8 + i]) << (8 * i);
  if (fnv1a(data, size - 8) != stored) return false;
  Reader reader(data + sizeof(kMagic), size - 8 - sizeof(kMagic));
  uint32_t version = 0, count = 0;
  if (!reader.get(version) || version != kFormatVersion || !reader.get(count)) return false;
  std::map<std::string, std::vector<size_t>> entries;
  for (uint32_t e = 0; e < count; ++e) {
    uint32_t key_size = 0, dims = 0;
    std::string key;
    if (!reader.get(key_size) || !reader.bytes(key_size, key) || !reader.get(dims) || dims > 3) return false;
    std::vector<size_t> local(dims);
    for (uint32_t d = 0; d < dims; ++d) {
      uint64_t v = 0;
      if (!reader.get(v) || v == 0 || v > std::numeric_limits<uint32_t>::max()) return false;
      local[d] = static_cast<size_t>(v);
    }
    entries[key] = std::move(local);
  }
  if (reader.position() != size - 8 - sizeof(kMagic)) return false;  // trailing garbage
  drop_unrunnable_entries(entries);
  std::lock_guard<std::mutex> lock(mutex_);
  entries_ = std::move(entries);
  return true;
}

TuningCachePtr find_tuning_cache(cl_ml_tuningcache_qcom handle) {
  return HandleRegistry<TuningCache>::instance().find(handle);
}

namespace {

std::vector<size_t> range_values(const cl::NDRange& range) {
  std::vector<size_t> out;
  for (cl_uint i = 0; i < range.dimensions(); ++i) out.push_back(range.get()[i]);
  return out;
}

cl_int tune_op(cl_command_queue queue, cl_ml_op_qcom handle, cl_ml_tensor_mem_desc_set_qcom set_handle,
               cl_ml_tuningcache_qcom cache_handle, cl_ulong* tuned_time) {
  if (cl_int err = validate_queue(queue); err != CL_SUCCESS) return err;
  OpPtr op = find_op(handle);
  DescriptorSetPtr set = find_descriptor_set(set_handle);
  TuningCachePtr cache = find_tuning_cache(cache_handle);
  if (!op || !set || !cache) return CL_INVALID_VALUE;
  if (queue_context(queue) != op->context()) return CL_INVALID_CONTEXT;
  std::vector<cl_mem> memories;
  if (cl_int err = set->resolve(*op, memories); err != CL_SUCCESS) return err;
  cl::CommandQueue(queue, true).finish();
  cl::CommandQueue profiling(op->context, op->device, CL_QUEUE_PROFILING_ENABLE);
  constexpr int kRepeats = 3;
  cl_ulong total = 0;
  std::lock_guard<std::mutex> lock(op->mutex);
  for (size_t i = 0; i < op->dispatches.size(); ++i) {
    KernelDispatch& d = op->dispatches[i];
    for (const auto& [index, slot] : d.tensor_args) {
      cl_mem memory = memories.at(slot);
      clSetKernelArg(d.kernel(), index, sizeof(cl_mem), &memory);
    }
    std::vector<cl::NDRange> candidates = d.local_candidates;
    if (candidates.empty()) candidates.push_back(d.local);
    cl_ulong best = std::numeric_limits<cl_ulong>::max();
    cl::NDRange best_local = d.local;
    for (const cl::NDRange& local : candidates) {
      // Only sizes that op creation accepts from a cache are stored.
      if (!local_size_usable(range_values(local), d.global, d.kernel, op->device)) continue;
      cl_ulong fastest = std::numeric_limits<cl_ulong>::max();
      try {
        for (int r = 0; r < kRepeats; ++r) {
          cl::Event event;
          profiling.enqueueNDRangeKernel(d.kernel, cl::NullRange, d.global, local, nullptr, &event);
          event.wait();
          const cl_ulong t =
              event.getProfilingInfo<CL_PROFILING_COMMAND_END>() - event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
          fastest = std::min(fastest, t);
        }
      } catch (const cl::Error&) {
        continue;  // this local size is not usable for the kernel on this device
      }
      if (fastest < best) {
        best = fastest;
        best_local = local;
      }
    }
    if (best == std::numeric_limits<cl_ulong>::max()) continue;
    d.local = best_local;
    cache->store(op->tuning_key(i), range_values(best_local));
    total += best;
  }
  if (tuned_time != nullptr) *tuned_time = total;
  return CL_SUCCESS;
}

}  // namespace

cl_int api_create_tuning_cache(cl_ml_tuningcache_qcom* out) {
  return guarded([&]() -> cl_int {
    if (out == nullptr) return CL_INVALID_VALUE;
    *out = HandleRegistry<TuningCache>::instance().add<cl_ml_tuningcache_qcom>(std::make_shared<TuningCache>());
    return CL_SUCCESS;
  });
}

cl_int api_tune_op(cl_command_queue queue, cl_ml_op_qcom op, cl_ml_tensor_mem_desc_set_qcom set,
                   cl_ml_tuningcache_qcom cache, cl_ulong* tuned_time) {
  return guarded([&] { return tune_op(queue, op, set, cache, tuned_time); });
}

cl_int api_save_tuning_cache(cl_ml_tuningcache_qcom handle, size_t len, unsigned char* data, size_t* len_ret) {
  return guarded([&]() -> cl_int {
    TuningCachePtr cache = find_tuning_cache(handle);
    if (!cache) return CL_INVALID_VALUE;
    if (len == 0 && data != nullptr) return CL_INVALID_VALUE;
    if (len != 0 && data == nullptr) return CL_INVALID_VALUE;
    const std::vector<unsigned char> blob = cache->serialize();
    if (len_ret != nullptr) *len_ret = blob.size();
    if (len == 0) return CL_SUCCESS;
    if (len < blob.size()) return CL_INVALID_VALUE;
    std::memcpy(data, blob.data(), blob.size());
    return CL_SUCCESS;
  });
}

cl_int api_load_tuning_cache(cl_ml_tuningcache_qcom handle, size_t len, unsigned char* data) {
  return guarded([&]() -> cl_int {
    TuningCachePtr cache = find_tuning_cache(handle);
    if (!cache || data == nullptr) return CL_INVALID_VALUE;
    return cache->deserialize(data, len) ? CL_SUCCESS : CL_INVALID_VALUE;
  });
}

cl_int api_release_tuning_cache(cl_ml_tuningcache_qcom handle) {
  return guarded([&]() -> cl_int {
    return HandleRegistry<TuningCache>::instance().remove(handle) ? CL_SUCCESS : CL_INVALID_VALUE;
  });
}

}  // namespace tessera::clml
