// zdnn_lstm and zdnn_gru: forward, backward and bidirectional layers over concatenated (FICO /
// ZRH, optionally BIDIR_*) gate tensors. Like the zAIU, the fused input and hidden matmul results,
// and the hidden and cell states, are stored as DLFLOAT16 between steps.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "aligned_buffer.hpp"
#include "dlfloat16.hpp"
#include "gemm_kernel.hpp"
#include "op_support.hpp"
#include "settings.hpp"
#include "stick_layout.hpp"

using namespace tessera::zdnn;

namespace {

float sigmoid(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}

struct RnnTensors {
  const zdnn_ztensor *input, *h0, *c0, *weights, *biases, *hidden_weights, *hidden_biases;
  zdnn_ztensor *hn, *cf;
};

// Output operand: type/format checked; dims verified only with ZDNN_ENABLE_PRECHECK (the zAIU
// writes RNN results through internal views of the buffer, never looking at this descriptor).
zdnn_status check_rnn_output(const zdnn_ztensor* t, uint32_t d4_choice_a, uint32_t d4_choice_b, uint32_t d2,
                             uint32_t d1, bool precheck) {
  if (!has_descriptors(t)) return ZDNN_INVALID_BUFFER;
  const zdnn_tensor_desc& d = *t->transformed_desc;
  if (d.type != ZDNN_DLFLOAT16) return ZDNN_INVALID_TYPE;
  if (d.format != ZDNN_FORMAT_4DFEATURE) return ZDNN_INVALID_FORMAT;
  if (!t->buffer || reinterpret_cast<uintptr_t>(t->buffer) % 4096 != 0) return ZDNN_INVALID_BUFFER;
  if (d.dim4 != d4_choice_a && d.dim4 != d4_choice_b) return ZDNN_INVALID_SHAPE;
  if (precheck) {
    if (zdnn_status s = check_transformed_desc(&d); s != ZDNN_OK) return s;
    if (d.dim3 != 1 || d.dim2 != d2 || d.dim1 != d1) return ZDNN_INVALID_SHAPE;
    return check_buffer(t);
  }
  return ZDNN_OK;
}

// Stores dense values of transformed dims (n,1,b,width) into `t`'s buffer, clipped to its size.
zdnn_status store_rnn_output(zdnn_ztensor* t, const DenseTensor& values) {
  zdnn_tensor_desc expected{ZDNN_NHWC, ZDNN_FORMAT_4DFEATURE, ZDNN_DLFLOAT16, values.n, values.h, values.w, values.c};
  const uint64_t bytes = transformed_size_bytes(expected);
  if (same_dims(expected, *t->transformed_desc) && t->buffer_size >= bytes) return store_dense(*t, values.data.data());
  AlignedBuffer temp = make_aligned_buffer(bytes);
  if (!temp) return ZDNN_ALLOCATION_FAILURE;
  zdnn_ztensor view{};
  view.transformed_desc = &expected;
  view.buffer = temp.get();
  view.buffer_size = bytes;
  const zdnn_status s = store_dense(view, values.data.data());
  std::memcpy(t->buffer, temp.get(), std::min<uint64_t>(bytes, t->buffer_size));
  t->is_transformed = true;
  return s;
}

zdnn_status rnn(const char* where, bool lstm, const RnnTensors& t, lstm_gru_direction direction, void* work_area) {
  const uint32_t gates = lstm ? 4 : 3;
  if (zdnn_status s = check_operands({t.input, t.h0, t.weights, t.biases, t.hidden_weights, t.hidden_biases});
      s != ZDNN_OK)
    return report(s, where);
  if (lstm)
    if (zdnn_status s = check_operands({t.c0}); s != ZDNN_OK) return report(s, where);
  if (direction != FWD && direction != BWD && direction != BIDIR) return report(ZDNN_INVALID_DIRECTION, where);
  if (misaligned(work_area)) return report(ZDNN_MISALIGNED_SAVEAREA, where);
  const zdnn_tensor_desc& in = *t.input->transformed_desc;
  const zdnn_tensor_desc& h0 = *t.h0->transformed_desc;
  const uint32_t ts = in.dim4, batch = in.dim2, features = in.dim1;
  const uint32_t dirs = direction == BIDIR ? 2 : 1, hidden = h0.dim1, hp = padded64(hidden);
  const uint32_t width = gates * hp;
  if (in.dim3 != 1 || !has_dims(t.h0, dirs, 1, batch, hidden) || (lstm && !has_dims(t.c0, dirs, 1, batch, hidden)) ||
      !has_dims(t.weights, dirs, 1, features, width) || !has_dims(t.biases, dirs, 1, 1, width) ||
      !has_dims(t.hidden_weights, dirs, 1, hidden, width) || !has_dims(t.hidden_biases, dirs, 1, 1, width))
    return report(ZDNN_INVALID_SHAPE, where);
  const bool precheck = precheck_enabled();
  const uint32_t out_width = dirs == 2 ? 2 * hp : hidden;
  if (zdnn_status s = check_rnn_output(t.hn, ts, 1, batch, out_width, precheck); s != ZDNN_OK)
    return report(s, where, "hn_output");
  if (lstm)
    if (zdnn_status s = check_rnn_output(t.cf, 1, 1, batch, out_width, precheck); s != ZDNN_OK)
      return report(s, where, "cf_output");
  const bool all_steps = t.hn->transformed_desc->dim4 == ts;

  const DenseTensor x = load_dense(*t.input), h_init = load_dense(*t.h0);
  const DenseTensor c_init = lstm ? load_dense(*t.c0) : DenseTensor();
  const DenseTensor w = load_dense(*t.weights), wb = load_dense(*t.biases);
  const DenseTensor r = load_dense(*t.hidden_weights), rb = load_dense(*t.hidden_biases);
  DenseTensor hn(all_steps ? ts : 1, 1, batch, out_width), cf(1, 1, batch, out_width);

  std::vector<float> xw(static_cast<size_t>(ts) * batch * width), hr(static_cast<size_t>(batch) * width);
  std::vector<float> h(static_cast<size_t>(batch) * hidden), c(h.size());
  for (uint32_t dir = 0; dir < dirs; ++dir) {
    const bool backward = direction == BWD || dir == 1;
    const float* w_d = w.data.data() + static_cast<size_t>(dir) * features * width;
    const float* r_d = r.data.data() + static_cast<size_t>(dir) * hidden * width;
    const float* wb_d = wb.data.data() + static_cast<size_t>(dir) * width;
    const float* rb_d = rb.data.data() + static_cast<size_t>(dir) * width;
    sgemm(static_cast<size_t>(ts) * batch, width, features, x.data.data(), features, w_d, width, xw.data(), width);
    for (size_t i = 0; i < xw.size(); ++i) xw[i] = dlf16_round(xw[i] + wb_d[i % width]);
    std::copy_n(h_init.data.data() + static_cast<size_t>(dir) * h.size(), h.size(), h.begin());
    if (lstm) std::copy_n(c_init.data.data() + static_cast<size_t>(dir) * c.size(), c.size(), c.begin());
    for (uint32_t step = 0; step < ts; ++step) {
      const uint32_t time = backward ? ts - 1 - step : step;
      sgemm(batch, width, hidden, h.data(), hidden, r_d, width, hr.data(), width);
      for (uint32_t b = 0; b < batch; ++b) {
        const float* xg = xw.data() + (static_cast<size_t>(time) * batch + b) * width;
        const float* hg = hr.data() + static_cast<size_t>(b) * width;
        for (uint32_t k = 0; k < hidden; ++k) {
          auto in_gate = [&](uint32_t g) { return xg[g * hp + k]; };
          auto hid_gate = [&](uint32_t g) { return dlf16_round(hg[g * hp + k] + rb_d[g * hp + k]); };
          float& hv = h[static_cast<size_t>(b) * hidden + k];
          if (lstm) {
            float& cv = c[static_cast<size_t>(b) * hidden + k];
            const float f = sigmoid(in_gate(0) + hid_gate(0)), i = sigmoid(in_gate(1) + hid_gate(1));
            const float g = std::tanh(in_gate(2) + hid_gate(2)), o = sigmoid(in_gate(3) + hid_gate(3));
            cv = dlf16_round(f * cv + i * g);
            hv = o * std::tanh(cv);
          } else {
            const float z = sigmoid(in_gate(0) + hid_gate(0)), rr = sigmoid(in_gate(1) + hid_gate(1));
            const float candidate = std::tanh(in_gate(2) + rr * hid_gate(2));
            hv = (1.0f - z) * candidate + z * hv;
          }
          hv = dlf16_round(hv);
        }
      }
      if (all_steps)
        for (uint32_t b = 0; b < batch; ++b)
          std::copy_n(h.data() + static_cast<size_t>(b) * hidden, hidden, &hn.at(time, 0, b, dir * hp));
    }
    for (uint32_t b = 0; b < batch; ++b) {
      if (!all_steps) std::copy_n(h.data() + static_cast<size_t>(b) * hidden, hidden, &hn.at(0, 0, b, dir * hp));
      if (lstm) std::copy_n(c.data() + static_cast<size_t>(b) * hidden, hidden, &cf.at(0, 0, b, dir * hp));
    }
  }
  zdnn_status s = store_rnn_output(t.hn, hn);
  if (lstm && s != ZDNN_ALLOCATION_FAILURE) {
    const zdnn_status sc = store_rnn_output(t.cf, cf);
    if (sc != ZDNN_OK) s = sc;
  }
  return s == ZDNN_OK ? ZDNN_OK : report(s, where);
}

}  // namespace

