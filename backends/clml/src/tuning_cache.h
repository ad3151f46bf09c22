// tuning_cache.h -- tuned local work-group sizes per op configuration, with a versioned and
// checksummed serialisation.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cl_config.h"

namespace tessera::clml {

class TuningCache {
 public:
  void store(const std::string& key, const std::vector<size_t>& local);
  std::optional<std::vector<size_t>> lookup(const std::string& key) const;
  std::vector<unsigned char> serialize() const;
  // Replaces the contents; false (and unchanged contents) for a malformed blob. Entries whose
  // local size exceeds the work-group limits of the device named in their key are dropped.
  bool deserialize(const unsigned char* data, size_t size);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<size_t>> entries_;
};

using TuningCachePtr = std::shared_ptr<TuningCache>;

// True when a tuned local size (empty = the implementation's choice) can run `kernel` over
// `global` on `device`: same dimensions, dividing the range, within the kernel's and device's
// work-group limits, and equal to the kernel's required work-group size where it has one (the
// implementation's choice then does not count as usable).
bool local_size_usable(const std::vector<size_t>& local, const cl::NDRange& global, const cl::Kernel& kernel,
                       const cl::Device& device);
TuningCachePtr find_tuning_cache(cl_ml_tuningcache_qcom handle);

}  // namespace tessera::clml
