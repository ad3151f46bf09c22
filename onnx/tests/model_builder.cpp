// model_builder.cpp: the in-memory ONNX model builder of the loader tests.
#include "model_builder.hpp"

namespace tessera::onnx::testing {

model_builder::model_builder(int opset) {
    model_.set_ir_version(8);
    auto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    model_.mutable_graph()->set_name("test");
}

model_builder& model_builder::input(const std::string& name, const std::vector<std::int64_t>& dims,
                                    int elem_type) {
    auto* vi = model_.mutable_graph()->add_input();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem_type);
    auto* sh = tt->mutable_shape();
    for (auto d : dims) {
        auto* dim = sh->add_dim();
        if (d < 0)
            dim->set_dim_param("N");
        else
            dim->set_dim_value(d);
    }
    return *this;
}

model_builder& model_builder::output(const std::string& name) {
    auto* vi = model_.mutable_graph()->add_output();
    vi->set_name(name);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(1);
    return *this;
}

model_builder& model_builder::initializer(const std::string& name,
                                          const std::vector<std::int64_t>& dims,
                                          const std::vector<float>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(1);
    for (auto d : dims) t->add_dims(d);
    for (auto v : values) t->add_float_data(v);
    return *this;
}

model_builder& model_builder::int64_initializer(const std::string& name,
                                                const std::vector<std::int64_t>& dims,
                                                const std::vector<std::int64_t>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(7);
    for (auto d : dims) t->add_dims(d);
    for (auto v : values) t->add_int64_data(v);
    return *this;
}

::onnx::NodeProto& model_builder::node(const std::string& op_type,
                                       const std::vector<std::string>& inputs,
                                       const std::vector<std::string>& outputs,
                                       const std::string& name) {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op_type);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return *n;
}

void model_builder::attr_int(::onnx::NodeProto& n, const std::string& name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INT);
    a->set_i(v);
}

void model_builder::attr_ints(::onnx::NodeProto& n, const std::string& name,
                              const std::vector<std::int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (auto x : v) a->add_ints(x);
}

void model_builder::attr_float(::onnx::NodeProto& n, const std::string& name, float v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(v);
}

void model_builder::attr_string(::onnx::NodeProto& n, const std::string& name,
                                const std::string& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::STRING);
    a->set_s(v);
}

model_builder& model_builder::int32_initializer(const std::string& name,
                                                const std::vector<std::int64_t>& dims,
                                                const std::vector<std::int32_t>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(6);
    for (auto d : dims) t->add_dims(d);
    for (auto v : values) t->add_int32_data(v);
    return *this;
}

std::vector<std::uint8_t> model_builder::bytes() const {
    std::string s;
    model_.SerializeToString(&s);
    return {s.begin(), s.end()};
}

}  // namespace tessera::onnx::testing
