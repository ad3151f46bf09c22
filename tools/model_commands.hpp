// model_commands.hpp: the ONNX model subcommands of the `tessera` tool.
//
//   tessera run MODEL.onnx [--config STR] [--input NAME=FILE.npy]... [--shape NAME=1x3x224x224]...
//               [--repeat N] [--compare CONFIG] [--output-dir DIR] [--profile [TRACE.json]]
//   tessera info MODEL.onnx [--config STR] [--shape NAME=DIMS]...
//
// Both return the process exit status: 0 done, 1 the model could not be loaded, compiled or run,
// 2 a usage mistake. In a build without the ONNX importer they say so and return 1.
#pragma once

namespace tessera::cli {

/// `tessera run`: loads, compiles and runs a model; argv[0] is "run".
int run_model_command(int argc, char** argv);

/// `tessera info`: a model's inputs, outputs, op census and placement; argv[0] is "info".
int model_info_command(int argc, char** argv);

}  // namespace tessera::cli
