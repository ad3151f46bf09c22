// handle_registry.h -- maps the opaque CLML handles handed to clients to live C++ objects.
//
// Every handle the API returns is the address of an object owned by a registry. A handle is
// valid exactly while it is registered, so bad or released handles are rejected with an error
// code instead of being dereferenced. Objects are shared_ptr-owned: ops keep the tensors they
// were created with alive after the client released them.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

namespace tessera::clml {

template <class Object>
class HandleRegistry {
 public:
  // The registry of one object type; deliberately never destroyed so that handles released
  // during static destruction (after main) still find it.
  static HandleRegistry& instance() {
    static auto* registry = new HandleRegistry();
    return *registry;
  }

  template <class Handle>
  Handle add(std::shared_ptr<Object> object) {
    std::lock_guard<std::mutex> lock(mutex_);
    void* key = object.get();
    live_.emplace(key, std::move(object));
    return reinterpret_cast<Handle>(key);
  }

  template <class Handle>
  std::shared_ptr<Object> find(Handle handle) const {
    if (handle == nullptr) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<const void*>(handle));
    return it == live_.end() ? nullptr : it->second;
  }

  // Drops the client's reference; returns false when the handle was not live.
  template <class Handle>
  bool remove(Handle handle) {
    std::shared_ptr<Object> keep;  // destroyed outside the lock
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<const void*>(handle));
    if (it == live_.end()) return false;
    keep = std::move(it->second);
    live_.erase(it);
    return true;
  }

 private:
  HandleRegistry() = default;
  mutable std::mutex mutex_;
  std::unordered_map<const void*, std::shared_ptr<Object>> live_;
};

}  // namespace tessera::clml
