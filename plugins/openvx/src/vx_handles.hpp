// vx_handles.hpp: RAII owners of OpenVX references (context, graph, tensors, nodes, scalars,
// LUTs, addressing objects), released once with vxReleaseReference, and the status check every
// OpenVX call of the plugin goes through.
#pragma once

#include <VX/vx_khr_cnn.h>

#include <string>
#include <utility>

#include "tessera/error.hpp"

namespace tessera::plugins::openvx {

inline constexpr const char* backend_name = "openvx";

/// Throws a tessera::error naming the OpenVX call when `s` is not VX_SUCCESS.
inline void check_vx(vx_status s, const std::string& call) {
    if (s != VX_SUCCESS)
        throw error(status::backend_failure, call + " failed with vx_status " + std::to_string(s),
                    {backend_name, "", ""});
}

/// Throws when `r` (a freshly created OpenVX object) is NULL or carries an error status.
inline void check_created(vx_reference r, const std::string& call) {
    if (!r) throw error(status::backend_failure, call + " returned NULL", {backend_name, "", ""});
    check_vx(vxGetStatus(r), call);
}

/// One owned OpenVX reference of type T (vx_graph, vx_tensor, vx_node, ...).
template <typename T>
class vx_owned {
  public:
    vx_owned() = default;
    explicit vx_owned(T r) : r_(r) {}
    ~vx_owned() { reset(); }
    vx_owned(vx_owned&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
    vx_owned& operator=(vx_owned&& o) noexcept {
        if (this != &o) {
            reset();
            r_ = std::exchange(o.r_, nullptr);
        }
        return *this;
    }
    vx_owned(const vx_owned&) = delete;
    vx_owned& operator=(const vx_owned&) = delete;

    T get() const { return r_; }
    explicit operator bool() const { return r_ != nullptr; }
    void reset() {
        if (r_) {
            vx_reference r = reinterpret_cast<vx_reference>(r_);
            vxReleaseReference(&r);
            r_ = nullptr;
        }
    }

  private:
    T r_ = nullptr;
};

/// The context: released with vxReleaseContext after everything made in it.
class vx_context_owner {
  public:
    vx_context_owner() : c_(vxCreateContext()) {
        check_created(reinterpret_cast<vx_reference>(c_), "vxCreateContext");
    }
    ~vx_context_owner() { vxReleaseContext(&c_); }
    vx_context_owner(const vx_context_owner&) = delete;
    vx_context_owner& operator=(const vx_context_owner&) = delete;
    vx_context get() const { return c_; }

  private:
    vx_context c_ = nullptr;
};

}  // namespace tessera::plugins::openvx
