// erf_test.cpp: element-wise erf runs natively on the cpu plugin (the GELU of exported
// transformers) within a few f32 ulps of std::erf over its whole range, keeps NaN, saturates
// at the infinities, and matches the reference backend.
#include <cmath>
#include <limits>

#include "cpu_plugin.hpp"

using namespace cpu_test;

TEST_CASE("erf runs natively and matches std::erf and the reference") {
    load_cpu_plugin();
    const std::int64_t count = 4001;
    tensor x(tensor_desc(shape{count}, dtype::f32));
    for (std::int64_t i = 0; i < count; ++i)  // -5 .. 5 in steps of 1/400
        x.data_as<float>()[i] = static_cast<float>(i - count / 2) / 400.0f;
    std::string report;
    const tensor got = run_op(op::unary(TSR_UNARY_ERF), {x}, "cpu!", {}, &report).at(0);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);  // the partition line
    double worst = 0;
    for (std::int64_t i = 0; i < count; ++i) {
        const double want = std::erf(static_cast<double>(x.data_as<float>()[i]));
        worst = std::max(worst, std::fabs(got.data_as<float>()[i] - want));
    }
    CHECK(worst < 4e-7);
    check_close(got, reference::execute(op::unary(TSR_UNARY_ERF), {x}).at(0), tolerance_of("cpu"));
}

TEST_CASE("erf keeps NaN and saturates at the infinities") {
    load_cpu_plugin();
    const float inf = std::numeric_limits<float>::infinity();
    tensor x(tensor_desc(shape{4}, dtype::f32));
    const float in[] = {std::numeric_limits<float>::quiet_NaN(), inf, -inf, 0.0f};
    for (int i = 0; i < 4; ++i) x.data_as<float>()[i] = in[i];
    const tensor got = run_op(op::unary(TSR_UNARY_ERF), {x}, "cpu!").at(0);
    CHECK(std::isnan(got.data_as<float>()[0]));
    CHECK(got.data_as<float>()[1] == 1.0f);
    CHECK(got.data_as<float>()[2] == -1.0f);
    CHECK(got.data_as<float>()[3] == 0.0f);
}
