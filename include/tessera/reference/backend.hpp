// tessera/reference/backend.hpp: the reference backend as an sdk::backend. Built into every
// program through the headers (registered as "reference") and also built as a plugin so tests
// exercise the dlopen path with the very same code.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "tessera/reference/execute.hpp"
#include "tessera/sdk/plugin_api.hpp"

namespace tessera::reference {

class backend final : public sdk::backend {
  public:
    explicit backend(const sdk::options& opts = {}) {
        for (const auto& [key, value] : opts) {
            throw error(status::invalid_argument,
                        "unknown option '" + key + "' (the reference backend takes none)",
                        {"reference", "", ""});
        }
    }

    std::vector<sdk::device> devices() const override {
        return {sdk::device{"host (reference fp32)", "cpu",
                            "plain fp32 loops; the oracle for every other backend"}};
    }

    sdk::support query(const sdk::op_query& q) const override {
        if (q.op.kind() == TSR_OP_CUSTOM) {
            return sdk::support::declined(TSR_REASON_OP_KIND,
                                          "custom kernels need a backend that compiles them");
        }
        std::vector<tensor_desc> inputs;
        for (const auto& d : q.inputs) {
            if (d.is_opaque())
                return sdk::support::declined(TSR_REASON_LAYOUT,
                                              "opaque input layout " + d.opaque_format());
            inputs.push_back(d.is_any() ? d.with_layout(layout::row_major()) : d);
        }
        const auto outputs =
            q.op.infer(inputs);  // throws on invalid descriptors -> declined(INVALID)
        sdk::support s = sdk::support::native();
        s.inputs = inputs;
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            const bool wants_any =
                i >= q.outputs.size() || q.outputs[i].is_any() || q.outputs[i].is_opaque();
            s.outputs.push_back(wants_any ? outputs[i] : q.outputs[i]);
        }
        return s;
    }

    std::unique_ptr<sdk::executable> compile(const sdk::partition& p) override {
        return std::make_unique<program>(p);
    }

  private:
    class program final : public sdk::executable {
      public:
        explicit program(sdk::partition p) : part_(std::move(p)) {}

        void execute(const std::vector<sdk::buffer*>& buffers) override {
            if (buffers.size() != part_.tensors.size()) {
                throw error(status::invalid_argument,
                            "expected " + std::to_string(part_.tensors.size()) + " buffers, got " +
                                std::to_string(buffers.size()));
            }
            for (const auto& n : part_.nodes) {
                std::vector<tensor> in, out;
                for (int id : n.inputs) in.push_back(bind(buffers, id));
                for (int id : n.outputs) out.push_back(bind(buffers, id));
                try {
                    reference::execute(n.op, in, out);
                } catch (error& e) {
                    throw error(e.code(), e.message(),
                                {"reference", n.name.empty() ? std::string(n.op.name()) : n.name,
                                 e.tensor()});
                }
            }
        }

        /// One step per node, nothing fused or emulated; reorder nodes are its reorders.
        compile_stats stats() const override {
            compile_stats s;
            s.steps = static_cast<int>(part_.nodes.size());
            s.fused_nodes = 0;
            s.emulated_nodes = 0;
            s.reorders = static_cast<int>(
                std::count_if(part_.nodes.begin(), part_.nodes.end(),
                              [](const sdk::node& n) { return n.op.kind() == TSR_OP_REORDER; }));
            return s;
        }

      private:
        tensor bind(const std::vector<sdk::buffer*>& buffers, int id) const {
            sdk::buffer* b = buffers[static_cast<std::size_t>(id)];
            if (!b || !b->host_data())
                throw error(status::invalid_argument,
                            "tensor " + std::to_string(id) + " has no buffer");
            return tensor::borrow(part_.tensors[static_cast<std::size_t>(id)], b->host_data());
        }

        sdk::partition part_;
    };
};

/// The reference backend's C table (what the built-in registration and the plugin both hand out).
inline const tsr_plugin_api* plugin_table(const tsr_host_api* host = nullptr) {
    return sdk::plugin_api<backend>(host, "reference", "0.1.0",
                                    "Reference fp32 implementation of every op (the oracle)");
}

}  // namespace tessera::reference
