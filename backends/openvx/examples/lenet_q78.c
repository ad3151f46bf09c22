/* lenet_q78.c: a small LeNet-style Q7.8 network written in C against VX/vx_khr_cnn.h alone:
 *   input 28x28x1 -> conv 5x5 (6) -> relu -> max pool 2x2 -> conv 5x5 (16) -> relu
 *   -> max pool 2x2 -> fully connected 256->32 -> relu -> fully connected 32->10 -> softmax
 * with virtual tensors between the layers. The program checks the graph's output against the
 * same network computed here with plain C loops (the provisional Q7.8 arithmetic: every product
 * rounded to nearest even and saturated, sums in a wide accumulator, bias, saturation) and exits
 * non-zero on any difference or error. */
#include <VX/vx_khr_cnn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_STATUS(expr)                                                    \
    do {                                                                      \
        vx_status s_ = (expr);                                                \
        if (s_ != VX_SUCCESS) {                                               \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #expr, s_); \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

static unsigned long long seed = 12345;
static int16_t next_value(int lo, int hi) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int16_t)(lo + (int)((seed >> 33) % (unsigned long long)(hi - lo + 1)));
}

static void VX_CALLBACK print_log(vx_context c, vx_reference r, vx_status s, const vx_char m[]) {
    (void)c;
    (void)r;
    fprintf(stderr, "log %d: %s\n", s, m);
}

static vx_tensor tensor_with(vx_context context, vx_uint32 rank, vx_uint32* dims, const int16_t* data) {
    vx_tensor t = vxCreateTensor(context, rank, dims, VX_TYPE_INT16, 8);
    vx_uint32 strides[4];
    vx_uint32 step = 2, d;
    if (!t) exit(1);
    for (d = 0; d < rank; ++d) {
        strides[d] = step;
        step *= dims[d];
    }
    if (data) {
        vx_tensor_addressing addr = vxCreateTensorAddressing(context, dims, strides, (vx_uint8)rank);
        CHECK_STATUS(vxCopyTensorPatch(t, NULL, addr, (void*)data, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST));
        CHECK_STATUS(vxReleaseTensorAddressing(&addr));
    }
    return t;
}

/* ---- the same network in plain C ---- */
static int64_t saturate16(int64_t v) { return v < -32768 ? -32768 : (v > 32767 ? 32767 : v); }
static int64_t product_q78(int64_t x, int64_t w) {
    int64_t p = x * w, q = p / 256, r = p % 256;
    int64_t twice = 2 * (r < 0 ? -r : r);
    if (twice > 256 || (twice == 256 && (q & 1))) q += p < 0 ? -1 : 1;
    return saturate16(q);
}
static void conv_valid(const int16_t* in, int w, int h, int c, const int16_t* k, const int16_t* b, int ks, int o,
                       int16_t* out) {
    int ow = w - ks + 1, oh = h - ks + 1, oc, y, x, ic, ky, kx;
    for (oc = 0; oc < o; ++oc)
        for (y = 0; y < oh; ++y)
            for (x = 0; x < ow; ++x) {
                int64_t acc = 0;
                for (ic = 0; ic < c; ++ic)
                    for (ky = 0; ky < ks; ++ky)
                        for (kx = 0; kx < ks; ++kx)
                            acc += product_q78(in[(ic * h + y + ky) * w + x + kx],
                                               k[((oc * c + ic) * ks + ky) * ks + kx]);
                out[(oc * oh + y) * ow + x] = (int16_t)saturate16(acc + b[oc]);
            }
}
static void relu(int16_t* v, int n) {
    int i;
    for (i = 0; i < n; ++i)
        if (v[i] < 0) v[i] = 0;
}
static void pool2(const int16_t* in, int w, int h, int c, int16_t* out) {
    int ch, y, x;
    for (ch = 0; ch < c; ++ch)
        for (y = 0; y < h / 2; ++y)
            for (x = 0; x < w / 2; ++x) {
                const int16_t* p = in + (ch * h + 2 * y) * w + 2 * x;
                int16_t m = p[0];
                if (p[1] > m) m = p[1];
                if (p[w] > m) m = p[w];
                if (p[w + 1] > m) m = p[w + 1];
                out[(ch * (h / 2) + y) * (w / 2) + x] = m;
            }
}
static void fully_connected(const int16_t* in, int n, const int16_t* wgt, const int16_t* b, int o, int16_t* out) {
    int i, j;
    for (j = 0; j < o; ++j) {
        int64_t acc = 0;
        for (i = 0; i < n; ++i) acc += product_q78(in[i], wgt[j * n + i]);
        out[j] = (int16_t)saturate16(acc + b[j]);
    }
}
static void softmax(const int16_t* in, int n, int16_t* out) {
    double max = -1e300, sum = 0;
    int i;
    for (i = 0; i < n; ++i)
        if (in[i] / 256.0 > max) max = in[i] / 256.0;
    for (i = 0; i < n; ++i) sum += exp(in[i] / 256.0 - max);
    for (i = 0; i < n; ++i) out[i] = (int16_t)saturate16((int64_t)nearbyint(exp(in[i] / 256.0 - max) / sum * 256.0));
}

