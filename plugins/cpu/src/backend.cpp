// backend.cpp: the cpu backend's options, devices, queries, compilation and copies.
#include "backend.hpp"

#include "f32_staging.hpp"
#include "layouts.hpp"
#include "program.hpp"
#include "wide_dtypes.hpp"

namespace tessera::plugins::cpu {

namespace {

runtime::ContextOptions parse_options(const sdk::options& options) {
    runtime::ContextOptions o;
    for (const auto& [key, value] : options) {
        if (key == "threads") {
            try {
                o.num_threads = std::stoi(value);
            } catch (const std::exception&) {
                o.num_threads = -1;
            }
            if (o.num_threads < 1)
                throw error(status::invalid_argument,
                            "threads must be a positive integer, got '" + value + "'",
                            {backend_name, "", ""});
        } else if (key == "isa") {
            if (value == "avx512")
                o.isa = runtime::Isa::avx512;
            else if (value == "avx2")
                o.isa = runtime::Isa::avx2;
            else if (value == "sse2")
                o.isa = runtime::Isa::sse2;
            else if (value == "neon")
                o.isa = runtime::Isa::neon;
            else
                throw error(status::invalid_argument,
                            "unknown isa '" + value + "' (avx512, avx2, sse2, neon)",
                            {backend_name, "", ""});
            if (!runtime::Context::isa_available(o.isa))
                throw error(status::unsupported, "isa '" + value + "' is not available on this CPU",
                            {backend_name, "", ""});
        } else if (key == "scheduler") {
            if (value == "tbb")
                o.scheduler = runtime::SchedulerKind::tbb;
            else if (value == "pool")
                o.scheduler = runtime::SchedulerKind::thread_pool;
            else
                throw error(status::invalid_argument,
                            "unknown scheduler '" + value + "' (tbb, pool)",
                            {backend_name, "", ""});
        } else if (key == "winograd") {
            if (value != "on" && value != "off")
                throw error(status::invalid_argument,
                            "winograd must be 'on' or 'off', got '" + value + "'",
                            {backend_name, "", ""});
            o.winograd = value == "on";
        } else {
            throw error(status::invalid_argument,
                        "unknown option '" + key + "' (threads, isa, scheduler, winograd)",
                        {backend_name, "", ""});
        }
    }
    return o;
}

}  // namespace

cpu_backend::cpu_backend(const sdk::options& options)
    : context_(std::make_unique<runtime::Context>(parse_options(options))) {}

std::vector<sdk::device> cpu_backend::devices() const {
    return {sdk::device{"host CPU", "cpu",
                        "ISA " + context_->isa_name() + ", " +
                            std::to_string(context_->num_threads()) +
                            " threads (oneTBB), activations in nchw16c"}};
}

/// Every op is answered in one frame: inputs in another backend's opaque layout are declined,
/// the outputs are inferred from the logical inputs (an invalid op throws: the host declines it
/// as invalid), then the op's own rule (ops/*.cpp) decides, on the tensors as they are or, for a
/// compute op on 16-bit floats or quantised integers, on their f32 views (f32_staging.hpp).
sdk::support cpu_backend::query(const sdk::op_query& q) const {
    for (const auto& d : q.inputs) {
        if (d.is_opaque() && !is_blocked(d))
            return sdk::support::declined(TSR_REASON_LAYOUT,
                                          "foreign opaque layout " + d.opaque_format());
    }
    descs logical_in;
    for (const auto& d : q.inputs)
        logical_in.push_back(d.is_opaque() ? d.with_layout(layout::row_major()) : d);
    const descs logical_out = q.op.infer(logical_in);
    if (const auto wide = wide_dtype_route(q.op, logical_in, logical_out))
        return answer(*wide, logical_in, logical_out);
    if (auto staged = staged_answer(op_routes(), q, logical_in, logical_out)) return *staged;
    return op_routes().query(q.op, query_view{q, logical_in, logical_out});
}

std::unique_ptr<sdk::executable> cpu_backend::compile(const sdk::partition& p) {
    return std::make_unique<program>(p, *context_);
}

void cpu_backend::copy_to_host(sdk::buffer& src, const tensor_desc& src_desc, const tensor& dst) {
    if (is_blocked(src_desc)) return blocked_to_host(src.host_data(), src_desc, dst);
    sdk::backend::copy_to_host(src, src_desc, dst);
}

void cpu_backend::copy_from_host(const tensor& src, sdk::buffer& dst, const tensor_desc& dst_desc) {
    if (is_blocked(dst_desc)) return host_to_blocked(src, dst.host_data(), dst.size(), dst_desc);
    sdk::backend::copy_from_host(src, dst, dst_desc);
}

}  // namespace tessera::plugins::cpu
