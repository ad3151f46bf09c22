// ctc_greedy_decoder.cl -- CTCGreedyDecoder as a Myriad-style custom kernel. probabilities
// [T, N, C] (FYX), sequence_indicators [T, N] (BF), output [N, T, 1, 1]: per batch item the
// argmax class of each step while the indicator is non-zero, dropping the blank class (C-1) and,
// with merge_repeated, repeats; the rest is -1.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void ctc_greedy_decoder(__global const half* restrict probabilities,
                                 __global const half* restrict sequence_indicators,
                                 __global half* restrict output, int T, int N, int C,
                                 int merge_repeated)
{
    const int n = get_global_id(0);
    if (n >= N) return;
    int written = 0;
    int previous = -1;
    for (int t = 0; t < T; t++) {
        if ((float)sequence_indicators[t * N + n] == 0.0f) break;
        __global const half* restrict p = probabilities + (t * N + n) * C;
        int best = 0;
        float best_value = (float)p[0];
        for (int c = 1; c < C; c++) {
            const float v = (float)p[c];
            if (v > best_value) {
                best_value = v;
                best = c;
            }
        }
        if (best != C - 1 && !(merge_repeated && best == previous))
            output[n * T + written++] = (half)best;
        previous = best;
    }
    for (; written < T; written++) output[n * T + written] = (half)(-1.0f);
}
