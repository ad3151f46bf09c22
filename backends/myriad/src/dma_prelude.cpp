// dma_prelude.cpp -- the Myriad copy builtins as OpenCL C (see dma_prelude.h).
#include "dma_prelude.h"

#include <utility>
#include <vector>

namespace myriad {
namespace {

/// `text` with every "$NAME" of `values` replaced (longest names first is the caller's care).
std::string substitute(std::string text,
                       const std::vector<std::pair<std::string, std::string>>& values) {
    for (const auto& [name, value] : values)
        for (std::size_t at = text.find(name); at != std::string::npos;
             at = text.find(name, at + value.size()))
            text.replace(at, name.size(), value);
    return text;
}

/// `text` once per k in [0, batch), "$k" replaced by k.
std::string unrolled(const std::string& text, int batch) {
    std::string out;
    for (int k = 0; k < batch; ++k) out += substitute(text, {{"$k", std::to_string(k)}});
    return out;
}

/// `rows` rows of up to w elements; row r is line r % lpp of plane r / lpp (line l of plane p
/// at p*sp + l*ss in the source, p*dp + l*ds in the destination) and holds min(w, n - l*w)
/// elements. Narrow rows (w <= group size): each work item owns one column of every per-th row;
/// one-line planes (the common case) go in batches of `batch` loads before their stores, at
/// addresses affine in the row. Wide rows: the group spreads over each row in turn, in batches.
std::string rows_function(const std::string& tag, const std::string& t, const std::string& src,
                          const std::string& dst, int batch, const WorkGroupShape& group) {
    std::string f =
        "void __myriad_dma_rows_$TAG($DST dst, $SRC src, uint w, uint n, uint lpp, uint rows, "
        "size_t ss, size_t ds, size_t sp, size_t dp) {\n"
        "  const uint lsize = $GROUP_SIZE;\n"
        "  const uint lid = $GROUP_ID;\n"
        "  if (w <= lsize) {\n"
        "    const uint per = lsize / w, x = lid % w;\n"
        "    if (lid >= per * w) return;\n"
        "    uint r = lid / w;\n"
        "    if (lpp == 1) {\n"
        "      if (x >= n) return;\n"
        "      for (; r + $IN_FLIGHTu * per < rows; r += $STEPu * per) {\n" +
        unrolled("        const $T v$k = src[(r + $ku * per) * sp + x];\n", batch) +
        unrolled("        dst[(r + $ku * per) * dp + x] = v$k;\n", batch) +
        "      }\n"
        "      for (; r < rows; r += per) dst[r * dp + x] = src[r * sp + x];\n"
        "      return;\n"
        "    }\n"
        "    for (; r < rows; r += per) {\n"
        "      const uint plane = r / lpp, line = r - plane * lpp;\n"
        "      if (line * w + x < n)\n"
        "        dst[plane * dp + line * ds + x] = src[plane * sp + line * ss + x];\n"
        "    }\n"
        "  } else {\n"
        "    for (uint r = 0; r < rows; ++r) {\n"
        "      const uint plane = r / lpp, line = r - plane * lpp;\n"
        "      const uint len = min(w, n - line * w);\n"
        "      const size_t so = plane * sp + line * ss, dO = plane * dp + line * ds;\n"
        "      uint x = lid;\n"
        "      for (; x + $IN_FLIGHTu * lsize < len; x += $STEPu * lsize) {\n" +
        unrolled("        const $T v$k = src[so + x + $ku * lsize];\n", batch) +
        unrolled("        dst[dO + x + $ku * lsize] = v$k;\n", batch) +
        "      }\n"
        "      for (; x < len; x += lsize) dst[dO + x] = src[so + x];\n"
        "    }\n"
        "  }\n"
        "}\n";
    return substitute(f, {{"$TAG", tag},
                          {"$T", t},
                          {"$SRC", src},
                          {"$DST", dst},
                          {"$IN_FLIGHT", std::to_string(batch - 1)},
                          {"$STEP", std::to_string(batch)},
                          {"$GROUP_SIZE", group.size},
                          {"$GROUP_ID", group.linear_id}});
}

}  // namespace

std::string dma_builtins(const DmaPair& pair) {
    const bool to_local = pair.direction == "g2l";
    // Into local memory a local fence suffices; out of it, global writes must be visible too.
    const std::string fence =
        to_local ? "CLK_LOCAL_MEM_FENCE" : "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE";
    std::string p =
        rows_function(pair.tag, pair.element, pair.src, pair.dst, pair.loads_in_flight, pair.group);
    // Differing line widths: element by element.
    p += "void __myriad_dma_scatter_$TAG($DST dst, $SRC src, size_t sw, size_t dw, size_t ss, "
         "size_t ds, size_t n, size_t planes, size_t sp, size_t dp) {\n"
         "  const size_t lsize = $GROUP_SIZE, lid = $GROUP_ID;\n"
         "  for (size_t plane = 0; plane < planes; ++plane)\n"
         "    for (size_t k = lid; k < n; k += lsize)\n"
         "      dst[plane * dp + (k / dw) * ds + k % dw] = src[plane * sp + (k / sw) * ss + k % "
         "sw];\n"
         "}\n";
    // Widths, strides and sizes in elements; n elements per plane. Contiguous lines make one row
    // per plane, contiguous planes one row in all. (16-byte accesses measured slower on an H200:
    // 48.6 against 45.0 us for the benchmark's DMA GRN.)
    p += "void __myriad_dma_copy_$TAG($DST dst, $SRC src, size_t sw, size_t dw, size_t ss, "
         "size_t ds, size_t n, size_t planes, size_t sp, size_t dp) {\n"
         "  if (sw == 0 || dw == 0 || n == 0 || planes == 0) return;\n"
         "  if (sw != dw) {\n"
         "    __myriad_dma_scatter_$TAG(dst, src, sw, dw, ss, ds, n, planes, sp, dp);\n"
         "    return;\n"
         "  }\n"
         "  size_t w = sw, lpp, rows;\n"
         "  if (sw == ss && dw == ds) {\n"
         "    if (sp == n && dp == n) { w = n * planes; sp = dp = w; planes = 1; }\n"
         "    else w = n;\n"
         "    n = w; lpp = 1; rows = planes; ss = ds = 0;\n"
         "  } else {\n"
         "    lpp = (n + w - 1) / w; rows = lpp * planes;\n"
         "    if (planes == 1) sp = dp = 0;\n"
         "  }\n"
         "  __myriad_dma_rows_$TAG(dst, src, (uint)w, (uint)n, (uint)lpp, (uint)rows, ss, ds, sp, "
         "dp);\n"
         "}\n";
    // The transactions (bytes, as the seed defines them); the deferred forms leave the barrier
    // to the fused companion kernel.
    for (const std::string& prefix : {std::string(), std::string(kDeferredDmaPrefix)}) {
        const std::string wait = prefix.empty() ? "  barrier($FENCE);\n" : "";
        p += "event_t $OVL" + prefix +
             "WorkGroupDmaCreateStrideTransaction($SRC src, $DST dst, size_t src_width, "
             "size_t dst_width, size_t src_stride, size_t dst_stride, size_t size, "
             "event_t event) {\n"
             "  const size_t e = $E;\n"
             "  __myriad_dma_copy_$TAG(dst, src, src_width / e, dst_width / e, src_stride / e, "
             "dst_stride / e, size / e, 1, 0, 0);\n" +
             wait + "  return event;\n}\n";
        p += "event_t $OVL" + prefix +
             "WorkGroupDmaCreate3DTransaction($SRC src, $DST dst, size_t src_width, "
             "size_t dst_width, size_t src_stride, size_t dst_stride, size_t num_planes, "
             "size_t src_plane_stride, size_t dst_plane_stride, size_t size, event_t event) {\n"
             "  const size_t e = $E;\n"
             "  __myriad_dma_copy_$TAG(dst, src, src_width / e, dst_width / e, src_stride / e, "
             "dst_stride / e, size / e, num_planes, src_plane_stride / e, "
             "dst_plane_stride / e);\n" +
             wait + "  return event;\n}\n";
    }
    // cl_khr_extended_async_copies as the Myriad toolchain declared it: element counts, line
    // and plane strides are the gaps (in elements) after each line / plane. The copy is done
    // when it returns; a zero-length builtin copy gives the event wait_group_events expects.
    p += "event_t $OVLasync_work_group_copy_2D2D($DST dst, $SRC src, size_t num_elements_per_line, "
         "size_t num_lines, size_t src_line_stride, size_t dst_line_stride, event_t event) {\n"
         "  const size_t w = num_elements_per_line;\n"
         "  __myriad_dma_copy_$TAG(dst, src, w, w, w + src_line_stride, w + dst_line_stride, "
         "w * num_lines, 1, 0, 0);\n"
         "  barrier($FENCE);\n"
         "  return async_work_group_copy(dst, src, 0, event);\n"
         "}\n"
         "event_t $OVLasync_work_group_copy_3D3D($DST dst, $SRC src, size_t num_elements_per_line, "
         "size_t num_lines, size_t src_line_stride, size_t dst_line_stride, size_t num_planes, "
         "size_t src_plane_stride, size_t dst_plane_stride, event_t event) {\n"
         "  const size_t w = num_elements_per_line, ss = w + src_line_stride, "
         "ds = w + dst_line_stride;\n"
         "  __myriad_dma_copy_$TAG(dst, src, w, w, ss, ds, w * num_lines, num_planes, "
         "num_lines * ss + src_plane_stride, num_lines * ds + dst_plane_stride);\n"
         "  barrier($FENCE);\n"
         "  return async_work_group_copy(dst, src, 0, event);\n"
         "}\n";
    return substitute(p, {{"$TAG", pair.tag},
                          {"$T", pair.element},
                          {"$SRC", pair.src},
                          {"$DST", pair.dst},
                          {"$E", pair.element_bytes},
                          {"$FENCE", fence},
                          {"$OVL", "__attribute__((overloadable)) "},
                          {"$GROUP_SIZE", pair.group.size},
                          {"$GROUP_ID", pair.group.linear_id}});
}

std::string untyped_async_copies() {
    // Element sizes of 1, 2, 4 and 8 bytes copy as uchar, ushort, uint, ulong; others as bytes.
    std::string p;
    for (const std::string dir : {"g2l", "l2g"}) {
        const std::string dst_space = dir == "g2l" ? "__local" : "__global";
        const std::string src_space = dir == "g2l" ? "__global" : "__local";
        std::string dispatch;
        for (const char* t : {"uchar", "ushort", "uint", "ulong"}) {
            const std::string ty = t;
            dispatch += "  if (b == sizeof(" + ty + ")) { __myriad_dma_copy_" + ty + "_" + dir +
                        "((" + dst_space + " " + ty + "*)dst + dst_offset, (const " + src_space +
                        " " + ty + "*)src + src_offset, $ARGS); } else\n";
        }
        dispatch += "  __myriad_dma_copy_uchar_" + dir + "((" + dst_space +
                    " uchar*)dst + dst_offset * b, (const " + src_space +
                    " uchar*)src + src_offset * b, $BYTE_ARGS);\n"
                    "  barrier(" +
                    (dir == "g2l" ? std::string("CLK_LOCAL_MEM_FENCE")
                                  : std::string("CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE")) +
                    ");\n"
                    "  return async_work_group_copy((" +
                    dst_space + " uchar*)dst, (const " + src_space + " uchar*)src, 0, event);\n";
        p += "event_t __attribute__((overloadable)) async_work_group_copy_2D2D(" + dst_space +
             " void* dst, size_t dst_offset, const " + src_space +
             " void* src, size_t src_offset, size_t num_bytes_per_element, "
             "size_t num_elements_per_line, size_t num_lines, size_t src_total_line_length, "
             "size_t dst_total_line_length, event_t event) {\n"
             "  const size_t b = num_bytes_per_element, w = num_elements_per_line;\n" +
             substitute(dispatch,
                        {{"$BYTE_ARGS",
                          "w * b, w * b, src_total_line_length * b, dst_total_line_length * b, "
                          "w * num_lines * b, 1, 0, 0"},
                         {"$ARGS",
                          "w, w, src_total_line_length, dst_total_line_length, w * num_lines, 1, "
                          "0, 0"}}) +
             "}\n";
        p += "event_t __attribute__((overloadable)) async_work_group_copy_3D3D(" + dst_space +
             " void* dst, size_t dst_offset, const " + src_space +
             " void* src, size_t src_offset, size_t num_bytes_per_element, "
             "size_t num_elements_per_line, size_t num_lines, size_t num_planes, "
             "size_t src_total_line_length, size_t src_total_plane_area, "
             "size_t dst_total_line_length, size_t dst_total_plane_area, event_t event) {\n"
             "  const size_t b = num_bytes_per_element, w = num_elements_per_line;\n" +
             substitute(dispatch,
                        {{"$BYTE_ARGS",
                          "w * b, w * b, src_total_line_length * b, dst_total_line_length * b, "
                          "w * num_lines * b, num_planes, src_total_plane_area * b, "
                          "dst_total_plane_area * b"},
                         {"$ARGS",
                          "w, w, src_total_line_length, dst_total_line_length, w * num_lines, "
                          "num_planes, src_total_plane_area, dst_total_plane_area"}}) +
             "}\n";
    }
    return p;
}

}  // namespace myriad
