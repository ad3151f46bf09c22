// tessera/graph/compiled_graph_state.hpp: what a compiled_graph holds: the backend instances,
// device buffers, compiled partitions, host transfers and the run schedule the graph compiler
// (graph_compiler.hpp) fills in. Internal to the runtime; users see compiled_graph.hpp.
#pragma once

#include <cstddef>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/graph/compiled_graph.hpp"
#include "tessera/plugin/backend.hpp"

namespace tessera {

struct run_event::state {
    std::shared_future<std::map<std::string, tensor>> future;
};

struct compiled_graph::state {
    enum class step_kind { execute, transfer };
    struct step {
        step_kind kind;
        std::size_t index;
    };
    struct slot {
        int backend = 0;
        tensor_desc desc;
        graph::tensor_id tensor = -1;
        int def_tick = -1;
        int last_tick = -1;
        bool persistent = false;
        int buffer = -1;
        /// A slot of the same partition whose bytes this one holds unchanged (the plugin's
        /// compiled_tensor_aliases): the plan may give both one buffer. -1: none.
        int alias = -1;
    };
    struct partition_plan {
        int backend = 0;
        std::vector<int> slots;  ///< partition tensor id -> slot
        compiled_partition compiled;
    };
    struct transfer_plan {
        int from = 0;
        int to = 0;
        tensor staging;
        std::string label;
    };
    struct feed {
        std::string name;
        tensor_desc logical;
        int slot = 0;
    };
    struct fetch {
        std::string name;
        tensor_desc logical;
        int slot = 0;
    };

    const buffer& buffer_of(int slot) const {
        return buffers_[static_cast<std::size_t>(slots_[slot].buffer)];
    }

    std::string config_text_;
    std::vector<backend> backends_;
    std::vector<slot> slots_;
    std::vector<buffer> buffers_;
    std::vector<partition_plan> partitions_;
    std::vector<transfer_plan> transfers_;
    std::vector<step> steps_;
    std::vector<feed> feeds_;
    std::map<std::string, int> feeds_by_name_;
    std::vector<fetch> fetches_;
    std::vector<node_placement> placements_;
    std::vector<partition_report> partition_reports_;
    std::vector<tensor> constants_;
    memory_plan_stats stats_;
    std::mutex run_mutex_;  ///< serialises the runs
};

}  // namespace tessera
