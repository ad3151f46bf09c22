// test_parser.cpp -- both XML generations, every schema element, and errors on bad and hostile
// bindings files (file, line, element, attribute; never a crash).
#include <doctest/doctest.h>

#include <random>

#include "myriad/bindings.h"
#include "myriad_test_support.h"

using namespace myriad;
using myriad_test::ScratchDir;

namespace {

const char* reorg_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void reorg_nhwc(__global const half *src, __global half *out, int w, int h, int c, int stride)
{ out[get_global_id(0)] = src[get_global_id(0)]; }
)";

const char* two_stage_cl = R"(
__kernel void stage_a(__global const half* restrict src, __global float* sums, int C) { }
__kernel void stage_b(__global const half* restrict src, __global const float* sums,
                      __global half* restrict dst, __local float* scratch, float eps) { }
)";

/// The seed's ReorgYolo binding (flat generation).
const char* seed_xml = R"(<CustomLayer name="ReorgYolo" type="MVCL" version="1">
<Kernel entry="reorg_nhwc">
<Source filename="reorg.bin"/>
</Kernel>
<Parameters>
<Tensor arg-name="src" type="input" port-index="0" format="BYXF"/>
<Tensor arg-name="out" type="output" port-index="0" format="BYXF"/>
<Scalar arg-name="w" type="int" port-index="0" source="I.X" />
<Scalar arg-name="h" type="int" port-index="0" source="I.Y" />
<Scalar arg-name="c" type="int" port-index="0" source="I.F" />
<Scalar arg-name="stride" type="int" source="stride" />
</Parameters>
<WorkSizes dim="input,0" global="(Y+7)/8*8,1,1" local="8,1,1"/>
</CustomLayer>
)";

/// The same two-stage layer in the nested generation.
const char* nested_xml = R"(<!-- nested generation -->
<CustomLayer name="Norm" type="MVCL" version="1" max-shaves="4">
  <Where mode="fast" axis="&gt;=1" eps="&lt;0.5" count="!=3"/>
  <Kernel entry="stage_a" stage="0" max-shaves="2">
    <Source filename="two.cl"/>
    <Parameters>
      <Tensor arg-name="src" type="input" port-index="0" format="BFYX"/>
      <Tensor arg-name="sums" type="output_buffer" port-index="0" dim="input,0" size="F*4"/>
      <Scalar arg-name="C" type="int" port-index="0" source="I.F"/>
    </Parameters>
    <WorkSizes dim="input,0" global="F,1,1" local="1,1,1"/>
  </Kernel>
  <Kernel entry="stage_b" stage="1">
    <Source filename="two.cl"/>
    <Parameters>
      <Tensor arg-name="src" type="input" port-index="0" format="ANY"/>
      <Tensor arg-name="sums" type="input_buffer" port-index="0" dim="input,0" size="F*4"/>
      <Tensor arg-name="dst" type="output" port-index="0" format="ANY"/>
      <Data arg-name="scratch" type="local_data" dim="input,0" size="X*4"/>
      <Scalar arg-name="eps" type="float" source="eps"/>
    </Parameters>
    <WorkSizes dim="output,0" global="X,Y,F"/>
  </Kernel>
</CustomLayer>
)";

/// The same in the flat generation: two CustomLayer elements with stage="N".
const char* flat_two_stage_xml = R"(<CustomLayer name="Norm" type="MVCL" version="1" stage="0">
  <Kernel entry="stage_a"><Source filename="two.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0"/>
    <Tensor arg-name="sums" type="output_buffer" port-index="0" dim="input,0" size="F*4"/>
    <Scalar arg-name="C" type="int" port-index="0" source="I.F"/>
  </Parameters>
  <WorkSizes dim="input,0" global="F,1,1" local="1,1,1"/>
