// test_data_movement.cpp -- concat, permute, reshape, depth-to-space (+activation), resize
// bilinear and pad (all modes) against host references.
#include "clml_test_support.h"
#include "reference_ops.h"

using namespace clml_test;

TEST_CASE("concat along channels (client shapes) and along width") {
  for (cl_channel_type type : {CL_FLOAT, CL_HALF_FLOAT}) {
    struct Case {
      int c1, c2, h, w, axis;
    };
    for (Case k : {Case{64, 64, 64, 40, 1}, Case{128, 64, 32, 32, 1}, Case{3, 3, 4, 5, 3}}) {
      CAPTURE(k.c1);
      const bool width = k.axis == 3;
      DeviceTensor a, b, out;
      create(a, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, k.c1, k.h, k.w));
      create(b, make_desc(type, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, width ? k.c1 : k.c2, k.h, width ? k.w + 2 : k.w));
      create(out, make_desc(type, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, width ? k.c1 : k.c1 + k.c2, k.h,
                            width ? 2 * k.w + 2 : k.w));
      cl_ml_op_concat_desc_qcom desc{static_cast<cl_uint>(k.axis), 2, CL_ARITHMETIC_MODE_FP32_QCOM};
      cl_ml_tensor_qcom inputs[] = {a.tensor, b.tensor};
      cl_ml_op_qcom op = nullptr;
      REQUIRE(api().clCreateMLOpConcatQCOM(env().context, nullptr, &desc, inputs, out.tensor, &op, nullptr) ==
              CL_SUCCESS);
      std::vector<float> va = quantize(random_values(a.elements(), -1, 1, 1), type);
      std::vector<float> vb = quantize(random_values(b.elements(), -1, 1, 2), type);
      a.write(va);
      b.write(vb);
      run_op(op, {&a, &b, &out});
      std::vector<float> want;
      if (!width) {
        want = va;
        want.insert(want.end(), vb.begin(), vb.end());
      } else {
        const int wb = k.w + 2;
        for (int c = 0; c < k.c1; ++c)
          for (int y = 0; y < k.h; ++y) {
            for (int x = 0; x < k.w; ++x) want.push_back(va[(c * k.h + y) * k.w + x]);
            for (int x = 0; x < wb; ++x) want.push_back(vb[(c * k.h + y) * wb + x]);
          }
      }
      check_close(out.read(), want, 0);
    }
  }
}

TEST_CASE("permute NCHW -> NHWC order and 5D") {
  DeviceTensor in, out;
  create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, 3, 4, 5));
  create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, 4, 5, 3));  // logical (n, h, w, c)
  cl_ml_op_permute_desc_qcom desc{4, {0, 2, 3, 1, 0}, CL_ARITHMETIC_MODE_FP32_QCOM};
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpPermuteQCOM(env().context, nullptr, &desc, in.tensor, out.tensor, &op, nullptr) ==
          CL_SUCCESS);
  std::vector<float> v = random_values(in.elements());
  in.write(v);
  run_op(op, {&in, &out});
  check_close(out.read(), nchw_to_nhwc(v, 2, 3, 4, 5), 0);
}

TEST_CASE("reshape keeps logical order across layouts") {
  DeviceTensor in, out;
  create(in, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, 6, 4, 5));
  create(out, make_desc(CL_HALF_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 2, 3, 10, 2));
  cl_ml_op_qcom op = nullptr;
  REQUIRE(api().clCreateMLOpReshapeQCOM(env().context, nullptr, in.tensor, out.tensor, &op, nullptr) == CL_SUCCESS);
  std::vector<float> v = quantize(random_values(in.elements()), CL_HALF_FLOAT);
  in.write(v);
  run_op(op, {&in, &out});
  check_close(out.read(), v, 0);
}

namespace {

std::vector<float> depth_to_space_ref(const std::vector<float>& x, int C, int H, int W, int b) {
  const int OC = C / (b * b);
  std::vector<float> out(x.size());
  for (int c = 0; c < OC; ++c)
    for (int y = 0; y < H * b; ++y)
      for (int xx = 0; xx < W * b; ++xx) {
        const int ic = ((y % b) * b + (xx % b)) * OC + c;
        out[(c * H * b + y) * W * b + xx] = x[(ic * H + y / b) * W + xx / b];
      }
  return out;
}

}  // namespace

TEST_CASE("depth to space (DCR) and fused activation: client shapes") {
  struct Case {
    int c, h, w, b;
  };
  for (bool fused : {false, true})
    for (Case k : {Case{64, 8, 8, 4}, Case{512, 8, 8, 8}}) {
      DeviceTensor in, out;
      create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, k.c, k.h, k.w));
      create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_OPTIMAL_QCOM, 1, k.c / (k.b * k.b), k.h * k.b, k.w * k.b));
      cl_ml_op_depthtospace_desc_qcom desc{static_cast<cl_uint>(k.b), CL_ARITHMETIC_MODE_FP32_QCOM};
      cl_ml_op_activation_desc_qcom act{CL_ACTIVATION_SIGMOID, CL_PROPAGATE_NAN_QCOM, CL_ARITHMETIC_MODE_FP32_QCOM};
      cl_ml_op_qcom op = nullptr;
      if (fused)
        REQUIRE(api().clCreateMLOpFusedDepthToSpaceActivationQCOM(env().context, nullptr, &desc, &act, in.tensor,
                                                                  nullptr, out.tensor, &op, nullptr) == CL_SUCCESS);
      else
        REQUIRE(api().clCreateMLOpDepthToSpaceQCOM(env().context, nullptr, &desc, in.tensor, out.tensor, &op,
                                                   nullptr) == CL_SUCCESS);
      std::vector<float> v = random_values(in.elements());
      in.write(v);
      run_op(op, {&in, &out});
      std::vector<float> want = depth_to_space_ref(v, k.c, k.h, k.w, k.b);
      if (fused)
        for (float& x : want) x = ref::activate(x, CL_ACTIVATION_SIGMOID);
      check_close(out.read(), want, 1e-5f);
    }
}

