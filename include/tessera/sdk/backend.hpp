// tessera/sdk/backend.hpp: what a plugin author implements. A backend answers capability
// queries, compiles partitions into executables and manages its memory; sdk/plugin_api.hpp turns
// it into the C table of tessera/c/plugin.h, so plugin code is about the backend, not the ABI.
// Memory defaults to 64-byte aligned host memory, right for CPU-side backends.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tessera/c/plugin.h"
#include "tessera/ops/op_desc.hpp"
#include "tessera/plugin/compile_stats.hpp"
#include "tessera/tensor.hpp"

namespace tessera::sdk {

using options = std::vector<std::pair<std::string, std::string>>;

struct device {
    std::string name;
    std::string kind = "cpu";
    std::string details;
};

/// One op as the host asks about it. Output descriptors (and inputs produced by the same
/// backend) may have layout "any".
struct op_query {
    op_desc op;
    std::string name;
    std::vector<tensor_desc> inputs;
    std::vector<tensor_desc> outputs;
};

/// A backend's answer. Chosen layouts default to the query's, with "any" made row-major.
struct support {
    tsr_support_level level = TSR_SUPPORT_NONE;
    tsr_reason reason = TSR_REASON_NONE;
    std::string text;
    std::vector<tensor_desc> inputs;
    std::vector<tensor_desc> outputs;

    static support native() { return {TSR_SUPPORT_NATIVE, TSR_REASON_NONE, {}, {}, {}}; }
    static support emulated(tsr_reason why, std::string text) {
        return {TSR_SUPPORT_EMULATED, why, std::move(text), {}, {}};
    }
    static support declined(tsr_reason why, std::string text) {
        return {TSR_SUPPORT_NONE, why, std::move(text), {}, {}};
    }
};

/// Backend memory. host_data() is non-null when the host can address the bytes directly.
class buffer {
  public:
    virtual ~buffer() = default;
    virtual std::int64_t size() const = 0;
    virtual void* host_data() { return nullptr; }
};

/// Host memory: owned (aligned, zeroed) or borrowed from the caller.
class host_buffer final : public buffer {
  public:
    explicit host_buffer(std::int64_t bytes) : size_(bytes) {
        const std::size_t rounded = (static_cast<std::size_t>(bytes) + 63) / 64 * 64;
        data_ = rounded ? std::aligned_alloc(64, rounded) : nullptr;
        if (rounded && !data_)
            throw error(status::out_of_memory,
                        "cannot allocate " + std::to_string(bytes) + " bytes");
        if (data_) std::memset(data_, 0, rounded);
        owned_ = true;
    }
    host_buffer(void* borrowed, std::int64_t bytes)
        : data_(borrowed), size_(bytes), owned_(false) {}
    ~host_buffer() override {
        if (owned_) std::free(data_);
    }
    host_buffer(const host_buffer&) = delete;
    host_buffer& operator=(const host_buffer&) = delete;

    std::int64_t size() const override { return size_; }
    void* host_data() override { return data_; }

  private:
    void* data_ = nullptr;
    std::int64_t size_ = 0;
    bool owned_ = false;
};

/// One node of a partition; tensor ids index partition::tensors.
struct node {
    op_desc op;
    std::string name;
    std::vector<int> inputs;
    std::vector<int> outputs;
};

/// Ops placed on this backend, in execution order, with concrete tensor descriptors.
/// `read_later[id]`: the tensor is read after the partition ran (a later partition, a transfer,
/// a graph output); true for every tensor when the host did not say (see tsr_tensor_flag).
/// `constant[id]`: the tensor is a graph constant, the same on every execution; false when the
/// host did not say.
struct partition {
    std::vector<tensor_desc> tensors;
    std::vector<node> nodes;
    std::vector<bool> read_later;
    std::vector<bool> constant;

    /// Whether tensor `id` holds the same values on every execution (a graph constant).
    bool is_constant(int id) const {
        return static_cast<std::size_t>(id) < constant.size() &&
               constant[static_cast<std::size_t>(id)];
    }

