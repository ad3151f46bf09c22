// WeightsManager: one computation per (weights tensor, transformation uid), shared afterwards.
#include "tessera/cpu/weights_manager.hpp"

namespace tessera::cpu {

std::shared_ptr<const Tensor> WeightsManager::acquire(const ITensor& weights,
                                                      const ITransformWeights& transform) {
    std::lock_guard<std::mutex> lock(mutex_);
    Key key{&weights, weights.buffer(), transform.uid()};
    auto it = cache_.find(key);
    if (it != cache_.end()) {
        if (auto alive = it->second.lock()) return alive;
        cache_.erase(it);
    }
    auto result = std::make_shared<Tensor>(transform.result_info());
    result->allocator().allocate();
    transform.run(*result);
    ++transforms_run_;
    cache_.emplace(std::move(key), result);
    return result;
}

void WeightsManager::invalidate(const ITensor& weights) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = cache_.begin(); it != cache_.end();)
        it = it->first.tensor == &weights ? cache_.erase(it) : std::next(it);
}

std::size_t WeightsManager::cached_count() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t alive = 0;
    for (const auto& entry : cache_) alive += entry.second.expired() ? 0 : 1;
    return alive;
}

}  // namespace tessera::cpu
