// tessera/plugin/backend.hpp: RAII C++ handles over a plugin's C table, the host's view of a
// backend (in the manner of opencl.hpp over cl.h): backend, buffer (device memory with map/unmap
// and layout-converting copies) and compiled (an executable partition). Errors from the plugin
// come back as tessera::error naming the backend.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/c/plugin.h"
#include "tessera/config.hpp"
#include "tessera/error.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/plugin/compile_stats.hpp"
#include "tessera/plugin/error_record.hpp"
#include "tessera/plugin/registry.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

struct device_info {
    std::string name;
    std::string kind;
    std::string details;
};

/// A capability answer, as the host sees it.
struct op_support {
    tsr_support_level level = TSR_SUPPORT_NONE;
    tsr_reason reason = TSR_REASON_NONE;
    std::string text;
    std::vector<tensor_desc> inputs;   ///< layouts the backend wants for its inputs
    std::vector<tensor_desc> outputs;  ///< layouts it will produce
    bool supported() const { return level != TSR_SUPPORT_NONE; }
};

namespace detail {

/// Shared state of one created backend: the table and the plugin's handle.
struct backend_state {
    const tsr_plugin_api* api = nullptr;
    tsr_backend handle = nullptr;
    std::string name;
    ~backend_state() {
        if (handle) api->release_backend(handle);
    }
};

inline tsr_error make_error_record() {
    tsr_error e{};
    e.struct_size = sizeof e;
    return e;
}

/// Throws the plugin's error record as a tessera::error. Each text field is read within its
/// buffer: a plugin may leave it without a terminator.
inline void check(tsr_status st, const tsr_error& e, const std::string& backend,
                  const std::string& what) {
    if (st == TSR_SUCCESS) return;
    std::string message = bounded_text(e.message);
    if (message.empty()) message = what + " failed";
    throw error(static_cast<status>(st), message,
                {backend, bounded_text(e.op), bounded_text(e.tensor)});
}

/// Whether the plugin's table (of its own struct_size) has the slot at `member`.
template <typename F>
bool has_slot(const tsr_plugin_api* api, F tsr_plugin_api::*member) {
    const auto offset =
        reinterpret_cast<const char*>(&(api->*member)) - reinterpret_cast<const char*>(api);
    return static_cast<std::size_t>(offset) + sizeof(F) <= api->struct_size &&
           api->*member != nullptr;
}

}  // namespace detail

/// A host-mapped view of a buffer; unmaps when destroyed.
/// Thread safety (mapped_region, buffer, compiled_partition, backend): handles of one backend
/// instance are used by one thread at a time, as compiled_graph does (it owns its instances and
/// serialises its runs); separate instances, also of one plugin, may be used on separate
/// threads at once, so plugins must keep any state shared between instances thread-safe.
class mapped_region {
  public:
    mapped_region(std::shared_ptr<detail::backend_state> state, tsr_buffer b, void* p)
        : state_(std::move(state)), buffer_(b), ptr_(p) {}
    mapped_region(mapped_region&& o) noexcept
        : state_(std::move(o.state_)), buffer_(o.buffer_), ptr_(std::exchange(o.ptr_, nullptr)) {}
    mapped_region(const mapped_region&) = delete;
    mapped_region& operator=(const mapped_region&) = delete;
    mapped_region& operator=(mapped_region&&) = delete;
    ~mapped_region() {
        if (ptr_ && detail::has_slot(state_->api, &tsr_plugin_api::buffer_unmap)) {
            auto e = detail::make_error_record();
            state_->api->buffer_unmap(buffer_, ptr_, &e);
        }
    }
    void* data() const { return ptr_; }

  private:
    std::shared_ptr<detail::backend_state> state_;
    tsr_buffer buffer_;
    void* ptr_;
};

/// Memory owned by a backend. Move-only; released when destroyed.
class buffer {
  public:
    buffer() = default;
    buffer(std::shared_ptr<detail::backend_state> state, tsr_buffer b, std::int64_t size)
        : state_(std::move(state)), handle_(b), size_(size) {}
    buffer(buffer&& o) noexcept
        : state_(std::move(o.state_)), handle_(std::exchange(o.handle_, nullptr)), size_(o.size_) {}
    buffer& operator=(buffer&& o) noexcept {
        if (this != &o) {
            reset();
            state_ = std::move(o.state_);
            handle_ = std::exchange(o.handle_, nullptr);
            size_ = o.size_;
        }
        return *this;
    }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;
    ~buffer() { reset(); }

    tsr_buffer handle() const { return handle_; }
    std::int64_t size() const { return size_; }
    explicit operator bool() const { return handle_ != nullptr; }

    /// Maps for host access; throws unsupported on backends whose memory the host cannot address.
    mapped_region map(int access = TSR_MAP_READ | TSR_MAP_WRITE) const {
        if (!detail::has_slot(state_->api, &tsr_plugin_api::buffer_map)) {
            throw error(status::unsupported,
                        "buffers cannot be mapped; use copy_to_host/copy_from_host",
                        {state_->name, "", ""});
        }
        void* p = nullptr;
        auto e = detail::make_error_record();
        detail::check(state_->api->buffer_map(handle_, access, &p, &e), e, state_->name, "map");
        return mapped_region(state_, handle_, p);
    }