TEST_CASE("resize bilinear x2: client shapes") {
  struct Case {
    int c, h, w;
    bool align, half;
  };
  for (Case k : {Case{16, 8, 8, false, false}, Case{16, 7, 7, true, false}, Case{4, 5, 6, false, true}}) {
    CAPTURE(k.h);
    const int OH = 2 * k.h, OW = 2 * k.w;
    DeviceTensor in, out;
    create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, k.c, k.h, k.w));
    create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, k.c, OH, OW));
    cl_ml_op_resize_bilinear_desc_qcom desc{k.align, k.half, CL_ARITHMETIC_MODE_FP32_QCOM};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpResizeBilinearQCOM(env().context, nullptr, &desc, in.tensor, out.tensor, &op, nullptr) ==
            CL_SUCCESS);
    std::vector<float> v = random_values(in.elements());
    in.write(v);
    run_op(op, {&in, &out});
    const float sh = k.align ? float(k.h - 1) / (OH - 1) : float(k.h) / OH;
    const float sw = k.align ? float(k.w - 1) / (OW - 1) : float(k.w) / OW;
    std::vector<float> want(out.elements());
    for (int c = 0; c < k.c; ++c)
      for (int y = 0; y < OH; ++y)
        for (int x = 0; x < OW; ++x) {
          float fy = k.half ? (y + 0.5f) * sh - 0.5f : y * sh, fx = k.half ? (x + 0.5f) * sw - 0.5f : x * sw;
          fy = std::max(fy, 0.0f);
          fx = std::max(fx, 0.0f);
          const int y0 = std::min(int(fy), k.h - 1), x0 = std::min(int(fx), k.w - 1);
          const int y1 = std::min(y0 + 1, k.h - 1), x1 = std::min(x0 + 1, k.w - 1);
          const float dy = fy - y0, dx = fx - x0;
          auto at = [&](int yy, int xx) { return v[(c * k.h + yy) * k.w + xx]; };
          const float top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * dx;
          const float bot = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * dx;
          want[(c * OH + y) * OW + x] = top + (bot - top) * dy;
        }
    check_close(out.read(), want, 1e-5f);
  }
}

TEST_CASE("pad: constant (with value property), reflect, symmetric, edge") {
  const int C = 2, H = 4, W = 5;
  const int l = 2, r = 1, t = 3, b = 2;
  auto index = [](int i, int n, int mode) {
    if (i >= 0 && i < n) return i;
    if (mode == CL_PAD_MODE_REFLECT_QCOM) return i < 0 ? -i : 2 * (n - 1) - i;
    if (mode == CL_PAD_MODE_SYMMETRIC_QCOM) return i < 0 ? -i - 1 : 2 * n - 1 - i;
    return std::min(std::max(i, 0), n - 1);
  };
  for (int mode = CL_PAD_MODE_CONSTANT_QCOM; mode <= CL_PAD_MODE_EDGE_QCOM; ++mode) {
    CAPTURE(mode);
    DeviceTensor in, out;
    create(in, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NCHW_QCOM, 1, C, H, W));
    create(out, make_desc(CL_FLOAT, CL_TENSOR_LAYOUT_NHWC_QCOM, 1, C, H + t + b, W + l + r));
    cl_ml_op_pad_desc_qcom desc{};
    desc.pad_mode = static_cast<cl_pad_mode_qcom>(mode);
    desc.paddings[0] = l, desc.paddings[1] = r, desc.paddings[2] = t, desc.paddings[3] = b;
    desc.arithmetic_mode = CL_ARITHMETIC_MODE_FP32_QCOM;
    const float value = 7.5f;
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    cl_ml_op_properties_qcom props[] = {CL_ML_OP_PAD_OP_CONSTANT_VALUE_QCOM,
                                        static_cast<cl_ml_op_properties_qcom>(bits), 0};
    cl_ml_op_qcom op = nullptr;
    REQUIRE(api().clCreateMLOpPadQCOM(env().context, props, &desc, in.tensor, out.tensor, &op, nullptr) == CL_SUCCESS);
    std::vector<float> v = random_values(in.elements());
    in.write(v);
    run_op(op, {&in, &out});
    const int OH = H + t + b, OW = W + l + r;
    std::vector<float> want(out.elements());
    for (int c = 0; c < C; ++c)
      for (int y = 0; y < OH; ++y)
        for (int x = 0; x < OW; ++x) {
          const int iy = y - t, ix = x - l;
          float val;
          if (mode == CL_PAD_MODE_CONSTANT_QCOM && (iy < 0 || iy >= H || ix < 0 || ix >= W))
            val = value;
          else
            val = v[(c * H + index(iy, H, mode)) * W + index(ix, W, mode)];
          want[(c * OH + y) * OW + x] = val;
        }
    check_close(out.read(), want, 0);
  }
}
