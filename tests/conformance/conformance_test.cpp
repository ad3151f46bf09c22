// conformance_test.cpp: every op that takes more than one input, in every broadcast form its
// descriptor admits, on random shapes, on every backend of the build, against the reference
// backend. A backend may decline a form (reported with its reason); one that accepts must be
// within its tolerance. Each test case prints its (op, form, backend) -> verdict table.
#include <doctest/doctest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "runner.hpp"

using namespace conformance;

namespace {

/// Random shapes per form; fixed seeds so a failure reproduces.
constexpr int repeats = 2;

/// Verdicts seen per (op, form) and backend, with one decline reason per combination.
struct summary {
    std::map<std::pair<std::string, std::string>, std::map<std::string, std::set<verdict>>> seen;
    std::map<std::tuple<std::string, std::string, std::string>, std::string> reasons;

    void add(const conformance_case& c, const std::string& backend, const outcome& o) {
        seen[{c.op, c.form}][backend].insert(o.v);
        if (o.v == verdict::declined)
            reasons.emplace(std::make_tuple(c.op, c.form, backend), o.detail);
    }

    void print(const char* title) const {
        std::cout << "== conformance: " << title << "\n";
        for (const auto& [key, per_backend] : seen) {
            std::cout << key.first << " | " << key.second << "\n";
            for (const auto& [backend, verdicts] : per_backend) {
                std::cout << "    " << backend << ":";
                for (verdict v : verdicts) std::cout << " " << verdict_name(v);
                const auto r = reasons.find(std::make_tuple(key.first, key.second, backend));
                if (r != reasons.end()) std::cout << " (" << r->second << ")";
                std::cout << "\n";
            }
        }
    }
};

void drive(const char* title, case_list (*generate)(draw&, int), std::uint32_t seed) {
    draw d(seed);
    const case_list cases = generate(d, repeats);
    REQUIRE(!cases.empty());
    summary s;
    for (const auto& b : backend_table()) {
        std::string why;
        INFO("backend " << b.name);
        REQUIRE_MESSAGE(load_backend(b, why), why);
    }
    for (const auto& c : cases) {
        std::string shapes;
        for (const auto& t : c.inputs) shapes += text(t.dims()) + " ";
        INFO(c.op << " | " << c.form << " | inputs " << shapes);
        std::vector<tensor> want;
        REQUIRE_NOTHROW(want = reference::execute(c.desc, c.inputs));
        for (const auto& b : backend_table()) {
            const outcome o = run_case(b, c, want);
            s.add(c, b.name, o);
            if (o.v == verdict::wrong || o.v == verdict::error)
                FAIL_CHECK(b.name << " accepted and gave " << std::string(verdict_name(o.v)) << ": "
                                  << o.detail);
        }
    }
    s.print(title);
}

}  // namespace

TEST_CASE("conformance: binary, every broadcast form of A, B and C") {
    drive("binary", binary_cases, 101);
}

TEST_CASE("conformance: prelu slope shapes") {
    drive("prelu", prelu_cases, 102);
}

TEST_CASE("conformance: concat, norm, table_lookup (no broadcast admitted)") {
    drive("data", data_cases, 103);
}

TEST_CASE("conformance: gemm C [M, N] and [N]") {
    drive("gemm", gemm_cases, 104);
}

TEST_CASE("conformance: matmul stack broadcasts and C forms") {
    drive("matmul", matmul_cases, 105);
}

TEST_CASE("conformance: quantized_matmul stack broadcasts and C forms") {
    drive("quantized_matmul", quantized_matmul_cases, 110);
}

TEST_CASE("conformance: fully_connected bias and slope") {
    drive("fully_connected", fully_connected_cases, 106);
}

TEST_CASE("conformance: conv2d bias, batchnorm parameters, slope") {
    drive("conv2d", conv2d_cases, 107);
}

TEST_CASE("conformance: batchnorm parameters and slope") {
    drive("batchnorm", batchnorm_cases, 108);
}

TEST_CASE("conformance: layer_norm gamma/beta and statistics shapes") {
    drive("layer_norm", layer_norm_cases, 109);
}
