// ops/real_step.hpp: the base of the cpu plugin's steps that compute on real values in double
// as the reference kernels do (real_lines.hpp): batchnorm, layer_norm's statistics form, lrn,
// moments, mean_reduce2d and norm. It holds the node's tensor ids, the element encoding of each
// tensor and the runtime context, and loads small inputs (per-channel parameters, statistics)
// whole as doubles.
#pragma once

#include <cstdint>
#include <vector>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

class real_step : public step {
  protected:
    real_step(const node_view& v, const runtime::Context& ctx)
        : inputs_(v.n.inputs), outputs_(v.n.outputs), ctx_(ctx) {
        for (const auto& d : v.in) {
            in_runs_.push_back(run_of(d));
            in_sizes_.push_back(d.num_elements());
        }
        for (const auto& d : v.out) out_runs_.push_back(run_of(d));
    }

    const void* input(const buffers& b, int i) const {
        return b[static_cast<std::size_t>(inputs_[static_cast<std::size_t>(i)])]->host_data();
    }
    void* output(const buffers& b, int i) const {
        return b[static_cast<std::size_t>(outputs_[static_cast<std::size_t>(i)])]->host_data();
    }
    const element_run& in_run(int i) const { return in_runs_[static_cast<std::size_t>(i)]; }
    const element_run& out_run(int i) const { return out_runs_[static_cast<std::size_t>(i)]; }
    const runtime::Context& context() const { return ctx_; }

    /// Every value of input `i`, as the reference loads it.
    std::vector<double> reals_of(const buffers& b, int i) const {
        const std::int64_t n = in_sizes_[static_cast<std::size_t>(i)];
        std::vector<double> v(static_cast<std::size_t>(n));
        load_reals(in_run(i), input(b, i), 0, n, 1, v.data());
        return v;
    }

    /// Calls body(values, r) for each row r of `width` elements of input 0, its values loaded,
    /// the rows split into `parts` ranges run in parallel.
    template <typename Body>
    void for_each_row(const buffers& b, std::int64_t rows, std::int64_t width, int parts,
                      Body&& body) const {
        const void* x = input(b, 0);
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            thread_local std::vector<double> values;
            values.resize(static_cast<std::size_t>(width));
            for (std::int64_t r = begin; r < end; ++r) {
                load_reals(in_run(0), x, r * width, width, 1, values.data());
                body(values.data(), r);
            }
        });
    }

  private:
    std::vector<int> inputs_, outputs_;
    std::vector<element_run> in_runs_, out_runs_;
    std::vector<std::int64_t> in_sizes_;
    const runtime::Context& ctx_;
};

}  // namespace tessera::plugins::cpu
