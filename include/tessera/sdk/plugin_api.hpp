// tessera/sdk/plugin_api.hpp: turns an sdk::backend class into the C table of
// tessera/c/plugin.h. Every exception becomes a tsr_status plus text in the host's tsr_error;
// nothing crosses the boundary to be freed on the other side.
//
//   extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
//                                                                      tsr_error* err) {
//       return tessera::sdk::plugin_api<my_backend>(host, "mine", "1.0", "My accelerator");
//   }
// A plugin that cannot work on this machine returns NULL after sdk::fail_init(err, "why").
// my_backend needs a constructor taking (const tessera::sdk::options&).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "tessera/c/plugin.h"
#include "tessera/sdk/backend.hpp"

// Handle types of the C ABI, as the SDK defines them (plugins are loaded RTLD_LOCAL).
struct tsr_backend_s {
    std::unique_ptr<tessera::sdk::backend> impl;
};
struct tsr_compiled_s {
    std::unique_ptr<tessera::sdk::executable> impl;
    /// What the SDK counts itself for compile statistics: nodes, the nodes the backend answers
    /// as emulated (unknown when a query throws) and the reorder nodes.
    tessera::compile_stats counted;
};
struct tsr_buffer_s {
    std::unique_ptr<tessera::sdk::buffer> impl;
    tessera::sdk::backend* owner = nullptr;
};

