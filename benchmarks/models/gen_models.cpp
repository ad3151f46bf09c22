// gen_models.cpp: writes the model benchmarks' ONNX files. Usage: gen_models OUT_DIR [NAME...];
// without names, every model of the zoo (model_zoo.hpp) is written as OUT_DIR/NAME.onnx.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <set>
#include <string>

#include "model_zoo.hpp"

int main(int argc, char** argv) {
    namespace models = tessera::benchmarks::models;
    if (argc < 2) {
        std::fprintf(stderr, "usage: gen_models OUT_DIR [NAME...]\n");
        return 2;
    }
    const std::filesystem::path out_dir = argv[1];
    std::set<std::string> wanted(argv + 2, argv + argc);
    try {
        std::filesystem::create_directories(out_dir);
        for (const auto& entry : models::zoo()) {
            if (!wanted.empty() && !wanted.erase(entry.name)) continue;
            const auto path = out_dir / (entry.name + ".onnx");
            const models::onnx_writer w = entry.build();
            w.save(path);
            std::printf("%s: %d nodes, %d initializers -> %s\n", entry.name.c_str(),
                        w.model().graph().node_size(), w.model().graph().initializer_size(),
                        path.string().c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gen_models: %s\n", e.what());
        return 1;
    }
    for (const auto& name : wanted) {
        std::fprintf(stderr, "gen_models: no model named '%s'\n", name.c_str());
        return 2;
    }
    return 0;
}
