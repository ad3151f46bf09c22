// runner.hpp: runs one conformance case on one backend (a one-node graph compiled with the
// backend's strict config) and judges it against the reference result: declined (the backend
// said no in its query), native or emulated (accepted and within tolerance), wrong (accepted,
// out of tolerance) or error (accepted, then failed to compile or run).
#pragma once

#include <string>
#include <vector>

#include "backend_table.hpp"
#include "case_support.hpp"

namespace conformance {

enum class verdict { native, emulated, declined, wrong, error };

const char* verdict_name(verdict v);

struct outcome {
    verdict v = verdict::error;
    std::string detail;  ///< decline reason, first mismatches or error text
};

/// Loads the backend's plugin from the build tree (once); false with `why` when it fails.
bool load_backend(const backend_entry& b, std::string& why);

/// Runs `c` on `b` and compares with `want` (reference::execute's outputs).
outcome run_case(const backend_entry& b, const conformance_case& c,
                 const std::vector<tensor>& want);

}  // namespace conformance