    /// Copies the buffer, holding a tensor laid out as `src_desc`, into `dst` (converting).
    void copy_to_host(const tensor_desc& src_desc, const tensor& dst) const {
        auto e = detail::make_error_record();
        detail::check(state_->api->copy_to_host(state_->handle, handle_, &src_desc.c_desc(),
                                                dst.base(), &dst.desc().c_desc(), &e),
                      e, state_->name, "copy_to_host");
    }
    /// Copies `src` into the buffer, laid out as `dst_desc` (converting).
    void copy_from_host(const tensor& src, const tensor_desc& dst_desc) const {
        auto e = detail::make_error_record();
        detail::check(state_->api->copy_from_host(state_->handle, src.base(), &src.desc().c_desc(),
                                                  handle_, &dst_desc.c_desc(), &e),
                      e, state_->name, "copy_from_host");
    }

  private:
    void reset() {
        if (handle_) state_->api->buffer_release(handle_);
        handle_ = nullptr;
    }
    std::shared_ptr<detail::backend_state> state_;
    tsr_buffer handle_ = nullptr;
    std::int64_t size_ = 0;
};

/// A partition compiled by a backend.
class compiled_partition {
  public:
    compiled_partition(std::shared_ptr<detail::backend_state> state, tsr_compiled c)
        : state_(std::move(state)), handle_(c) {}
    compiled_partition(compiled_partition&& o) noexcept
        : state_(std::move(o.state_)), handle_(std::exchange(o.handle_, nullptr)) {}
    compiled_partition(const compiled_partition&) = delete;
    compiled_partition& operator=(const compiled_partition&) = delete;
    compiled_partition& operator=(compiled_partition&&) = delete;
    ~compiled_partition() {
        if (handle_) state_->api->release_compiled(handle_);
    }

    /// Runs with one buffer per partition tensor; returns when done.
    void execute(const std::vector<tsr_buffer>& buffers) const {
        auto e = detail::make_error_record();
        tsr_event ev = nullptr;
        detail::check(state_->api->execute(handle_, buffers.data(),
                                           static_cast<std::int32_t>(buffers.size()), &ev, &e),
                      e, state_->name, "execute");
        if (ev) {
            auto we = detail::make_error_record();
            const tsr_status st = detail::has_slot(state_->api, &tsr_plugin_api::event_wait)
                                      ? state_->api->event_wait(ev, &we)
                                      : TSR_SUCCESS;
            if (detail::has_slot(state_->api, &tsr_plugin_api::event_release))
                state_->api->event_release(ev);
            detail::check(st, we, state_->name, "event_wait");
        }
    }

    /// What the backend made of this partition (fused, emulated nodes, reorders); empty when the
    /// plugin reports no compile statistics (an ABI 1.0 table ends before the slot) or the call
    /// fails. Counts the plugin does not keep are empty.
    std::optional<compile_stats> stats() const {
        if (!detail::has_slot(state_->api, &tsr_plugin_api::compiled_stats)) return std::nullopt;
        tsr_compile_stats s = detail::blank_compile_stats();
        if (state_->api->compiled_stats(handle_, &s) != TSR_SUCCESS) return std::nullopt;
        return detail::read_compile_stats(s);
    }

    /// The step each of the partition's `num_nodes` nodes runs in (nodes sharing a step run as
    /// one); empty when the plugin does not say (an older table, or every node its own step).
    std::vector<int> node_steps(int num_nodes) const {
        if (num_nodes <= 0 || !detail::has_slot(state_->api, &tsr_plugin_api::compiled_node_steps))
            return {};
        std::vector<std::int32_t> steps(static_cast<std::size_t>(num_nodes), -1);
        if (state_->api->compiled_node_steps(handle_, num_nodes, steps.data()) != TSR_SUCCESS)
            return {};
        return std::vector<int>(steps.begin(), steps.end());
    }

    /// Per partition tensor (`num_tensors` of them), the tensor whose bytes it holds unchanged,
    /// or -1; empty when the plugin does not say (an older table, or no such tensors). Entries
    /// that name no other tensor of the partition read as -1.
    std::vector<int> tensor_aliases(int num_tensors) const {
        if (num_tensors <= 0 ||
            !detail::has_slot(state_->api, &tsr_plugin_api::compiled_tensor_aliases))
            return {};
        std::vector<std::int32_t> alias(static_cast<std::size_t>(num_tensors), -1);
        if (state_->api->compiled_tensor_aliases(handle_, num_tensors, alias.data()) != TSR_SUCCESS)
            return {};
        std::vector<int> out;
        for (int i = 0; i < num_tensors; ++i) {
            const int a = alias[static_cast<std::size_t>(i)];
            out.push_back(a >= 0 && a < num_tensors && a != i ? a : -1);
        }
        return out;
    }

  private:
    std::shared_ptr<detail::backend_state> state_;
    tsr_compiled handle_;
};

