// onnx_fuzzer.cpp: libFuzzer harness of the ONNX importer (tessera::onnx::load from bytes).
// Any byte string either loads into a graph that verifies, or throws a tessera::error
// (parse_error, invalid_argument, unsupported, import_error); anything else is a finding.
#include <cstdint>
#include <exception>
#include <string>

#include <tessera/onnx/onnx.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        tessera::graph g = tessera::onnx::load(data, size);
        g.verify();
    } catch (const tessera::error&) {
    } catch (const std::exception& e) {
        tessera_fuzz::report_mismatch(std::string("untyped exception: ") + e.what());
    }
    return 0;
}
