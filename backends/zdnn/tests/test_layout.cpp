// Stick layout: offsets from the notes' formulas and worked examples, sizes, round trips over every
// layout with odd sizes, NCHW transposition, 4DS directions, FICO/ZRH/BIDIR concatenation, HWCK
// kernels and int8 4DWEIGHTS.
#include "test_support.hpp"

using ztest::Tensor;

namespace {

uint16_t cell_at(const zdnn_ztensor& z, uint64_t byte) {
  uint16_t v;
  std::memcpy(&v, static_cast<const char*>(z.buffer) + byte, 2);
  return v;
}

uint64_t feature_offset(uint32_t H, uint32_t W, uint32_t C, uint32_t n, uint32_t h, uint32_t w, uint32_t c) {
  const uint64_t wp = (W + 31) / 32, cb = (C + 63) / 64;
  const uint64_t page = n * (wp * H * cb) + (c / 64) * (wp * H) + h * wp + w / 32;
  return page * 4096 + (w % 32) * 128 + (c % 64) * 2;
}

}  // namespace

TEST_CASE("NHWC worked example: (1,2,33,65) is 8 pages, (0,1,32,64) at byte 28672") {
  Tensor t(ZDNN_NHWC, FP32, {1, 2, 33, 65});
  CHECK(zdnn_getsize_ztensor(&t.tf) == 32768);
  std::vector<float> data(t.elements(), 0.0f);
  data[((0 * 2 + 1) * 33 + 32) * 65 + 64] = 2.0f;
  REQUIRE(t.load(data) == ZDNN_OK);
  CHECK(cell_at(t.z, 28672) == 0x4000);
  CHECK(feature_offset(2, 33, 65, 0, 1, 32, 64) == 28672);
}

TEST_CASE("every element lands where the 4DFEATURE formula says") {
  const uint32_t N = 2, H = 3, W = 35, C = 70;
  Tensor t(ZDNN_NHWC, FP32, {N, H, W, C});
  std::vector<float> data(t.elements());
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 1000);
  REQUIRE(t.load(data) == ZDNN_OK);
  size_t i = 0;
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t h = 0; h < H; ++h)
      for (uint32_t w = 0; w < W; ++w)
        for (uint32_t c = 0; c < C; ++c, ++i) {
          const float v = data[i];
          uint16_t got = cell_at(t.z, feature_offset(H, W, C, n, h, w, c));
          // decode
          const uint32_t e = (got >> 9) & 0x3F, m = got & 0x1FF;
          const float decoded = (got & 0x7FFF) == 0 ? 0.0f : std::ldexp(1.0f + m / 512.0f, int(e) - 31);
          REQUIRE(decoded == ztest::cleanse(v));
          if (i > 3000) return;  // a few thousand elements are enough
        }
}

TEST_CASE("padding cells are zero") {
  Tensor t(ZDNN_NHWC, FP32, {1, 1, 3, 5});
  REQUIRE(t.load(std::vector<float>(15, 1.0f)) == ZDNN_OK);
  CHECK(cell_at(t.z, 5 * 2) == 0);    // cell c=5 of stick 0
  CHECK(cell_at(t.z, 3 * 128) == 0);  // stick w=3 (W padding)
  CHECK(cell_at(t.z, 4094) == 0);
}

TEST_CASE("round trip over every layout with odd sizes and all float types") {
  struct Case {
    zdnn_data_layouts layout;
    std::initializer_list<uint32_t> dims;
  };
  const Case cases[] = {
      {ZDNN_1D, {67}},          {ZDNN_2D, {3, 65}},      {ZDNN_2DS, {5, 33}},         {ZDNN_3D, {2, 33, 3}},
      {ZDNN_3DS, {3, 5, 129}},  {ZDNN_4D, {2, 3, 5, 7}}, {ZDNN_NHWC, {1, 3, 37, 65}}, {ZDNN_NCHW, {2, 67, 3, 5}},
      {ZDNN_4DS, {3, 1, 5, 7}}, {ZDNN_4DS, {3, 2, 5, 7}}};
  unsigned seed = 1;
  for (const Case& c : cases) {
    Tensor t(c.layout, FP32, c.dims);
    const auto data = ztest::random_values(t.elements(), -50.0f, 50.0f, seed++);
    REQUIRE(t.load(data) == ZDNN_OK);
    CHECK(t.read() == ztest::cleansed(data));
  }
}

