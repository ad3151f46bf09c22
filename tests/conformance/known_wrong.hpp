// known_wrong.hpp: accepted wrong answers the suite has found and that are not fixed yet, each
// with its bug. Such a case is printed as "WRONG (known: ...)" and counted in the coverage
// table, but does not fail the run; a listed case that no longer gives a wrong answer (the
// backend was fixed, or now declines) fails, so that its entry is removed. Every entry is a
// bug to fix; the list is meant to be empty.
#pragma once

#include <string>
#include <vector>

namespace conformance {

struct known_wrong {
    const char* backend;
    const char* op;    ///< conformance_case::op
    const char* form;  ///< conformance_case::form
    const char* bug;
};

inline const std::vector<known_wrong> known_wrongs = {};

/// The bug of a known wrong (backend, op, form), or nullptr.
inline const char* known_bug(const std::string& backend, const std::string& op,
                             const std::string& form) {
    for (const auto& k : known_wrongs)
        if (backend == k.backend && op == k.op && form == k.form) return k.bug;
    return nullptr;
}

}  // namespace conformance