/// A backend instance created from a plugin with the options of one config element.
class backend {
  public:
    backend(const tsr_plugin_api* api, const backend_request& request = {})
        : state_(std::make_shared<detail::backend_state>()) {
        state_->api = api;
        state_->name = api->name;
        std::vector<tsr_option> opts;
        for (const auto& [k, v] : request.options) opts.push_back({k.c_str(), v.c_str()});
        tsr_backend_options o{};
        o.struct_size = sizeof o;
        o.num_options = static_cast<std::int32_t>(opts.size());
        o.options = opts.data();
        auto e = detail::make_error_record();
        detail::check(api->create_backend(&o, &state_->handle, &e), e, state_->name,
                      "create_backend");
    }

    /// Finds the named plugin in the registry and creates its backend.
    static backend create(const backend_request& request) {
        const tsr_plugin_api* api = plugin_registry::instance().find(request.name);
        if (!api) {
            throw error(status::not_found,
                        "no plugin provides backend '" + request.name + "'. Loader report:\n" +
                            plugin_registry::instance().report_text(),
                        {request.name, "", ""});
        }
        return backend(api, request);
    }
    static backend create(const std::string& name) {
        backend_request r;
        r.name = name;
        return create(r);
    }

    const std::string& name() const { return state_->name; }
    std::string version() const { return state_->api->version ? state_->api->version : ""; }
    std::string description() const {
        return state_->api->description ? state_->api->description : "";
    }

    std::vector<device_info> devices() const {
        std::vector<device_info> out;
        if (!detail::has_slot(state_->api, &tsr_plugin_api::device_count)) return out;
        const std::int32_t n = state_->api->device_count(state_->handle);
        for (std::int32_t i = 0; i < n; ++i) {
            tsr_device_info d{};
            d.struct_size = sizeof d;
            if (state_->api->device_info &&
                state_->api->device_info(state_->handle, i, &d) == TSR_SUCCESS)
                out.push_back({detail::bounded_text(d.name), detail::bounded_text(d.kind),
                               detail::bounded_text(d.details)});
        }
        return out;
    }

    /// Asks whether the backend runs `op` on these tensors, and in which layouts.
    op_support query(const op_desc& op, const std::vector<tensor_desc>& inputs,
                     const std::vector<tensor_desc>& outputs,
                     const std::string& node_name = {}) const {
        std::vector<tsr_tensor_desc> in, out;
        for (const auto& d : inputs) in.push_back(d.c_desc());
        for (const auto& d : outputs) out.push_back(d.c_desc());
        std::vector<tsr_tensor_desc> chosen_in = in, chosen_out = out;
        tsr_op_desc c{};
        c.struct_size = sizeof c;
        c.kind = op.kind();
        c.params = op.c_params();
        c.name = node_name.c_str();
        c.num_inputs = static_cast<std::int32_t>(in.size());
        c.inputs = in.data();
        c.num_outputs = static_cast<std::int32_t>(out.size());
        c.outputs = out.data();
        tsr_op_support s{};
        s.struct_size = sizeof s;
        s.chosen_inputs = chosen_in.data();
        s.chosen_outputs = chosen_out.data();
        const tsr_status st = state_->api->query_op(state_->handle, &c, &s);
        op_support r;
        if (st != TSR_SUCCESS) {
            r.reason = TSR_REASON_INVALID;
            r.text = "query failed with " + std::string(tsr_status_name(st));
            return r;
        }
        r.level = static_cast<tsr_support_level>(s.level);
        r.reason = static_cast<tsr_reason>(s.reason);
        r.text = detail::bounded_text(s.reason_text);
        for (const auto& d : chosen_in) r.inputs.emplace_back(d);
        for (const auto& d : chosen_out) r.outputs.emplace_back(d);
        return r;
    }

    compiled_partition compile(const tsr_partition& p) const {
        tsr_compiled c = nullptr;
        auto e = detail::make_error_record();
        detail::check(state_->api->compile(state_->handle, &p, &c, &e), e, state_->name, "compile");
        return compiled_partition(state_, c);
    }

    buffer allocate(std::int64_t bytes) const {
        tsr_buffer b = nullptr;
        auto e = detail::make_error_record();
        detail::check(state_->api->buffer_allocate(state_->handle, bytes, &b, &e), e, state_->name,
                      "buffer_allocate");
        return buffer(state_, b, bytes);
    }
    buffer allocate(const tensor_desc& d) const { return allocate(d.size_bytes()); }

    /// Wraps user memory: copied now, or used in place (alignment checked by the backend).
    buffer import(void* host, std::int64_t bytes, tsr_import_mode mode) const {
        if (!detail::has_slot(state_->api, &tsr_plugin_api::buffer_import)) {
            throw error(status::unsupported, "buffer import is not supported",
                        {state_->name, "", ""});
        }
        tsr_buffer b = nullptr;
        auto e = detail::make_error_record();
        detail::check(state_->api->buffer_import(state_->handle, host, bytes, mode, &b, &e), e,
                      state_->name, "buffer_import");
        return buffer(state_, b, bytes);
    }

  private:
    std::shared_ptr<detail::backend_state> state_;
};

}  // namespace tessera
