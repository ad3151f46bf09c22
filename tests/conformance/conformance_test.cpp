// conformance_test.cpp: every op of the op set in generated forms (broadcasts, geometry, modes,
// dtypes) on random shapes, on every backend of the build, against the reference backend. A
// backend may decline a case (reported with its reason); one that accepts must be within its
// tolerance. Each test case prints its (op, form, backend) -> verdict table; the run adds every
// verdict to the coverage table main prints at the end.
#include <doctest/doctest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "coverage.hpp"
#include "known_wrong.hpp"
#include "runner.hpp"

using namespace conformance;

namespace {

/// Random shapes per form; fixed seeds so a failure reproduces.
constexpr int repeats = 2;

/// Every generator with its seed and repeat count; the test cases below drive them one each.
struct generator {
    const char* title;
    case_list (*generate)(draw&, int);
    std::uint32_t seed;
    int repeats;
};

const generator generators[] = {
    {"binary", binary_cases, 101, repeats},
    {"prelu", prelu_cases, 102, repeats},
    {"data", data_cases, 103, repeats},
    {"gemm", gemm_cases, 104, repeats},
    {"matmul", matmul_cases, 105, repeats},
    {"fully_connected", fully_connected_cases, 106, repeats},
    {"conv2d", conv2d_cases, 107, repeats},
    {"batchnorm", batchnorm_cases, 108, repeats},
    {"layer_norm", layer_norm_cases, 109, repeats},
    {"quantized_matmul", quantized_matmul_cases, 110, repeats},
    {"conv2d geometry", conv2d_geometry_cases, 111, repeats},
    {"pooling", pooling_cases, 112, repeats},
    {"lrn, mean_reduce2d", lrn_cases, 113, repeats},
    {"activation, unary", activation_cases, 114, repeats},
    {"softmax", softmax_cases, 115, repeats},
    {"reduce, moments", reduction_cases, 116, repeats},
    {"permute, transpose, reshape, depth_to_space", layout_cases, 117, repeats},
    {"resize_bilinear, pad, fill, reorder", resize_pad_fill_cases, 118, repeats},
    {"lstm, gru", rnn_cases, 119, 1},
    {"dtypes", dtype_cases, 120, 1},
    {"compare, logical, where", selection_cases, 121, repeats},
    {"slice, gather, expand, tile", indexing_cases, 122, repeats},
    {"cumsum, topk, select_last_index", scan_cases, 123, repeats},
};

/// Ops of the op set no generator covers, with the reason.
const std::map<std::string, std::string> not_generated = {
    {"custom", "a custom op carries its own kernel source; the reference backend declines it"},
};

/// Verdicts seen per (op, form) and backend, with one decline reason per combination.
struct summary {
    std::map<std::pair<std::string, std::string>, std::map<std::string, std::set<verdict>>> seen;
    std::map<std::tuple<std::string, std::string, std::string>, std::string> reasons;

    void add(const conformance_case& c, const std::string& backend, const outcome& o) {
        seen[{c.op, c.form}][backend].insert(o.v);
        if (o.v == verdict::declined || o.v == verdict::wrong)
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

void drive(const char* title) {
    const generator* g = nullptr;
    for (const auto& candidate : generators)
        if (std::string(candidate.title) == title) g = &candidate;
    REQUIRE(g != nullptr);
    draw d(g->seed);
    const case_list cases = g->generate(d, g->repeats);
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
            outcome o = run_case(b, c, want);
            coverage::instance().add(std::string(c.desc.name()), b.name, o.v);
            const char* bug = known_bug(b.name, c.op, c.form);
            if (bug && o.v == verdict::wrong) {
                o.detail = std::string("known: ") + bug;
            } else if (bug) {
                FAIL_CHECK(b.name << " is listed in known_wrong.hpp (" << bug << ") but gave "
                                  << std::string(verdict_name(o.v))
                                  << ": remove the entry if the bug is fixed");
            } else if (o.v == verdict::wrong || o.v == verdict::error) {
                FAIL_CHECK(b.name << " accepted and gave " << std::string(verdict_name(o.v)) << ": "
                                  << o.detail);
            }
            s.add(c, b.name, o);
        }
    }
    s.print(title);
}

}  // namespace

TEST_CASE("conformance: every op of the op set has generated cases") {
    std::set<std::string> generated;
    for (const auto& g : generators) {
        draw d(g.seed);
        for (const auto& c : g.generate(d, 1)) generated.insert(std::string(c.desc.name()));
    }
    for (const auto& name : op_set_names()) {
        INFO("op " << name);
        CHECK((generated.count(name) == 1) != (not_generated.count(name) == 1));
    }
}

TEST_CASE("conformance: binary, every broadcast form of A, B and C") {
    drive("binary");
}

TEST_CASE("conformance: prelu slope shapes") {
    drive("prelu");
}

TEST_CASE("conformance: concat, norm, table_lookup (no broadcast admitted)") {
    drive("data");
}

TEST_CASE("conformance: gemm C [M, N] and [N]") {
    drive("gemm");
}

TEST_CASE("conformance: matmul stack broadcasts and C forms") {
    drive("matmul");
}

TEST_CASE("conformance: quantized_matmul stack broadcasts and C forms") {
    drive("quantized_matmul");
}

TEST_CASE("conformance: fully_connected bias and slope") {
    drive("fully_connected");
}

TEST_CASE("conformance: conv2d bias, batchnorm parameters, slope") {
    drive("conv2d");
}

TEST_CASE("conformance: conv2d strides, padding, dilation, groups, depthwise, transposed") {
    drive("conv2d geometry");
}

TEST_CASE("conformance: pooling in its five modes") {
    drive("pooling");
}

TEST_CASE("conformance: batchnorm parameters and slope") {
    drive("batchnorm");
}

TEST_CASE("conformance: layer_norm gamma/beta and statistics shapes") {
    drive("layer_norm");
}

TEST_CASE("conformance: lrn and mean_reduce2d") {
    drive("lrn, mean_reduce2d");
}

TEST_CASE("conformance: every activation kind and unary op") {
    drive("activation, unary");
}

TEST_CASE("conformance: softmax axes, beta, log, mask") {
    drive("softmax");
}

TEST_CASE("conformance: reduce in every mode, moments") {
    drive("reduce, moments");
}

TEST_CASE("conformance: permute, transpose, reshape, depth_to_space") {
    drive("permute, transpose, reshape, depth_to_space");
}

TEST_CASE("conformance: resize_bilinear, pad, fill, reorder") {
    drive("resize_bilinear, pad, fill, reorder");
}

TEST_CASE("conformance: lstm and gru") {
    drive("lstm, gru");
}

TEST_CASE("conformance: every op family in every dtype it admits") {
    drive("dtypes");
}

TEST_CASE("conformance: compare, logical, where") {
    drive("compare, logical, where");
}

TEST_CASE("conformance: slice, gather, expand, tile") {
    drive("slice, gather, expand, tile");
}

TEST_CASE("conformance: cumsum, topk, index reductions' select_last_index") {
    drive("cumsum, topk, select_last_index");
}
