// validate.hpp: argument and shape validation of every node kind, shared by the node creators
// (what is known at creation) and vxVerifyGraph (everything, inferring virtual outputs' shapes).
#pragma once

#include <string>
#include <vector>

#include "node.hpp"
#include "tensor.hpp"

namespace openvx {

/// One validation pass over a node. Failures log "<creator>: <parameter>: <reason>" on the graph.
class validator {
  public:
    validator(_vx_node& node, bool at_verify) : node_(node), at_verify_(at_verify) {}

    /// Runs the checks of the node's kind; VX_SUCCESS or the first failure's status.
    vx_status run();

    _vx_node& node() { return node_; }
    bool at_verify() const { return at_verify_; }
    /// Records a failure (first one wins) and logs it naming `parameter`.
    vx_status fail(vx_status status, const std::string& parameter, const std::string& reason);
    /// Tensor parameter `index` (nullptr when absent).
    _vx_tensor_t* tensor(std::size_t index) const;
    /// True when every tensor parameter of the node has a known shape (or this is verify and the
    /// inputs do).
    bool inputs_known() const;
    /// Checks output `index` against `expected` dims, or (at verify) gives a virtual output with
    /// unknown dims that shape.
    vx_status expect_output(std::size_t index, const std::vector<vx_size>& expected);
    /// Checks an enum value against the allowed ones.
    vx_status expect_enum(const std::string& parameter, vx_enum value,
                          std::initializer_list<vx_enum> allowed);
    /// Same data type and fixed-point position as tensor `reference_index`.
    vx_status expect_same_format(std::size_t index, std::size_t reference_index);
    /// Rank in [lo, hi].
    vx_status expect_rank(std::size_t index, std::size_t lo, std::size_t hi);

  private:
    _vx_node& node_;
    bool at_verify_;
    vx_status status_ = VX_SUCCESS;
};

vx_status validate_convolution(validator& v);
vx_status validate_fully_connected(validator& v);
vx_status validate_normalization(validator& v);
vx_status validate_pooling(validator& v);
vx_status validate_softmax(validator& v);
vx_status validate_activation(validator& v);
vx_status validate_elementwise(validator& v);
vx_status validate_table_lookup(validator& v);
vx_status validate_transpose(validator& v);

/// The down-scale skip giving `out` from a window `kernel` sliding over `in` padded by `pad` on
/// both sides with the size rounding, the smallest that fits; 0 when none does.
vx_uint32 derive_skip(vx_size in, vx_size pad, vx_size kernel, vx_size out, vx_enum size_rounding);
/// Output extent of the same relation for a given skip (0 when the window does not fit).
vx_size window_output(vx_size in, vx_size pad, vx_size kernel, vx_size skip, vx_enum size_rounding);

}  // namespace openvx
