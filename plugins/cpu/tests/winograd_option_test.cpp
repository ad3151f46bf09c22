// winograd_option_test.cpp: the cpu backend's winograd option. Two 3x3 convolutions, the second
// over 96 blocked channels and 60 tiles of 2x2 outputs: by default ("winograd=on") the second runs
// as Winograd F(2x2, 3x3), with "winograd=off" as a direct convolution. Both stay within the
// cpu tolerance of the reference and differ from each other in rounding (another algorithm ran);
// any other value is a typed error naming the option.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

graph two_convolutions() {
    graph g;
    auto t = g.input("x", tensor_desc(shape{2, 16, 12, 10}, dtype::f32));
    for (int i = 0; i < 2; ++i) {
        const int in = i == 0 ? 16 : 96;
        const std::string name = "conv" + std::to_string(i);
        t = g.apply(name, op::conv2d().padding(1, 1, 1, 1).bias().fuse(TSR_ACT_RELU),
                    {t, g.constant(name + ".w", values(shape{96, in, 3, 3}, 130 + i, -0.2f, 0.2f)),
                     g.constant(name + ".b", values(shape{96}, 140 + i, -0.1f, 0.1f))});
    }
    g.output(t);
    return g;
}

}  // namespace

TEST_CASE("winograd=on and winograd=off both match the reference, in different roundings") {
    load_cpu_plugin();
    const tensor x = values(shape{2, 16, 12, 10}, 150, -1.0f, 1.0f);
    graph r = two_convolutions(), on = two_convolutions(), off = two_convolutions(),
          plain = two_convolutions();
    const tensor want = r.compile("reference").run({{"x", x}}).begin()->second;
    const tensor got_on = on.compile("cpu:winograd=on").run({{"x", x}}).begin()->second;
    const tensor got_off = off.compile("cpu:winograd=off").run({{"x", x}}).begin()->second;
    const tensor got_plain = plain.compile("cpu").run({{"x", x}}).begin()->second;
    // The cpu tolerance, two rounded steps (two convolutions).
    check_close(got_on, want, {1e-5, 1e-5, 1e-6}, 2);
    check_close(got_off, want, {1e-5, 1e-5, 1e-6}, 2);
    check_close(got_plain, got_on, {0.0, 0.0, 0.0});  // on is the default
    std::int64_t differ = 0;
    for (std::int64_t i = 0; i < got_on.num_elements(); ++i)
        differ += got_on.data_as<float>()[i] != got_off.data_as<float>()[i];
    CHECK(differ > 0);
}

TEST_CASE("a winograd value other than on or off is an invalid-argument error naming it") {
    load_cpu_plugin();
    graph g = two_convolutions();
    try {
        g.compile("cpu:winograd=fast");
        FAIL("compiling with winograd=fast succeeded");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(std::string(e.what()).find("winograd must be 'on' or 'off', got 'fast'") !=
              std::string::npos);
    }
}
