// f32_staging.hpp: compute ops on the 16-bit float and quantised dtypes through their f32
// runtime functions. The reference computes these ops on real values in double and rounds once
// into the output's dtype; the cpu runtime computes them in f32. A node whose tensors are f16,
// bf16, dlfloat16, quantised i8/u8 or fixed-point i16 (each value held by an f32: exactly for
// the float types and for power-of-two scales) therefore runs as its f32 step between two
// conversions: its non-f32 inputs into f32 copies in the layouts the f32 rule chose (nchw16c
// included), its f32 results back with the reference's rounding and saturation. The result
// differs from the reference by the f32 arithmetic's error before that final rounding: the cpu
// backend's fp32 tolerance plus one step of the output dtype.
//
// Ops whose reference is not "real arithmetic, then one rounding" never stage: i16 convolution
// and fully connected (the OpenVX per-product fixed-point arithmetic), quantized_matmul (exact
// integer arithmetic), and every op on the wide dtypes (wide_dtypes.hpp).
#pragma once

#include <memory>
#include <optional>

#include "program.hpp"

namespace tessera::plugins::cpu {

/// Whether node op `o` on `in` -> `out` (seen row-major) may stage: some tensor is not f32, an
/// f32 holds every value of each, and the op computes real values.
bool stages(const op_desc& o, const descs& in, const descs& out);

/// The answer for query `q` (inputs `in`, outputs `out`, both seen row-major) when the op
/// stages through f32 and its f32 form is native: the non-f32 tensors row-major, the f32 ones in
/// the layouts the f32 rule chose. Nothing when the op does not stage, when its own rule runs it
/// natively as it is, or when its f32 form is not native either.
std::optional<sdk::support> staged_answer(const router& routes, const sdk::op_query& q,
                                          const descs& in, const descs& out);

/// The step for node `v` when it stages through f32 (see staged_answer), else null.
std::unique_ptr<step> staged_step(const router& routes, const build_context& b);

}  // namespace tessera::plugins::cpu