TEST_CASE("NCHW is transposed to NHWC cells") {
  Tensor t(ZDNN_NCHW, FP32, {1, 2, 1, 3});  // n, c, h, w
  REQUIRE(t.tf.dim1 == 2);
  REQUIRE(t.tf.dim2 == 3);
  REQUIRE(t.load({1, 2, 3, 4, 5, 6}) == ZDNN_OK);  // c0: 1 2 3, c1: 4 5 6
  CHECK(cell_at(t.z, 0 * 128 + 0) == 0x3E00);      // w0 c0 = 1
  CHECK(cell_at(t.z, 0 * 128 + 2) == 0x4200);      // w0 c1 = 4
  CHECK(cell_at(t.z, 2 * 128 + 2) == 0x4300);      // w2 c1 = 6
}

TEST_CASE("4DS with two directions: dim1 = 2 * PADDED(hidden)") {
  Tensor t(ZDNN_4DS, FP32, {2, 2, 3, 5});
  CHECK(t.tf.dim4 == 2);
  CHECK(t.tf.dim2 == 3);
  CHECK(t.tf.dim1 == 128);
  std::vector<float> data(t.elements());
  for (size_t i = 0; i < data.size(); ++i) data[i] = float(i);
  REQUIRE(t.load(data) == ZDNN_OK);
  // (ts 0, dir 1, batch 2, k 4) -> cell 64 + 4 of stick (batch 2) in c-block 1 -> page 1
  const float v = data[((0 * 2 + 1) * 3 + 2) * 5 + 4];
  uint16_t got = cell_at(t.z, feature_offset(1, 3, 128, 0, 0, 2, 68));
  CHECK(got == 0x47A0);  // 29 = 1.8125 * 2^4: e=35, m=416
  CHECK(v == 29.0f);
}

TEST_CASE("FICO concatenation places gates at multiples of PADDED(hidden)") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &pre, 1, 3, 5);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_LSTM | USAGE_WEIGHTS | PREV_LAYER_NONE, &tf) ==
          ZDNN_OK);
  CHECK(tf.layout == ZDNN_FICO);
  CHECK(tf.dim4 == 1);
  CHECK(tf.dim2 == 3);
  CHECK(tf.dim1 == 256);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_ztensor_with_malloc(&pre, &tf, &z) == ZDNN_OK);
  std::vector<float> gates[4];
  for (int g = 0; g < 4; ++g) gates[g] = std::vector<float>(15, float(g + 1));
  REQUIRE(zdnn_transform_ztensor(&z, gates[0].data(), gates[1].data(), gates[2].data(), gates[3].data()) == ZDNN_OK);
  for (uint32_t g = 0; g < 4; ++g) {
    CHECK(cell_at(z, feature_offset(1, 3, 256, 0, 0, 1, g * 64 + 4)) != 0);
    CHECK(cell_at(z, feature_offset(1, 3, 256, 0, 0, 1, g * 64 + 5)) == 0);
  }
  CHECK(cell_at(z, feature_offset(1, 3, 256, 0, 0, 0, 3 * 64)) == 0x4200);  // gate o = 4.0
  zdnn_free_ztensor_buffer(&z);
}

