// ops/built_op.hpp: what an op file builds: one Tessera op (descriptor plus tensor descriptors)
// as one CLML op (two for a general clip), and the router that maps each op type to its builder.
// The same builders serve query() (probe creation with tensors that have no memory, to learn
// whether CLML accepts the op and how large its OPTIMAL outputs are) and compile().
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../handles.hpp"
#include "tessera/c/plugin.h"
#include "tessera/ops/op_desc.hpp"
#include "tessera/sdk/op_router.hpp"

namespace tessera::plugins::qcom_ml {

/// Thrown when an op or one of its attributes has no exact CLML form.
class op_declined : public std::runtime_error {
  public:
    op_declined(tsr_reason why, const std::string& text) : std::runtime_error(text), reason(why) {}
    tsr_reason reason;
};

/// Where ops are created: the context, and a queue to fill internal parameter memory (null in
/// probes, which create no memory).
struct build_context {
    cl_context context = nullptr;
    cl_command_queue fill_queue = nullptr;
};

/// The CLML tensors of one node: its inputs and outputs, in node order.
struct node_tensors {
    std::vector<tensor_desc> in_descs, out_descs;
    std::vector<cl_ml_tensor_qcom> in, out;
};

/// A created CLML op and what it binds at enqueue time.
struct built_op {
    std::vector<ml_tensor_handle> owned_tensors;  ///< unused/parameter tensors of this op
    std::vector<mem_handle> owned_memory;         ///< memory of the parameter tensors
    /// (tensor, node position): position < inputs is an input, else output (position - inputs).
    std::vector<std::pair<cl_ml_tensor_qcom, int>> node_bindings;
    /// Tensors with memory of their own (activation parameters the op descriptor carries).
    std::vector<std::pair<cl_ml_tensor_qcom, cl_mem>> internal_bindings;
    ml_op_handle op;  ///< declared after the tensors: released before them
    /// A second CLML op enqueued right after `op` with the same descriptor set (a general clip is
    /// Binary MAX then Binary MIN); null for one-op nodes. `then_tensors` are the node tensors it
    /// uses (tensor-memory updates name only those).
    ml_op_handle then_op;
    std::vector<cl_ml_tensor_qcom> then_tensors;
    /// A reorder: no CLML op, a CLML tensor copy of input 0 into output 0 between recordings.
    bool copy = false;
};

class qcom_ml_backend;

/// The qcom-ml router: a query rule gets the query and the backend (which probes CLML), a build
/// rule the context and the node's CLML tensors.
using router =
    sdk::op_router<sdk::support(const sdk::op_query& q, const qcom_ml_backend& backend),
                   std::unique_ptr<built_op>(const build_context& ctx, const node_tensors& t)>;

/// The router with every op of ops/*.cpp stated; unstated ops are declined ("has no CLML V1 op").
const router& op_routes();

}  // namespace tessera::plugins::qcom_ml
