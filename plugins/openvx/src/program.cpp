// program.cpp: the openvx router, the graph builder and compiled partitions (see program.hpp).
#include "program.hpp"

#include <cstring>

#include "ops/ops.hpp"

namespace tessera::plugins::openvx {

graph_builder::graph_builder(vx_context ctx, const tessera::sdk::partition& p, precision prec)
    : ctx_(ctx),
      prec_(prec),
      descs_(p.tensors),
      produced_(p.tensors.size(), false),
      read_later_(p.tensors.size(), false),
      graph_(vxCreateGraph(ctx)),
      tensors_(p.tensors.size()) {
    check_created(reinterpret_cast<vx_reference>(graph_.get()), "vxCreateGraph");
    for (const auto& n : p.nodes)
        for (int id : n.outputs) produced_.at(static_cast<std::size_t>(id)) = true;
    for (std::size_t i = 0; i < descs_.size(); ++i)
        read_later_[i] = p.is_read_later(static_cast<int>(i));
}

vx_format graph_builder::format(int id) const {
    std::string why;
    const auto f = format_of(desc(id), prec_, &why);
    if (!f)
        throw error(status::unsupported, "tensor " + std::to_string(id) + ": " + why,
                    {backend_name, "", std::to_string(id)});
    return *f;
}

vx_tensor graph_builder::tensor(int id) {
    auto& slot = tensors_.at(static_cast<std::size_t>(id));
    if (slot) return slot.get();
    const vx_format f = format(id);
    std::vector<vx_uint32> dims = vx_dims(desc(id));
    const auto i = static_cast<std::size_t>(id);
    const bool is_virtual = produced_[i] && !read_later_[i];
    vx_tensor t = is_virtual
                      ? vxCreateVirtualTensor(graph_.get(), static_cast<vx_uint32>(dims.size()),
                                              dims.data(), f.type, f.position)
                      : vxCreateTensor(ctx_, static_cast<vx_uint32>(dims.size()), dims.data(),
                                       f.type, f.position);
    check_created(reinterpret_cast<vx_reference>(t),
                  is_virtual ? "vxCreateVirtualTensor" : "vxCreateTensor");
    slot = vx_owned<vx_tensor>(t);
    return t;
}

vx_tensor graph_builder::scratch(const std::vector<vx_uint32>& dims, vx_format f) {
    std::vector<vx_uint32> d = dims;
    vx_tensor t = vxCreateVirtualTensor(graph_.get(), static_cast<vx_uint32>(d.size()), d.data(),
                                        f.type, f.position);
    return own(t, "vxCreateVirtualTensor");
}

vx_tensor graph_builder::view(vx_tensor t, const std::vector<vx_uint32>& dims, std::size_t dim,
                              vx_uint32 start, vx_uint32 end) {
    std::vector<vx_uint32> from(dims.size(), 0), to = dims;
    from.at(dim) = start;
    to.at(dim) = end;
    vx_tensor_view v =
        own(vxCreateTensorView(ctx_, from.data(), to.data(), static_cast<vx_uint8>(dims.size())),
            "vxCreateTensorView");
    return own(vxCreateTensorFromView(t, v), "vxCreateTensorFromView");
}

void graph_builder::own_node(vx_node n, const char* creator) {
    own(n, creator);
}

std::vector<graph_builder::edge> graph_builder::inputs() const {
    std::vector<edge> out;
    for (std::size_t i = 0; i < tensors_.size(); ++i)
        if (tensors_[i] && !produced_[i]) out.push_back({static_cast<int>(i), tensors_[i].get()});
    return out;
}

std::vector<graph_builder::edge> graph_builder::outputs() const {
    std::vector<edge> out;
    for (std::size_t i = 0; i < tensors_.size(); ++i)
        if (tensors_[i] && produced_[i] && read_later_[i])
            out.push_back({static_cast<int>(i), tensors_[i].get()});
    return out;
}

const router& op_routes() {
    static const router routes = [] {
        router r(backend_name);
        for (auto state :
             {&state_conv2d, &state_fully_connected, &state_pooling, &state_lrn, &state_softmax,
              &state_activation, &state_binary, &state_table_lookup, &state_transpose})
            state(r);
        r.decline_others([](const op_desc& o) {
            return std::string(o.name()) + " has no OpenVX neural network extension node";
        });
        return r;
    }();
    return routes;
}

program::program(shared_context ctx, const tessera::sdk::partition& p, precision prec)
    : ctx_(std::move(ctx)), g_(std::make_unique<graph_builder>(ctx_->get(), p, prec)) {
    for (const auto& n : p.nodes) {
        const std::string node = n.name.empty() ? std::string(n.op.name()) : n.name;
        try {
            steps_.push_back(op_routes().build(n.op, n, *g_));
        } catch (const tessera::error& e) {
            throw tessera::error(e.code(), e.message(), {backend_name, node, e.tensor()});
        }
        vx_nodes_ += steps_.back()->vx_nodes;
        ++nodes_;
    }
    check_vx(vxVerifyGraph(g_->graph()), "vxVerifyGraph");
    inputs_ = g_->inputs();
    outputs_ = g_->outputs();
    for (const auto& e : inputs_) in_.emplace_back(ctx_->get(), g_->desc(e.id), g_->format(e.id));
    for (const auto& e : outputs_) out_.emplace_back(ctx_->get(), g_->desc(e.id), g_->format(e.id));
}

program::~program() = default;

void program::execute(const std::vector<tessera::sdk::buffer*>& b) {
    if (b.size() != static_cast<std::size_t>(g_->tensor_count()))
        throw error(status::invalid_argument,
                    "expected " + std::to_string(g_->tensor_count()) + " buffers, got " +
                        std::to_string(b.size()),
                    {backend_name, "", ""});
    for (std::size_t i = 0; i < inputs_.size(); ++i)
        in_[i].in(inputs_[i].t, *b.at(static_cast<std::size_t>(inputs_[i].id)));
    for (auto& s : steps_) s->before_run(b);
    check_vx(vxProcessGraph(g_->graph()), "vxProcessGraph");
    for (std::size_t i = 0; i < outputs_.size(); ++i)
        out_[i].out(outputs_[i].t, *b.at(static_cast<std::size_t>(outputs_[i].id)));
}

compile_stats program::stats() const {
    compile_stats s;
    s.nodes = nodes_;
    s.steps = 1;  // one vx_graph per partition
    s.fused_nodes = 0;
    s.emulated_nodes = 0;
    s.reorders = 0;
    return s;
}

}  // namespace tessera::plugins::openvx
