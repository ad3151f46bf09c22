// Geometry of sliding 2D windows shared by pooling and convolution: output extent and leading
// padding along one axis for VALID / SAME (TensorFlow-style) padding, stride 0 meaning one window.
#pragma once

#include <algorithm>
#include <cstdint>

#include <zdnn.h>

namespace tessera::zdnn {

struct WindowAxis {
  uint32_t out = 0;        // number of window positions
  uint32_t step = 1;       // stride (1 when the stride is 0: a single window)
  int64_t pad_before = 0;  // input positions before the first window start

  // Input index of window position `o`, tap `k` (may fall into the padding).
  int64_t input_index(uint32_t o, uint32_t k) const { return int64_t(o) * step - pad_before + k; }
};

// Requires in >= kernel for VALID padding with a non-zero stride (callers check it first).
inline WindowAxis window_axis(uint32_t in, uint32_t kernel, uint32_t stride, zdnn_pool_padding padding) {
  WindowAxis axis;
  if (stride == 0) {
    axis.out = 1;
    return axis;
  }
  axis.step = stride;
  if (padding == SAME_PADDING) {
    axis.out = (in + stride - 1) / stride;
    axis.pad_before = std::max<int64_t>(0, (int64_t(axis.out) - 1) * stride + kernel - in) / 2;
  } else {
    axis.out = (in - kernel + stride) / stride;  // ceil((in - kernel + 1) / stride)
  }
  return axis;
}

}  // namespace tessera::zdnn
