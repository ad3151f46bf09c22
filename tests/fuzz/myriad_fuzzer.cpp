// myriad_fuzzer.cpp: libFuzzer harness of the Myriad custom-layer bindings parser and the size
// expression language (backends/myriad). The first byte picks the target: the rest is either a
// bindings XML file or a size expression evaluated with fuzz-chosen dims and layer parameters.
// Malformed input must throw a tessera::error (myriad::xml_error / expression_error); anything
// else, and a parsed binding whose own size expressions fail the syntax check, is a finding.
#include <cstdint>
#include <exception>
#include <string>

#include <myriad/bindings.h>
#include <myriad/size_expression.h>

#include "fuzz_input.hpp"

namespace {

using tessera_fuzz::report_mismatch;

void fuzz_bindings(const std::string& text) {
    std::vector<myriad::CustomLayer> layers;
    try {
        // Anchored in the shipped layers folder, so Source names of the seeds resolve.
        layers = myriad::parse_bindings_text(text, MYRIAD_LAYERS_DIR "/fuzz.xml");
    } catch (const tessera::error&) {
        return;
    }
    // A layer that parsed has only conditions and expressions the parser checked: evaluating
    // its Where conditions must not throw anything but a typed error.
    for (const auto& layer : layers) {
        try {
            (void)myriad::where_holds(layer.where, {{"axis", "1"}, {"bias", "0.5"}});
        } catch (const tessera::error&) {
        }
    }
}

void fuzz_expression(const std::string& text, const std::uint8_t* dims_bytes) {
    const myriad::Shape dims{dims_bytes[0], dims_bytes[1], dims_bytes[2], dims_bytes[3]};
    const myriad::LayerParams params{{"stride", "2"}, {"scale", "0.75"}, {"kernel", "3,3"},
                                     {"big", "9223372036854775807"}};
    try {
        myriad::check_expression_syntax(text);
    } catch (const tessera::error&) {
        return;
    }
    try {
        (void)myriad::evaluate_size(text, dims, params);
    } catch (const tessera::error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 5) return 0;
    try {
        if (data[0] % 2 == 0) {
            fuzz_bindings(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
        } else {
            fuzz_expression(std::string(reinterpret_cast<const char*>(data + 5), size - 5),
                            data + 1);
        }
    } catch (const std::exception& e) {
        report_mismatch(std::string("untyped exception: ") + e.what());
    }
    return 0;
}