</CustomLayer>
<CustomLayer name="norm" type="mvcl" version="1" stage="1">
  <Kernel entry="stage_b"><Source filename="two.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0"/>
    <Tensor arg-name="sums" type="input_buffer" port-index="0" dim="input,0" size="F*4"/>
    <Tensor arg-name="dst" type="output" port-index="0"/>
    <Data arg-name="scratch" type="local_data" dim="input,0" size="X*4"/>
    <Scalar arg-name="eps" type="float" source="eps"/>
  </Parameters>
  <WorkSizes dim="output,0" global="X,Y,F"/>
</CustomLayer>
)";

struct Caught {
    std::string file, element, attribute, what;
    int line = -1;
};

Caught parse_error_of(const ScratchDir& dir, const std::string& xml) {
    const std::string path = dir.write("case.xml", xml);
    Caught c;
    try {
        parse_bindings_file(path);
    } catch (const xml_error& e) {
        c = {e.file(), e.element(), e.attribute(), e.what(), e.line()};
    }
    return c;
}

ScratchDir fixture(const std::string& name) {
    ScratchDir dir(name);
    dir.write("reorg.cl", reorg_cl);
    dir.write("two.cl", two_stage_cl);
    return dir;
}

}  // namespace

TEST_CASE("parser: the seed's flat binding / with a .bin Source served by the .cl next to it") {
    const ScratchDir dir = fixture("parser_seed");
    const auto layers = parse_bindings_file(dir.write("seed.xml", seed_xml));
    REQUIRE(layers.size() == 1);
    const CustomLayer& l = layers[0];
    CHECK(l.name == "ReorgYolo");
    CHECK(l.line == 1);
    REQUIRE(l.stages.size() == 1);
    const KernelStage& s = l.stages[0];
    CHECK(s.entry == "reorg_nhwc");
    REQUIRE(s.sources.size() == 1);
    CHECK(s.sources[0] == dir.path() + "/reorg.cl");
    REQUIRE(s.tensors.size() == 2);
    CHECK(s.tensors[0].role == TensorRole::input);
    CHECK(s.tensors[0].format == Layout::BYXF);
    CHECK(s.tensors[1].role == TensorRole::output);
    REQUIRE(s.scalars.size() == 4);
    CHECK(s.scalars[0].source == "I.X");
    CHECK(s.scalars[0].port_index == 0);
    CHECK_FALSE(s.scalars[3].port_index.has_value());
    CHECK(s.scalars[3].line == 11);
    CHECK(s.work_sizes.global[0] == "(Y+7)/8*8");
    CHECK(s.work_sizes.global[1] == "1");
    CHECK(s.work_sizes.local[0] == "8");
    CHECK(s.work_sizes.has_local);
    CHECK_FALSE(s.work_sizes.dim.output);
}

TEST_CASE("parser: nested and flat two-stage layers give the same binding") {
    const ScratchDir dir = fixture("parser_generations");
    const auto nested = parse_bindings_file(dir.write("nested.xml", nested_xml));
    const auto flat = parse_bindings_file(dir.write("flat.xml", flat_two_stage_xml));
    REQUIRE(nested.size() == 1);
    REQUIRE(flat.size() == 1);
    for (const CustomLayer* l : {&nested[0], &flat[0]}) {
        REQUIRE(l->stages.size() == 2);
        CHECK(l->stages[0].entry == "stage_a");
        CHECK(l->stages[1].entry == "stage_b");
        CHECK(l->stages[1].stage == 1);
        CHECK(l->stages[0].tensors[1].role == TensorRole::output_buffer);
        CHECK(l->stages[0].tensors[1].size == "F*4");
        CHECK(l->stages[1].tensors[1].role == TensorRole::input_buffer);
        REQUIRE(l->stages[1].data.size() == 1);
        CHECK(l->stages[1].data[0].kind == DataKind::local_data);
        CHECK(l->stages[1].data[0].size == "X*4");
        CHECK(l->stages[1].scalars[0].type == ScalarType::float_);
        CHECK(l->stages[1].work_sizes.dim.output);
        CHECK_FALSE(l->stages[1].work_sizes.has_local);
    }
    CHECK(nested[0].max_shaves == 4);
    CHECK(nested[0].stages[0].max_shaves == 2);
    CHECK(nested[0].stages[1].max_shaves == 4);
    CHECK(nested[0].stages[1].tensors[0].format == Layout::ANY);
    REQUIRE(nested[0].where.size() == 4);
    CHECK(nested[0].where[0].op == CompareOp::equal);
    CHECK(nested[0].where[0].value == "fast");
    CHECK(nested[0].where[1].op == CompareOp::greater_equal);
    CHECK(nested[0].where[1].value == "1");
    CHECK(nested[0].where[2].op == CompareOp::less);
    CHECK(nested[0].where[3].op == CompareOp::not_equal);
}

