// model_loading.hpp: what `tessera run` and `tessera info` share: their common arguments (the
// model, --config, --shape, --input), loading the model with the shapes fixed, the inputs of a run
// (from .npy files or generated), and the placement summary printed for a compiled model.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

namespace tessera::cli {

/// A command-line mistake: the command prints it with its usage and exits with status 2.
class usage_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// Arguments both model commands take.
struct model_arguments {
    std::filesystem::path model;
    std::string config = "auto";
    std::map<std::string, shape> shapes;                      ///< --shape NAME=1x3x224x224
    std::map<std::string, std::filesystem::path> input_files;  ///< --input NAME=FILE.npy

    /// Takes argv[i] (and its value) when it is one of the common options; returns false for
    /// any other argument. Throws usage_error for a malformed value.
    bool take(int argc, char** argv, int& i);
};

/// "1x3x224x224" as a shape (usage_error when malformed).
shape parse_dims(const std::string& text, const std::string& flag);

/// A model loaded for these arguments, with its run inputs.
struct loaded_model {
    graph g;
    std::map<std::string, tensor> inputs;  ///< every graph input, from a file or generated
    std::vector<std::string> generated;    ///< names of the generated inputs
};

/// Reads the .npy inputs, fixes input shapes (--shape first, else the .npy file's dims), loads
/// the model and prepares every graph input. Inputs without a file are filled with reproducible
/// values (seed 0): uniform in [-1, 1] for floating types, 0..3 for integer types, 0/1 for bool.
/// Throws tessera::error (onnx::import_error listing every unmappable node).
loaded_model load_model(const model_arguments& args);

/// Prints an import error: every unmappable node with its op type and reason.
void print_import_error(const onnx::import_error& e);

/// Ops per backend, then the emulated nodes and the nodes some backend declined, with reasons.
std::string placement_summary(const compiled_graph& cg);

}  // namespace tessera::cli
