// tessera/ops/pod_op.hpp: pod_op, the base of every op descriptor whose parameters are a plain C
// struct of the plugin ABI. The C struct is a protected base, an implementation detail: users
// read parameters through the descriptor's typed getters and set them through its fluent
// setters; the struct itself crosses the ABI only through c_params() and from_c().
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/c/ops.h"

namespace tessera::op {

template <typename Derived, typename CParams, tsr_op_kind Kind>
struct pod_op : protected CParams {
    static_assert(std::is_trivially_copyable_v<CParams>);
    static constexpr tsr_op_kind op_kind = Kind;
    /// The C parameter struct of the plugin ABI that c_params() points to.
    using c_type = CParams;

    pod_op() : CParams{} { this->struct_size = sizeof(CParams); }

    /// The parameter struct handed across the ABI.
    const void* c_params() const { return static_cast<const CParams*>(this); }

    /// Rebuilds the descriptor from ABI parameters written by an older or newer peer: fields
    /// past the writer's struct_size keep their defaults, unknown trailing fields are ignored.
    static Derived from_c(const void* params) {
        Derived d;
        if (params) {
            std::uint32_t size = 0;
            std::memcpy(&size, params, sizeof size);
            const std::size_t n = size < sizeof(CParams) ? size : sizeof(CParams);
            CParams& fields = d.raw();
            std::memcpy(&fields, params, n);
            fields.struct_size = sizeof(CParams);
        }
        return d;
    }

  protected:
    /// The C parameter fields, for the descriptor's own code (a getter may hide a field's name).
    CParams& raw() { return *this; }
    const CParams& raw() const { return *this; }
};

}  // namespace tessera::op
