// test_values.hpp: helpers of the importer tests: small f32 or i32 tensors from value lists,
// results read back as floats, and the one failure reason of a model that must not import.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"

namespace tessera::onnx::testing {

/// An initializer of ONNX element type `elem_type` stored in int32_data (bool, u8, i8, ...).
inline void small_int_initializer(model_builder& m, const std::string& name,
                                  const std::vector<std::int64_t>& dims, int elem_type,
                                  const std::vector<std::int32_t>& values) {
    auto* t = m.model().mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(elem_type);
    for (auto d : dims) t->add_dims(d);
    for (auto v : values) t->add_int32_data(v);
}

/// A tensor of `type` (f32 or i32) holding `values` in order.
inline tensor filled(const shape& dims, const std::vector<float>& values, dtype type = dtype::f32) {
    tensor t(dims, type);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto k = static_cast<std::int64_t>(i);
        if (type == dtype::i32)
            t.data_as<std::int32_t>()[k] = static_cast<std::int32_t>(values[i]);
        else
            t.data_as<float>()[k] = values[i];
    }
    return t;
}

/// The elements of an f32, i32 or u8 tensor as floats.
inline std::vector<float> floats_of(const tensor& t) {
    const tensor c = t.clone();
    std::vector<float> out;
    for (std::int64_t i = 0; i < c.num_elements(); ++i) {
        if (c.type() == dtype::i32)
            out.push_back(static_cast<float>(c.data_as<std::int32_t>()[i]));
        else if (c.type() == dtype::u8)
            out.push_back(static_cast<float>(c.data_as<std::uint8_t>()[i]));
        else
            out.push_back(c.data_as<float>()[i]);
    }
    return out;
}

/// "node (OpType): reason" of the one node of `m` that fails to import.
inline std::string import_failure(const model_builder& m) {
    try {
        load(m.bytes());
    } catch (const import_error& e) {
        REQUIRE(e.nodes().size() == 1);
        return e.nodes()[0].node + " (" + e.nodes()[0].op_type + "): " + e.nodes()[0].reason;
    }
    FAIL("the model loaded");
    return {};
}

}  // namespace tessera::onnx::testing