TEST_CASE("parser: errors name file / line / element and attribute") {
    const ScratchDir dir = fixture("parser_errors");
    const std::string head =
        "<CustomLayer name=\"ReorgYolo\" type=\"MVCL\" version=\"1\">\n"
        "<Kernel entry=\"reorg_nhwc\"><Source filename=\"reorg.cl\"/></Kernel>\n"
        "<Parameters>\n";
    const std::string params_ok =
        "<Tensor arg-name=\"src\" type=\"input\" port-index=\"0\"/>\n"
        "<Tensor arg-name=\"out\" type=\"output\" port-index=\"0\"/>\n"
        "<Scalar arg-name=\"w\" type=\"int\" port-index=\"0\" source=\"I.X\"/>\n"
        "<Scalar arg-name=\"h\" type=\"int\" port-index=\"0\" source=\"I.Y\"/>\n"
        "<Scalar arg-name=\"c\" type=\"int\" port-index=\"0\" source=\"I.F\"/>\n";
    const std::string stride = "<Scalar arg-name=\"stride\" type=\"int\" source=\"stride\"/>\n";
    const std::string tail =
        "</Parameters>\n<WorkSizes dim=\"input,0\" global=\"X,1,1\"/>\n"
        "</CustomLayer>\n";
    CHECK_NOTHROW(parse_bindings_text(head + params_ok + stride + tail, dir.path() + "/ok.xml"));

    SUBCASE("empty attribute") {
        const Caught c = parse_error_of(
            dir,
            head + params_ok + "<Scalar arg-name=\"stride\" type=\"int\" source=\" \"/>\n" + tail);
        CHECK(c.file == dir.path() + "/case.xml");
        CHECK(c.line == 9);
        CHECK(c.element == "Scalar");
        CHECK(c.attribute == "source");
        CHECK(c.what.find("empty") != std::string::npos);
    }
    SUBCASE("unknown format") {
        const Caught c = parse_error_of(
            dir, head + "<Tensor arg-name=\"src\" type=\"input\" format=\"NCWH\"/>\n" + tail);
        CHECK(c.line == 4);
        CHECK(c.element == "Tensor");
        CHECK(c.attribute == "format");
        CHECK(c.what.find("NCWH") != std::string::npos);
    }
    SUBCASE("missing argument binding") {
        const Caught c = parse_error_of(dir, head + params_ok + tail);
        CHECK(c.line == 2);
        CHECK(c.element == "Kernel");
        CHECK(c.what.find("'stride'") != std::string::npos);
        CHECK(c.what.find("missing arg binding") != std::string::npos);
    }
    SUBCASE("binding an argument the kernel lacks") {
        const Caught c = parse_error_of(
            dir, head + params_ok + stride +
                     "<Scalar arg-name=\"strid\" type=\"int\" source=\"1\"/>\n" + tail);
        CHECK(c.line == 10);
        CHECK(c.attribute == "arg-name");
        CHECK(c.what.find("no argument 'strid'") != std::string::npos);
    }
    SUBCASE("malformed expression, with its column") {
        const Caught c = parse_error_of(
            dir, head + params_ok + stride +
                     "</Parameters>\n<WorkSizes dim=\"input,0\" global=\"(Y+7)/8*8,(X+1,1\"/>\n"
                     "</CustomLayer>\n");
        CHECK(c.line == 11);
        CHECK(c.element == "WorkSizes");
        CHECK(c.attribute == "global");
        CHECK(c.what.find("\"(X+1,1\" at column 5: expected ')'") != std::string::npos);
    }
    SUBCASE("unary minus is malformed") {
        const Caught c = parse_error_of(
            dir,
            head + params_ok + stride +
                "</Parameters>\n<WorkSizes dim=\"input,0\" global=\"X,-1,1\"/>\n</CustomLayer>\n");
        CHECK(c.attribute == "global");
        CHECK(c.what.find("column 1") != std::string::npos);
    }
    SUBCASE("unknown tensor type, scalar type, dim") {
        CHECK(parse_error_of(dir, head + "<Tensor arg-name=\"src\" type=\"inptu\"/>\n" + tail)
                  .attribute == "type");
        CHECK(parse_error_of(
                  dir, head + "<Scalar arg-name=\"w\" type=\"double\" source=\"1\"/>\n" + tail)
                  .attribute == "type");
        CHECK(parse_error_of(dir, head + params_ok + stride +
                                      "</Parameters>\n<WorkSizes dim=\"in,0\" global=\"X\"/>\n"
                                      "</CustomLayer>\n")
                  .attribute == "dim");
    }
    SUBCASE("unknown element and attribute") {
        CHECK(parse_error_of(dir, head + "<Tensr arg-name=\"src\"/>\n" + tail).element == "Tensr");
        const Caught c = parse_error_of(
            dir, head + "<Tensor arg-name=\"src\" type=\"input\" fromat=\"BFYX\"/>\n" + tail);
        CHECK(c.attribute == "fromat");
        CHECK(parse_error_of(dir, "<Layers/>").element == "Layers");
    }
    SUBCASE("malformed XML gives the line") {
        const Caught c =
            parse_error_of(dir, "<CustomLayer name=\"a\">\n<Kernel entry=\"x\">\n</CustomLayer>");
        CHECK(c.line == 3);
        CHECK(c.what.find("malformed XML") != std::string::npos);
    }
    SUBCASE("SHAVE binary without its OpenCL C source") {
        dir.write("only.bin", std::string("\x7f"
                                          "ELF\0\0\1",
                                          7));
        std::string xml = head + params_ok + stride + tail;
        xml.replace(xml.find("reorg.cl"), 8, "only.bin");
        const Caught c = parse_error_of(dir, xml);
        CHECK(c.element == "Source");
        CHECK(c.attribute == "filename");
        CHECK(c.what.find("cannot run off the VPU") != std::string::npos);
        CHECK(c.what.find("only.cl") != std::string::npos);
        xml.replace(xml.find("only.bin"), 8, "only.clx");
        dir.write("only.clx", std::string("\x7f"
                                          "ELF\0\0\1",
                                          7));
        CHECK(parse_error_of(dir, xml).what.find("cannot run off the VPU") != std::string::npos);
    }
    SUBCASE("missing source file, missing entry") {
        std::string xml = head + params_ok + stride + tail;
        xml.replace(xml.find("reorg.cl"), 8, "nothere.cl");
        CHECK(parse_error_of(dir, xml).what.find("cannot read") != std::string::npos);
        xml = head + params_ok + stride + tail;
        xml.replace(xml.find("reorg_nhwc"), 10, "reorg_nchw");
        const Caught c = parse_error_of(dir, xml);
        CHECK(c.element == "Kernel");
        CHECK(c.attribute == "entry");
    }
    SUBCASE("one output per layer; buffers read after they are written; stage order") {
        std::string xml = std::string(flat_two_stage_xml);
        xml.replace(xml.find("stage=\"1\""), 9, "stage=\"2\"");
        CHECK(parse_error_of(dir, xml).attribute == "stage");
        std::string two_outputs = nested_xml;
        const std::string written = "type=\"output_buffer\" port-index=\"0\"";
        two_outputs.replace(two_outputs.find(written), written.size(),
                            "type=\"output_buffer\" port-index=\"5\"");
        CHECK(parse_error_of(dir, two_outputs).what.find("input_buffer 0") != std::string::npos);
        std::string no_output = nested_xml;
        no_output.replace(no_output.find("type=\"output\""), 13,
                          "type=\"output_buffer\" dim=\"input,0\" size=\"4\"");
        CHECK(parse_error_of(dir, no_output).what.find("no output") != std::string::npos);
    }
    SUBCASE("wrong version and type") {
        std::string xml = head + params_ok + stride + tail;
        CHECK(parse_error_of(
                  dir, std::string(xml).replace(xml.find("version=\"1\""), 11, "version=\"2\""))
                  .attribute == "version");
        CHECK(parse_error_of(dir, std::string(xml).replace(xml.find("MVCL"), 4, "OCL")).attribute ==
              "type");
    }
}

