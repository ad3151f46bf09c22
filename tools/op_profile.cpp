// op_profile.cpp: op-by-op timing, its table and its Chrome trace (op_profile.hpp).
#include "op_profile.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "run_timing.hpp"

namespace tessera::cli {

namespace {

/// Runs one node alone on `config` with its inputs taken from `values`.
op_timing time_node(const graph& g, const graph::node_info& n, const std::string& config,
                    const std::map<std::string, tensor>& values, int repeat) {
    op_timing t{n.name, n.op.describe(), "", 0, ""};
    graph one;
    std::map<graph::tensor_id, graph::tensor_id> ids;
    std::map<std::string, tensor> feed;
    std::vector<graph::tensor_id> inputs;
    for (const graph::tensor_id id : n.inputs) {
        const auto known = ids.find(id);
        if (known != ids.end()) {
            inputs.push_back(known->second);
            continue;
        }
        const auto& info = g.tensors()[static_cast<std::size_t>(id)];
        graph::tensor_id mine = 0;
        if (info.role == graph::tensor_role::constant) {
            mine = one.constant(info.name, info.value);
        } else {
            const auto v = values.find(info.name);
            if (v == values.end()) {
                t.failure = "input " + info.name + " was not captured";
                return t;
            }
            mine = one.input(info.name, v->second.desc());
            feed.emplace(info.name, v->second);
        }
        ids.emplace(id, mine);
        inputs.push_back(mine);
    }
    const std::string name = "profiled " + (n.name.empty() ? std::string(n.op.name()) : n.name);
    for (const auto out : one.add(name, n.op, inputs)) one.output(out);
    compiled_graph cg = one.compile(config);
    for (const auto& p : cg.placements())
        if (p.node == name) t.backend = p.backend;
    cg.run(feed);  // warm-up
    t.median_ms = time_runs(repeat, [&] { cg.run(feed); }).median_ms;
    return t;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string trace_event(const std::string& name, const std::string& category, double start_us,
                        double duration_us, int track, const std::string& args) {
    std::ostringstream e;
    e << "{\"name\":" << json_string(name) << ",\"cat\":" << json_string(category)
      << ",\"ph\":\"X\",\"ts\":" << start_us << ",\"dur\":" << duration_us
      << ",\"pid\":1,\"tid\":" << track << ",\"args\":{" << args << "}}";
    return e.str();
}

}  // namespace

std::vector<op_timing> profile_ops(const graph& g, const std::string& config,
                                   const std::map<std::string, tensor>& inputs, int repeat) {
    // One run of the whole graph with every intermediate read back gives each node its inputs.
    graph capture = g;
    for (std::size_t id = 0; id < capture.tensors().size(); ++id) {
        const auto& info = capture.tensors()[id];
        if (info.role == graph::tensor_role::intermediate && !info.is_output)
            capture.output(static_cast<graph::tensor_id>(id));
    }
    const std::vector<int> order = capture.verify();
    std::map<std::string, tensor> values = capture.compile(config).run(inputs);
    for (const auto& [name, value] : inputs) values.emplace(name, value);

    std::vector<op_timing> ops;
    for (const int index : order) {
        const auto& n = g.nodes()[static_cast<std::size_t>(index)];
        try {
            ops.push_back(time_node(g, n, config, values, repeat));
        } catch (const error& e) {
            ops.push_back(op_timing{n.name, n.op.describe(), "", 0, e.what()});
        }
    }
    return ops;
}

std::string profile_table(const std::vector<op_timing>& ops, double graph_median_ms) {
    double sum = 0;
    std::map<std::string, std::pair<double, int>> per_op;
    for (const auto& o : ops) {
        sum += o.median_ms;
        auto& total = per_op[o.op];
        total.first += o.median_ms;
        ++total.second;
    }
    std::vector<const op_timing*> by_time;
    for (const auto& o : ops) by_time.push_back(&o);
    std::stable_sort(by_time.begin(), by_time.end(),
                     [](const auto* a, const auto* b) { return a->median_ms > b->median_ms; });
    std::ostringstream s;
    char line[512];
    std::snprintf(line, sizeof line,
                  "op-by-op profile: each node compiled and run alone (median), sum %.3f ms; a run "
                  "of the whole graph (fusions included) took %.3f ms\n",
                  sum, graph_median_ms);
    s << line;
    std::snprintf(line, sizeof line, "  %10s %6s  %-28s %-10s %s\n", "ms", "%", "op", "backend",
                  "node");
    s << line;
    for (const auto* o : by_time) {
        if (!o->failure.empty()) {
            s << "  " << o->node << " [" << o->op << "] could not run alone: " << o->failure
              << "\n";
            continue;
        }
        std::snprintf(line, sizeof line, "  %10.4f %5.1f%%  %-28s %-10s %s\n", o->median_ms,
                      sum > 0 ? 100.0 * o->median_ms / sum : 0.0, o->op.c_str(),
                      o->backend.c_str(), o->node.c_str());
        s << line;
    }
    s << "per op:\n";
    for (const auto& [op, total] : per_op) {
        std::snprintf(line, sizeof line, "  %10.4f %5.1f%%  %-28s x%d\n", total.first,
                      sum > 0 ? 100.0 * total.first / sum : 0.0, op.c_str(), total.second);
        s << line;
    }
    return s.str();
}

void write_chrome_trace(const std::filesystem::path& path, const std::vector<op_timing>& ops,
                        double graph_median_ms) {
    std::ofstream out(path, std::ios::trunc);
    out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
    out << trace_event("whole graph (median run)", "graph", 0, graph_median_ms * 1000.0, 1, "");
    double at_us = 0;
    for (const auto& o : ops) {
        const double us = o.median_ms * 1000.0;
        out << ",\n"
            << trace_event(o.node, o.op, at_us, us, 2,
                           "\"op\":" + json_string(o.op) +
                               ",\"backend\":" + json_string(o.backend));
        at_us += us;
    }
    out << "\n]}\n";
    if (!out) throw error(status::invalid_argument, path.string() + ": cannot write the trace");
}

}  // namespace tessera::cli
