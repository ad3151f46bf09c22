// vx_test_support.cpp: the shared test helpers.
#include "vx_test_support.hpp"

#include <map>
#include <mutex>

namespace vx_test {

namespace {

std::map<vx_context, std::vector<log_entry>>& logs() {
    static std::map<vx_context, std::vector<log_entry>> all;
    return all;
}

void VX_CALLBACK capture(vx_context context, vx_reference, vx_status status,
                         const vx_char string[]) {
    logs()[context].push_back({status, string});
}

}  // namespace

test_context::test_context() : context_(vxCreateContext()) {
    REQUIRE(vxGetStatus(reinterpret_cast<vx_reference>(context_)) == VX_SUCCESS);
    vxRegisterLogCallback(context_, capture, vx_false_e);
    start_ = references();
}

test_context::~test_context() {
    CHECK_MESSAGE(references() == start_, "objects leaked: VX_CONTEXT_REFERENCES is "
                                              << references() << ", was " << start_);
    logs().erase(context_);
    vxReleaseContext(&context_);
}

vx_uint32 test_context::references() const {
    vx_uint32 count = 0;
    REQUIRE(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &count, sizeof(count)) == VX_SUCCESS);
    return count;
}

const std::vector<log_entry>& test_context::log() const {
    return logs()[context_];
}

void test_context::clear_log() {
    logs()[context_].clear();
}

bool test_context::logged(vx_status status, const std::vector<std::string>& parts) const {
    for (const log_entry& e : log()) {
        if (e.status != status) continue;
        bool all = true;
        for (const std::string& p : parts) all = all && e.message.find(p) != std::string::npos;
        if (all) return true;
    }
    return false;
}

std::uint64_t rng::next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 17;
}

std::int64_t rng::uniform(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
}

raw_t random_raw(std::size_t n, std::uint64_t seed, std::int64_t lo, std::int64_t hi) {
    rng r(seed);
    raw_t v(n);
    for (auto& x : v) x = r.uniform(lo, hi);
    return v;
}

vx_tensor make_tensor(vx_context context, const std::vector<vx_size>& dims, vx_enum type,
                      vx_uint8 fixed_point_pos) {
    std::vector<vx_uint32> sizes(dims.begin(), dims.end());
    vx_tensor t = vxCreateTensor(context, static_cast<vx_uint32>(sizes.size()), sizes.data(), type,
                                 fixed_point_pos);
    REQUIRE(t != nullptr);
    return t;
}

vx_size element_count(const std::vector<vx_size>& dims) {
    vx_size n = 1;
    for (vx_size d : dims) n *= d;
    return n;
}

std::vector<vx_size> tensor_dims(vx_tensor tensor) {
    vx_size rank = 0;
    REQUIRE(vxQueryTensor(tensor, VX_TENSOR_NUM_OF_DIMS, &rank, sizeof(rank)) == VX_SUCCESS);
    std::vector<vx_size> dims(rank);
    if (rank == 0) return dims;
    REQUIRE(vxQueryTensor(tensor, VX_TENSOR_DIMS, dims.data(), rank * sizeof(vx_size)) ==
            VX_SUCCESS);
    return dims;
}

namespace {

vx_enum type_of(vx_tensor tensor) {
    vx_enum type = 0;
    REQUIRE(vxQueryTensor(tensor, VX_TENSOR_DATA_TYPE, &type, sizeof(type)) == VX_SUCCESS);
    return type;
}

/// Copies the whole tensor with packed user strides.
void copy_whole(vx_tensor tensor, void* buffer, vx_size element_size, vx_enum usage) {
    const std::vector<vx_size> dims = tensor_dims(tensor);
    std::vector<vx_uint32> extent(dims.begin(), dims.end()), strides(dims.size());
    vx_uint32 step = static_cast<vx_uint32>(element_size);
    for (std::size_t d = 0; d < dims.size(); ++d) {
        strides[d] = step;
        step *= extent[d];
    }
    vx_context context = vxGetContext(reinterpret_cast<vx_reference>(tensor));
    vx_tensor_addressing addr = vxCreateTensorAddressing(context, extent.data(), strides.data(),
                                                         static_cast<vx_uint8>(dims.size()));
    REQUIRE(addr != nullptr);
    CHECK(vxCopyTensorPatch(tensor, nullptr, addr, buffer, usage, VX_MEMORY_TYPE_HOST) ==
          VX_SUCCESS);
    vxReleaseTensorAddressing(&addr);
}

}  // namespace

void write_tensor(vx_tensor tensor, const raw_t& values) {
    const vx_enum type = type_of(tensor);
    REQUIRE(values.size() == element_count(tensor_dims(tensor)));
    if (type == VX_TYPE_INT16) {
        std::vector<std::int16_t> buffer(values.begin(), values.end());
        copy_whole(tensor, buffer.data(), 2, VX_WRITE_ONLY);
    } else {
        std::vector<std::uint8_t> buffer(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            buffer[i] = static_cast<std::uint8_t>(values[i]);
        }
        copy_whole(tensor, buffer.data(), 1, VX_WRITE_ONLY);
    }
}

raw_t read_tensor(vx_tensor tensor) {
    const vx_enum type = type_of(tensor);
    const vx_size n = element_count(tensor_dims(tensor));
    raw_t out(n);
    if (type == VX_TYPE_INT16) {
        std::vector<std::int16_t> buffer(n);
        copy_whole(tensor, buffer.data(), 2, VX_READ_ONLY);
        for (vx_size i = 0; i < n; ++i) out[i] = buffer[i];
    } else {
        std::vector<std::uint8_t> buffer(n);
        copy_whole(tensor, buffer.data(), 1, VX_READ_ONLY);
        for (vx_size i = 0; i < n; ++i) {
            out[i] = type == VX_TYPE_INT8 ? static_cast<std::int8_t>(buffer[i]) : buffer[i];
        }
    }
    return out;
}

tessera::tensor to_reference(const std::vector<vx_size>& vx_dims, const raw_t& raw, vx_enum type,
                             int fixed_point_pos) {
    tessera::shape s;
    for (auto it = vx_dims.rbegin(); it != vx_dims.rend(); ++it) {
        s.push_back(static_cast<std::int64_t>(*it));
    }
    const tessera::dtype dt = type == VX_TYPE_INT16  ? tessera::dtype::i16
                              : type == VX_TYPE_INT8 ? tessera::dtype::i8
                                                     : tessera::dtype::u8;
    op_test::values_t values(raw.begin(), raw.end());
    return op_test::make_raw(s, values, dt, {1.0f, 0, fixed_point_pos});
}

raw_t raw_of(const tessera::tensor& t) {
    const op_test::values_t v = op_test::raw_values(t);
    return raw_t(v.begin(), v.end());
}

void process(vx_graph graph) {
    REQUIRE(vxProcessGraph(graph) == VX_SUCCESS);
}

void check_equal(const raw_t& got, const raw_t& expected, std::int64_t tolerance,
                 const std::string& what) {
    REQUIRE_MESSAGE(got.size() == expected.size(), what);
    for (std::size_t i = 0; i < got.size(); ++i) {
        const std::int64_t diff =
            got[i] > expected[i] ? got[i] - expected[i] : expected[i] - got[i];
        if (diff > tolerance) {
            FAIL_CHECK(what << ": element " << i << " is " << got[i] << ", expected "
                            << expected[i]);
            return;
        }
    }
    CHECK(true);
}

}  // namespace vx_test
