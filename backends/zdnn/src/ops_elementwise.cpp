// Element-wise operations: add, sub, mul, div, min, max, log, exp, sqrt, invsqrt.
#include <algorithm>
#include <cmath>

#include "op_support.hpp"

using namespace tessera::zdnn;

extern "C" {

zdnn_status zdnn_add(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  return binary_map("zdnn_add", a, b, out, [](float x, float y) { return x + y; });
}
zdnn_status zdnn_sub(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  return binary_map("zdnn_sub", a, b, out, [](float x, float y) { return x - y; });
}
zdnn_status zdnn_mul(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  return binary_map("zdnn_mul", a, b, out, [](float x, float y) { return x * y; });
}
zdnn_status zdnn_div(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  return binary_map("zdnn_div", a, b, out, [](float x, float y) { return x / y; });
}
zdnn_status zdnn_min(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  return binary_map("zdnn_min", a, b, out, [](float x, float y) { return y < x ? y : x; });
}
zdnn_status zdnn_max(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  return binary_map("zdnn_max", a, b, out, [](float x, float y) { return y > x ? y : x; });
}
zdnn_status zdnn_log(const zdnn_ztensor* in, zdnn_ztensor* out) {
  return unary_map("zdnn_log", in, out, [](float x) { return std::log(x); });
}
zdnn_status zdnn_exp(const zdnn_ztensor* in, zdnn_ztensor* out) {
  return unary_map("zdnn_exp", in, out, [](float x) { return std::exp(x); });
}
zdnn_status zdnn_sqrt(const zdnn_ztensor* in, zdnn_ztensor* out) {
  return unary_map("zdnn_sqrt", in, out, [](float x) { return std::sqrt(x); });
}
zdnn_status zdnn_invsqrt(const zdnn_ztensor* in, float epsilon, zdnn_ztensor* out) {
  if (!std::isfinite(epsilon)) return report(ZDNN_INVALID_EPSILON, "zdnn_invsqrt");
  return unary_map("zdnn_invsqrt", in, out, [epsilon](float x) { return 1.0f / std::sqrt(x + epsilon); });
}

}  // extern "C"
