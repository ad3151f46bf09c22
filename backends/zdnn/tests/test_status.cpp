// Status codes on bad input: every function returns the spec's status and never crashes.
#include "test_support.hpp"

using ztest::Tensor;

TEST_CASE("descriptor helpers reject bad layouts, types, transform types and concat info") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_NHWC, INT8, &pre, 1, 1, 1, 1);
  CHECK(zdnn_generate_transformed_desc(&pre, &tf) == ZDNN_INVALID_TYPE);
  zdnn_init_pre_transformed_desc(ZDNN_FICO, FP32, &pre, 1, 1, 1);
  CHECK(zdnn_generate_transformed_desc(&pre, &tf) == ZDNN_INVALID_LAYOUT);
  zdnn_init_pre_transformed_desc(ZDNN_NHWC, FP32, &pre, 1, 1, 1, 1);
  CHECK(zdnn_generate_quantized_transformed_desc(&pre, (zdnn_quantized_transform_types)7, &tf) ==
        ZDNN_INVALID_TRANSFORM_TYPE);
  CHECK(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_WEIGHTS_INT8, &tf) == ZDNN_INVALID_TYPE);
  zdnn_init_pre_transformed_desc(ZDNN_NCHW, FP32, &pre, 1, 1, 1, 1);
  CHECK(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_INT8, &tf) == ZDNN_INVALID_LAYOUT);
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &pre, 1, 2, 3);
  CHECK(zdnn_generate_transformed_desc_concatenated(&pre, 7u << 24, &tf) == ZDNN_INVALID_CONCAT_INFO);
  CHECK(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_LSTM | USAGE_BIASES, &tf) == ZDNN_INVALID_LAYOUT);
  zdnn_init_pre_transformed_desc(ZDNN_3DS, INT8, &pre, 1, 2, 3);
  CHECK(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_LSTM | USAGE_WEIGHTS, &tf) == ZDNN_INVALID_TYPE);
}

TEST_CASE("allocation and init reject bad transformed descriptors") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_NHWC, FP32, &pre, 1, 1, 1, 1);
  REQUIRE(zdnn_generate_transformed_desc(&pre, &tf) == ZDNN_OK);
  zdnn_ztensor z;
  zdnn_tensor_desc bad = tf;
  bad.dim2 = 0;
  CHECK(zdnn_init_ztensor_with_malloc(&pre, &bad, &z) == ZDNN_INVALID_SHAPE);
  bad = tf;
  bad.dim1 = 40000;
  CHECK(zdnn_init_ztensor_with_malloc(&pre, &bad, &z) == ZDNN_INVALID_SHAPE);
  bad = tf;
  bad.dim4 = 30000;
  bad.dim3 = 30000;  // > 4 GiB
  CHECK(zdnn_init_ztensor_with_malloc(&pre, &bad, &z) == ZDNN_INVALID_SHAPE);
  bad = tf;
  bad.format = (zdnn_data_formats)9;
  CHECK(zdnn_init_ztensor_with_malloc(&pre, &bad, &z) == ZDNN_INVALID_FORMAT);
  bad = tf;
  bad.type = FP32;
  CHECK(zdnn_init_ztensor_with_malloc(&pre, &bad, &z) == ZDNN_INVALID_TYPE);
  bad = tf;
  bad.layout = ZDNN_3DS;
  zdnn_init_ztensor(&pre, &bad, &z);
  CHECK(zdnn_allochelper_ztensor(&z) == ZDNN_INVALID_LAYOUT);
  zdnn_ztensor empty{};
  CHECK(zdnn_free_ztensor_buffer(&empty) == ZDNN_INVALID_BUFFER);
}

