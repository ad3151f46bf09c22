// model_commands_unavailable.cpp: the model subcommands in a build without the ONNX importer
// (Debian's libonnx-dev and protobuf were not found when it was configured).
#include <cstdio>

#include "model_commands.hpp"

namespace tessera::cli {

namespace {

int unavailable(const char* command) {
    std::fprintf(stderr,
                 "tessera %s: this build has no ONNX importer (configure with libonnx-dev and "
                 "libprotobuf-dev installed)\n",
                 command);
    return 1;
}

}  // namespace

int run_model_command(int, char**) {
    return unavailable("run");
}

int model_info_command(int, char**) {
    return unavailable("info");
}

}  // namespace tessera::cli
