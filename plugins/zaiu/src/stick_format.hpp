// stick_format.hpp: the zaiu plugin's opaque layouts. A tensor on the zaiu backend lives in a
// zDNN transformed ("stickified") buffer; its opaque format names how the Tessera logical dims
// map onto the zDNN pre-transformed layout that was used to transform it:
//   4DFEATURE-1D        rank 1 [a]                       -> ZDNN_1D (a)
//   4DFEATURE-2D@K      any rank, dims [0,K) as rows      -> ZDNN_2D (rows, cols)
//   4DFEATURE-2DS@K     any rank, dims [0,K) as rows      -> ZDNN_2DS (rows, cols)
//   4DFEATURE-3DS       rank 3 [a,b,c]                    -> ZDNN_3DS (a, b, c)
//   4DFEATURE-NHWC      rank 4 logical [N,C,H,W]          -> ZDNN_NCHW, stored as NHWC sticks
//   4DKERNEL-HWCK       rank 4 conv weights [O,C,KH,KW]   -> ZDNN_HWCK (KH, KW, C, O)
//   4DFEATURE-4DS       rank 4 RNN output [T,D,B,H]        -> ZDNN_4DS (T, D, B, H)
//   FICO-<USAGE>, ZRH-<USAGE>, BIDIR_FICO-WEIGHTS, BIDIR_ZRH-WEIGHTS
//                       RNN gate tensors [D, rows, G*H] (weights) or [D, G*H] (biases), one
//                       gate per pre-transformed tensor, concatenated by zDNN (G = 4 LSTM, 3 GRU)
//   4DFEATURE-INT8-<1D|2D@1|2DS@1|3DS>[-T], 4DWEIGHTS-<2D@1|3DS>[-T]
//                       quantised i8 operands of quantized_matmul (QUANTIZED_INT8 and
//                       QUANTIZED_WEIGHTS_INT8); "-T": logical [.., q, r] held as (.., r, q)
// The opaque size is the transformed buffer size (zdnn_getsize_ztensor).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <zdnn.h>

#include "tessera/tensor_desc.hpp"

namespace tessera::plugins::zaiu {

inline constexpr const char* backend_name = "zaiu";

enum class stick_kind {
    feature_1d,
    feature_2d,
    feature_2ds,
    feature_3ds,
    feature_nhwc,
    kernel_hwck,
    feature_4ds,
    rnn_gates
};

/// What an RNN gate tensor is (zdnn_concat_info usage).
enum class rnn_usage { weights, hidden_weights, biases, hidden_biases };

/// Quantised int8 sticks: none (DLFLOAT16 or INT32), QUANTIZED_INT8, QUANTIZED_WEIGHTS_INT8.
enum class stick_quant { none, int8, weights };

/// A zDNN pre-transformed shape: layout, type and dims outermost first.
struct pre_shape {
    zdnn_data_layouts layout = ZDNN_1D;
    int rank = 1;
    std::array<std::uint32_t, 4> dims{};  ///< outermost first, `rank` used
    bool concatenated = false;            ///< RNN gates: one gate's shape, concatenated by zDNN
    zdnn_concat_info concat = 0;
    std::optional<zdnn_quantized_transform_types> quantized;  ///< int8 sticks
};

struct stick_format {
    stick_kind kind = stick_kind::feature_2d;
    int split = 1;  ///< rows/cols split for the 2D and 2DS kinds
    int gates = 4;  ///< RNN gate tensors: 4 (LSTM, FICO) or 3 (GRU, ZRH)
    rnn_usage usage = rnn_usage::weights;
    bool prev_bidir = false;  ///< weights read a bidirectional previous layer's output
    stick_quant quant = stick_quant::none;  ///< int8 kinds (1D, 2D@1, 2DS@1, 3DS) only
    bool transposed = false;                ///< int8 only: last two logical dims swapped

    std::string name() const;
    /// Whether this format can hold a tensor with these logical dims.
    bool fits(const tessera::shape& dims) const;
    /// The pre-transformed shape zdnn_transform_ztensor gets for these logical dims.
    pre_shape pre(const tessera::shape& dims) const;

    friend bool operator==(const stick_format& a, const stick_format& b) {
        if (a.kind != b.kind || a.quant != b.quant || a.transposed != b.transposed) return false;
        if (a.kind == stick_kind::rnn_gates)
            return a.gates == b.gates && a.usage == b.usage && a.prev_bidir == b.prev_bidir;
        return a.split == b.split ||
               (a.kind != stick_kind::feature_2d && a.kind != stick_kind::feature_2ds);
    }
    friend bool operator!=(const stick_format& a, const stick_format& b) { return !(a == b); }

    static stick_format d1() { return {stick_kind::feature_1d, 0}; }
    static stick_format d2(int split) { return {stick_kind::feature_2d, split}; }
    static stick_format d2s(int split) { return {stick_kind::feature_2ds, split}; }
    static stick_format d3s() { return {stick_kind::feature_3ds, 0}; }
    static stick_format nhwc() { return {stick_kind::feature_nhwc, 0}; }
    static stick_format hwck() { return {stick_kind::kernel_hwck, 0}; }
    static stick_format d4s() { return {stick_kind::feature_4ds, 0}; }
    static stick_format rnn(int gates, rnn_usage usage, bool prev_bidir = false) {
        return {stick_kind::rnn_gates, 0, gates, usage, prev_bidir};
    }
    /// This format's int8 form (QUANTIZED_INT8 or QUANTIZED_WEIGHTS_INT8), optionally transposed.
    stick_format quantized(stick_quant q, bool transpose = false) const {
        stick_format f = *this;
        f.quant = q;
        f.transposed = transpose;
        return f;
    }
    /// Whether zDNN can transform these sticks back to a plain tensor.
    bool readable() const {
        return kind != stick_kind::kernel_hwck && kind != stick_kind::rnn_gates &&
               quant == stick_quant::none;
    }
};

/// The format a plain tensor of these dims gets by default: 1D, 2D, 3DS or NHWC by rank;
/// ranks 0 and above 4 flatten to 2D@rank-1.
stick_format natural_format(const tessera::shape& dims);

/// zDNN pre-transformed data type for a Tessera dtype (FP32, FP16, BFLOAT, INT8, INT32), if any.
std::optional<zdnn_data_types> zdnn_type_of(tessera::dtype t);

/// Whether the plugin can hold tensors of this dtype in sticks.
bool stickable(tessera::dtype t);

/// Builds the zDNN pre-transformed and transformed descriptors of a pre-transformed shape.
void make_descs(const pre_shape& p, zdnn_data_types type, zdnn_tensor_desc& pre_desc,
                zdnn_tensor_desc& tfrmd_desc);

/// The logical descriptor in this format: an opaque zaiu layout with the transformed size.
tessera::tensor_desc in_format(const tessera::tensor_desc& logical, const stick_format& f);

/// The format of a zaiu descriptor, if it is one.
std::optional<stick_format> format_of(const tessera::tensor_desc& d);

/// The stored transformed descriptor of a zaiu tensor.
zdnn_tensor_desc transformed_of(const tessera::tensor_desc& d);

}  // namespace tessera::plugins::zaiu
