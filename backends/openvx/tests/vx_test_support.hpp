// vx_test_support.hpp: what the OpenVX tests share: a context that checks on exit that every
// object was released (VX_CONTEXT_REFERENCES back to its start), the captured log, tensors
// filled from and read into vectors, deterministic random data and the conversion of OpenVX
// tensors ([W, H, C, N], dim 0 fastest) to Tessera reference tensors (row-major, reversed dims).
#pragma once

#include <VX/vx_khr_cnn.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/op_test_values.hpp"

namespace vx_test {

struct log_entry {
    vx_status status;
    std::string message;
};

/// A context for one test case; on destruction it checks VX_CONTEXT_REFERENCES is back where it
/// started, then releases the context.
class test_context {
  public:
    test_context();
    ~test_context();
    test_context(const test_context&) = delete;
    test_context& operator=(const test_context&) = delete;

    operator vx_context() const { return context_; }
    vx_uint32 references() const;
    /// Log entries received so far.
    const std::vector<log_entry>& log() const;
    void clear_log();
    /// True when some entry has `status` and mentions every part.
    bool logged(vx_status status, const std::vector<std::string>& parts) const;

  private:
    vx_context context_;
    vx_uint32 start_;
};

using raw_t = std::vector<std::int64_t>;

/// Deterministic pseudo-random integers in [lo, hi].
raw_t random_raw(std::size_t n, std::uint64_t seed, std::int64_t lo, std::int64_t hi);
/// A deterministic generator of small integers.
struct rng {
    explicit rng(std::uint64_t seed)
        : state(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
    std::uint64_t next();
    /// Uniform in [lo, hi].
    std::int64_t uniform(std::int64_t lo, std::int64_t hi);
    std::uint64_t state;
};

vx_tensor make_tensor(vx_context context, const std::vector<vx_size>& dims, vx_enum type,
                      vx_uint8 fixed_point_pos = 0);
/// Writes raw values (dim 0 fastest) into a whole tensor; checks the status.
void write_tensor(vx_tensor tensor, const raw_t& values);
/// Reads a whole tensor's raw values (dim 0 fastest).
raw_t read_tensor(vx_tensor tensor);
std::vector<vx_size> tensor_dims(vx_tensor tensor);
vx_size element_count(const std::vector<vx_size>& dims);

/// A Tessera tensor with OpenVX dims [d0, d1, ...] as row-major [..., d1, d0] holding `raw`.
tessera::tensor to_reference(const std::vector<vx_size>& vx_dims, const raw_t& raw, vx_enum type,
                             int fixed_point_pos);
/// Raw values of a Tessera tensor as integers.
raw_t raw_of(const tessera::tensor& t);

/// Runs `graph` (process) and checks success.
void process(vx_graph graph);

/// Element-wise comparison with a tolerance; reports the first mismatch with context text.
void check_equal(const raw_t& got, const raw_t& expected, std::int64_t tolerance,
                 const std::string& what);

}  // namespace vx_test

namespace vx_test {

/// Builds a one-node graph with `make(graph)`, processes it and returns the output's raw values;
/// the node must be created (the log's last entry explains a failure).
template <typename MakeNode>
raw_t run_single(test_context& context, vx_tensor out, MakeNode&& make) {
    vx_graph graph = vxCreateGraph(context);
    vx_node node = make(graph);
    REQUIRE_MESSAGE(node != nullptr,
                    (context.log().empty() ? std::string("no log") : context.log().back().message));
    process(graph);
    vxReleaseNode(&node);
    vxReleaseGraph(&graph);
    return read_tensor(out);
}

}  // namespace vx_test
