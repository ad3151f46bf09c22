// softmax_test.cpp: every softmax form the runtime's Softmax does not take (an axis other than
// the last, runs of axes, masks, beta, log-softmax on those, and the f16, bf16, dlfloat16 and
// i16 fixed-point dtypes) runs natively on the cpu plugin, computed in double as the reference
// does: results equal the reference's byte for byte.
#include "typed_values.hpp"

using namespace cpu_test;

TEST_CASE("softmax along any axes, masked, scaled or log, runs natively and matches exactly") {
    load_cpu_plugin();
    const tensor x = values(shape{3, 4, 5, 6}, 96, -5.0f, 5.0f);
    for (bool log : {false, true}) {
        CAPTURE(log);
        check_exact(op::softmax().along(0).logarithmic(log), {x});
        check_exact(op::softmax().along(1).logarithmic(log), {x});
        check_exact(op::softmax().along(2, 2).logarithmic(log), {x});
        check_exact(op::softmax().along(1, 3).logarithmic(log), {x});
        check_exact(op::softmax().along(-1).masked(4).logarithmic(log), {x});
        check_exact(op::softmax().along(1, 2).masked(7).scaled_by(2.5f).logarithmic(log), {x});
    }
}

TEST_CASE("softmax on 16-bit floats and i16 fixed point runs natively and matches exactly") {
    load_cpu_plugin();
    const std::vector<std::pair<dtype, quantization>> types = {
        {dtype::f16, {}}, {dtype::bf16, {}}, {dtype::dlfloat16, {}}, {dtype::i16, {1.0f, 0, 12}}};
    for (const auto& type : types) {
        INFO(to_string(type.first));
        const double step = type.first == dtype::i16 ? 97.0 : 0.125;
        const double lo = type.first == dtype::i16 ? -16000.0 : -4.0;
        const tensor x = grid(shape{2, 9, 11}, type.first, 97, lo, step, 65, type.second);
        for (bool log : {false, true})
            for (int axis : {0, 1, -1})
                check_exact(op::softmax().along(axis).logarithmic(log), {x});
    }
}

TEST_CASE("large softmax along an outer axis is split over threads and matches") {
    load_cpu_plugin();
    const tensor x = values(shape{8, 64, 700}, 98, -8.0f, 8.0f);
    check_exact(op::softmax().along(1), {x});
    check_exact(op::softmax().along(0).logarithmic(), {x});
}