TEST_CASE("parser: hostile inputs end in xml_error / never a crash") {
    const ScratchDir dir = fixture("parser_hostile");
    auto rejects = [&](const std::string& text) {
        try {
            parse_bindings_text(text, dir.path() + "/hostile.xml");
        } catch (const tessera::error&) {
            return true;
        }
        return false;
    };
    CHECK(rejects(""));
    CHECK(rejects("not xml at all"));
    CHECK(rejects(std::string("\0\0\0\xff\xfe", 5)));
    CHECK(rejects("<CustomLayer"));
    CHECK(rejects(std::string(200000, '<')));
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += "<CustomLayer>";
    CHECK(rejects(deep));
    CHECK(
        rejects("<!DOCTYPE x [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>"
                "<CustomLayer name=\"&b;\"/>"));
    CHECK(rejects("<CustomLayer name=\"" + std::string(1 << 20, 'x') + "\"/>"));
    CHECK(
        rejects("<CustomLayer name=\"x\"><Kernel entry=\"a\"><Source filename=\"/dev/null/x\"/>"
                "</Kernel></CustomLayer>"));
    CHECK(rejects(
        "<CustomLayer name=\"x\"><Kernel entry=\"a\"><Source filename=\"../../../../../../etc\"/>"
        "</Kernel></CustomLayer>"));
    CHECK(rejects("<CustomLayer name=\"x\" version=\"99999999999999999999\"/>"));
    for (const std::string device : {"/dev/zero", "/dev/urandom", "/"}) {
        CAPTURE(device);
        const std::string xml =
            std::string("<CustomLayer name=\"x\"><Kernel entry=\"a\"><Source filename=\"") +
            device + "\"/></Kernel></CustomLayer>";
        try {
            parse_bindings_text(xml, dir.path() + "/hostile.xml");
            FAIL("expected an error");
        } catch (const xml_error& e) {
            CHECK(std::string(e.what()).find("cannot read") != std::string::npos);
        }
        CHECK_THROWS_AS(parse_bindings_file(device), xml_error);
    }
    CHECK(
        rejects("<CustomLayer name=\"x\"><Kernel entry=\"a\"><Source filename=\"/proc/self/mem\"/>"
                "</Kernel></CustomLayer>"));
    CHECK(rejects("<CustomLayer name=\"x\" max-shaves=\"-1\"/>"));

    // Random byte mutations of valid files: each parses or throws a tessera::error.
    std::mt19937 gen(1234);
    int parsed = 0, rejected = 0;
    for (const char* base : {seed_xml, nested_xml, flat_two_stage_xml}) {
        const std::string original = base;
        for (int round = 0; round < 400; ++round) {
            std::string text = original;
            const int edits = 1 + static_cast<int>(gen() % 4);
            for (int e = 0; e < edits; ++e) {
                const std::size_t at = gen() % text.size();
                switch (gen() % 3) {
                    case 0:
                        text[at] = static_cast<char>(gen() % 256);
                        break;
                    case 1:
                        text.erase(at, 1 + gen() % 8);
                        break;
                    default:
                        text.insert(at, 1, "<>\"=/&,()-*%"[gen() % 12]);
                }
                if (text.empty()) text = "x";
            }
            if (rejects(text))
                ++rejected;
            else
                ++parsed;
        }
    }
    CHECK(parsed + rejected == 1200);
    CHECK(rejected > 600);  // most mutations break the schema
}
