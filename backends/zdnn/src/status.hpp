// Status reporting: message strings for every zdnn_status, plus the single exit point that logs
// failures and prints ZDNN_STATUS_DIAG diagnostics.
#pragma once

#include <zdnn.h>

#include <new>

namespace tessera::zdnn {

// Text for a status, or "(Status string is not defined.)".
const char* status_message(zdnn_status status);

// Returns `status` after logging it (warnings/errors at the configured level) and printing a
// diagnostic when it equals ZDNN_STATUS_DIAG. `where` names the API function, `detail` says why.
zdnn_status report(zdnn_status status, const char* where, const char* detail = nullptr);

// Runs an API body, turning allocation failures (and any other escaping exception) into statuses
// so that nothing propagates through the C interface.
template <class Body>
zdnn_status guarded(const char* where, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return report(ZDNN_ALLOCATION_FAILURE, where, "out of memory");
  } catch (...) {
    return report(ZDNN_UNSUPPORTED_AIU_EXCEPTION, where, "internal error");
  }
}

inline bool is_error(zdnn_status s) {
  return s != ZDNN_OK && s != ZDNN_ELEMENT_RANGE_VIOLATION;
}

}  // namespace tessera::zdnn
