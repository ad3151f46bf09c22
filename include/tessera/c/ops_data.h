/* tessera/c/ops_data.h: parameter structs of the data-movement ops (see tessera/c/ops.h).
 * Plain C99; every struct starts with uint32_t struct_size and only grows at the end; enum
 * values are ABI (append only). Axes may be negative (counted from the end, numpy style).
 * Except resize_bilinear, these ops move raw elements and work for every dtype; inputs that are
 * combined (concat) must agree in dtype and quantisation. */
#ifndef TESSERA_C_OPS_DATA_H
#define TESSERA_C_OPS_DATA_H

#include <stdint.h>

#include "tessera/c/tensor_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Concat: inputs 1..n of equal rank, dtype and quantisation, equal dims except `axis`. */
typedef struct tsr_concat_params {
    uint32_t struct_size;
    int32_t axis;
} tsr_concat_params;

/* Permute: output dim i is input dim order[i] (numpy transpose); order[0..rank) must be a
 * permutation of the input's dims, rank == input rank. */
typedef struct tsr_permute_params {
    uint32_t struct_size;
    int32_t rank;
    int32_t order[TSR_MAX_DIMS];
} tsr_permute_params;

/* Transpose: swaps dims dim_a and dim_b (OpenVX); the default (-2, -1) transposes the
 * matrices in the last two dims (CLML transpose of an M x N matrix). Input rank >= 2. */
typedef struct tsr_transpose_params {
    uint32_t struct_size;
    int32_t dim_a;
    int32_t dim_b;
} tsr_transpose_params;

/* Reshape: same elements in row-major order, new dims. One entry may be -1 (inferred); the
 * element count must be preserved. */
typedef struct tsr_reshape_params {
    uint32_t struct_size;
    int32_t rank;
    int64_t dims[TSR_MAX_DIMS];
} tsr_reshape_params;

/* DCR (depth, column, row; CLML, TensorFlow): out[n][c][h*b+i][w*b+j] = in[n][(i*b+j)*C'+c][h][w];
 * CRD (column, row, depth; ONNX mode CRD): out[n][c][h*b+i][w*b+j] = in[n][c*b*b+i*b+j][h][w],
 * with C' = C / (b*b). */
typedef enum tsr_depth_to_space_mode {
    TSR_DEPTH_TO_SPACE_DCR = 0,
    TSR_DEPTH_TO_SPACE_CRD = 1
} tsr_depth_to_space_mode;

/* DepthToSpace: input N,C,H,W (rank 4) -> N, C/(b*b), H*b, W*b. */
typedef struct tsr_depth_to_space_params {
    uint32_t struct_size;
    int32_t block_size; /* b >= 1; C must be divisible by b*b */
    int32_t mode;       /* tsr_depth_to_space_mode, default DCR */
} tsr_depth_to_space_params;

/* ResizeBilinear: input N,C,H,W (rank 4) -> N,C,out_h,out_w. The output size is out_h/out_w
 * when > 0, else floor(H*scale_h) / floor(W*scale_w). The interpolation uses the sizes:
 * align_corners: src = dst*(in-1)/(out-1); half_pixel_centers: src = (dst+0.5)*in/out-0.5;
 * neither: src = dst*in/out. Both set is invalid. Source coordinates are clamped to [0, in-1].
 * Integer tensors are interpolated on real values, rounded to nearest even and saturated. */
typedef struct tsr_resize_bilinear_params {
    uint32_t struct_size;
    int32_t align_corners;      /* bool */
    int32_t half_pixel_centers; /* bool */
    int64_t out_h;
    int64_t out_w;
    float scale_h;
    float scale_w;
} tsr_resize_bilinear_params;

/* Pad modes, numbered as CLML numbers them. For a dim of extent n and a position p outside it:
 * REFLECT mirrors without repeating the edge (pad <= n-1): "dcb|abcd|cba";
 * SYMMETRIC mirrors repeating the edge (pad <= n): "cba|abcd|dcb"; EDGE repeats the edge. */