TEST_CASE("transform statuses: buffer, state, layout, type, convert") {
  Tensor t(ZDNN_2D, FP32, {2, 3});
  const float data[6] = {1, 2, 3, 4, 5, 6};
  void* saved = t.z.buffer;
  t.z.buffer = static_cast<char*>(saved) + 64;
  CHECK(zdnn_transform_ztensor(&t.z, data) == ZDNN_INVALID_BUFFER);
  t.z.buffer = nullptr;
  CHECK(zdnn_transform_ztensor(&t.z, data) == ZDNN_INVALID_BUFFER);
  t.z.buffer = saved;
  t.z.buffer_size = 100;
  CHECK(zdnn_transform_ztensor(&t.z, data) == ZDNN_INVALID_BUFFER);
  t.z.buffer_size = 4096;
  float out[6];
  CHECK(zdnn_transform_origtensor(&t.z, out) == ZDNN_INVALID_STATE);
  REQUIRE(zdnn_transform_ztensor(&t.z, data) == ZDNN_OK);
  CHECK(zdnn_transform_ztensor(&t.z, data) == ZDNN_INVALID_STATE);
  t.pre.type = ZDNN_DLFLOAT16;
  CHECK(zdnn_transform_origtensor(&t.z, out) == ZDNN_INVALID_TYPE);
  t.pre.type = FP32;
  t.tf.format = ZDNN_FORMAT_4DKERNEL;
  CHECK(zdnn_transform_origtensor(&t.z, out) == ZDNN_INVALID_FORMAT);
  t.tf.format = ZDNN_FORMAT_4DFEATURE;
  t.pre.layout = (zdnn_data_layouts)77;
  CHECK(zdnn_transform_origtensor(&t.z, out) == ZDNN_INVALID_LAYOUT);
  t.pre.layout = ZDNN_2D;
  CHECK(zdnn_transform_origtensor(&t.z, nullptr) == ZDNN_INVALID_BUFFER);
  zdnn_reset_ztensor(&t.z);
  CHECK_FALSE(t.z.is_transformed);
  CHECK(zdnn_transform_quantized_ztensor(&t.z, false, 0, 0, data) == ZDNN_FUNC_RC_F001);  // not quantized: scale 0
}

TEST_CASE("quantized transform and matmul statuses") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &pre, 2, 2);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_INT8, &tf) == ZDNN_OK);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&pre, &tf, 1.0f, 0.0f, &z) == ZDNN_OK);
  const float d[4] = {1, 2, 3, 4};
  CHECK(zdnn_transform_quantized_ztensor(&z, false, 5, 5, d) == ZDNN_INVALID_CLIPPING_VALUE);
  REQUIRE(zdnn_transform_quantized_ztensor(&z, false, -128, 127, d) == ZDNN_OK);
  Tensor f(ZDNN_2D, FP32, {2, 2}), c(ZDNN_1D, FP32, {2}), o(ZDNN_2D, FP32, {2, 2});
  REQUIRE(f.load({1, 2, 3, 4}) == ZDNN_OK);
  CHECK(zdnn_quantized_matmul_op(&z, &f.z, &c.z, MATMUL_OP_ADDITION, -128, 127, false, false, false, nullptr, &o.z) ==
        ZDNN_FUNC_RC_F001);
  zdnn_free_ztensor_buffer(&z);
}

