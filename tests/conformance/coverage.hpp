// coverage.hpp: what the conformance run saw, per op and backend: how many cases ran native,
// emulated, were declined or failed. Printed after the run as a plain table, and written as the
// markdown table README.md's op coverage section is generated from (--coverage=FILE).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner.hpp"

namespace conformance {

class coverage {
  public:
    /// The process-wide record the test cases add to.
    static coverage& instance();

    void add(const std::string& op, const std::string& backend, verdict v);

    /// One row per op, one column per backend: "native 12", "declined 3", ... per cell.
    std::string text() const;
    /// The same as a markdown table (op names in backticks, counts in each cell).
    std::string markdown() const;

  private:
    using counts = std::map<verdict, int>;
    std::vector<std::string> backends_;  ///< in the order first seen (the backend table's)
    std::map<std::string, std::map<std::string, counts>> cells_;  ///< op -> backend -> counts
};

/// The ops of the op set (tessera::op_variant) in declaration order, by name.
std::vector<std::string> op_set_names();

}  // namespace conformance