TEST_CASE("ZRH biases and BIDIR weights") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_2DS, FP32, &pre, 2, 70);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_GRU | USAGE_BIASES, &tf) == ZDNN_OK);
  CHECK(tf.layout == ZDNN_ZRH);
  CHECK(tf.dim4 == 2);
  CHECK(tf.dim2 == 1);
  CHECK(tf.dim1 == 3 * 128);
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &pre, 2, 10, 4);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_GRU | USAGE_WEIGHTS | PREV_LAYER_BIDIR, &tf) ==
          ZDNN_OK);
  CHECK(tf.layout == ZDNN_BIDIR_ZRH);
  CHECK(tf.dim2 == 128);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_ztensor_with_malloc(&pre, &tf, &z) == ZDNN_OK);
  std::vector<float> g(80);
  for (size_t i = 0; i < g.size(); ++i) g[i] = float(i % 40 / 4 + 1);  // row index + 1
  REQUIRE(zdnn_transform_ztensor(&z, g.data(), g.data(), g.data()) == ZDNN_OK);
  // row 5 (second half, first row) lands at transformed row 64
  CHECK(cell_at(z, feature_offset(1, 128, 192 * 2, 0, 0, 64, 0)) == 0x4300);  // 6.0
  CHECK(cell_at(z, feature_offset(1, 128, 192 * 2, 0, 0, 5, 0)) == 0);
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &pre, 2, 9, 4);
  CHECK(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_GRU | USAGE_WEIGHTS | PREV_LAYER_BIDIR, &tf) ==
        ZDNN_INVALID_SHAPE);
  zdnn_free_ztensor_buffer(&z);
}

TEST_CASE("HWCK kernel size and offsets") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_HWCK, FP32, &pre, 3, 3, 33, 65);
  REQUIRE(zdnn_generate_transformed_desc(&pre, &tf) == ZDNN_OK);
  CHECK(tf.format == ZDNN_FORMAT_4DKERNEL);
  CHECK(zdnn_getsize_ztensor(&tf) == 147456);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_ztensor_with_malloc(&pre, &tf, &z) == ZDNN_OK);
  std::vector<float> k(3 * 3 * 33 * 65, 0.0f);
  const uint32_t h = 2, w = 1, c = 32, kk = 64;
  k[((h * 3 + w) * 33 + c) * 65 + kk] = 1.0f;
  REQUIRE(zdnn_transform_ztensor(&z, k.data()) == ZDNN_OK);
  const uint64_t page = (3 * 3 * 2) * (kk / 64) + h * (3 * 2) + w * 2;
  CHECK(cell_at(z, page * 4096 + c * 128 + (kk % 64) * 2) == 0x3E00);
  std::vector<float> back(k.size());
  CHECK(zdnn_transform_origtensor(&z, back.data()) == ZDNN_INVALID_FORMAT);  // kernels not supported
  zdnn_free_ztensor_buffer(&z);
}

TEST_CASE("int8 4DWEIGHTS interleaves row pairs") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_2D, INT8, &pre, 3, 65);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_WEIGHTS_INT8, &tf) == ZDNN_OK);
  CHECK(tf.format == ZDNN_FORMAT_4DWEIGHTS);
  CHECK(zdnn_getsize_ztensor(&tf) == 2 * 4096);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&pre, &tf, 1.0f, 0.0f, &z) == ZDNN_OK);
  std::vector<int8_t> w(3 * 65);
  for (size_t i = 0; i < w.size(); ++i) w[i] = int8_t(i % 100);
  REQUIRE(zdnn_transform_quantized_ztensor(&z, false, INT8_MIN, INT8_MAX, w.data()) == ZDNN_OK);
  const auto* b = static_cast<const int8_t*>(z.buffer);
  auto off = [](uint32_t e2, uint32_t e1) {  // notes' formula with e4 = e3 = 0, E3 = 1, E2l = 64
    const uint64_t E2l = 64, E3 = 1;
    return (e2 / 2) * 128 + (e1 / 64) * E2l * E3 * 64 + (e1 * 2) % 128 + e2 % 2;
  };
  for (uint32_t e2 = 0; e2 < 3; ++e2)
    for (uint32_t e1 = 0; e1 < 65; ++e1) REQUIRE(b[off(e2, e1)] == w[e2 * 65 + e1]);
  zdnn_free_ztensor_buffer(&z);
}