TEST_CASE("operation statuses") {
  Tensor a(ZDNN_2D, FP32, {2, 3}), b(ZDNN_2D, FP32, {3, 2}), o(ZDNN_2D, FP32, {2, 3}), c(ZDNN_1D, FP32, {2});
  REQUIRE(a.load({1, 2, 3, 4, 5, 6}) == ZDNN_OK);
  REQUIRE(b.load({1, 2, 3, 4, 5, 6}) == ZDNN_OK);
  CHECK(zdnn_add(&a.z, &b.z, &o.z) == ZDNN_INVALID_SHAPE);
  CHECK(zdnn_add(&a.z, nullptr, &o.z) == ZDNN_INVALID_BUFFER);
  a.tf.type = ZDNN_BINARY_INT8;
  CHECK(zdnn_add(&a.z, &a.z, &o.z) == ZDNN_INVALID_TYPE);
  a.tf.type = ZDNN_DLFLOAT16;
  a.tf.format = ZDNN_FORMAT_4DKERNEL;
  CHECK(zdnn_exp(&a.z, &o.z) == ZDNN_INVALID_FORMAT);
  a.tf.format = ZDNN_FORMAT_4DFEATURE;
  CHECK(zdnn_invsqrt(&a.z, NAN, &o.z) == ZDNN_INVALID_EPSILON);
  const float neg = -1;
  CHECK(zdnn_relu(&a.z, &neg, &o.z) == ZDNN_INVALID_CLIPPING_VALUE);
  CHECK(zdnn_leaky_relu(&a.z, nullptr, 1.5f, &o.z) == ZDNN_INVALID_ADJUSTMENT_FACTOR);
  CHECK(zdnn_softmax(&a.z, nullptr, (zdnn_softmax_act)5, &o.z) == ZDNN_FUNC_RC_F001);
  CHECK(zdnn_softmax_mask(&a.z, nullptr, SOFTMAX_ACT_NONE, 4, &o.z) == ZDNN_FUNC_RC_F002);
  CHECK(zdnn_softmax(&a.z, reinterpret_cast<void*>(0x1001), SOFTMAX_ACT_NONE, &o.z) == ZDNN_MISALIGNED_SAVEAREA);
  Tensor s4(ZDNN_4D, FP32, {1, 2, 2, 3}), s4o(ZDNN_4D, FP32, {1, 2, 2, 3});
  CHECK(zdnn_softmax(&s4.z, nullptr, SOFTMAX_ACT_NONE, &s4o.z) == ZDNN_FUNC_RC_F000);
  Tensor mo(ZDNN_2D, FP32, {2, 2});
  CHECK(zdnn_matmul_op(&a.z, &b.z, &c.z, (zdnn_matmul_ops)9, &mo.z) == ZDNN_FUNC_RC_F000);
  CHECK(zdnn_matmul_op(&a.z, &a.z, &c.z, MATMUL_OP_ADDITION, &mo.z) == ZDNN_INVALID_SHAPE);
  CHECK(zdnn_moments(&s4.z, (zdnn_moments_bessel)4, &mo.z, &mo.z) == ZDNN_INVALID_BESSEL_CORRECTION);
  Tensor mean(ZDNN_4D, FP32, {1, 1, 1, 1});
  CHECK(zdnn_layernorm(&s4.z, &mean.z, &mean.z, INFINITY, 1, 0, &s4o.z) == ZDNN_INVALID_BETA);
  CHECK(zdnn_layernorm(&s4.z, &mean.z, &mean.z, 0, NAN, 0, &s4o.z) == ZDNN_INVALID_GAMMA);
  CHECK(zdnn_layernorm(&s4.z, &mean.z, &mean.z, 0, 1, NAN, &s4o.z) == ZDNN_INVALID_EPSILON);
  Tensor red(ZDNN_2D, FP32, {2, 1});
  CHECK(zdnn_reduce(&a.z, nullptr, (zdnn_reduce_ops)8, &red.z) == ZDNN_FUNC_RC_F000);
  CHECK(zdnn_reduce(&a.z, nullptr, REDUCE_OP_MINIMUM_IDX, &red.z) == ZDNN_INVALID_TYPE);
}

