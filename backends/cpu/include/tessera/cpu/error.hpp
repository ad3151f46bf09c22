// Typed exceptions of the CPU runtime: every error names the function, the tensor and the reason.
#pragma once

#include <stdexcept>
#include <string>

namespace tessera::cpu {

/// Base of every error thrown by the CPU runtime.
class Error : public std::runtime_error {
  public:
    Error(const std::string& function, const std::string& tensor, const std::string& reason)
        : std::runtime_error(function + ": " + (tensor.empty() ? "" : "tensor '" + tensor + "': ") +
                             reason),
          function_(function),
          tensor_(tensor) {}
    const std::string& function() const { return function_; }
    const std::string& tensor() const { return tensor_; }

  private:
    std::string function_;
    std::string tensor_;
};

/// A shape, data type, layout or parameter that the operation cannot accept.
class InvalidArgument : public Error {
  public:
    using Error::Error;
};

/// A valid request that this runtime does not implement (yet).
class Unsupported : public Error {
  public:
    using Error::Error;
};

/// Memory could not be provided: allocation failure, bad import, unpopulated memory manager.
class MemoryError : public Error {
  public:
    using Error::Error;
};

/// Throws InvalidArgument when `condition` is false.
inline void require(bool condition, const char* function, const std::string& tensor,
                    const std::string& reason) {
    if (!condition) throw InvalidArgument(function, tensor, reason);
}

}  // namespace tessera::cpu
