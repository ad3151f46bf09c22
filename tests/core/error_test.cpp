// error_test.cpp: tessera::error carries code, op, tensor and backend, and what() names them all.
#include <doctest/doctest.h>

#include <string>

#include "error_check.hpp"
#include "tessera/error.hpp"

using tessera::error;
using tessera::status;

namespace {
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("error: what() names op, tensor, code and backend") {
    const error e(status::invalid_argument, "dim 1 (C) is 3, expected 16",
                  {"cpu", "conv2d", "weights"});
    const std::string what = e.what();
    CHECK(what ==
          "conv2d: tensor 'weights': dim 1 (C) is 3, expected 16 [invalid_argument, backend cpu]");
    CHECK(contains(what, "conv2d"));
    CHECK(contains(what, "weights"));
    CHECK(contains(what, "invalid_argument"));
    CHECK(contains(what, "cpu"));
    CHECK(e.code() == status::invalid_argument);
    CHECK(e.message() == "dim 1 (C) is 3, expected 16");
    CHECK(e.backend() == "cpu");
    CHECK(e.op() == "conv2d");
    CHECK(e.tensor() == "weights");
}

TEST_CASE("error: optional context fields are left out of what()") {
    CHECK(std::string(error(status::not_found, "no plugin").what()) == "no plugin [not_found]");
    CHECK(std::string(error(status::unsupported, "f64", {"zdnn", "", ""}).what()) ==
          "f64 [unsupported, backend zdnn]");
    CHECK(std::string(error(status::backend_failure, "x", {"", "gemm", ""}).what()) ==
          "gemm: x [backend_failure]");
    const std::runtime_error& base = error(status::runtime_error, "boom");
    CHECK(contains(base.what(), "runtime_error"));
}

TEST_CASE("error: fail_invalid throws invalid_argument with op and tensor") {
    tessera_test::check_error([] { tessera::fail_invalid("pool", "input", "rank 3"); },
                              status::invalid_argument,
                              "pool: tensor 'input': rank 3 [invalid_argument]");
}

TEST_CASE("error: every status has a name") {
    const std::pair<status, const char*> names[] = {{status::success, "success"},
                                                    {status::invalid_argument, "invalid_argument"},
                                                    {status::unsupported, "unsupported"},
                                                    {status::out_of_memory, "out_of_memory"},
                                                    {status::not_found, "not_found"},
                                                    {status::abi_mismatch, "abi_mismatch"},
                                                    {status::invalid_graph, "invalid_graph"},
                                                    {status::parse_error, "parse_error"},
                                                    {status::backend_failure, "backend_failure"},
                                                    {status::runtime_error, "runtime_error"}};
    for (const auto& [code, name] : names) CHECK(std::string(tessera::to_string(code)) == name);
    CHECK(std::string(tessera::to_string(static_cast<status>(99))) == "unknown_status");
}
