// ops_test.cpp: every op the zaiu plugin maps, run alone on "zaiu!" and compared with the
// reference backend within the documented tolerance, on odd shapes (partial sticks and pages).
#include "test_support.hpp"

using namespace zaiu_test;

TEST_CASE("binary ops match the reference") {
    const shape s = shape::nchw(2, 3, 5, 37);
    const tensor a = random_tensor(s, -4.0f, 4.0f, 1);
    const tensor b = random_tensor(s, 0.5f, 3.0f, 2);
    for (auto o : {TSR_BINARY_ADD, TSR_BINARY_SUB, TSR_BINARY_MUL, TSR_BINARY_DIV, TSR_BINARY_MIN, TSR_BINARY_MAX}) {
        CAPTURE(o);
        check_op(op::binary(o), {a, b});
    }
}
