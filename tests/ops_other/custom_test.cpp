// custom_test.cpp: op::custom: owned storage and its C view, deep-copying from_c (including a
// shorter writer struct), copies outliving originals, output rules, validation, and the
// reference backend's documented refusal to run it.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <memory>

#include "helpers.hpp"
#include "tessera/ops/custom.hpp"

using namespace ops_test;
using tessera::op::custom;

namespace {

custom reorg() {
    return custom("ReorgYolo")
        .set_attribute("stride", "2")
        .set_attribute("kernel", "3,3")
        .add_source_file("reorg.cl", "reorg_nhwc")
        .add_source_text("__kernel void k(__global half* p) {}", "k")
        .set_num_inputs(1)
        .set_output(tensor_desc(shape::nchw(1, 12, 13, 13), dtype::f16));
}

}  // namespace

TEST_CASE("custom: the C view mirrors the owned storage") {
    const custom c = reorg();
    const auto* p = static_cast<const tsr_custom_params*>(c.c_params());
    CHECK(p->struct_size == sizeof(tsr_custom_params));
    CHECK(std::string(p->type_name) == "ReorgYolo");
    REQUIRE(p->num_attributes == 2);
    CHECK(std::string(p->attributes[1].key) == "kernel");
    CHECK(std::string(p->attributes[1].value) == "3,3");
    REQUIRE(p->num_sources == 2);
    CHECK(p->sources[0].kind == TSR_CUSTOM_SOURCE_FILE);
    CHECK(std::string(p->sources[0].content) == "reorg.cl");
    CHECK(std::string(p->sources[0].entry) == "reorg_nhwc");
    CHECK(p->sources[1].kind == TSR_CUSTOM_SOURCE_TEXT);
    CHECK(p->num_inputs == 1);
    CHECK(p->output_rule == TSR_CUSTOM_OUTPUT_DECLARED);
    CHECK(tensor_desc(p->output).dims() == shape{1, 12, 13, 13});
    CHECK(c.attribute_value("stride") == std::string("2"));
    CHECK(!c.attribute_value("missing"));
    // Setting an existing key replaces it.
    CHECK(custom(c).set_attribute("stride", "4").attributes().size() == 2);
}

TEST_CASE("custom: copies and moves own their strings and rebuild their view") {
    auto original = std::make_unique<custom>(reorg());
    const custom copy = *original;
    custom moved = std::move(*original);
    original.reset();  // the copy's view must not point into the destroyed original
    for (const custom* c : {&copy, static_cast<const custom*>(&moved)}) {
        const auto* p = static_cast<const tsr_custom_params*>(c->c_params());
        CHECK(std::string(p->type_name) == "ReorgYolo");
        CHECK(std::string(p->sources[1].content).find("__kernel") == 0);
        CHECK(p->type_name == c->type_name().c_str());
    }
    custom assigned;
    assigned = copy;
    CHECK(assigned == copy);
    CHECK(static_cast<const tsr_custom_params*>(assigned.c_params())->type_name !=
          copy.type_name().c_str());
}

TEST_CASE("custom: from_c deep-copies, and a shorter writer struct keeps later defaults") {
    char type[] = "GRN";
    char key[] = "bias", value[] = "1.0";
    char code[] = "__kernel void grn() {}", entry[] = "grn";
    const tsr_custom_attribute attrs[] = {{key, value}};
    const tsr_custom_source sources[] = {{TSR_CUSTOM_SOURCE_TEXT, code, entry}};
    tsr_custom_params p;
    std::memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.type_name = type;
    p.num_attributes = 1;
    p.attributes = attrs;
    p.num_sources = 1;
    p.sources = sources;
    p.num_inputs = 1;
    p.output_rule = TSR_CUSTOM_OUTPUT_LIKE_INPUT;
    p.like_input = 0;
    const custom c = custom::from_c(&p);
    std::memset(type, 'x', 3);  // the copy must not alias the writer's memory
    std::memset(value, '9', 3);
    CHECK(c.type_name() == "GRN");
    CHECK(c.attribute_value("bias") == std::string("1.0"));
    CHECK(c.sources()[0].entry == "grn");
    CHECK(custom::from_c(c.c_params()) == c);
    // An older writer that ends before num_inputs: the rest keeps its defaults.
    std::memcpy(type, "GRN", 3);
    p.struct_size = static_cast<std::uint32_t>(offsetof(tsr_custom_params, num_inputs));
    p.num_inputs = 7;
    const custom old = custom::from_c(&p);
    CHECK(old.num_inputs() == -1);
    CHECK(old.output_rule() == TSR_CUSTOM_OUTPUT_LIKE_INPUT);
    CHECK(old.type_name() == "GRN");
    CHECK(custom::from_c(nullptr) == custom());
}

TEST_CASE("custom: output rules") {
    const tensor_desc in(shape::nchw(1, 3, 26, 26), dtype::f16);
    const auto declared = reorg().infer({in});
    REQUIRE(declared.size() == 1);
    CHECK(declared[0].dims() == shape{1, 12, 13, 13});
    CHECK(declared[0].type() == dtype::f16);
    const auto like = custom("GRN").set_output_like_input(1).infer({in, in.with_type(dtype::f32)});
    CHECK(like[0].type() == dtype::f32);
    CHECK(like[0].dims() == in.dims());
    CHECK(custom("Any").infer({in})[0].dims() == in.dims());  // default: like input 0
}

TEST_CASE("custom: validation") {
    const tensor_desc in(shape{4}, dtype::f32);
    check_error([&] { custom().infer({in}); }, {"custom", "type name is empty"});
    check_error([&] { reorg().infer({in, in}); }, {"custom", "expects 1 inputs, got 2"});
    check_error([&] { custom("X").set_output_like_input(2).infer({in}); },
                {"output is like input 2 but there are 1 inputs"});
    check_error([&] { custom("X").infer({}); }, {"output is like input 0 but there are 0 inputs"});
    check_error([&] { custom("X").set_attribute("", "1").infer({in}); },
                {"attribute 0 has an empty key"});
    check_error([&] { custom("X").add_source_file("").infer({in}); }, {"source 0 is empty"});
    check_error([&] { custom("X").set_num_inputs(-4).infer({in}); }, {"num_inputs is -4"});
    check_error([&] { custom("X").set_output(tensor_desc(shape{2}, dtype::undef)).infer({in}); },
                {"tensor 'output'", "not valid"});
    const custom x("X");  // p points into x's strings
    tsr_custom_params p = *static_cast<const tsr_custom_params*>(x.c_params());
    p.output_rule = 5;
    check_error([&] { custom::from_c(&p).infer({in}); }, {"unknown output rule value 5"});
    tsr_custom_source bad_source{9, "x", ""};
    p = *static_cast<const tsr_custom_params*>(x.c_params());
    p.num_sources = 1;
    p.sources = &bad_source;
    check_error([&] { custom::from_c(&p).infer({in}); }, {"unknown source kind value 9"});
}

TEST_CASE("custom: the reference backend refuses it with status::unsupported") {
    const auto x = make(shape{4}, {1, 2, 3, 4});
    check_error([&] { run_ref(custom("ReorgYolo"), {x}); },
                {"reference", "custom", "ReorgYolo", "cannot run on the reference backend"},
                status::unsupported);
}
