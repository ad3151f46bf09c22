// WeightsManager: computes each transformation (reshape/pack/fold) of a weights tensor once and
// shares the result among every function that asks for the same transformation.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// A transformation of weights; uid() must identify the transformation and its parameters.
class ITransformWeights {
  public:
    virtual ~ITransformWeights() = default;
    virtual std::string uid() const = 0;
    virtual TensorInfo result_info() const = 0;
    /// Fills `result` (already allocated with result_info()).
    virtual void run(Tensor& result) const = 0;
};

class WeightsManager {
  public:
    /// Returns the (shared) transformed weights of `weights` under `transform`, computing them the
    /// first time they are asked for. The result lives as long as some caller holds it; the cache
    /// key includes the weights' buffer address, so re-allocated weights are never confused.
    std::shared_ptr<const Tensor> acquire(const ITensor& weights,
                                          const ITransformWeights& transform);
    /// Drops every transformation of `weights` (call when their values change).
    void invalidate(const ITensor& weights);
    /// How many transformations have been computed so far.
    std::size_t transforms_run() const { return transforms_run_; }
    /// Transformations currently alive.
    std::size_t cached_count();

  private:
    std::mutex mutex_;
    struct Key {
        const ITensor* tensor;
        const uint8_t* buffer;
        std::string uid;
        bool operator<(const Key& o) const {
            if (tensor != o.tensor) return tensor < o.tensor;
            if (buffer != o.buffer) return buffer < o.buffer;
            return uid < o.uid;
        }
    };
    std::map<Key, std::weak_ptr<Tensor>> cache_;
    std::size_t transforms_run_ = 0;
};

}  // namespace tessera::cpu
