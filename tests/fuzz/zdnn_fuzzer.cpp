// zdnn_fuzzer.cpp: libFuzzer harness of backends/zdnn's descriptor and transform API (zdnn.h).
// The first byte picks a mode:
//   even: a pre-transformed descriptor from zdnn_init_pre_transformed_desc (fuzz layout, type and
//         dims), a transformed one from one of the three generate functions, a ztensor with
//         malloc, a transform of fuzz data (NaN and infinities included) and back. Statuses are
//         free to reject anything, but an FP32 tensor that transforms must read back within
//         DLFLOAT16 precision.
//   odd:  raw descriptors (every field from the fuzz bytes) through zdnn_init_ztensor,
//         zdnn_allochelper_ztensor, the transforms, zdnn_getrange_ztensor and
//         zdnn_reshape_ztensor: error statuses, never a crash.
// Tensors whose buffers would exceed 2 MiB are skipped (a fuzzing limit, not an API rule).
#include <zdnn.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using tessera_fuzz::fuzz_input;
using tessera_fuzz::report_mismatch;

constexpr std::uint64_t max_bytes = 2u << 20;

/// Owns a ztensor's buffer allocated by the library.
struct ztensor_buffer {
    zdnn_ztensor* z = nullptr;
    ~ztensor_buffer() {
        if (z && z->buffer) zdnn_free_ztensor_buffer(z);
    }
};

bool is_concatenated(std::uint32_t layout) {
    return layout == ZDNN_FICO || layout == ZDNN_ZRH || layout == ZDNN_BIDIR_FICO || layout == ZDNN_BIDIR_ZRH;
}

/// Elements of a pre-transformed desc counting every dim field (an upper bound for any layout),
/// or 0 when that exceeds the fuzzing limit.
std::uint64_t host_elements(const zdnn_tensor_desc& d) {
    std::uint64_t n = 1;
    for (std::uint32_t dim : {d.dim4, d.dim3, d.dim2, d.dim1}) {
        const std::uint64_t e = dim ? dim : 1;
        if (e > max_bytes / 4 || n * e > max_bytes / 4) return 0;
        n *= e;
    }
    return n;
}

/// Host data for a transform: one buffer per gate of a concatenated layout, filled from fuzz
/// bytes as floats (or raw bytes for the other types).
struct host_data {
    std::vector<std::vector<float>> gates;
    host_data(fuzz_input& in, std::uint64_t elements, int count) : gates(count, std::vector<float>(elements)) {
        for (auto& g : gates)
            for (auto& v : g) v = in.empty() ? 0.5f : in.take<float>();
    }
    void* at(int i) { return gates[static_cast<std::size_t>(i) % gates.size()].data(); }
};

bool dlfloat_close(float got, float want) {
    if (!std::isfinite(want) || std::abs(want) > 8.5e9f) return true;  // NINF or saturated
    if (std::abs(want) < 1e-9f) return std::abs(got) <= 1e-9f;
    return std::abs(got - want) <= std::abs(want) * (1.0f / 512.0f);
}

