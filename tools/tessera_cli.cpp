// tessera_cli.cpp: the `tessera` tool, in the spirit of clinfo. Prints the loader report (every
// candidate plugin file and its outcome) and, per backend, its devices and which ops it accepts
// for a representative f32 descriptor of each op (with the reason when it declines).
//
//   tessera            everything
//   tessera --report   only the loader report
//   tessera --load F   load plugin file F first (repeatable)
//   tessera --place C  compile the sample network (sample_network.hpp) for config string C and
//                      print its placement report with each partition's compile statistics
//   tessera --check-plugin F [--timeout S]
//                      load F in a child process and report what happened, including an entry
//                      function that aborts, exits or does not return within S seconds (10)
//   tessera run MODEL.onnx ...   load, compile and run an ONNX model (model_commands.hpp)
//   tessera info MODEL.onnx ...  a model's inputs, outputs, op census and placement
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <tessera/plugin/backend.hpp>
#include <tessera/tessera.hpp>

#include "check_plugin.hpp"
#include "model_commands.hpp"
#include "sample_network.hpp"

using namespace tessera;

namespace {

struct probe {
    op_desc op;
    std::vector<tensor_desc> inputs;
};

tensor_desc f32(const shape& s) {
    return tensor_desc(s, dtype::f32);
}

/// An i16 Q7.8 fixed-point descriptor (OpenVX's tensors).
tensor_desc q78(const shape& s) {
    return tensor_desc(s, dtype::i16, layout::row_major(), quantization{1.0f, 0, 8});
}

std::vector<probe> probes() {
    const shape img = shape::nchw(1, 8, 16, 16);
    return {
        {op::conv2d().padding(1, 1, 1, 1), {f32(img), f32(shape{8, 8, 3, 3})}},
        {op::conv2d().padding(1, 1, 1, 1).groups(8), {f32(img), f32(shape{8, 1, 3, 3})}},
        {op::fully_connected(), {f32(shape{2, 64}), f32(shape{16, 64})}},
        {op::gemm(), {f32(shape{8, 16}), f32(shape{16, 4}), f32(shape{8, 4})}},
        {op::matmul(), {f32(shape{8, 16}), f32(shape{16, 4})}},
        {op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {f32(img)}},
        {op::pooling(pooling_kind::average_exclude_padding).kernel(3, 3).padding(1, 1, 1, 1),
         {f32(img)}},
        {op::batchnorm(), {f32(img), f32(shape{8}), f32(shape{8})}},
        {op::softmax().along(1), {f32(shape{4, 10})}},
        {op::activation(activation_kind::relu), {f32(img)}},
        {op::activation(activation_kind::sigmoid), {f32(img)}},
        {op::activation(activation_kind::gelu), {f32(img)}},
        {op::binary(binary_kind::add), {f32(img), f32(img)}},
        {op::binary(binary_kind::mul), {f32(img), f32(shape::nchw(1, 8, 1, 1))}},
        {op::unary(unary_kind::exp), {f32(img)}},
        {op::reorder(f32(img).with_layout(layout::nhwc())), {f32(img)}},
        // fixed point (OpenVX): the same kinds of op on i16 Q7.8 tensors
        {op::conv2d().padding(1, 1, 1, 1), {q78(img), q78(shape{8, 8, 3, 3})}},
        {op::fully_connected(), {q78(shape{2, 64}), q78(shape{16, 64})}},
        {op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {q78(img)}},
        {op::lrn().window(5), {q78(img)}},
        {op::softmax().along(1), {q78(shape{4, 10})}},
        {op::activation(activation_kind::sigmoid), {q78(img)}},
        {op::binary(binary_kind::mul), {q78(img), q78(shape::nchw(1, 8, 1, 1))}},
        {op::table_lookup(), {q78(img), q78(shape{256})}},
        {op::transpose(1, 3), {q78(img)}},
    };
}

/// What `backend` makes of the sample network compiled for it alone: one line per partition
/// with the plugin's compile statistics.
void print_sample_statistics(const std::string& backend) {
    std::printf("  sample network (%s):\n", cli::sample_network_ops);
    try {
        const compiled_graph cg = cli::sample_network().compile(backend);
        for (std::size_t k = 0; k < cg.partitions().size(); ++k) {
            const partition_report& r = cg.partitions()[k];
            std::printf("    partition %zu on %s: %s\n", k + 1, r.backend.c_str(),
                        r.stats ? r.stats->to_string().c_str()
                                : "the plugin reports no compile statistics");
        }
    } catch (const error& e) {
        std::printf("    cannot compile: %s\n", e.what());
    }
}

/// `tessera --place CONFIG`: the sample network's placement report for CONFIG.
int print_placement(const char* config) {
    try {
        std::printf("%s", cli::sample_network().compile(config).placement_report().c_str());
        return 0;
    } catch (const error& e) {
        std::fprintf(stderr, "tessera: cannot compile the sample network for \"%s\": %s\n", config,
                     e.what());
        return 1;
    }
}

void describe(const plugin_entry& p) {
    std::printf("\nBackend '%s' %s — %s\n  from: %s\n", p.api->name,
                p.api->version ? p.api->version : "", p.api->description ? p.api->description : "",
                p.path.c_str());
    try {
        backend b(p.api);
        const auto devices = b.devices();
        for (std::size_t i = 0; i < devices.size(); ++i)
            std::printf("  device %zu: %s [%s] %s\n", i, devices[i].name.c_str(),
                        devices[i].kind.c_str(), devices[i].details.c_str());
        std::printf("  ops (representative f32 descriptors, then i16 Q7.8 ones):\n");
        for (const auto& pr : probes()) {
            std::vector<tensor_desc> outs;
            for (const auto& d : pr.op.infer(pr.inputs))
                outs.push_back(d.with_layout(layout::any()));
            const op_support s = b.query(pr.op, pr.inputs, outs);
            const char* level = s.level == TSR_SUPPORT_NATIVE     ? "native"
                                : s.level == TSR_SUPPORT_EMULATED ? "emulated"
                                                                  : "no";
            const std::string label =
                pr.op.describe() + (pr.inputs[0].type() == dtype::i16 ? " [Q7.8]" : "");
            std::printf("    %-34s %-8s", label.c_str(), level);
            if (s.supported() && !s.outputs.empty())
                std::printf(" -> %s", s.outputs[0].to_string().c_str());
            if (!s.text.empty()) std::printf("  (%s)", s.text.c_str());
            std::printf("\n");
        }
    } catch (const error& e) {
        std::printf("  cannot start: %s\n", e.what());
        return;
    }
    print_sample_statistics(p.api->name);
}

int usage() {
    std::fprintf(stderr,
                 "usage: tessera [--report] [--load PLUGIN_FILE]... [--place CONFIG]\n"
                 "       tessera --check-plugin PLUGIN_FILE [--timeout SECONDS]\n"
                 "       tessera run MODEL.onnx [--config STR] [--input NAME=FILE.npy]...\n"
                 "                   [--shape NAME=1x3x224x224]... [--repeat N] [--compare CONFIG]\n"
                 "                   [--output-dir DIR] [--profile [TRACE.json]]\n"
                 "       tessera info MODEL.onnx [--config STR] [--shape NAME=DIMS]...\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && !std::strcmp(argv[1], "run")) return cli::run_model_command(argc - 1, argv + 1);
    if (argc > 1 && !std::strcmp(argv[1], "info")) return cli::model_info_command(argc - 1, argv + 1);
    bool report_only = false;
    const char* check_file = nullptr;
    const char* place_config = nullptr;
    int timeout_s = 10;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--report")) {
            report_only = true;
        } else if (!std::strcmp(argv[i], "--load") && i + 1 < argc) {
            plugin_registry::instance().load(argv[++i]);
        } else if (!std::strcmp(argv[i], "--place") && i + 1 < argc) {
            place_config = argv[++i];
        } else if (!std::strcmp(argv[i], "--check-plugin") && i + 1 < argc) {
            check_file = argv[++i];
        } else if (!std::strcmp(argv[i], "--timeout") && i + 1 < argc) {
            timeout_s = std::atoi(argv[++i]);
            if (timeout_s <= 0) return usage();
        } else {
            return usage();
        }
    }
    if (check_file) return cli::check_plugin(check_file, timeout_s);
    if (place_config) return print_placement(place_config);
    std::printf("Tessera %s, plugin ABI %d.%d\n", version_string, abi_major, abi_minor);
    std::printf(
        "Plugin search: API paths, TESSERA_PLUGINS (files), TESSERA_PLUGIN_PATH (directories), "
        "then the %s\n",
#if defined(TESSERA_BUILD_PLUGIN_DIR)
        "build tree's plugins: " TESSERA_BUILD_PLUGIN_DIR
#elif defined(TESSERA_RELATIVE_PLUGIN_DIR)
        "installation's plugins: " TESSERA_RELATIVE_PLUGIN_DIR " from this program's folder"
#elif defined(TESSERA_INSTALL_PLUGIN_DIR)
        "installed plugins: " TESSERA_INSTALL_PLUGIN_DIR
#else
        "built-in reference backend (no plugin folder compiled in)"
#endif
    );
    std::printf("Loader report:\n%s", plugin_registry::instance().report_text().c_str());
    if (report_only) return 0;
    for (const auto& p : plugin_registry::instance().plugins()) describe(p);
    return 0;
}
