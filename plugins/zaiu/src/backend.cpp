// backend.cpp: devices, query, compile and the memory hooks of the zaiu backend.
#include "backend.hpp"

#include "host_transfer.hpp"
#include "layouts.hpp"
#include "program.hpp"
#include "stick_buffer.hpp"
#include "stick_format.hpp"
#include "tessera/sdk/wide_dtypes.hpp"

namespace tessera::plugins::zaiu {

using tessera::error;
using tessera::status;
using tessera::tensor;
using tessera::tensor_desc;
namespace sdk = tessera::sdk;

namespace {

std::string nnpa_details() {
    std::string s = "IBM zAIU (NNPA) through zDNN ";
    s += zdnn_get_library_version_str();
    s += zdnn_is_nnpa_installed() ? ", NNPA installed" : ", NNPA not installed";
    s += zdnn_is_nnpa_parmblk_fmt_installed(1, NNPA_PARMBLKFORMAT_1)
             ? ", parameter block format 1 (z17 level)"
             : ", parameter block format 0 (z16 level)";
    s += ", max dim index " + std::to_string(zdnn_get_nnpa_max_dim_idx_size()) + ", max tensor " +
         std::to_string(zdnn_get_nnpa_max_tensor_size()) +
         " bytes; DLFLOAT16 sticks, results rounded to DLFLOAT16";
    return s;
}

}  // namespace

zaiu_backend::zaiu_backend(const sdk::options& opts) {
    for (const auto& [key, value] : opts) {
        throw error(status::invalid_argument,
                    "unknown option '" + key + "' (the zaiu backend takes none)",
                    {backend_name, "", ""});
    }
}

std::vector<sdk::device> zaiu_backend::devices() const {
    const bool emulated =
        true;  // this build links Tessera's x86 zDNN emulator; zdnn.h cannot tell hardware apart
    return {sdk::device{"zAIU", emulated ? "emulator" : "accelerator", nnpa_details()}};
}

sdk::support zaiu_backend::query(const sdk::op_query& q) const {
    if (auto wide = sdk::decline_wide_dtypes(q, backend_name)) return *wide;  // zDNN has no i64/f64
    const router& routes = op_routes();
    if (routes.states(q.op)) return routes.query(q.op, q);
    // an unstated op is declined after the checks every op gets (a dtype no zaiu layout holds
    // is reported as such)
    return framed(q, {}, [&](const descs&, const descs&) { return routes.query(q.op, q); });
}

std::unique_ptr<sdk::executable> zaiu_backend::compile(const sdk::partition& p) {
    return std::make_unique<program>(p);
}

std::unique_ptr<sdk::buffer> zaiu_backend::allocate(std::int64_t bytes) {
    return std::make_unique<stick_buffer>(bytes);
}

std::unique_ptr<sdk::buffer> zaiu_backend::import(void* host, std::int64_t bytes,
                                                  tsr_import_mode mode) {
    if (mode == TSR_IMPORT_COPY) {
        auto b = std::make_unique<stick_buffer>(bytes);
        if (bytes) std::memcpy(b->host_data(), host, static_cast<std::size_t>(bytes));
        return b;
    }
    if (reinterpret_cast<std::uintptr_t>(host) % stick_alignment != 0) {
        throw error(status::invalid_argument,
                    "zero-copy import into zaiu needs 4 KiB aligned memory (zDNN sticks)",
                    {backend_name, "", ""});
    }
    return std::make_unique<stick_buffer>(host, bytes);
}

void zaiu_backend::copy_to_host(sdk::buffer& src, const tensor_desc& src_desc, const tensor& dst) {
    if (!format_of(src_desc)) return sdk::backend::copy_to_host(src, src_desc, dst);
    unstickify(src.host_data(), src.size(), src_desc, dst);
}

void zaiu_backend::copy_from_host(const tensor& src, sdk::buffer& dst,
                                  const tensor_desc& dst_desc) {
    if (!format_of(dst_desc)) return sdk::backend::copy_from_host(src, dst, dst_desc);
    stickify(src, dst_desc, dst.host_data(), dst.size());
}

}  // namespace tessera::plugins::zaiu