TEST_CASE("pooling and conv2d statuses") {
  Tensor in(ZDNN_NHWC, FP32, {1, 4, 4, 2}), out(ZDNN_NHWC, FP32, {1, 2, 2, 2});
  CHECK(zdnn_maxpool2d(&in.z, (zdnn_pool_padding)3, 2, 2, 2, 2, &out.z) == ZDNN_FUNC_RC_F000);
  CHECK(zdnn_maxpool2d(&in.z, VALID_PADDING, 2, 2, 0, 2, &out.z) == ZDNN_INVALID_STRIDES);
  CHECK(zdnn_maxpool2d(&in.z, SAME_PADDING, 4, 4, 0, 0, &out.z) == ZDNN_INVALID_STRIDE_PADDING);
  CHECK(zdnn_maxpool2d(&in.z, VALID_PADDING, 0, 2, 2, 2, &out.z) == ZDNN_EXCEEDS_MDIS);
  CHECK(zdnn_maxpool2d(&in.z, VALID_PADDING, 65, 2, 2, 2, &out.z) == ZDNN_FUNC_RC_F002);
  CHECK(zdnn_maxpool2d(&in.z, VALID_PADDING, 2, 2, 31, 2, &out.z) == ZDNN_FUNC_RC_F003);
  CHECK(zdnn_avgpool2d(&in.z, VALID_PADDING, 3, 3, 2, 2, &out.z) == ZDNN_INVALID_SHAPE);
  CHECK(zdnn_avgpool2d(&in.z, VALID_PADDING, 2, 2, 2, 2, &out.z) == ZDNN_OK);
  Tensor k(ZDNN_HWCK, FP32, {2, 2, 2, 2}), b(ZDNN_1D, FP32, {2});
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, VALID_PADDING, 2, 2, (zdnn_conv2d_act)4, nullptr, &out.z) == ZDNN_FUNC_RC_F001);
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, (zdnn_pool_padding)4, 2, 2, CONV2D_ACT_NONE, nullptr, &out.z) ==
        ZDNN_FUNC_RC_F000);
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, VALID_PADDING, 14, 14, CONV2D_ACT_NONE, nullptr, &out.z) == ZDNN_FUNC_RC_F004);
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, VALID_PADDING, 1, 0, CONV2D_ACT_NONE, nullptr, &out.z) == ZDNN_INVALID_STRIDES);
  const float neg = -2;
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, VALID_PADDING, 2, 2, CONV2D_ACT_RELU, &neg, &out.z) ==
        ZDNN_INVALID_CLIPPING_VALUE);
  CHECK(zdnn_conv2d(&in.z, &b.z, &b.z, VALID_PADDING, 2, 2, CONV2D_ACT_NONE, nullptr, &out.z) == ZDNN_INVALID_FORMAT);
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, VALID_PADDING, 2, 2, CONV2D_ACT_NONE, nullptr, &out.z) == ZDNN_OK);
}

TEST_CASE("RNN statuses: direction, shapes, precheck on outputs") {
  Tensor x(ZDNN_3DS, FP32, {2, 1, 3}), h0(ZDNN_3DS, FP32, {1, 1, 4});
  zdnn_tensor_desc wp, wt;
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &wp, 1, 3, 4);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&wp, RNN_TYPE_GRU | USAGE_WEIGHTS, &wt) == ZDNN_OK);
  zdnn_ztensor w;
  REQUIRE(zdnn_init_ztensor_with_malloc(&wp, &wt, &w) == ZDNN_OK);
  zdnn_tensor_desc rp, rt, bp, bt;
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &rp, 1, 4, 4);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&rp, RNN_TYPE_GRU | USAGE_HIDDEN_WEIGHTS, &rt) == ZDNN_OK);
  zdnn_init_pre_transformed_desc(ZDNN_2DS, FP32, &bp, 1, 4);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&bp, RNN_TYPE_GRU | USAGE_BIASES, &bt) == ZDNN_OK);
  zdnn_ztensor r, bb;
  REQUIRE(zdnn_init_ztensor_with_malloc(&rp, &rt, &r) == ZDNN_OK);
  REQUIRE(zdnn_init_ztensor_with_malloc(&bp, &bt, &bb) == ZDNN_OK);
  Tensor hn(ZDNN_4DS, FP32, {1, 1, 1, 4}), bad_hn(ZDNN_4DS, FP32, {3, 1, 1, 4});
  CHECK(zdnn_gru(&x.z, &h0.z, &w, &bb, &r, &bb, (lstm_gru_direction)7, nullptr, &hn.z) == ZDNN_INVALID_DIRECTION);
  CHECK(zdnn_gru(&x.z, &h0.z, &w, &bb, &r, &bb, BIDIR, nullptr, &hn.z) == ZDNN_INVALID_SHAPE);
  CHECK(zdnn_gru(&x.z, &h0.z, &w, &bb, &r, &bb, FWD, nullptr, &bad_hn.z) == ZDNN_INVALID_SHAPE);
  CHECK(zdnn_gru(&x.z, &h0.z, &w, &bb, &r, &bb, FWD, nullptr, &hn.z) == ZDNN_OK);
  Tensor wrong(ZDNN_4DS, FP32, {1, 1, 1, 5});
  CHECK(zdnn_gru(&x.z, &h0.z, &w, &bb, &r, &bb, FWD, nullptr, &wrong.z) == ZDNN_OK);  // like the zAIU without precheck
  setenv("ZDNN_ENABLE_PRECHECK", "true", 1);
  zdnn_init();
  CHECK(zdnn_gru(&x.z, &h0.z, &w, &bb, &r, &bb, FWD, nullptr, &wrong.z) == ZDNN_INVALID_SHAPE);
  unsetenv("ZDNN_ENABLE_PRECHECK");
  zdnn_init();
  zdnn_free_ztensor_buffer(&w);
  zdnn_free_ztensor_buffer(&r);
  zdnn_free_ztensor_buffer(&bb);
}

