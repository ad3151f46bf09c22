// ops_dft.cpp: ONNX DFT and STFT lowered at load onto matmuls with constant cosine and sine
// matrices of the static signal length: the real and imaginary parts (input's last dim, 1 or 2)
// are products along the signal axis, zero-padded or truncated to dft_length, onesided or full,
// forward or inverse. STFT first gathers the frames (constant indices) and applies the window.
#include <cmath>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// [K, N] matrix with entry f(k, n) for n below `used` and 0 beyond.
host_tensor dft_matrix(std::int64_t k_count, std::int64_t n_count, std::int64_t used,
                       const std::function<double(std::int64_t, std::int64_t)>& f) {
    host_tensor m = make_host(element_type::float32, {k_count, n_count});
    for (std::int64_t k = 0; k < k_count; ++k)
        for (std::int64_t n = 0; n < n_count && n < used; ++n)
            set_real(m, k * n_count + n, f(k, n));
    return m;
}

/// The DFT of x [batch, .., N (at axis), .., 1 or 2] along `axis` with n_fft points, written to
/// ONNX output `out`.
void emit_dft(context& ctx, graph::tensor_id x, int axis, std::int64_t n_fft, bool inverse,
              bool onesided, const std::string& out) {
    const tensor_desc d = ctx.desc_of(x);
    if (d.type() != dtype::f32) ctx.unsupported("input dtype " + std::string(to_string(d.type())));
    const shape xd = d.dims();
    const int rank = xd.rank();
    if (rank < 3) ctx.unsupported("input rank below 3 ([batch, signal.., 1 or 2])");
    const std::int64_t parts = xd[rank - 1];
    if (parts != 1 && parts != 2) ctx.unsupported("the last dim must be 1 (real) or 2 (complex)");
    if (axis == 0 || axis == rank - 1) ctx.unsupported("axis must be a signal dim");
    if (onesided && (inverse || parts == 2))
        ctx.unsupported("onesided needs a real input and the forward transform");
    if (n_fft < 1) ctx.unsupported("dft_length " + std::to_string(n_fft));
    const std::int64_t n = xd[axis];
    const std::int64_t k_count = onesided ? n_fft / 2 + 1 : n_fft;
    const double pi = std::acos(-1.0), scale = inverse ? 1.0 / static_cast<double>(n_fft) : 1.0;
    const double sign = inverse ? 1.0 : -1.0;  // exp(sign * 2 pi i k n / n_fft)
    const auto angle = [&](std::int64_t k, std::int64_t m) {
        return 2 * pi * static_cast<double>((k * m) % n_fft) / static_cast<double>(n_fft);
    };
    // (xr + i xi)(cos + i sign sin): real = xr cos - sign xi sin, imag = xi cos + sign xr sin.
    const auto cosine = ctx.constant_tensor(
        dft_matrix(k_count, n, n_fft,
                   [&](std::int64_t k, std::int64_t m) { return scale * std::cos(angle(k, m)); }),
        ctx.node_label + "/cos");
    const auto sine = ctx.constant_tensor(
        dft_matrix(
            k_count, n, n_fft,
            [&](std::int64_t k, std::int64_t m) { return sign * scale * std::sin(angle(k, m)); }),
        ctx.node_label + "/sin");
    std::int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= xd[i];
    for (int i = axis + 1; i < rank - 1; ++i) inner *= xd[i];
    const auto part = [&](std::int64_t p) {
        op::slice s;
        s.set_dim(rank - 1, p, p + 1);
        return ctx.reshape(ctx.emit(s, {x}), shape{outer, n, inner});
    };
    const auto times = [&](graph::tensor_id m, graph::tensor_id v) {
        return ctx.emit(op::matmul(), {m, v});
    };
    const auto xr = part(0);
    auto real = times(cosine, xr);
    auto imag = times(sine, xr);
    if (parts == 2) {
        const auto xi = part(1);
        real = ctx.emit(op::binary(binary_kind::sub), {real, times(sine, xi)});
        imag = ctx.emit(op::binary(binary_kind::add), {imag, times(cosine, xi)});
    }
    std::vector<std::int64_t> out_dims(xd.begin(), xd.end());
    out_dims[static_cast<std::size_t>(axis)] = k_count;
    out_dims.back() = 1;
    const shape part_dims(out_dims.begin(), out_dims.end());
    ctx.emit(op::concat(rank - 1), {ctx.reshape(real, part_dims), ctx.reshape(imag, part_dims)},
             out);
}

}  // namespace

void map_dft(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const int rank = ctx.desc_of(x).rank();
    const int axis = normalize_axis(ctx.attr_int("axis", 1), rank, "axis");
    std::int64_t n_fft = ctx.desc_of(x).dims()[axis];
    if (ctx.has_input(1)) {
        const auto& len = ctx.constant_input(1, "dft_length");
        if (len.num_elements() != 1) ctx.unsupported("dft_length must hold one value");
        n_fft = len.integer(0);
    }
    emit_dft(ctx, x, axis, n_fft, ctx.attr_int("inverse", 0) != 0, ctx.attr_int("onesided", 0) != 0,
             ctx.output_name(0));
}

/// STFT: frames of frame_length samples every frame_step (a gather of constant indices), times
/// the window, then the DFT of each frame (onesided by default).
void map_stft(context& ctx) {
    const auto signal = ctx.tensor_input(0);
    const shape sd = ctx.desc_of(signal).dims();
    if (sd.rank() != 3) ctx.unsupported("signal must be [batch, length, 1 or 2]");
    const auto scalar = [&](std::size_t i, const std::string& what) {
        const auto& t = ctx.constant_input(i, what);
        if (t.num_elements() != 1) ctx.unsupported(what + " must hold one value");
        return t.integer(0);
    };
    const std::int64_t step = scalar(1, "frame_step");
    std::int64_t length = 0;
    if (ctx.has_input(3))
        length = scalar(3, "frame_length");
    else if (ctx.has_input(2))
        length = ctx.input_dims(2).num_elements();
    else
        ctx.unsupported("neither window nor frame_length gives the frame length");
    if (step < 1 || length < 1 || length > sd[1])
        ctx.unsupported("frame_step " + std::to_string(step) + " and frame_length " +
                        std::to_string(length) + " do not fit a signal of " +
                        std::to_string(sd[1]));
    const std::int64_t frames = (sd[1] - length) / step + 1;
    host_tensor index = make_host(element_type::int32, {frames, length});
    for (std::int64_t f = 0; f < frames; ++f)
        for (std::int64_t n = 0; n < length; ++n) set_integer(index, f * length + n, f * step + n);
    auto framed =
        ctx.emit(op::gather(1), {signal, ctx.constant_tensor(index, ctx.node_label + "/frames")});
    if (ctx.has_input(2)) {
        const auto window = ctx.tensor_input(2);
        if (ctx.desc_of(window).dims() != shape{length})
            ctx.unsupported("window is not [frame_length]");
        framed = ctx.emit(op::binary(binary_kind::mul),
                          {framed, ctx.reshape(window, shape{1, 1, length, 1})});
    }
    emit_dft(ctx, framed, 2, length, false, ctx.attr_int("onesided", 1) != 0, ctx.output_name(0));
}

}  // namespace tessera::onnx::detail