extern "C" {

zdnn_status zdnn_lstm(const zdnn_ztensor* input, const zdnn_ztensor* h0, const zdnn_ztensor* c0,
                      const zdnn_ztensor* weights, const zdnn_ztensor* biases, const zdnn_ztensor* hidden_weights,
                      const zdnn_ztensor* hidden_biases, lstm_gru_direction direction, void* work_area,
                      zdnn_ztensor* hn_output, zdnn_ztensor* cf_output) {
  return guarded("zdnn_lstm", [&] {
    return rnn("zdnn_lstm", true,
               RnnTensors{input, h0, c0, weights, biases, hidden_weights, hidden_biases, hn_output, cf_output},
               direction, work_area);
  });
}

zdnn_status zdnn_gru(const zdnn_ztensor* input, const zdnn_ztensor* h0, const zdnn_ztensor* weights,
                     const zdnn_ztensor* biases, const zdnn_ztensor* hidden_weights, const zdnn_ztensor* hidden_biases,
                     lstm_gru_direction direction, void* work_area, zdnn_ztensor* hn_output) {
  return guarded("zdnn_gru", [&] {
    return rnn("zdnn_gru", false,
               RnnTensors{input, h0, nullptr, weights, biases, hidden_weights, hidden_biases, hn_output, nullptr},
               direction, work_area);
  });
}

}  // extern "C"
