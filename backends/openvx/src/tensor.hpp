// tensor.hpp: tensors ([W, H, C, N], dim 0 fastest), views sharing their root's memory, virtual
// tensors scoped in a graph, and the view and addressing objects of vxCopyTensorPatch.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "object.hpp"

namespace openvx {
/// A number no generation counter has held before (process-wide).
std::uint64_t fresh_generation();
}  // namespace openvx

struct _vx_tensor_t : _vx_reference {
    explicit _vx_tensor_t(vx_context owner) : _vx_reference(VX_TYPE_TENSOR, owner) {}
    void release_children() override;

    std::vector<vx_size> dims;  // 0 = unknown (virtual tensors until verify)
    vx_enum data_type = VX_TYPE_INVALID;
    vx_uint8 fixed_point_pos = 0;
    vx_size element_size = 0;
    std::vector<vx_size> strides;    // bytes per step of each dimension (the root's)
    vx_size offset = 0;              // bytes from the root's first element
    std::vector<vx_size> origin;     // first element in the root's coordinates
    _vx_tensor_t* parent = nullptr;  // internal reference (views)
    _vx_tensor_t* root = this;
    std::vector<std::uint8_t> memory;  // the root's elements
    /// The root's: renewed whenever its elements may change (patch copy, a node's output,
    /// allocation), so kernels can keep data derived from them (packed weights).
    std::atomic<std::uint64_t> generation{0};
    void mark_written() { root->generation.store(openvx::fresh_generation()); }
    /// A virtual root's memory shared with other virtual tensors of its graph (verify's plan).
    std::shared_ptr<std::vector<std::uint8_t>> planned;
    bool is_virtual = false;
    vx_graph scope = nullptr;            // graph of a virtual tensor (not a reference)
    std::vector<vx_size> declared_dims;  // a virtual tensor's dims as created (0 = unknown)

    bool shape_known() const;
    std::uint8_t* data() const {
        return (root->planned ? root->planned->data() : root->memory.data()) + offset;
    }
    bool allocated() const { return root->planned || !root->memory.empty(); }
    vx_size num_elements() const;
    /// Fixes dims (a virtual root's unknown dims) and computes strides; allocates the memory.
    void set_shape(const std::vector<vx_size>& new_dims);
    void allocate();
};

struct _vx_tensor_view_t : _vx_reference {
    explicit _vx_tensor_view_t(vx_context owner) : _vx_reference(VX_TYPE_TENSOR_VIEW, owner) {}
    std::vector<vx_size> start, end;
};

struct _vx_tensor_addressing_t : _vx_reference {
    explicit _vx_tensor_addressing_t(vx_context owner)
        : _vx_reference(VX_TYPE_TENSOR_ADDRESSING, owner) {}
    std::vector<vx_size> dims, strides;
};

namespace openvx {

/// Element size of a supported tensor element type, or 0.
vx_size element_size_of(vx_enum data_type);

/// True when the two tensors share memory elements (same root, intersecting boxes).
bool overlaps(const _vx_tensor_t& a, const _vx_tensor_t& b);

}  // namespace openvx