TEST_CASE("int8 4DFEATURE uses 128 one-byte cells and quantizes with scale/offset/clip") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &pre, 2, 130);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_INT8, &tf) == ZDNN_OK);
  CHECK(zdnn_getsize_ztensor(&tf) == 2 * 4096);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&pre, &tf, 0.5f, 3.0f, &z) == ZDNN_OK);
  std::vector<float> x(260);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i) * 0.25f - 10.0f;
  REQUIRE(zdnn_transform_quantized_ztensor(&z, false, -20, 40, x.data()) == ZDNN_OK);
  const auto* b = static_cast<const int8_t*>(z.buffer);
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t c = 0; c < 130; ++c) {
      const float q = std::min(40.0f, std::max(-20.0f, std::nearbyint(x[r * 130 + c] / 0.5f + 3.0f)));
      REQUIRE(b[(c / 128) * 4096 + r * 128 + c % 128] == int8_t(q));
    }
  zdnn_free_ztensor_buffer(&z);
}

TEST_CASE("reshape keeps values in row-major order") {
  Tensor a(ZDNN_NHWC, FP32, {1, 2, 3, 70});
  Tensor b(ZDNN_NHWC, FP32, {1, 3, 2, 70});
  Tensor c(ZDNN_NHWC, FP32, {1, 7, 5, 12});
  const auto data = ztest::random_values(a.elements(), -4, 4, 3);
  REQUIRE(a.load(data) == ZDNN_OK);
  REQUIRE(zdnn_reshape_ztensor(&a.z, &b.z) == ZDNN_OK);
  CHECK(b.read() == ztest::cleansed(data));
  REQUIRE(zdnn_reshape_ztensor(&a.z, &c.z) == ZDNN_OK);
  CHECK(c.read() == ztest::cleansed(data));
  CHECK(zdnn_reshape_ztensor(&a.z, &c.z) == ZDNN_INVALID_STATE);
}

TEST_CASE("FP16 and BFLOAT round trips through NHWC and NCHW") {
  for (auto type : {FP16, BFLOAT})
    for (auto layout : {ZDNN_NHWC, ZDNN_NCHW}) {
      Tensor t(layout, type, {1, 5, 3, 67});
      std::vector<uint16_t> data(t.elements());
      for (size_t i = 0; i < data.size(); ++i) {
        const float v = float(int(i % 200) - 100) / 8.0f;  // exact in 9 fraction bits
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        data[i] = type == BFLOAT ? uint16_t(bits >> 16) : 0;
        if (type == FP16) {  // v = m/8 with |m| <= 100: build binary16 by hand
          const float a = std::fabs(v);
          if (a == 0)
            data[i] = 0;
          else {
            int e;
            const float m = std::frexp(a, &e);  // a = m * 2^e
            data[i] = uint16_t((v < 0 ? 0x8000 : 0) | ((e - 1 + 15) << 10) | uint16_t((m * 2 - 1) * 1024));
          }
        }
      }
      REQUIRE(zdnn_transform_ztensor(&t.z, data.data()) == ZDNN_OK);
      std::vector<uint16_t> back(data.size());
      REQUIRE(zdnn_transform_origtensor(&t.z, back.data()) == ZDNN_OK);
      CHECK(back == data);
    }
}

TEST_CASE("large few-channel tensor (streaming stickify path) round trips with zero padding") {
  Tensor t(ZDNN_NHWC, FP32, {1, 224, 230, 3});
  const auto data = ztest::random_values(t.elements(), -9, 9, 77);
  REQUIRE(t.load(data) == ZDNN_OK);
  CHECK(t.read() == ztest::cleansed(data));
  const auto* cells = static_cast<const uint16_t*>(t.z.buffer);
  size_t nonzero_padding = 0;
  for (size_t stick = 0; stick < t.z.buffer_size / 128; ++stick)
    for (size_t c = 3; c < 64; ++c) nonzero_padding += cells[stick * 64 + c] != 0;
  CHECK(nonzero_padding == 0);
}