TEST_CASE("quantized matmul scale, offset and clipping statuses") {
  zdnn_tensor_desc ap, at, bp, bt, cp, ct, op, ot;
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &ap, 2, 3);
  zdnn_init_pre_transformed_desc(ZDNN_2D, INT8, &bp, 3, 2);
  zdnn_init_pre_transformed_desc(ZDNN_1D, FP32, &cp, 2);
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &op, 2, 2);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&ap, QUANTIZED_INT8, &at) == ZDNN_OK);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&bp, QUANTIZED_WEIGHTS_INT8, &bt) == ZDNN_OK);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&cp, QUANTIZED_INT8, &ct) == ZDNN_OK);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&op, QUANTIZED_DLFLOAT16, &ot) == ZDNN_OK);
  zdnn_ztensor a, b, c, o;
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&ap, &at, 1, 0, &a) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&bp, &bt, 1, 0, &b) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&cp, &ct, 1, 0, &c) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&op, &ot, 1, 0, &o) == ZDNN_OK);
  CHECK(zdnn_quantized_matmul_op(&a, &b, &c, MATMUL_OP_ADDITION, 3, 3, false, false, false, nullptr, &o) ==
        ZDNN_INVALID_CLIPPING_VALUE);
  CHECK(zdnn_quantized_matmul_op(&a, &b, &c, (zdnn_matmul_ops)11, -128, 127, false, false, false, nullptr, &o) ==
        ZDNN_FUNC_RC_F000);
  a.rec_scale = 1e-12f;  // scale 1e12 > DLFLOAT16 max
  CHECK(zdnn_quantized_matmul_op(&a, &b, &c, MATMUL_OP_ADDITION, -128, 127, false, false, false, nullptr, &o) ==
        ZDNN_INVALID_SCALE);
  a.rec_scale = 1;
  c.offset = INFINITY;
  CHECK(zdnn_quantized_matmul_op(&a, &b, &c, MATMUL_OP_ADDITION, -128, 127, false, false, false, nullptr, &o) ==
        ZDNN_INVALID_OFFSET);
  c.offset = 0;
  CHECK(zdnn_quantized_matmul_op(&a, &b, &c, MATMUL_OP_ADDITION, -128, 127, false, false, false,
                                 reinterpret_cast<void*>(0x10), &o) == ZDNN_MISALIGNED_SAVEAREA);
  CHECK(zdnn_quantized_matmul_op(&a, &b, &c, MATMUL_OP_ADDITION, -128, 127, false, false, false, nullptr, &o) ==
        ZDNN_OK);
  CHECK(zdnn_quantized_matmul_op(&a, &b, &o, MATMUL_OP_ADDITION, -128, 127, false, false, false, nullptr, &o) ==
        ZDNN_FUNC_RC_F001);  // DLFLOAT16 bias without pre_computed
  for (zdnn_ztensor* t : {&a, &b, &c, &o}) zdnn_free_ztensor_buffer(t);
}

