// myriad_test_support.cpp -- implementation of the Myriad test helpers.
#include "myriad_test_support.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "half_float.h"

namespace myriad_test {

std::string src_dst_layer_xml(const std::string& name, const std::string& entry,
                              const std::string& source,
                              const std::vector<std::pair<std::string, std::string>>& local_data,
                              const std::vector<std::string>& int_scalars,
                              const std::string& work_sizes) {
    std::string xml = "<CustomLayer name=\"" + name +
                      "\" type=\"MVCL\" version=\"1\">\n<Kernel entry=\"" + entry +
                      "\"><Source filename=\"" + source +
                      "\"/></Kernel>\n<Parameters>\n"
                      "<Tensor arg-name=\"src\" type=\"input\" port-index=\"0\"/>\n"
                      "<Tensor arg-name=\"dst\" type=\"output\" port-index=\"0\"/>\n";
    for (const auto& [arg, size] : local_data)
        xml += "<Data arg-name=\"" + arg + "\" type=\"local_data\" dim=\"output,0\" size=\"" +
               size + "\"/>\n";
    for (const std::string& s : int_scalars)
        xml += "<Scalar arg-name=\"" + s + "\" type=\"int\" source=\"" + s + "\"/>\n";
    return xml + "</Parameters>\n<WorkSizes " + work_sizes + "/>\n</CustomLayer>\n";
}

ScratchDir::ScratchDir(const std::string& name) {
    // The whole path: a copied test binary may run where its build tree does not exist.
    path_ = std::string(MYRIAD_TEST_TMPDIR) + "/" + name;
    std::filesystem::create_directories(path_);
}

std::string ScratchDir::write(const std::string& file, const std::string& text) const {
    const std::string full = path_ + "/" + file;
    std::ofstream out(full, std::ios::binary);
    out << text;
    return full;
}

int device_index() {
    const char* env = std::getenv("MYRIAD_TEST_DEVICE");
    return env ? std::atoi(env) : 0;
}

myriad::Runtime& runtime() {
    static myriad::Runtime rt(device_index());
    return rt;
}

std::vector<float> random_values(std::size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = dist(gen);
    return v;
}

float to_half(float v) {
    return myriad::half_to_float(myriad::float_to_half(v));
}

std::vector<float> to_half(const std::vector<float>& v) {
    std::vector<float> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = to_half(v[i]);
    return out;
}

void check_close(const std::vector<float>& got, const std::vector<double>& want, double atol,
                 double rtol) {
    REQUIRE(got.size() == want.size());
    int misses = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
        if (!(err <= atol + rtol * std::fabs(want[i]))) {
            if (++misses <= 5) {
                INFO("index " << i << ": got " << got[i] << ", want " << want[i]);
                CHECK(err <= atol + rtol * std::fabs(want[i]));
            }
        }
    }
    CHECK(misses == 0);
}

namespace {
std::array<std::int64_t, 4> dims4(const myriad::Shape& s) {
    std::array<std::int64_t, 4> d{1, 1, 1, 1};
    for (std::size_t k = 0; k < s.size(); ++k) d[4 - s.size() + k] = s[k];
    return d;
}
}  // namespace

std::vector<float> nchw_to_nhwc(const std::vector<float>& v, const myriad::Shape& s) {
    const auto [N, C, H, W] = dims4(s);
    std::vector<float> out(v.size());
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t h = 0; h < H; ++h)
                for (std::int64_t w = 0; w < W; ++w)
                    out[static_cast<std::size_t>(((n * H + h) * W + w) * C + c)] =
                        v[static_cast<std::size_t>(((n * C + c) * H + h) * W + w)];
    return out;
}

std::vector<float> nhwc_to_nchw(const std::vector<float>& v, const myriad::Shape& s) {
    const auto [N, C, H, W] = dims4(s);
    std::vector<float> out(v.size());
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t h = 0; h < H; ++h)
                for (std::int64_t w = 0; w < W; ++w)
                    out[static_cast<std::size_t>(((n * C + c) * H + h) * W + w)] =
                        v[static_cast<std::size_t>(((n * H + h) * W + w) * C + c)];
    return out;
}

}  // namespace myriad_test

namespace myriad_test {
std::uint16_t half_bits(float v) {
    return myriad::float_to_half(v);
}
float from_half_bits(std::uint16_t h) {
    return myriad::half_to_float(h);
}
}  // namespace myriad_test
