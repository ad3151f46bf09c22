// model_commands_test.cpp: `tessera run` and `tessera info` end to end: the built tool is run on
// small ONNX models written here, and its .npy outputs, printed figures, trace file and exit
// statuses are checked against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include "../npy.hpp"
#include "model_builder.hpp"

namespace fs = std::filesystem;
using namespace tessera;
using tessera::onnx::testing::model_builder;

namespace {

struct tool_result {
    int status = -1;
    std::string out;  ///< stdout and stderr
};

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A fresh folder for one test case.
fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("tessera-tool-test-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

tool_result tessera_tool(const std::string& args, const fs::path& dir) {
    const fs::path log = dir / "tool.log";
    const std::string cmd = std::string(TESSERA_TOOL) + " " + args + " > " + log.string() + " 2>&1";
    const int raw = std::system(cmd.c_str());
    tool_result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = read_text(log);
    return r;
}

void write_file(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

const std::vector<float> w_values = {0.5f, -1.0f, 2.0f, -0.25f};

/// z = relu(x + w): x [N, 4] with a dynamic batch, w a [4] initializer.
fs::path add_relu_model(const fs::path& dir) {
    model_builder m;
    m.input("x", {-1, 4}).initializer("w", {4}, w_values).output("z");
    m.node("Add", {"x", "w"}, {"y"}, "add_w");
    m.node("Relu", {"y"}, {"z"}, "relu");
    const fs::path p = dir / "add_relu.onnx";
    write_file(p, m.bytes());
    return p;
}

tessera::onnx::host_tensor f32_tensor(const std::string& name, std::vector<std::int64_t> dims,
                             const std::vector<float>& values) {
    tessera::onnx::host_tensor t;
    t.name = name;
    t.type = tessera::onnx::element_type::float32;
    t.dims = std::move(dims);
    t.bytes.resize(values.size() * sizeof(float));
    std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
}

/// The number after `key` in the tool's output.
double number_after(const std::string& out, const std::string& key) {
    const auto at = out.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, "no '" << key << "' in:\n" << out);
    return std::strtod(out.c_str() + at + key.size(), nullptr);
}

}  // namespace

TEST_CASE("tessera run: outputs are written as .npy and match hand-computed values") {
    const fs::path dir = scratch("run");
    const fs::path model = add_relu_model(dir);
    const std::vector<float> x = {1, 2, -3, 4, -1, 0.5f, 0, 0.25f};
    cli::write_npy(dir / "x.npy", f32_tensor("x", {2, 4}, x));
    const auto r = tessera_tool("run " + model.string() + " --config reference --input x=" +
                                    (dir / "x.npy").string() + " --repeat 3 --output-dir " +
                                    (dir / "out").string(),
                                dir);
    REQUIRE_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("placement: reference 2 op(s); 0 conversion(s) inserted") != std::string::npos);
    CHECK(r.out.find("latency over 3 run(s): min ") != std::string::npos);
    CHECK(r.out.find("output z: ") != std::string::npos);
    const auto z = cli::read_npy(dir / "out" / "z.npy", "z");
    REQUIRE(z.dims == std::vector<std::int64_t>{2, 4});
    for (int i = 0; i < 8; ++i) {
        const double expected = std::max(0.0f, x[static_cast<std::size_t>(i)] + w_values[i % 4]);
        CHECK(z.real(i) == doctest::Approx(expected));
    }
}

TEST_CASE("tessera run: --shape fixes the dynamic batch and unnamed inputs are generated") {
    const fs::path dir = scratch("shape");
    const auto r = tessera_tool("run " + add_relu_model(dir).string() +
                                    " --config reference --shape x=3x4 --repeat 1 --output-dir " +
                                    dir.string(),
                                dir);
    REQUIRE_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("input x: ") != std::string::npos);
    CHECK(r.out.find("generated (seed 0)") != std::string::npos);
    const auto z = cli::read_npy(dir / "z.npy", "z");
    CHECK(z.dims == std::vector<std::int64_t>{3, 4});
    for (std::int64_t i = 0; i < z.num_elements(); ++i) {  // relu(u + w), u in [-1, 1]
        CHECK(z.real(i) >= 0);
        CHECK(z.real(i) <= 1.0 + w_values[static_cast<std::size_t>(i % 4)] + 1e-6);
    }
}

TEST_CASE("tessera run: --compare prints the largest difference against another config") {
    const fs::path dir = scratch("compare");
    const auto r = tessera_tool("run " + add_relu_model(dir).string() +
                                    " --config reference --shape x=2x4 --compare auto --output-dir " +
                                    dir.string(),
                                dir);
    REQUIRE_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("compare auto: z max |diff| ") != std::string::npos);
    CHECK(number_after(r.out, "compare auto: max |diff| ") <= 1e-6);
}