typedef enum tsr_pad_mode {
    TSR_PAD_CONSTANT = 0,
    TSR_PAD_REFLECT = 1,
    TSR_PAD_SYMMETRIC = 2,
    TSR_PAD_EDGE = 3
} tsr_pad_mode;

/* Pad: out dim i = before[i] + in dim i + after[i]; entries past the input's rank must be 0,
 * paddings are >= 0. `value` (TSR_PAD_CONSTANT) is a real number stored in the output's dtype. */
typedef struct tsr_pad_params {
    uint32_t struct_size;
    int32_t mode; /* tsr_pad_mode */
    int64_t before[TSR_MAX_DIMS];
    int64_t after[TSR_MAX_DIMS];
    double value;
} tsr_pad_params;

/* Fill: no inputs; one output described by `output` (dims, dtype, quantisation; the layout is
 * ignored: row-major) with every element equal to the real number `value`. */
typedef struct tsr_fill_params {
    uint32_t struct_size;
    tsr_tensor_desc output;
    double value;
} tsr_fill_params;

/* TableLookup (OpenVX): inputs src and lut (rank 1), both u8 or both i16, compared raw:
 * out = lut[src + offset] for an index inside the table, else src unchanged. Without an explicit
 * offset (has_offset == 0) it is OpenVX's: 0 for u8, count/2 for i16. */
typedef struct tsr_table_lookup_params {
    uint32_t struct_size;
    int32_t has_offset; /* bool */
    int32_t offset;
} tsr_table_lookup_params;

/* Slice: for each dim i < rank (the input's rank), the elements start[i], start[i] + step[i], ...
 * up to but excluding end[i] (numpy). Negative start/end count from the end of the dim; both are
 * then clamped: to [0, n] for step > 0 and to [-1, n - 1] for step < 0 (ONNX Slice); step != 0.
 * The default (start 0, end INT64_MAX, step 1) keeps a dim whole. */
typedef struct tsr_slice_params {
    uint32_t struct_size;
    int32_t rank;
    int64_t start[TSR_MAX_DIMS];
    int64_t end[TSR_MAX_DIMS];
    int64_t step[TSR_MAX_DIMS];
} tsr_slice_params;

/* Gather: inputs data and indices (i32, any shape; negative counts from the end of the dim);
 * out = data with dim `axis` replaced by the indices' dims (numpy take). An index outside
 * [-n, n) is an error when the op runs. */
typedef struct tsr_gather_params {
    uint32_t struct_size;
    int32_t axis; /* negative counts from the end */
} tsr_gather_params;

/* GatherElements: inputs data and indices (i32 or i64, data's rank, each dim other than `axis`
 * at most data's; negative counts from the end of `axis`); out[i] = data[i with its `axis`
 * coordinate replaced by indices[i]] (ONNX GatherElements, numpy take_along_axis), the
 * indices' dims. An index outside [-n, n) is an error when the op runs. */
typedef struct tsr_gather_elements_params {
    uint32_t struct_size;
    int32_t axis; /* negative counts from the end */
} tsr_gather_elements_params;

/* Expand: input src broadcast (numpy, both ways) against dims[0..rank): the output shape is the
 * broadcast of src's shape and dims (ONNX Expand). */
typedef struct tsr_expand_params {
    uint32_t struct_size;
    int32_t rank;
    int64_t dims[TSR_MAX_DIMS];
} tsr_expand_params;

/* Tile: out dim i = repeats[i] * in dim i (rank = the input's rank; repeats >= 0), the input
 * repeated along each dim (ONNX Tile, numpy tile). */
typedef struct tsr_tile_params {
    uint32_t struct_size;
    int32_t rank;
    int64_t repeats[TSR_MAX_DIMS];
} tsr_tile_params;

#ifdef __cplusplus
}
#endif
#endif
