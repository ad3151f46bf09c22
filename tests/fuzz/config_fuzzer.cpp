// config_fuzzer.cpp: libFuzzer harness of the config-string parser (tessera/config.hpp). Any
// byte string either parses or throws a parse_error; a parsed config prints as canonical text
// that parses back to the same config, and every element's column points into the text.
#include <cstdint>
#include <string>
#include <string_view>

#include <tessera/config.hpp>

#include "fuzz_input.hpp"

namespace {

using tessera_fuzz::report_mismatch;

bool same_chain(const tessera::config& a, const tessera::config& b) {
    if (a.is_auto != b.is_auto || a.chain.size() != b.chain.size()) return false;
    for (std::size_t i = 0; i < a.chain.size(); ++i) {
        const auto &x = a.chain[i], &y = b.chain[i];
        if (x.name != y.name || x.optional != y.optional || x.strict != y.strict ||
            x.options != y.options)
            return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    tessera::config parsed;
    try {
        parsed = tessera::config::parse(text);
    } catch (const tessera::error& e) {
        if (e.code() != tessera::status::parse_error)
            report_mismatch("a malformed config threw " + std::string(e.what()));
        return 0;
    }
    for (const auto& element : parsed.chain) {
        if (element.column < 1 || static_cast<std::size_t>(element.column) > text.size())
            report_mismatch("column " + std::to_string(element.column) + " outside the text");
        if (element.name.empty()) report_mismatch("an element without a name");
        if (text.compare(static_cast<std::size_t>(element.column - 1), element.name.size(),
                         element.name) != 0)
            report_mismatch("column of '" + element.name + "' does not point at its name");
    }
    const std::string canonical = parsed.to_string();
    tessera::config again;
    try {
        again = tessera::config::parse(canonical);
    } catch (const tessera::error& e) {
        report_mismatch("canonical text '" + canonical + "' does not parse: " + e.what());
    }
    if (!same_chain(parsed, again) || again.to_string() != canonical)
        report_mismatch("'" + text + "' and its canonical text '" + canonical + "' differ");
    return 0;
}
