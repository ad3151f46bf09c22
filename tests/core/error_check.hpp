// error_check.hpp: asserting that a call throws tessera::error with a given code and message text.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "tessera/error.hpp"

namespace tessera_test {

/// Runs fn; checks it throws tessera::error with `code` and a what() containing `text`.
template <typename Fn>
void check_error(Fn&& fn, tessera::status code, const std::string& text = {}) {
    try {
        fn();
        FAIL_CHECK("no tessera::error thrown; expected " << std::string(tessera::to_string(code)));
    } catch (const tessera::error& e) {
        CHECK(e.code() == code);
        INFO("what(): " << e.what());
        CHECK(std::string(e.what()).find(text) != std::string::npos);
    }
}

}  // namespace tessera_test
