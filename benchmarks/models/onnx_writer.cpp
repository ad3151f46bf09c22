// onnx_writer.cpp: the ONNX model builder of the model benchmarks (see onnx_writer.hpp).
#include "onnx_writer.hpp"

#include <cmath>
#include <fstream>
#include <stdexcept>

namespace tessera::benchmarks::models {

onnx_writer::onnx_writer(const std::string& graph_name, int opset, std::uint32_t seed)
    : rng_(seed) {
    model_.set_ir_version(8);
    model_.set_producer_name("tessera-benchmarks");
    auto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    graph_ = model_.mutable_graph();
    graph_->set_name(graph_name);
}

std::string onnx_writer::fresh(const std::string& hint) {
    return hint + "_" + std::to_string(counter_++);
}

std::string onnx_writer::input(const std::string& name, const dims& shape) {
    auto* vi = graph_->add_input();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(::onnx::TensorProto::FLOAT);
    for (auto d : shape) tt->mutable_shape()->add_dim()->set_dim_value(d);
    return name;
}

void onnx_writer::output(const std::string& tensor) {
    auto* vi = graph_->add_output();
    vi->set_name(tensor);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(::onnx::TensorProto::FLOAT);
}

std::string onnx_writer::random(const std::string& hint, const dims& shape, float scale) {
    std::int64_t count = 1;
    for (auto d : shape) count *= d;
    std::uniform_real_distribution<float> dist(-scale, scale);
    std::vector<float> values(static_cast<std::size_t>(count));
    for (auto& v : values) v = dist(rng_);
    return constant(hint, shape, values);
}

std::string onnx_writer::constant(const std::string& hint, const dims& shape,
                                  const std::vector<float>& values) {
    const std::string name = fresh(hint);
    auto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    for (auto d : shape) t->add_dims(d);
    t->set_raw_data(values.data(), values.size() * sizeof(float));
    return name;
}

std::string onnx_writer::scalar(const std::string& hint, float value) {
    return constant(hint, {}, {value});
}

std::string onnx_writer::int64s(const std::string& hint, const std::vector<std::int64_t>& values) {
    const std::string name = fresh(hint);
    auto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::INT64);
    t->add_dims(static_cast<std::int64_t>(values.size()));
    for (auto v : values) t->add_int64_data(v);
    return name;
}

::onnx::NodeProto& onnx_writer::node_proto(const std::string& op_type,
                                           const std::vector<std::string>& inputs) {
    auto* n = graph_->add_node();
    n->set_op_type(op_type);
    n->set_name(fresh(op_type));
    for (const auto& i : inputs) n->add_input(i);
    n->add_output(n->name() + "_out");
    return *n;
}

std::string onnx_writer::node(const std::string& op_type, const std::vector<std::string>& inputs) {
    return node_proto(op_type, inputs).output(0);
}

void onnx_writer::attr(::onnx::NodeProto& n, const std::string& name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INT);
    a->set_i(v);
}

void onnx_writer::attr(::onnx::NodeProto& n, const std::string& name, float v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(v);
}

void onnx_writer::attr(::onnx::NodeProto& n, const std::string& name, const dims& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (auto x : v) a->add_ints(x);
}

std::string onnx_writer::conv(const std::string& x, std::int64_t in_c, std::int64_t out_c,
                              std::int64_t k, std::int64_t stride, std::int64_t groups) {
    const std::int64_t p = k / 2;
    return conv(x, in_c, out_c, {k, k}, {stride, stride}, {p, p, p, p}, groups);
}

std::string onnx_writer::conv(const std::string& x, std::int64_t in_c, std::int64_t out_c,
                              dims kernel, dims strides, dims pads, std::int64_t groups) {
    const std::int64_t fan_in = in_c / groups * kernel[0] * kernel[1];
    const float scale = std::sqrt(3.0f / static_cast<float>(fan_in));
    const std::string w = random("conv_w", {out_c, in_c / groups, kernel[0], kernel[1]}, scale);
    const std::string b = random("conv_b", {out_c}, 0.1f);
    auto& n = node_proto("Conv", {x, w, b});
    attr(n, "kernel_shape", kernel);
    attr(n, "strides", strides);
    attr(n, "pads", pads);
    attr(n, "dilations", dims{1, 1});
    attr(n, "group", groups);
    return n.output(0);
}

std::string onnx_writer::relu6(const std::string& x) {
    return node("Clip", {x, scalar("clip_min", 0.0f), scalar("clip_max", 6.0f)});
}

std::string onnx_writer::max_pool(const std::string& x, dims kernel, dims strides, dims pads) {
    auto& n = node_proto("MaxPool", {x});
    attr(n, "kernel_shape", kernel);
    attr(n, "strides", strides);
    attr(n, "pads", pads);
    return n.output(0);
}

std::string onnx_writer::linear_gemm(const std::string& x, std::int64_t in_f, std::int64_t out_f) {
    const float scale = std::sqrt(3.0f / static_cast<float>(in_f));
    auto& n = node_proto("Gemm",
                         {x, random("fc_w", {out_f, in_f}, scale), random("fc_b", {out_f}, 0.1f)});
    attr(n, "alpha", 1.0f);
    attr(n, "beta", 1.0f);
    attr(n, "transB", std::int64_t{1});
    return n.output(0);
}

std::string onnx_writer::linear_matmul(const std::string& x, std::int64_t in_f,
                                       std::int64_t out_f) {
    const float scale = std::sqrt(3.0f / static_cast<float>(in_f));
    const std::string y = node("MatMul", {x, random("linear_w", {in_f, out_f}, scale)});
    return node("Add", {random("linear_b", {out_f}, 0.1f), y});
}

std::string onnx_writer::flatten(const std::string& x) {
    auto& n = node_proto("Flatten", {x});
    attr(n, "axis", std::int64_t{1});
    return n.output(0);
}

void onnx_writer::save(const std::filesystem::path& path) const {
    std::ofstream out(path, std::ios::binary);
    if (!out || !model_.SerializeToOstream(&out))
        throw std::runtime_error("cannot write " + path.string());
}

}  // namespace tessera::benchmarks::models
