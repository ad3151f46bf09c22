// reference_ops.h -- naive host fp32 implementations the CLML tests compare against (NCHW).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace clml_test::ref {

struct ConvParams {
  int n, c, h, w;      // input
  int o, kh, kw;       // output channels, kernel
  int sh = 1, sw = 1;  // stride
  int pt = 0, pl = 0, pb = 0, pr = 0;
  int dh = 1, dw = 1;
  int groups = 1;
  int oh() const { return (h + pt + pb - (dh * (kh - 1) + 1)) / sh + 1; }
  int ow() const { return (w + pl + pr - (dw * (kw - 1) + 1)) / sw + 1; }
};

// weights [o, c/groups, kh, kw]; bias may be empty.
inline std::vector<float> conv2d(const ConvParams& p, const std::vector<float>& in, const std::vector<float>& wt,
                                 const std::vector<float>& bias) {
  const int OH = p.oh(), OW = p.ow(), icg = p.c / p.groups, ocg = p.o / p.groups;
  std::vector<float> out(size_t(p.n) * p.o * OH * OW);
  for (int n = 0; n < p.n; ++n)
    for (int o = 0; o < p.o; ++o)
      for (int y = 0; y < OH; ++y)
        for (int x = 0; x < OW; ++x) {
          double acc = bias.empty() ? 0.0 : bias[o];
          const int g = o / ocg;
          for (int ic = 0; ic < icg; ++ic)
            for (int ky = 0; ky < p.kh; ++ky)
              for (int kx = 0; kx < p.kw; ++kx) {
                const int iy = y * p.sh - p.pt + ky * p.dh, ix = x * p.sw - p.pl + kx * p.dw;
                if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) continue;
                acc += double(in[((size_t(n) * p.c + g * icg + ic) * p.h + iy) * p.w + ix]) *
                       wt[((size_t(o) * icg + ic) * p.kh + ky) * p.kw + kx];
              }
          out[((size_t(n) * p.o + o) * OH + y) * OW + x] = float(acc);
        }
  return out;
}

// Transposed convolution; weights [c, o/groups, kh, kw]; output size oh x ow.
inline std::vector<float> conv2d_transpose(const ConvParams& p, int OH, int OW, const std::vector<float>& in,
                                           const std::vector<float>& wt) {
  const int icg = p.c / p.groups, ocg = p.o / p.groups;
  std::vector<double> acc(size_t(p.n) * p.o * OH * OW, 0.0);
  for (int n = 0; n < p.n; ++n)
    for (int ic = 0; ic < p.c; ++ic)
      for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x) {
          const int g = ic / icg;
          for (int oc = 0; oc < ocg; ++oc)
            for (int ky = 0; ky < p.kh; ++ky)
              for (int kx = 0; kx < p.kw; ++kx) {
                const int oy = y * p.sh - p.pt + ky * p.dh, ox = x * p.sw - p.pl + kx * p.dw;
                if (oy < 0 || oy >= OH || ox < 0 || ox >= OW) continue;
                acc[((size_t(n) * p.o + g * ocg + oc) * OH + oy) * OW + ox] +=
                    double(in[((size_t(n) * p.c + ic) * p.h + y) * p.w + x]) *
                    wt[((size_t(ic) * ocg + oc) * p.kh + ky) * p.kw + kx];
              }
        }
  return std::vector<float>(acc.begin(), acc.end());
}

inline float activate(float x, int fn, float param = 0.01f) {
  switch (fn) {
  case 0: return std::max(x, 0.0f);
  case 1: return std::tanh(x);
  case 2: return 1.0f / (1.0f + std::exp(-x));
  case 3: return std::min(std::max(x, 0.0f), 6.0f);
  case 4: return x > 0 ? x : param * (std::exp(x) - 1.0f);
  case 5:
  case 6: return x > 0 ? x : param * x;
  default: return x;
  }
}

// C (m x n) = alpha * op(A) op(B) + beta * C
inline std::vector<float> gemm(int m, int n, int k, bool ta, bool tb, float alpha, float beta,
                               const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c) {
  std::vector<float> out(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int p = 0; p < k; ++p)
        acc += double(ta ? a[size_t(p) * m + i] : a[size_t(i) * k + p]) *
               (tb ? b[size_t(j) * k + p] : b[size_t(p) * n + j]);
      out[size_t(i) * n + j] = float(alpha * acc + (beta != 0 ? beta * c[size_t(i) * n + j] : 0.0));
    }
  return out;
}

// mode: 0 max, 1 avg incl pad, 2 avg excl pad
inline std::vector<float> pool2d(int n, int c, int h, int w, int kh, int kw, int sh, int sw, int pt, int pl, int pb,
                                 int pr, int mode, int OH, int OW, const std::vector<float>& in) {
  std::vector<float> out(size_t(n) * c * OH * OW);
  for (int a = 0; a < n * c; ++a)
    for (int y = 0; y < OH; ++y)
      for (int x = 0; x < OW; ++x) {
        const int y0 = y * sh - pt, x0 = x * sw - pl;
        const int y1p = std::min(y0 + kh, h + pb), x1p = std::min(x0 + kw, w + pr);
        float mx = -std::numeric_limits<float>::infinity();
        double sum = 0;
        int count = 0;
        for (int yy = std::max(y0, 0); yy < std::min(y0 + kh, h); ++yy)
          for (int xx = std::max(x0, 0); xx < std::min(x0 + kw, w); ++xx) {
            const float v = in[(size_t(a) * h + yy) * w + xx];
            mx = std::max(mx, v);
            sum += v;
            ++count;
          }
        float r = mode == 0 ? mx : mode == 1 ? float(sum / ((y1p - y0) * (x1p - x0))) : float(sum / std::max(count, 1));
        out[(size_t(a) * OH + y) * OW + x] = r;
      }
  return out;
}

}  // namespace clml_test::ref