TEST_CASE("tessera run: --profile prints every node and writes a Chrome trace") {
    const fs::path dir = scratch("profile");
    const fs::path trace = dir / "trace.json";
    const auto r = tessera_tool("run " + add_relu_model(dir).string() +
                                    " --config reference --shape x=2x4 --repeat 2 --profile " +
                                    trace.string() + " --output-dir " + dir.string(),
                                dir);
    REQUIRE_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("op-by-op profile") != std::string::npos);
    CHECK(r.out.find("binary(add)") != std::string::npos);
    CHECK(r.out.find("activation(relu)") != std::string::npos);
    const std::string json = read_text(trace);
    std::size_t events = 0;
    for (auto at = json.find("\"ph\":\"X\""); at != std::string::npos;
         at = json.find("\"ph\":\"X\"", at + 1))
        ++events;
    CHECK(events == 3);  // the whole graph and its two nodes
    CHECK(json.find("\"name\":\"add_w\"") != std::string::npos);
    CHECK(json.find("\"name\":\"relu\"") != std::string::npos);
    CHECK(json.rfind("]}") != std::string::npos);
}

TEST_CASE("tessera info: declared inputs, op census and placement") {
    const fs::path dir = scratch("info");
    const auto r = tessera_tool("info " + add_relu_model(dir).string() + " --config reference --shape x=1x4", dir);
    REQUIRE_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("x: float [N, 4]") != std::string::npos);
    CHECK(r.out.find("ONNX ops (2 nodes, 1 initializers)") != std::string::npos);
    CHECK(r.out.find("  Add ") != std::string::npos);
    CHECK(r.out.find("  Relu ") != std::string::npos);
    CHECK(r.out.find("input  x: ") != std::string::npos);
    CHECK(r.out.find("placement: reference 2 op(s)") != std::string::npos);
    CHECK(r.out.find("relu [activation] -> reference") != std::string::npos);
}

TEST_CASE("tessera run and info: bad models and arguments give their reason and status") {
    const fs::path dir = scratch("errors");
    const fs::path model = add_relu_model(dir);

    model_builder unsupported;
    unsupported.input("x", {2}).output("z");
    unsupported.node("NoSuchOp", {"x"}, {"y"}, "first");
    unsupported.node("AlsoMissing", {"y"}, {"z"}, "second");
    write_file(dir / "unsupported.onnx", unsupported.bytes());
    for (const char* command : {"run", "info"}) {
        CAPTURE(command);
        const auto r = tessera_tool(std::string(command) + " " + (dir / "unsupported.onnx").string(), dir);
        CHECK(r.status == 1);
        CHECK(r.out.find("2 node(s) Tessera cannot import") != std::string::npos);
        CHECK(r.out.find("first [NoSuchOp]") != std::string::npos);
        CHECK(r.out.find("second [AlsoMissing]") != std::string::npos);
    }

    auto r = tessera_tool("run " + (dir / "missing.onnx").string(), dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("cannot open ONNX model") != std::string::npos);

    write_file(dir / "junk.onnx", {0xff, 0xff, 0xff, 0x01});
    r = tessera_tool("info " + (dir / "junk.onnx").string(), dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("not a valid ONNX ModelProto") != std::string::npos);

    r = tessera_tool("run " + model.string() + " --repeat 0", dir);
    CHECK(r.status == 2);
    CHECK(r.out.find("--repeat takes a count >= 1") != std::string::npos);

    r = tessera_tool("run " + model.string() + " --shape x=2xa", dir);
    CHECK(r.status == 2);
    CHECK(r.out.find("is not a shape") != std::string::npos);

    r = tessera_tool("info", dir);
    CHECK(r.status == 2);
    CHECK(r.out.find("usage: tessera info") != std::string::npos);

    cli::write_npy(dir / "q.npy", f32_tensor("q", {1, 4}, {1, 2, 3, 4}));
    r = tessera_tool("run " + model.string() + " --input q=" + (dir / "q.npy").string() +
                         " --shape x=1x4",
                     dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("--input names no graph input of the model: q") != std::string::npos);

    write_file(dir / "bad.npy", {'n', 'o', 'p', 'e'});
    r = tessera_tool("run " + model.string() + " --input x=" + (dir / "bad.npy").string(), dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("bad.npy: not a .npy file") != std::string::npos);

    cli::write_npy(dir / "wrong.npy", f32_tensor("x", {2, 3}, {1, 2, 3, 4, 5, 6}));
    r = tessera_tool("run " + model.string() + " --input x=" + (dir / "wrong.npy").string(), dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("tessera run: tensor 'x': ") != std::string::npos);
    CHECK(r.out.find("dim 1 = 3, the model fixes it to 4") != std::string::npos);
}
