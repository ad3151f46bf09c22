// tessera/error.hpp: the one exception type of the front-end, carrying a status code and the
// backend, op and tensor the failure concerns.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "tessera/c/status.h"

namespace tessera {

/// Status codes shared by the C++ API and the plugin ABI.
enum class status : int {
    success = TSR_SUCCESS,
    invalid_argument = TSR_INVALID_ARGUMENT,
    unsupported = TSR_UNSUPPORTED,
    out_of_memory = TSR_OUT_OF_MEMORY,
    not_found = TSR_NOT_FOUND,
    abi_mismatch = TSR_ABI_MISMATCH,
    invalid_graph = TSR_INVALID_GRAPH,
    parse_error = TSR_PARSE_ERROR,
    backend_failure = TSR_BACKEND_FAILURE,
    runtime_error = TSR_RUNTIME_ERROR,
    /// Graph compilation: a backend accepted its nodes when queried, then its compile reported
    /// them unsupported. A node no backend accepts (or a strict backend declines) is
    /// `unsupported`. Front-end only: it crosses the plugin ABI as TSR_UNSUPPORTED, and its
    /// value lies outside the C codes.
    compile_failed = 100,
};

/// Short name of a status code, e.g. "invalid_argument".
inline const char* to_string(status s) {
    if (s == status::compile_failed) return "compile_failed";
    return tsr_status_name(static_cast<std::int32_t>(s));
}

/// The ABI status code of a status: compile_failed crosses the ABI as TSR_UNSUPPORTED.
inline tsr_status to_c_status(status s) {
    return s == status::compile_failed ? TSR_UNSUPPORTED : static_cast<tsr_status>(s);
}

/// Where an error happened: every field is optional.
struct error_context {
    std::string backend;  ///< e.g. "cpu", "reference"
    std::string op;       ///< e.g. "conv2d"
    std::string tensor;   ///< e.g. "weights"
};

/// The exception thrown by every Tessera call. what() reads like
/// "conv2d: tensor 'weights': dim 1 (C) is 3, expected 16 [invalid_argument, backend cpu]".
/// Thread safety: an immutable value; may be copied and read on any threads.
class error : public std::runtime_error {
  public:
    error(status code, std::string message, error_context where = {})
        : std::runtime_error(compose(code, message, where)),
          code_(code),
          message_(std::move(message)),
          where_(std::move(where)) {}

    status code() const noexcept { return code_; }
    const std::string& message() const noexcept { return message_; }
    const std::string& backend() const noexcept { return where_.backend; }
    const std::string& op() const noexcept { return where_.op; }
    const std::string& tensor() const noexcept { return where_.tensor; }

  private:
    static std::string compose(status code, const std::string& message, const error_context& w) {
        std::string text;
        if (!w.op.empty()) text += w.op + ": ";
        if (!w.tensor.empty()) text += "tensor '" + w.tensor + "': ";
        text += message;
        text += " [";
        text += to_string(code);
        if (!w.backend.empty()) text += ", backend " + w.backend;
        text += "]";
        return text;
    }

    status code_;
    std::string message_;
    error_context where_;
};

/// Throws an invalid_argument error naming the op and tensor.
[[noreturn]] inline void fail_invalid(const std::string& op, const std::string& tensor,
                                      const std::string& message) {
    throw error(status::invalid_argument, message, {{}, op, tensor});
}

}  // namespace tessera