TEST_CASE("pooling, meanreduce and conv2d function-specific response codes") {
  Tensor big(ZDNN_NHWC, FP32, {1, 1025, 2, 1}), out(ZDNN_NHWC, FP32, {1, 1, 1, 1});
  CHECK(zdnn_avgpool2d(&big.z, VALID_PADDING, 1025, 2, 0, 0, &out.z) == ZDNN_FUNC_RC_F001);
  CHECK(zdnn_meanreduce2d(&big.z, &out.z) == ZDNN_FUNC_RC_F001);
  Tensor pooled(ZDNN_NHWC, FP32, {1, 513, 1, 1});
  CHECK(zdnn_maxpool2d(&big.z, VALID_PADDING, 2, 2, 2, 2, &pooled.z) == ZDNN_FUNC_RC_F004);
  Tensor in(ZDNN_NHWC, FP32, {1, 70, 70, 1}), k(ZDNN_HWCK, FP32, {65, 1, 1, 1}), b(ZDNN_1D, FP32, {1});
  Tensor o(ZDNN_NHWC, FP32, {1, 6, 70, 1});
  CHECK(zdnn_conv2d(&in.z, &k.z, &b.z, VALID_PADDING, 1, 1, CONV2D_ACT_NONE, nullptr, &o.z) == ZDNN_FUNC_RC_F003);
  Tensor in2(ZDNN_NHWC, FP32, {1, 449, 1, 1}), k2(ZDNN_HWCK, FP32, {449, 1, 1, 1}), o2(ZDNN_NHWC, FP32, {1, 1, 1, 1});
  CHECK(zdnn_conv2d(&in2.z, &k2.z, &b.z, VALID_PADDING, 0, 0, CONV2D_ACT_NONE, nullptr, &o2.z) == ZDNN_FUNC_RC_F002);
}

TEST_CASE("NULL tensors, descriptors or buffers in any position give a status, never a crash") {
  Tensor a(ZDNN_NHWC, FP32, {1, 2, 2, 2});
  REQUIRE(a.load(std::vector<float>(8, 1.0f)) == ZDNN_OK);
  zdnn_ztensor* t = &a.z;
  zdnn_ztensor no_buffer = a.z;
  no_buffer.buffer = nullptr;
  zdnn_ztensor no_desc = a.z;
  no_desc.transformed_desc = nullptr;
  for (zdnn_ztensor* bad : {static_cast<zdnn_ztensor*>(nullptr), &no_buffer, &no_desc}) {
    CHECK(zdnn_add(bad, t, t) != ZDNN_OK);
    CHECK(zdnn_add(t, bad, t) != ZDNN_OK);
    CHECK(zdnn_add(t, t, bad) != ZDNN_OK);
    CHECK(zdnn_exp(bad, t) != ZDNN_OK);
    CHECK(zdnn_relu(t, nullptr, bad) != ZDNN_OK);
    CHECK(zdnn_softmax(bad, nullptr, SOFTMAX_ACT_NONE, t) != ZDNN_OK);
    CHECK(zdnn_meanreduce2d(bad, t) != ZDNN_OK);
    CHECK(zdnn_batchnorm(t, bad, t, t) != ZDNN_OK);
    CHECK(zdnn_norm(t, bad, t) != ZDNN_OK);
    CHECK(zdnn_moments(t, MOMENTS_BESSEL_POPULATION, bad, t) != ZDNN_OK);
    CHECK(zdnn_layernorm(t, t, bad, 0, 1, 0, t) != ZDNN_OK);
    CHECK(zdnn_reduce(t, nullptr, REDUCE_OP_MAXIMUM, bad) != ZDNN_OK);
    CHECK(zdnn_matmul_op(t, t, bad, MATMUL_OP_ADDITION, t) != ZDNN_OK);
    CHECK(zdnn_matmul_bcast_op(bad, t, t, MATMUL_BCAST_OP_ADDITION, t) != ZDNN_OK);
    CHECK(zdnn_matmul_transpose_op(t, bad, t, false, false, MATMUL_OP_ADDITION, t) != ZDNN_OK);
    CHECK(zdnn_quantized_matmul_op(t, t, t, MATMUL_OP_ADDITION, -1, 1, false, false, false, nullptr, bad) != ZDNN_OK);
    CHECK(zdnn_lstm(t, t, bad, t, t, t, t, FWD, nullptr, t, t) != ZDNN_OK);
    CHECK(zdnn_lstm(t, t, t, t, t, t, t, FWD, nullptr, t, bad) != ZDNN_OK);
    CHECK(zdnn_gru(t, t, t, t, t, bad, FWD, nullptr, t) != ZDNN_OK);
    CHECK(zdnn_avgpool2d(bad, VALID_PADDING, 1, 1, 1, 1, t) != ZDNN_OK);
    CHECK(zdnn_conv2d(t, bad, t, VALID_PADDING, 1, 1, CONV2D_ACT_NONE, nullptr, t) != ZDNN_OK);
    CHECK(zdnn_transform_ztensor(bad, nullptr) != ZDNN_OK);
    CHECK(zdnn_transform_origtensor(bad, nullptr) != ZDNN_OK);
    CHECK(zdnn_transform_quantized_ztensor(bad, false, -1, 1, nullptr) != ZDNN_OK);
    CHECK(zdnn_reshape_ztensor(bad, t) != ZDNN_OK);
    CHECK(zdnn_allochelper_ztensor(bad == &no_buffer ? nullptr : bad) != ZDNN_OK);
  }
  CHECK(zdnn_transform_ztensor(&a.z, nullptr) == ZDNN_INVALID_STATE);  // still transformed
  float lo = 1, hi = 1;
  zdnn_getrange_ztensor(nullptr, &lo, &hi);
  CHECK(lo == 1);
  CHECK(zdnn_getsize_ztensor(nullptr) == 0);
  CHECK_FALSE(zdnn_is_quantized_ztensor(nullptr));
  zdnn_reset_ztensor(nullptr);
  zdnn_init_pre_transformed_desc(ZDNN_NHWC, FP32, nullptr, 1, 1, 1, 1);
  CHECK(zdnn_generate_transformed_desc(nullptr, nullptr) == ZDNN_INVALID_BUFFER);
  CHECK(zdnn_get_max_limit(ZDNN_DLFLOAT16, FP32, nullptr) == ZDNN_INVALID_BUFFER);
}

