// tessera/graph/compiled_graph_impl.hpp: the definitions of compiled_graph's and run_event's
// member functions and of graph::compile. Part of the runtime: included once per program, by
// tessera/implementation.hpp.
#pragma once

#include <chrono>
#include <future>
#include <mutex>
#include <utility>

#include "tessera/graph/compiled_graph.hpp"
#include "tessera/graph/compiled_graph_state.hpp"
#include "tessera/graph/graph_compiler.hpp"

namespace tessera {

void run_event::wait() const {
    s_->future.wait();
}
bool run_event::ready() const {
    return s_->future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}
std::map<std::string, tensor> run_event::get() const {
    return s_->future.get();
}

compiled_graph::compiled_graph(std::unique_ptr<state> s) : s_(std::move(s)) {}
compiled_graph::compiled_graph(compiled_graph&&) noexcept = default;
compiled_graph::~compiled_graph() = default;

std::map<std::string, tensor> compiled_graph::run(const std::map<std::string, tensor>& inputs) {
    state& st = *s_;
    std::lock_guard<std::mutex> lock(st.run_mutex_);
    for (const auto& [name, t] : inputs) {
        if (!st.feeds_by_name_.count(name))
            throw error(status::invalid_argument, "'" + name + "' is not a graph input",
                        {"", "", name});
    }
    for (const auto& f : st.feeds_) {
        auto it = inputs.find(f.name);
        if (it == inputs.end())
            throw error(status::invalid_argument, "input '" + f.name + "' was not given",
                        {"", "", f.name});
        const tensor& t = it->second;
        if (t.dims() != f.logical.dims() || t.type() != f.logical.type()) {
            throw error(
                status::invalid_argument,
                "input is " + t.desc().to_string() + ", the graph expects " + f.logical.to_string(),
                {"", "", f.name});
        }
        // Backends read plain host layouts only: reversed and padded views are packed here.
        const tensor fed = graph::is_plain(t.desc()) ? t : t.clone();
        st.buffer_of(f.slot).copy_from_host(fed, st.slots_[f.slot].desc);
    }
    for (const auto& s : st.steps_) {
        if (s.kind == state::step_kind::execute) {
            const auto& p = st.partitions_[s.index];
            std::vector<tsr_buffer> bufs;
            for (int slot : p.slots) bufs.push_back(st.buffer_of(slot).handle());
            p.compiled.execute(bufs);
        } else {
            const auto& t = st.transfers_[s.index];
            st.buffer_of(t.from).copy_to_host(st.slots_[t.from].desc, t.staging);
            st.buffer_of(t.to).copy_from_host(t.staging, st.slots_[t.to].desc);
        }
    }
    std::map<std::string, tensor> outputs;
    for (const auto& o : st.fetches_) {
        tensor out(o.logical.with_layout(layout::row_major()).with_offset(0));
        st.buffer_of(o.slot).copy_to_host(st.slots_[o.slot].desc, out);
        outputs.emplace(o.name, out);
    }
    return outputs;
}

run_event compiled_graph::run_async(std::map<std::string, tensor> inputs) {
    auto s = std::make_shared<run_event::state>();
    s->future =
        std::async(std::launch::async, [this, in = std::move(inputs)] { return run(in); }).share();
    return run_event(std::move(s));
}

const std::vector<node_placement>& compiled_graph::placements() const {
    return s_->placements_;
}
const std::vector<partition_report>& compiled_graph::partitions() const {
    return s_->partition_reports_;
}
memory_plan_stats compiled_graph::memory() const {
    return s_->stats_;
}
std::vector<std::string> compiled_graph::backends() const {
    std::vector<std::string> names;
    for (const auto& b : s_->backends_) names.push_back(b.name());
    return names;
}

std::string compiled_graph::placement_report() const {
    const state& st = *s_;
    std::string s = "placement for \"" + st.config_text_ + "\" (chain:";
    for (const auto& b : st.backends_) s += " " + b.name();
    s += ")\n";
    for (const auto& p : st.placements_) {
        s += "  " + p.node + " [" + p.op + "] -> " + p.backend +
             (p.level == TSR_SUPPORT_EMULATED ? " (emulated)" : "") +
             (p.inserted ? " (inserted)" : "") +
             (p.description.empty() || p.description == p.op ? "" : ": " + p.description) + "\n";
        for (const auto& d : p.declined) s += "      declined by " + d + "\n";
        if (!p.note.empty()) s += "      note: " + p.note + "\n";
    }
    for (std::size_t k = 0; k < st.partition_reports_.size(); ++k) {
        const partition_report& r = st.partition_reports_[k];
        s +=
            "  partition " + std::to_string(k + 1) + " on " + r.backend + ": " +
            (r.stats ? r.stats->to_string()
                     : std::to_string(r.nodes.size()) + (r.nodes.size() == 1 ? " node" : " nodes") +
                           " (the plugin reports no compile statistics)") +
            "\n";
    }
    for (const auto& t : st.transfers_) s += "  transfer " + t.label + "\n";
    s += "  memory: " + std::to_string(st.stats_.buffers) + " buffers, " +
         std::to_string(st.stats_.planned_bytes) + " bytes for " +
         std::to_string(st.stats_.tensors) + " tensors needing " +
         std::to_string(st.stats_.unshared_bytes) + " bytes unshared\n";
    return s;
}

compiled_graph graph::compile(const std::string& config_text) {
    return graph_compiler(*this, config_text).run();
}

}  // namespace tessera