void structured(fuzz_input& in) {
    static constexpr zdnn_data_types types[] = {FP32, FP16, BFLOAT, INT8, INT32};
    const int type_pick = in.in_range(0, 5);
    const auto type = type_pick < 5 ? types[type_pick] : static_cast<zdnn_data_types>(in.take<std::uint32_t>());
    const auto layout = static_cast<zdnn_data_layouts>(in.in_range(0, 15));
    std::uint32_t dims[4];
    for (auto& d : dims) d = in.in_range(0, 15) == 15 ? in.take<std::uint32_t>() : static_cast<std::uint32_t>(in.in_range(0, 70));
    zdnn_tensor_desc pre{}, tfrmd{};
    // The variadic dims: as many as the layout takes; passing four is always enough.
    zdnn_init_pre_transformed_desc(layout, type, &pre, dims[0], dims[1], dims[2], dims[3]);
    zdnn_status st;
    const int how = in.in_range(0, 2);
    bool quantized = false;
    if (how == 0) {
        st = zdnn_generate_transformed_desc(&pre, &tfrmd);
    } else if (how == 1) {
        quantized = true;
        st = zdnn_generate_quantized_transformed_desc(
            &pre, static_cast<zdnn_quantized_transform_types>(in.in_range(0, 3)), &tfrmd);
    } else {
        st = zdnn_generate_transformed_desc_concatenated(&pre, in.take<std::uint32_t>(), &tfrmd);
    }
    if (st != ZDNN_OK) return;
    const std::uint64_t size = zdnn_getsize_ztensor(&tfrmd);
    const std::uint64_t elements = host_elements(pre);
    if (size == 0 || size > max_bytes || elements == 0) return;
    zdnn_ztensor z{};
    if (quantized) {
        st = zdnn_init_quantized_ztensor_with_malloc(&pre, &tfrmd, 1.0f, 0.0f, &z);
    } else {
        st = zdnn_init_ztensor_with_malloc(&pre, &tfrmd, &z);
    }
    if (st != ZDNN_OK) return;
    ztensor_buffer owner{&z};
    if (z.buffer_size != size) report_mismatch("buffer_size differs from zdnn_getsize_ztensor");
    host_data host(in, elements, 4);
    if (quantized) {
        st = zdnn_transform_quantized_ztensor(&z, in.flag(), -128, 127, host.at(0));
        return;
    }
    const bool saturate = in.flag();
    st = saturate ? zdnn_transform_ztensor_with_saturation(&z, host.at(0), host.at(1), host.at(2), host.at(3))
                  : zdnn_transform_ztensor(&z, host.at(0), host.at(1), host.at(2), host.at(3));
    if (st != ZDNN_OK && st != ZDNN_ELEMENT_RANGE_VIOLATION) return;
    if (!z.is_transformed) report_mismatch("a transform returned OK without setting is_transformed");
    float lo = 0, hi = 0;
    zdnn_getrange_ztensor(&z, &lo, &hi);
    // transform_origtensor takes 4DFEATURE tensors in NHWC only: kernels get ZDNN_INVALID_FORMAT,
    // concatenated RNN tensors (a 2DS/3DS tensor made FICO/ZRH by the concatenated generate
    // function, 4DFEATURE all the same) ZDNN_INVALID_LAYOUT, as the spec and IBM's library say.
    if (is_concatenated(tfrmd.layout) || tfrmd.format != ZDNN_FORMAT_4DFEATURE) {
        st = zdnn_transform_origtensor(&z, std::vector<float>(elements).data());
        if (st != ZDNN_INVALID_FORMAT && st != ZDNN_INVALID_LAYOUT)
            report_mismatch("transform_origtensor of a kernel or concatenated tensor: status " + std::to_string(st));
        return;
    }
    std::vector<float> back(elements, -1.0f);
    st = zdnn_transform_origtensor(&z, back.data());
    if (st != ZDNN_OK) {
        if (type == FP32 && st != ZDNN_CONVERT_FAILURE)
            report_mismatch("transform_origtensor of a transformed FP32 tensor: status " + std::to_string(st));
        return;
    }
    if (type != FP32 || saturate) return;
    std::uint64_t count = 1;
    for (std::uint32_t dim : {pre.dim4, pre.dim3, pre.dim2, pre.dim1}) count *= dim ? dim : 1;
    for (std::uint64_t i = 0; i < count && i < elements; ++i) {
        const float want = host.gates[0][i], got = back[i];
        if (!dlfloat_close(got, want))
            report_mismatch("element " + std::to_string(i) + " reads back as " + std::to_string(got) + ", was " +
                            std::to_string(want));
    }
}

void raw(fuzz_input& in) {
    zdnn_tensor_desc pre = in.take<zdnn_tensor_desc>(), tfrmd = in.take<zdnn_tensor_desc>();
    zdnn_ztensor z{};
    zdnn_init_ztensor(&pre, &tfrmd, &z);
    const std::uint64_t size = zdnn_getsize_ztensor(&tfrmd);
    const std::uint64_t elements = host_elements(pre);
    if (size > max_bytes || elements == 0) return;
    if (zdnn_allochelper_ztensor(&z) != ZDNN_OK) return;
    ztensor_buffer owner{&z};
    host_data host(in, elements, 4);
    zdnn_status st = in.flag() ? zdnn_transform_ztensor(&z, host.at(0), host.at(1), host.at(2), host.at(3))
                               : zdnn_transform_ztensor_with_saturation(&z, host.at(0), host.at(1), host.at(2),
                                                                         host.at(3));
    float lo = 0, hi = 0;
    zdnn_getrange_ztensor(&z, &lo, &hi);
    std::vector<float> back(elements);
    st = zdnn_transform_origtensor(&z, back.data());
    zdnn_tensor_desc pre2 = in.take<zdnn_tensor_desc>(), tfrmd2 = in.take<zdnn_tensor_desc>();
    zdnn_ztensor other{};
    zdnn_init_ztensor(&pre2, &tfrmd2, &other);
    const std::uint64_t other_size = zdnn_getsize_ztensor(&tfrmd2);
    if (other_size > max_bytes || host_elements(pre2) == 0) return;
    if (zdnn_allochelper_ztensor(&other) != ZDNN_OK) return;
    ztensor_buffer other_owner{&other};
    st = zdnn_reshape_ztensor(&z, &other);
    (void)st;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_input in(data, size);
    if (in.take<std::uint8_t>() % 2 == 0)
        structured(in);
    else
        raw(in);
    return 0;
}
