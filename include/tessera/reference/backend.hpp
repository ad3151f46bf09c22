// tessera/reference/backend.hpp: the reference backend as an sdk::backend. Built into every
// program through the headers (registered as "reference") and also built as a plugin so tests
// exercise the dlopen path with the very same code. Its ops are stated on the SDK op router:
// every op of the op set but custom (declined: a custom op's kernel needs a backend that compiles
// it) runs on the reference kernels in the layouts it is given.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tessera/reference/execute.hpp"
#include "tessera/sdk/op_router.hpp"
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

    sdk::support query(const sdk::op_query& q) const override { return routes().query(q.op, q); }

    std::unique_ptr<sdk::executable> compile(const sdk::partition& p) override {
        return std::make_unique<program>(p);
    }

  private:
    /// One node on the reference kernels.
    class step {
      public:
        explicit step(const sdk::node& n) : node_(n) {}
        /// Runs the node on tensors bound to its buffers.
        void run(const std::vector<tensor>& in, const std::vector<tensor>& out) const {
            try {
                reference::execute(node_.op, in, out);
            } catch (error& e) {
                throw error(
                    e.code(), e.message(),
                    {"reference", node_.name.empty() ? std::string(node_.op.name()) : node_.name,
                     e.tensor()});
            }
        }

      private:
        sdk::node node_;
    };

    using router = sdk::op_router<sdk::support(const sdk::op_query& q),
                                  std::unique_ptr<step>(const sdk::node& n)>;

    /// Every op but custom: inputs in any row-major or strided layout (opaque layouts declined),
    /// outputs as inferred unless the query asks for a layout.
    static sdk::support answer(const sdk::op_query& q) {
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

    template <typename Op>
    static void state(router& r) {
        if constexpr (!std::is_same_v<Op, op::custom>) {
            r.state<Op>([](const Op&, const sdk::op_query& q) { return answer(q); },
                        [](const Op&, const sdk::node& n) { return std::make_unique<step>(n); });
        }
    }

    template <std::size_t... I>
    static void state_all(router& r, std::index_sequence<I...>) {
        (state<std::variant_alternative_t<I, op_variant>>(r), ...);
    }

    static const router& routes() {
        static const router r = [] {
            router made("reference");
            state_all(made, std::make_index_sequence<std::variant_size_v<op_variant>>{});
            made.decline_others([](const op_desc&) {
                return std::string("custom kernels need a backend that compiles them");
            });
            return made;
        }();
        return r;
    }

    class program final : public sdk::executable {
      public:
        explicit program(sdk::partition p) : part_(std::move(p)) {
            for (const auto& n : part_.nodes) steps_.push_back(routes().build(n.op, n));
        }

        void execute(const std::vector<sdk::buffer*>& buffers) override {
            if (buffers.size() != part_.tensors.size()) {
                throw error(status::invalid_argument,
                            "expected " + std::to_string(part_.tensors.size()) + " buffers, got " +
                                std::to_string(buffers.size()));
            }
            for (std::size_t i = 0; i < part_.nodes.size(); ++i) {
                const sdk::node& n = part_.nodes[i];
                std::vector<tensor> in, out;
                for (int id : n.inputs) in.push_back(bind(buffers, id));
                for (int id : n.outputs) out.push_back(bind(buffers, id));
                steps_[i]->run(in, out);
            }
        }

        /// One step per node, nothing fused or emulated (the SDK counts nodes and reorders).
        compile_stats stats() const override {
            compile_stats s;
            s.steps = static_cast<int>(part_.nodes.size());
            s.fused_nodes = 0;
            s.emulated_nodes = 0;
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
        std::vector<std::unique_ptr<step>> steps_;
    };
};

/// The reference backend's C table (what the built-in registration and the plugin both hand out).
inline const tsr_plugin_api* plugin_table(const tsr_host_api* host = nullptr) {
    return sdk::plugin_api<backend>(host, "reference", "0.1.0",
                                    "Reference fp32 implementation of every op (the oracle)");
}

}  // namespace tessera::reference