TEST_CASE("transforms reject transformed dims that disagree with the pre-transformed ones") {
  Tensor t(ZDNN_2D, FP32, {2, 3});
  std::vector<float> data(6, 1.0f);
  t.tf.dim2 = 3;  // would read 9 values from a 6-value buffer
  CHECK(zdnn_transform_ztensor(&t.z, data.data()) == ZDNN_INVALID_SHAPE);
  t.tf.dim2 = 2;
  REQUIRE(zdnn_transform_ztensor(&t.z, data.data()) == ZDNN_OK);
  t.pre.dim1 = 5;
  CHECK(zdnn_transform_origtensor(&t.z, data.data()) == ZDNN_INVALID_SHAPE);
}

// AddressSanitizer reserves address space of its own and aborts on a failed allocation: the
// RLIMIT_AS test runs in builds without it (GCC says so with __SANITIZE_ADDRESS__, clang with
// __has_feature).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZDNN_TESTS_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ZDNN_TESTS_UNDER_ASAN 1
#endif

#if !defined(ZDNN_TESTS_UNDER_ASAN)
#include <sys/resource.h>

TEST_CASE("allocation failure is reported as ZDNN_ALLOCATION_FAILURE") {
  // Cap the address space a little above what the process uses, then ask for a 2 GiB ztensor.
  rlimit saved{};
  REQUIRE(getrlimit(RLIMIT_AS, &saved) == 0);
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  REQUIRE(pages > 0);
  rlimit capped = saved;
  capped.rlim_cur = static_cast<rlim_t>(pages) * 4096 + (rlim_t{256} << 20);
  REQUIRE(setrlimit(RLIMIT_AS, &capped) == 0);
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_NHWC, FP32, &pre, 1, 1024, 32, 32768);
  REQUIRE(zdnn_generate_transformed_desc(&pre, &tf) == ZDNN_OK);
  zdnn_ztensor z;
  const zdnn_status status = zdnn_init_ztensor_with_malloc(&pre, &tf, &z);
  setrlimit(RLIMIT_AS, &saved);
  CHECK(status == ZDNN_ALLOCATION_FAILURE);
  if (status == ZDNN_OK) zdnn_free_ztensor_buffer(&z);
}
#endif
