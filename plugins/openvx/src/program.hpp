// program.hpp: a compiled openvx partition: one vx_graph holding every node of the partition.
// Partition tensors the graph reads from outside or that are read after the partition are
// OpenVX tensors of the backend's context; every other intermediate is a virtual tensor of the
// graph. compile() builds the graph through the router (each op's build rule adds its OpenVX
// nodes) and verifies it once; execute() copies the inputs in (quantising f32 to Q7.8 under
// precision=q7.8), runs vxProcessGraph and copies the results out.
#pragma once

#include <memory>
#include <vector>

#include "edge_copy.hpp"
#include "layouts.hpp"
#include "tessera/sdk/backend.hpp"
#include "tessera/sdk/op_router.hpp"
#include "vx_handles.hpp"

namespace tessera::plugins::openvx {

using buffers = std::vector<tessera::sdk::buffer*>;

/// What a build rule made of one Tessera node: how many OpenVX nodes, and work before each run
/// (a table lookup copies its LUT tensor into the vx_lut).
class step {
  public:
    virtual ~step() = default;
    virtual void before_run(const buffers&) {}
    int vx_nodes = 1;
};

/// The graph under construction: the OpenVX tensor of each partition tensor (created on first
/// use), scratch virtual tensors, and ownership of every object the nodes use.
class graph_builder {
  public:
    graph_builder(vx_context ctx, const tessera::sdk::partition& p, precision prec);

    vx_context context() const { return ctx_; }
    vx_graph graph() const { return graph_.get(); }
    precision mode() const { return prec_; }
    const tensor_desc& desc(int id) const { return descs_.at(static_cast<std::size_t>(id)); }
    int tensor_count() const { return static_cast<int>(descs_.size()); }
    vx_format format(int id) const;

    /// The OpenVX tensor of partition tensor `id`.
    vx_tensor tensor(int id);
    /// A virtual tensor of the graph (an intermediate inside one Tessera op).
    vx_tensor scratch(const std::vector<vx_uint32>& dims, vx_format f);
    /// A view of `t` (OpenVX dims `dims`) holding [start, end) of dim `dim` and all of the others.
    vx_tensor view(vx_tensor t, const std::vector<vx_uint32>& dims, std::size_t dim,
                   vx_uint32 start, vx_uint32 end);
    /// Takes ownership of a node (checking its creation) or another object.
    void own_node(vx_node n, const char* creator);
    template <typename T>
    T own(T r, const char* creator) {
        check_created(reinterpret_cast<vx_reference>(r), creator);
        objects_.emplace_back(reinterpret_cast<vx_reference>(r));
        return r;
    }

    /// Partition tensors with a non-virtual OpenVX tensor: read from outside (copied in per run)
    /// and produced here and read later (copied out).
    struct edge {
        int id = 0;
        vx_tensor t = nullptr;
    };
    std::vector<edge> inputs() const;
    std::vector<edge> outputs() const;

  private:
    vx_context ctx_;
    precision prec_;
    descs descs_;
    std::vector<bool> produced_, read_later_;
    vx_owned<vx_graph> graph_;
    std::vector<vx_owned<vx_tensor>> tensors_;
    std::vector<vx_owned<vx_reference>> objects_;
};

/// The openvx router: a query rule gets the query and the backend's precision, a build rule the
/// node and the graph builder.
using router =
    tessera::sdk::op_router<tessera::sdk::support(const tessera::sdk::op_query& q, precision p),
                            std::unique_ptr<step>(const tessera::sdk::node& n, graph_builder& g)>;

/// The router with every op of ops/*.cpp stated; unstated ops are declined.
const router& op_routes();

/// The context shared by a backend instance and the programs it compiled.
using shared_context = std::shared_ptr<vx_context_owner>;

/// A compiled partition.
class program final : public tessera::sdk::executable {
  public:
    program(shared_context ctx, const tessera::sdk::partition& p, precision prec);
    ~program() override;
    void execute(const std::vector<tessera::sdk::buffer*>& b) override;
    compile_stats stats() const override;

  private:
    shared_context ctx_;  // destroyed after the graph and its objects
    std::unique_ptr<graph_builder> g_;
    std::vector<std::unique_ptr<step>> steps_;
    std::vector<graph_builder::edge> inputs_, outputs_;
    std::vector<edge_copy> in_, out_;
    int nodes_ = 0, vx_nodes_ = 0;
};

}  // namespace tessera::plugins::openvx
