// npy.hpp: NumPy .npy files (format versions 1.0, 2.0 and 3.0) as ONNX host tensors, for the
// `tessera run` inputs and outputs. Little-endian, C-order arrays of the element types ONNX shares
// with NumPy; anything else (big-endian, Fortran order, object arrays, a truncated or malformed
// header) is rejected with a tessera::error naming the file and the reason.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <tessera/onnx/onnx.hpp>

namespace tessera::cli {

/// Parses .npy bytes; `origin` names the data in errors (usually the file path).
onnx::host_tensor parse_npy(const std::vector<std::uint8_t>& bytes, const std::string& origin);

/// Reads a .npy file; the tensor is named after `name`.
onnx::host_tensor read_npy(const std::filesystem::path& path, const std::string& name);

/// The .npy bytes (format 1.0) of a host tensor.
std::vector<std::uint8_t> format_npy(const onnx::host_tensor& t);

/// Writes a host tensor as a .npy file.
void write_npy(const std::filesystem::path& path, const onnx::host_tensor& t);

}  // namespace tessera::cli