namespace tessera::sdk {

namespace detail {

inline void copy_text(char* dst, std::size_t cap, const std::string& src) {
    const std::size_t n = src.size() < cap - 1 ? src.size() : cap - 1;
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

/// Runs fn, turning exceptions into a status and the host's error record.
template <typename Fn>
tsr_status guarded(tsr_error* err, Fn&& fn) noexcept {
    auto report = [&](tsr_status code, const std::string& op, const std::string& tensor,
                      const std::string& message) {
        if (err && err->struct_size >= sizeof(tsr_error)) {
            err->code = code;
            copy_text(err->op, sizeof err->op, op);
            copy_text(err->tensor, sizeof err->tensor, tensor);
            copy_text(err->message, sizeof err->message, message);
        }
        return code;
    };
    try {
        fn();
        return TSR_SUCCESS;
    } catch (const error& e) {
        return report(to_c_status(e.code()), e.op(), e.tensor(), e.message());
    } catch (const std::bad_alloc&) {
        return report(TSR_OUT_OF_MEMORY, {}, {}, "out of memory");
    } catch (const std::exception& e) {
        return report(TSR_RUNTIME_ERROR, {}, {}, e.what());
    } catch (...) {
        return report(TSR_RUNTIME_ERROR, {}, {}, "unknown exception");
    }
}

inline std::vector<tensor_desc> descs(const tsr_tensor_desc* d, std::int32_t n) {
    std::vector<tensor_desc> out;
    for (std::int32_t i = 0; i < n; ++i) out.emplace_back(d[i]);
    return out;
}

inline tensor_desc concrete(const tensor_desc& d) {
    return d.is_any() ? d.with_layout(layout::row_major()) : d;
}

/// A reorder's target (its output's dtype, quantisation and layout) is not part of its ABI
/// parameters: the host states it as the op's output, so the rebuilt descriptor takes it from
/// there (an output left to the backend ("any") becomes row-major). Other ops pass unchanged.
inline op_desc with_reorder_target(op_desc op, const std::vector<tensor_desc>& outputs) {
    if (op.kind() != TSR_OP_REORDER || outputs.size() != 1 || !is_valid(outputs[0].type()))
        return op;
    const tensor_desc& out = outputs[0];
    op::reorder r = *op.get_if<op::reorder>();
    r.target = out.is_any() || out.is_opaque()
                   ? tensor_desc(out.dims(), out.type(), layout::row_major(), out.quant())
                   : out;
    r.has_target = !out.is_opaque();
    return op_desc(r);
}

inline op_query to_query(const tsr_op_desc& op) {
    std::vector<tensor_desc> outputs = descs(op.outputs, op.num_outputs);
    return op_query{with_reorder_target(op_desc::from_c(op.kind, op.params), outputs),
                    op.name ? op.name : "", descs(op.inputs, op.num_inputs), outputs};
}

/// The counts the SDK knows of any backend's partition: its nodes, those the backend answers
/// as emulated when asked again with the partition's concrete layouts, and its reorder nodes.
inline compile_stats count_nodes(const backend& b, const partition& p) {
    compile_stats s;
    s.nodes = static_cast<int>(p.nodes.size());
    int emulated = 0, reorders = 0;
    bool answered = true;
    for (const node& n : p.nodes) {
        reorders += n.op.kind() == TSR_OP_REORDER;
        op_query q{n.op, n.name, {}, {}};
        try {
            for (int id : n.inputs) q.inputs.push_back(p.tensors.at(static_cast<std::size_t>(id)));
            for (int id : n.outputs)
                q.outputs.push_back(p.tensors.at(static_cast<std::size_t>(id)));
            emulated += b.query(q).level == TSR_SUPPORT_EMULATED;
        } catch (...) {
            answered = false;
        }
    }
    if (answered) s.emulated_nodes = emulated;
    s.reorders = reorders;
    return s;
}

template <typename Backend>
struct table_functions {
    static const char*& name() {
        static const char* value = "";
        return value;
    }

    static tsr_status create_backend(const tsr_backend_options* opts, tsr_backend* out,
                                     tsr_error* err) {
        return guarded(err, [&] {
            options o;
            if (opts) {
                for (std::int32_t i = 0; i < opts->num_options; ++i)
                    o.emplace_back(opts->options[i].key, opts->options[i].value);
            }
            auto handle = std::make_unique<tsr_backend_s>();
            handle->impl = std::make_unique<Backend>(o);
            *out = handle.release();
        });
    }
    static void release_backend(tsr_backend b) { delete b; }

    static std::int32_t device_count(tsr_backend b) {
        try {
            return static_cast<std::int32_t>(b->impl->devices().size());
        } catch (...) {
            return 0;
        }
    }
    static tsr_status device_info(tsr_backend b, std::int32_t index, tsr_device_info* out) {
        return guarded(nullptr, [&] {
            const auto devices = b->impl->devices();
            if (index < 0 || index >= static_cast<std::int32_t>(devices.size())) {
                throw error(status::not_found, "no device " + std::to_string(index));
            }
            copy_text(out->name, sizeof out->name, devices[index].name);
            copy_text(out->kind, sizeof out->kind, devices[index].kind);
            copy_text(out->details, sizeof out->details, devices[index].details);
        });
    }

    static tsr_status query_op(tsr_backend b, const tsr_op_desc* op, tsr_op_support* s) {
        tsr_error err{};
        err.struct_size = sizeof err;
        support answer;
        const tsr_status st = guarded(&err, [&] {
            const op_query q = to_query(*op);
            answer = b->impl->query(q);
            if (answer.inputs.empty())
                for (const auto& d : q.inputs) answer.inputs.push_back(concrete(d));
            if (answer.outputs.empty())
                for (const auto& d : q.outputs) answer.outputs.push_back(concrete(d));
        });
        if (st != TSR_SUCCESS) {  // an invalid or unknown op is a decline, not a failure
            std::string text = err.op[0] ? std::string(err.op) + ": " : std::string();
            if (err.tensor[0]) text += "tensor '" + std::string(err.tensor) + "': ";
            answer =
                support::declined(st == TSR_UNSUPPORTED ? TSR_REASON_OP_KIND : TSR_REASON_INVALID,
                                  text + err.message);
        }
        s->level = answer.level;
        s->reason = answer.reason;
        copy_text(s->reason_text, sizeof s->reason_text, answer.text);
        if (answer.level != TSR_SUPPORT_NONE) {
            for (std::int32_t i = 0;
                 i < op->num_inputs && i < static_cast<std::int32_t>(answer.inputs.size()); ++i)
                if (s->chosen_inputs) s->chosen_inputs[i] = answer.inputs[i].c_desc();
            for (std::int32_t i = 0;
                 i < op->num_outputs && i < static_cast<std::int32_t>(answer.outputs.size()); ++i)
                if (s->chosen_outputs) s->chosen_outputs[i] = answer.outputs[i].c_desc();
        }
        return TSR_SUCCESS;
    }

    static tsr_status compile(tsr_backend b, const tsr_partition* p, tsr_compiled* out,
                              tsr_error* err) {
        return guarded(err, [&] {
            partition part;
            part.tensors = descs(p->tensors, p->num_tensors);
            const bool has_flags =
                p->struct_size >= offsetof(tsr_partition, tensor_flags) + sizeof p->tensor_flags &&
                p->tensor_flags;
            for (std::int32_t i = 0; i < p->num_tensors; ++i) {
                part.read_later.push_back(!has_flags ||
                                          (p->tensor_flags[i] & TSR_TENSOR_READ_LATER) != 0);
                part.constant.push_back(has_flags &&
                                        (p->tensor_flags[i] & TSR_TENSOR_CONSTANT) != 0);
            }
            for (std::int32_t i = 0; i < p->num_nodes; ++i) {
                const tsr_node& n = p->nodes[i];
                node nd{
                    op_desc::from_c(n.op.kind, n.op.params), n.op.name ? n.op.name : "", {}, {}};
                for (std::int32_t j = 0; j < n.op.num_inputs; ++j)
                    nd.inputs.push_back(n.input_ids[j]);
                std::vector<tensor_desc> outputs;
                for (std::int32_t j = 0; j < n.op.num_outputs; ++j) {
                    nd.outputs.push_back(n.output_ids[j]);
                    outputs.push_back(part.tensors.at(static_cast<std::size_t>(n.output_ids[j])));
                }
                nd.op = with_reorder_target(std::move(nd.op), outputs);
                part.nodes.push_back(std::move(nd));
            }
            auto handle = std::make_unique<tsr_compiled_s>();
            handle->impl = b->impl->compile(part);
            handle->counted = count_nodes(*b->impl, part);
            *out = handle.release();
        });
    }
    static void release_compiled(tsr_compiled c) { delete c; }
    static tsr_status compiled_stats(tsr_compiled c, tsr_compile_stats* out) {
        return guarded(nullptr, [&] {
            if (!c || !out) throw error(status::invalid_argument, "compiled_stats: null argument");
            compile_stats s = c->impl->stats();
            if (!s.nodes) s.nodes = c->counted.nodes;
            if (!s.emulated_nodes) s.emulated_nodes = c->counted.emulated_nodes;
            if (!s.reorders) s.reorders = c->counted.reorders;
            tessera::detail::write_compile_stats(s, out);
        });
    }

    /// A per-node or per-tensor list of the executable (`list`: its member function) written
    /// into the host's `count` int32s: TSR_UNSUPPORTED when the executable gives none.
    static tsr_status write_list(tsr_compiled c,
                                 std::vector<int> (tessera::sdk::executable::*list)() const,
                                 std::int32_t count, std::int32_t* out) {
        if (!c || count < 0 || (count > 0 && !out)) return TSR_INVALID_ARGUMENT;
        const std::vector<int> values = (c->impl.get()->*list)();
        if (values.empty()) return TSR_UNSUPPORTED;
        if (values.size() != static_cast<std::size_t>(count)) return TSR_INVALID_ARGUMENT;
        std::copy(values.begin(), values.end(), out);
        return TSR_SUCCESS;
    }

    static tsr_status compiled_node_steps(tsr_compiled c, std::int32_t num_nodes,
                                          std::int32_t* steps) {
        return write_list(c, &tessera::sdk::executable::node_steps, num_nodes, steps);
    }

    static tsr_status compiled_tensor_aliases(tsr_compiled c, std::int32_t num_tensors,
                                              std::int32_t* alias_of) {
        return write_list(c, &tessera::sdk::executable::tensor_aliases, num_tensors, alias_of);
    }

    static tsr_status execute(tsr_compiled c, const tsr_buffer* buffers, std::int32_t n,
                              tsr_event* ev, tsr_error* err) {
        return guarded(err, [&] {
            std::vector<buffer*> bufs;
            for (std::int32_t i = 0; i < n; ++i)
                bufs.push_back(buffers[i] ? buffers[i]->impl.get() : nullptr);
            c->impl->execute(bufs);
            if (ev) *ev = nullptr;  // finished: no event to wait on
        });
    }

    static tsr_status buffer_allocate(tsr_backend b, std::int64_t bytes, tsr_buffer* out,
                                      tsr_error* err) {
        return guarded(err, [&] {
            if (bytes < 0) throw error(status::invalid_argument, "negative buffer size");
            auto handle = std::make_unique<tsr_buffer_s>();
            handle->impl = b->impl->allocate(bytes);
            handle->owner = b->impl.get();
            *out = handle.release();
        });
    }
    static tsr_status buffer_import(tsr_backend b, void* host, std::int64_t bytes,
                                    std::int32_t mode, tsr_buffer* out, tsr_error* err) {
        return guarded(err, [&] {
            if (mode < TSR_IMPORT_COPY || mode > TSR_IMPORT_ZERO_COPY_RW)
                throw error(status::invalid_argument, "unknown import mode");
            if (!host && bytes) throw error(status::invalid_argument, "null host pointer");
            auto handle = std::make_unique<tsr_buffer_s>();
            handle->impl = b->impl->import(host, bytes, static_cast<tsr_import_mode>(mode));
            handle->owner = b->impl.get();
            *out = handle.release();
        });
    }
    static void buffer_release(tsr_buffer buf) { delete buf; }
    static tsr_status buffer_map(tsr_buffer buf, std::int32_t access, void** host, tsr_error* err) {
        return guarded(err, [&] { *host = buf->owner->map(*buf->impl, access); });
    }
    static tsr_status buffer_unmap(tsr_buffer buf, void* host, tsr_error* err) {
        return guarded(err, [&] { buf->owner->unmap(*buf->impl, host); });
    }
    static tsr_status copy_to_host(tsr_backend b, tsr_buffer src, const tsr_tensor_desc* src_desc,
                                   void* host, const tsr_tensor_desc* host_desc, tsr_error* err) {
        return guarded(err, [&] {
            b->impl->copy_to_host(*src->impl, tensor_desc(*src_desc),
                                  tensor::borrow(tensor_desc(*host_desc), host));
        });
    }
    static tsr_status copy_from_host(tsr_backend b, const void* host,
                                     const tsr_tensor_desc* host_desc, tsr_buffer dst,
                                     const tsr_tensor_desc* dst_desc, tsr_error* err) {
        return guarded(err, [&] {
            b->impl->copy_from_host(
                tensor::borrow(tensor_desc(*host_desc), const_cast<void*>(host)), *dst->impl,
                tensor_desc(*dst_desc));
        });
    }
    static tsr_status event_wait(tsr_event, tsr_error*) { return TSR_SUCCESS; }
    static void event_release(tsr_event) {}
};

}  // namespace detail

/// Records why a plugin's entry function returns NULL.
inline const tsr_plugin_api* fail_init(tsr_error* err, const std::string& why) {
    if (err && err->struct_size >= sizeof(tsr_error)) {
        err->code = TSR_BACKEND_FAILURE;
        detail::copy_text(err->message, sizeof err->message, why);
    }
    return nullptr;
}

/// The host's services (logging), as handed to tsr_plugin_entry; remembered per plugin library.
inline const tsr_host_api*& host_services() {
    static const tsr_host_api* host = nullptr;
    return host;
}

/// Logs through the host when it offered a logger.
inline void log(tsr_log_level level, const char* plugin, const std::string& message) {
    const tsr_host_api* h = host_services();
    if (h && h->struct_size >= sizeof(tsr_host_api) && h->log)
        h->log(level, plugin, message.c_str());
}

/// The C table for Backend, built once per plugin library. The host checks the ABI version it
/// carries and reports a mismatch itself.
template <typename Backend>
const tsr_plugin_api* plugin_api(const tsr_host_api* host, const char* name, const char* version,
                                 const char* description) {
    if (host) host_services() = host;
    using f = detail::table_functions<Backend>;
    static const tsr_plugin_api table = [&] {
        tsr_plugin_api t{};
        t.struct_size = sizeof t;
        t.abi_major = TSR_ABI_MAJOR;
        t.abi_minor = TSR_ABI_MINOR;
        t.name = name;
        t.version = version;
        t.description = description;
        t.create_backend = &f::create_backend;
        t.release_backend = &f::release_backend;
        t.device_count = &f::device_count;
        t.device_info = &f::device_info;
        t.query_op = &f::query_op;
        t.compile = &f::compile;
        t.release_compiled = &f::release_compiled;
        t.execute = &f::execute;
        t.buffer_allocate = &f::buffer_allocate;
        t.buffer_import = &f::buffer_import;
        t.buffer_release = &f::buffer_release;
        t.buffer_map = &f::buffer_map;
        t.buffer_unmap = &f::buffer_unmap;
        t.copy_to_host = &f::copy_to_host;
        t.copy_from_host = &f::copy_from_host;
        t.event_wait = &f::event_wait;
        t.event_release = &f::event_release;
        t.compiled_stats = &f::compiled_stats;
        t.compiled_node_steps = &f::compiled_node_steps;
        t.compiled_tensor_aliases = &f::compiled_tensor_aliases;
        return t;
    }();
    return &table;
}

}  // namespace tessera::sdk