    /// Whether the partition's result in tensor `id` is needed after it has run.
    bool is_read_later(int id) const {
        return static_cast<std::size_t>(id) >= read_later.size() ||
               read_later[static_cast<std::size_t>(id)];
    }
};

/// A compiled partition: execute() gets one buffer per partition tensor, in id order.
class executable {
  public:
    virtual ~executable() = default;
    virtual void execute(const std::vector<buffer*>& buffers) = 0;
    /// What the backend made of the partition, for the host's placement report (the ABI's
    /// compiled_stats slot). Counts left empty are reported unknown; the SDK fills `nodes`.
    virtual compile_stats stats() const { return {}; }
    /// The step each partition node runs in, in node order (the ABI's compiled_node_steps slot;
    /// nodes sharing a step run as one); empty when every node is a step of its own.
    virtual std::vector<int> node_steps() const { return {}; }
    /// Per partition tensor, the tensor whose bytes it holds unchanged (-1: none), for the host
    /// to give both one buffer (the ABI's compiled_tensor_aliases slot); empty when there are
    /// none. execute() must then work whether or not the two buffers are one.
    virtual std::vector<int> tensor_aliases() const { return {}; }
};

/// Thread safety required of a plugin's backend: the host calls one backend instance, its
/// buffers and its executables from one thread at a time (never concurrently), but calls
/// separate instances from separate threads at once; state shared between instances (caches,
/// thread pools, globals) must be synchronised by the plugin.
class backend {
  public:
    virtual ~backend() = default;

    virtual std::vector<device> devices() const { return {device{"host", "cpu", {}}}; }
    virtual support query(const op_query& q) const = 0;
    virtual std::unique_ptr<executable> compile(const partition& p) = 0;

    virtual std::unique_ptr<buffer> allocate(std::int64_t bytes) {
        return std::make_unique<host_buffer>(bytes);
    }

    /// Copy mode copies now; zero-copy modes use the caller's memory in place.
    virtual std::unique_ptr<buffer> import(void* host, std::int64_t bytes, tsr_import_mode mode) {
        if (mode == TSR_IMPORT_COPY) {
            auto b = std::make_unique<host_buffer>(bytes);
            if (bytes) std::memcpy(b->host_data(), host, static_cast<std::size_t>(bytes));
            return b;
        }
        if (reinterpret_cast<std::uintptr_t>(host) % 64 != 0) {
            throw error(status::invalid_argument, "zero-copy import needs 64-byte aligned memory");
        }
        return std::make_unique<host_buffer>(host, bytes);
    }

    virtual void* map(buffer& b, int /*access*/) {
        if (void* p = b.host_data()) return p;
        throw error(status::unsupported, "buffer is not host-mappable; use copies");
    }
    virtual void unmap(buffer& /*b*/, void* /*host*/) {}

    /// Copies a tensor in this backend's layout to a strided host tensor (converting layout and
    /// dtype). The default handles strided layouts in host-accessible buffers.
    virtual void copy_to_host(buffer& src, const tensor_desc& src_desc, const tensor& dst) {
        tensor::copy_elements(view_of(src, src_desc), dst);
    }
    virtual void copy_from_host(const tensor& src, buffer& dst, const tensor_desc& dst_desc) {
        tensor::copy_elements(src, view_of(dst, dst_desc));
    }

  protected:
    /// A host tensor over a host-accessible buffer holding a strided tensor.
    static tensor view_of(buffer& b, const tensor_desc& desc) {
        if (!desc.is_strided()) {
            throw error(status::unsupported, "no host view of layout " + desc.to_string() +
                                                 "; the backend must convert it");
        }
        void* p = b.host_data();
        if (!p) throw error(status::unsupported, "buffer is not host-accessible");
        if (desc.size_bytes() > b.size()) {
            throw error(status::invalid_argument, "tensor " + desc.to_string() + " needs " +
                                                      std::to_string(desc.size_bytes()) +
                                                      " bytes, buffer has " +
                                                      std::to_string(b.size()));
        }
        return tensor::borrow(desc, p);
    }
};

}  // namespace tessera::sdk
