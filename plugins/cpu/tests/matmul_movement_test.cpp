// matmul_movement_test.cpp: matmul, reshape and permute run natively on the cpu plugin (not on
// the reference kernels), in every form the ONNX importer emits for MatMul, Flatten, Reshape and
// Transpose, and match the reference backend; so do gemms of few rows (a classifier at batch 1),
// which run as dot products straight from B.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// Runs `op` on "cpu!" and checks it ran natively and matches the reference within `tol`.
void check_native(const op_desc& op, const std::vector<tensor>& inputs, const tolerance& tol) {
    std::string report;
    const auto got = run_op(op, inputs, "cpu!", {}, &report);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);  // the partition line
    const auto want = reference::execute(op, inputs);
    REQUIRE(got.size() == want.size());
    check_close(got.at(0), want.at(0), tol, 1, op.describe());
}

constexpr tolerance exact{0.0, 0.0, 0.0};

}  // namespace

TEST_CASE("matmul runs on the runtime's gemm in its 2-D, stacked and transposed forms") {
    load_cpu_plugin();
    const tolerance tol = tolerance_of("cpu");
    SUBCASE("2-D with a bias row") {
        check_native(op::matmul(),
                     {values(shape{7, 19}, 1), values(shape{19, 13}, 2), values(shape{13}, 3)},
                     tol);
    }
    SUBCASE("stacked A over a shared B (one tall product)") {
        check_native(op::matmul(), {values(shape{3, 5, 17}, 4), values(shape{17, 9}, 5)}, tol);
    }
    SUBCASE("both stacked, with a stacked bias") {
        check_native(
            op::matmul(),
            {values(shape{4, 6, 8}, 6), values(shape{4, 8, 10}, 7), values(shape{4, 10}, 8)}, tol);
    }
    SUBCASE("shared A over a stacked B") {
        check_native(op::matmul(), {values(shape{6, 8}, 9), values(shape{3, 8, 5}, 10)}, tol);
    }
    SUBCASE("transposed A and B, stacked") {
        check_native(op::matmul().transpose(true, true),
                     {values(shape{2, 11, 7}, 11), values(shape{2, 5, 11}, 12)}, tol);
    }
    SUBCASE("transposed stacked A over a shared B") {
        check_native(op::matmul().transpose(true, false),
                     {values(shape{3, 4, 6}, 13), values(shape{4, 5}, 14)}, tol);
    }
}

TEST_CASE("reshape and permute move the bytes natively, bit-identical to the reference") {
    load_cpu_plugin();
    SUBCASE("reshape") {
        check_native(op::reshape{2, 3, 20}, {values(shape{2, 3, 4, 5}, 20)}, exact);
    }
    SUBCASE("permute of a 3-D tensor (the CRNN's time-major transpose)") {
        check_native(op::permute{0, 2, 1}, {values(shape{1, 9, 14}, 21)}, exact);
    }
    SUBCASE("permute splitting attention heads") {
        check_native(op::permute{0, 2, 1, 3}, {values(shape{1, 6, 4, 5}, 22)}, exact);
        check_native(op::permute{0, 2, 3, 1}, {values(shape{2, 6, 4, 5}, 23)}, exact);
    }
    SUBCASE("permute reversing all dims") {
        check_native(op::permute{4, 3, 2, 1, 0}, {values(shape{2, 3, 1, 4, 3}, 24)}, exact);
    }
    SUBCASE("permute of 1-byte elements") {
        const tensor src = values(shape{3, 5, 2}, 25);
        tensor bytes(tensor_desc(shape{3, 5, 2}, dtype::u8));
        for (std::int64_t i = 0; i < src.num_elements(); ++i)
            bytes.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>(i * 7);
        std::string report;
        const auto got = run_op(op::permute{2, 0, 1}, {bytes}, "cpu!", {}, &report);
        INFO(report);
        CHECK(report.find(" 0 emulated,") != std::string::npos);  // the partition line
        const auto want = reference::execute(op::permute{2, 0, 1}, {bytes});
        for (std::int64_t i = 0; i < want.at(0).num_elements(); ++i)
            CHECK(got.at(0).data_as<std::uint8_t>()[i] == want.at(0).data_as<std::uint8_t>()[i]);
    }
}

TEST_CASE("gemm of few rows (dot products from B) matches the reference in every form") {
    load_cpu_plugin();
    const tolerance tol = tolerance_of("cpu");
    SUBCASE("one row, transposed B, bias row (ONNX Gemm of a classifier)") {
        check_native(op::gemm().transpose(false, true),
                     {values(shape{1, 70}, 40), values(shape{33, 70}, 41), values(shape{33}, 42)},
                     tol);
    }
    SUBCASE("three rows, plain B, scaled, full C") {
        check_native(
            op::gemm().scales(0.5f, -2.0f),
            {values(shape{3, 37}, 43), values(shape{37, 21}, 44), values(shape{3, 21}, 45)}, tol);
    }
    SUBCASE("transposed A, no C") {
        check_native(op::gemm().transpose(true, false),
                     {values(shape{18, 2}, 46), values(shape{18, 9}, 47)}, tol);
    }
    SUBCASE("four rows take the dot products, five the packed gemm: both match") {
        for (std::int64_t rows : {4, 5})
            check_native(
                op::gemm().transpose(false, true),
                {values(shape{rows, 40}, 48), values(shape{12, 40}, 49), values(shape{12}, 50)},
                tol);
    }
}