int main(void) {
    static int16_t image[28 * 28], k1[5 * 5 * 6], b1[6], k2[5 * 5 * 6 * 16], b2[16], f1[256 * 32], fb1[32],
        f2[32 * 10], fb2[10];
    static int16_t c1[24 * 24 * 6], p1[12 * 12 * 6], c2[8 * 8 * 16], p2[4 * 4 * 16], h1[32], h2[10], expected[10];
    int16_t result[10];
    vx_uint32 d_in[] = {28, 28, 1}, d_k1[] = {5, 5, 1, 6}, d_b1[] = {6}, d_k2[] = {5, 5, 6, 16}, d_b2[] = {16};
    vx_uint32 d_f1[] = {4, 4, 16, 32}, d_fb1[] = {32}, d_f2[] = {32, 10}, d_fb2[] = {10}, d_out[] = {10};
    vx_uint32 d_c1[] = {24, 24, 6}, d_p1[] = {12, 12, 6}, d_c2[] = {8, 8, 16}, d_p2[] = {4, 4, 16};
    vx_uint32 d_h[] = {32}, d_logits[] = {10};
    vx_uint32 out_stride[] = {2};
    size_t i;
    int mismatches = 0, best = 0;
    vx_uint32 refs_before = 0, refs_after = 0;
    const vx_enum sat = VX_CONVERT_POLICY_SATURATE, even = VX_ROUND_POLICY_TO_NEAREST_EVEN;
    const vx_enum fl = VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR;
    const vx_enum relu_fn = VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, max_pool = VX_CONVOLUTIONAL_NETWORK_POOLING_MAX;

    for (i = 0; i < sizeof image / 2; ++i) image[i] = next_value(0, 256);
    for (i = 0; i < sizeof k1 / 2; ++i) k1[i] = next_value(-96, 96);
    for (i = 0; i < sizeof b1 / 2; ++i) b1[i] = next_value(-64, 64);
    for (i = 0; i < sizeof k2 / 2; ++i) k2[i] = next_value(-32, 32);
    for (i = 0; i < sizeof b2 / 2; ++i) b2[i] = next_value(-64, 64);
    for (i = 0; i < sizeof f1 / 2; ++i) f1[i] = next_value(-24, 24);
    for (i = 0; i < sizeof fb1 / 2; ++i) fb1[i] = next_value(-64, 64);
    for (i = 0; i < sizeof f2 / 2; ++i) f2[i] = next_value(-48, 48);
    for (i = 0; i < sizeof fb2 / 2; ++i) fb2[i] = next_value(-64, 64);

    {
        vx_context context = vxCreateContext();
        vx_graph graph;
        vx_tensor in, wk1, wb1, wk2, wb2, wf1, wfb1, wf2, wfb2, out;
        vx_tensor v[9];
        vx_node nodes[10];
        vx_tensor_addressing addr;
        int n = 0, k;
        CHECK_STATUS(vxGetStatus((vx_reference)context));
        vxRegisterLogCallback(context, print_log, vx_false_e);
        CHECK_STATUS(vxQueryContext(context, VX_CONTEXT_REFERENCES, &refs_before, sizeof refs_before));
        graph = vxCreateGraph(context);
        in = tensor_with(context, 3, d_in, image);
        wk1 = tensor_with(context, 4, d_k1, k1);
        wb1 = tensor_with(context, 1, d_b1, b1);
        wk2 = tensor_with(context, 4, d_k2, k2);
        wb2 = tensor_with(context, 1, d_b2, b2);
        wf1 = tensor_with(context, 4, d_f1, f1);
        wfb1 = tensor_with(context, 1, d_fb1, fb1);
        wf2 = tensor_with(context, 2, d_f2, f2);
        wfb2 = tensor_with(context, 1, d_fb2, fb2);
        out = tensor_with(context, 1, d_out, NULL);
        v[0] = vxCreateVirtualTensor(graph, 3, d_c1, VX_TYPE_INT16, 8);
        v[1] = vxCreateVirtualTensor(graph, 3, d_c1, VX_TYPE_INT16, 8);
        v[2] = vxCreateVirtualTensor(graph, 3, d_p1, VX_TYPE_INT16, 8);
        v[3] = vxCreateVirtualTensor(graph, 3, d_c2, VX_TYPE_INT16, 8);
        v[4] = vxCreateVirtualTensor(graph, 3, d_c2, VX_TYPE_INT16, 8);
        v[5] = vxCreateVirtualTensor(graph, 3, d_p2, VX_TYPE_INT16, 8);
        v[6] = vxCreateVirtualTensor(graph, 1, d_h, VX_TYPE_INT16, 8);
        v[7] = vxCreateVirtualTensor(graph, 1, d_h, VX_TYPE_INT16, 8);
        v[8] = vxCreateVirtualTensor(graph, 1, d_logits, VX_TYPE_INT16, 8);
        nodes[n++] = vxConvolutionLayer(graph, in, wk1, wb1, 0, 0, 32, sat, even, fl, v[0]);
        nodes[n++] = vxActivationLayer(graph, v[0], relu_fn, 0, 0, v[1]);
        nodes[n++] = vxPoolingLayer(graph, v[1], max_pool, 2, 2, 0, 0, fl, v[2]);
        nodes[n++] = vxConvolutionLayer(graph, v[2], wk2, wb2, 0, 0, 32, sat, even, fl, v[3]);
        nodes[n++] = vxActivationLayer(graph, v[3], relu_fn, 0, 0, v[4]);
        nodes[n++] = vxPoolingLayer(graph, v[4], max_pool, 2, 2, 0, 0, fl, v[5]);
        nodes[n++] = vxFullyConnectedLayer(graph, v[5], wf1, wfb1, 0, 32, sat, even, fl, v[6]);
        nodes[n++] = vxActivationLayer(graph, v[6], relu_fn, 0, 0, v[7]);
        nodes[n++] = vxFullyConnectedLayer(graph, v[7], wf2, wfb2, 0, 32, sat, even, fl, v[8]);
        nodes[n++] = vxSoftmaxLayer(graph, v[8], out);
        for (k = 0; k < n; ++k) CHECK_STATUS(vxGetStatus((vx_reference)nodes[k]));
        CHECK_STATUS(vxVerifyGraph(graph));
        CHECK_STATUS(vxProcessGraph(graph));
        addr = vxCreateTensorAddressing(context, d_out, out_stride, 1);
        CHECK_STATUS(vxCopyTensorPatch(out, NULL, addr, result, VX_READ_ONLY, VX_MEMORY_TYPE_HOST));
        CHECK_STATUS(vxReleaseTensorAddressing(&addr));
        for (k = 0; k < n; ++k) CHECK_STATUS(vxReleaseNode(&nodes[k]));
        for (k = 0; k < 9; ++k) CHECK_STATUS(vxReleaseTensor(&v[k]));
        CHECK_STATUS(vxReleaseTensor(&in));
        CHECK_STATUS(vxReleaseTensor(&wk1));
        CHECK_STATUS(vxReleaseTensor(&wb1));
        CHECK_STATUS(vxReleaseTensor(&wk2));
        CHECK_STATUS(vxReleaseTensor(&wb2));
        CHECK_STATUS(vxReleaseTensor(&wf1));
        CHECK_STATUS(vxReleaseTensor(&wfb1));
        CHECK_STATUS(vxReleaseTensor(&wf2));
        CHECK_STATUS(vxReleaseTensor(&wfb2));
        CHECK_STATUS(vxReleaseTensor(&out));
        CHECK_STATUS(vxReleaseGraph(&graph));
        CHECK_STATUS(vxQueryContext(context, VX_CONTEXT_REFERENCES, &refs_after, sizeof refs_after));
        CHECK_STATUS(vxReleaseContext(&context));
    }

    /* The same network with plain loops (weights of the fully connected layers are [in, out]
     * with the input index fastest, i.e. row j of out holds its inputs contiguously). */
    conv_valid(image, 28, 28, 1, k1, b1, 5, 6, c1);
    relu(c1, 24 * 24 * 6);
    pool2(c1, 24, 24, 6, p1);
    conv_valid(p1, 12, 12, 6, k2, b2, 5, 16, c2);
    relu(c2, 8 * 8 * 16);
    pool2(c2, 8, 8, 16, p2);
    fully_connected(p2, 256, f1, fb1, 32, h1);
    relu(h1, 32);
    fully_connected(h1, 32, f2, fb2, 10, h2);
    softmax(h2, 10, expected);

    for (i = 0; i < 10; ++i) {
        if (result[i] != expected[i]) ++mismatches;
        if (result[i] > result[best]) best = (int)i;
        printf("class %d: %6.4f (raw %d, expected %d)\n", (int)i, result[i] / 256.0, result[i], expected[i]);
    }
    printf("predicted class %d; %d mismatches; references %u before, %u after\n", best, mismatches, refs_before,
           refs_after);
    return mismatches == 0 && refs_before == refs_after ? 0 : 1;
}
