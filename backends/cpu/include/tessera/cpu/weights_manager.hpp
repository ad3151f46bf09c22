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
    /// first time they are asked for.
    std::shared_ptr<const Tensor> acquire(const ITensor& weights, const ITransformWeights& transform);
    /// Drops every transformation of `weights` (call when their values change).
    void invalidate(const ITensor& weights);
    /// How many transformations have been computed so far.
    std::size_t transforms_run() const { return transforms_run_; }
    std::size_t cached_count() const { return cache_.size(); }

private:
    std::mutex mutex_;
    std::map<std::pair<const ITensor*, std::string>, std::shared_ptr<Tensor>> cache_;
    std::size_t transforms_run_ = 0;
};

}  // namespace tessera::cpu
