// dma_prelude.cpp -- the manual-DMA work-group transactions as OpenCL C (see dma_prelude.h).
#include "dma_prelude.h"

namespace myriad {
namespace {
constexpr int kBatch = 8;  ///< loads each work item has in flight in a row copy
}  // namespace

std::string dma_transactions(const DmaPair& pair) {
    const std::string ovl = "__attribute__((overloadable)) ";
    const std::string rows = "__myriad_dma_rows_" + pair.tag;
    const std::string scatter = "__myriad_dma_scatter_" + pair.tag;
    const std::string copy = "__myriad_dma_copy_" + pair.tag;
    const std::string args = "(" + pair.dst + " dst, " + pair.src + " src, ";
    const std::string& t = pair.element;
    // kBatch elements at src[s(k)] loaded before being stored at dst[d(k)]: the loads are in
    // flight together.
    auto batch = [&](const std::string& d, const std::string& s) {
        std::string b = "        ";
        for (int k = 0; k < kBatch; ++k) {
            const std::string kk = std::to_string(k);
            b += "const " + t + " v" + kk + " = src[" + s + "(" + kk + ")]; ";
        }
        b += "\n        ";
        for (int k = 0; k < kBatch; ++k) {
            const std::string kk = std::to_string(k);
            b += "dst[" + d + "(" + kk + ")] = v" + kk + "; ";
        }
        return b + "\n";
    };
    const std::string last = std::to_string(kBatch - 1), step = std::to_string(kBatch);
    std::string p;
    // `rows` rows of up to w elements; row r is line r % lpp of plane r / lpp and holds
    // min(w, n - line * w) elements. Narrow rows: each item owns one column of several rows.
    p += "#define __MYRIAD_NARROW_S(k) ((r + (k) * per) * sp + x)\n"
         "#define __MYRIAD_NARROW_D(k) ((r + (k) * per) * dp + x)\n"
         "#define __MYRIAD_WIDE_S(k) (so + x + (k) * lsize)\n"
         "#define __MYRIAD_WIDE_D(k) (dO + x + (k) * lsize)\n";
    p += "void " + rows + args +
         "uint w, uint n, uint lpp, uint rows, size_t ss, size_t ds, size_t sp, size_t dp) {\n"
         "  const uint lsize = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));\n"
         "  const uint lid = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
         "get_local_size(1) * get_local_id(2)));\n"
         "  if (w <= lsize) {\n"
         "    const uint per = lsize / w, x = lid % w;\n"
         "    if (lid >= per * w) return;\n"
         "    uint r = lid / w;\n"
         "    if (lpp == 1) {\n"
         "      if (x >= n) return;\n"
         "      for (; r + " +
         last + " * per < rows; r += " + step + " * per) {\n" +
         batch("__MYRIAD_NARROW_D", "__MYRIAD_NARROW_S") +
         "      }\n"
         "      for (; r < rows; r += per) dst[r * dp + x] = src[r * sp + x];\n"
         "      return;\n"
         "    }\n"
         "    for (; r < rows; r += per) {\n"
         "      const uint plane = r / lpp, line = r - plane * lpp;\n"
         "      if (line * w + x < n) dst[plane * dp + line * ds + x] = src[plane * sp + line * ss "
         "+ x];\n"
         "    }\n"
         "  } else {\n"
         "    for (uint r = 0; r < rows; ++r) {\n"
         "      const uint plane = r / lpp, line = r - plane * lpp;\n"
         "      const uint len = min(w, n - line * w);\n"
         "      const size_t so = plane * sp + line * ss, dO = plane * dp + line * ds;\n"
         "      uint x = lid;\n"
         "      for (; x + " +
         last + " * lsize < len; x += " + step + " * lsize) {\n" +
         batch("__MYRIAD_WIDE_D", "__MYRIAD_WIDE_S") +
         "      }\n"
         "      for (; x < len; x += lsize) dst[dO + x] = src[so + x];\n"
         "    }\n"
         "  }\n"
         "}\n";
    // Differing line widths: element by element.
    p += "void " + scatter + args +
         "size_t sw, size_t dw, size_t ss, size_t ds, size_t n, size_t planes, size_t sp, "
         "size_t dp) {\n"
         "  const size_t lsize = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
         "  const size_t lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
         "get_local_size(1) * get_local_id(2));\n"
         "  for (size_t plane = 0; plane < planes; ++plane)\n"
         "    for (size_t k = lid; k < n; k += lsize)\n"
         "      dst[plane * dp + (k / dw) * ds + k % dw] = src[plane * sp + (k / sw) * ss + k % "
         "sw];\n"
         "}\n";
    // Widths, strides and sizes in elements; n elements per plane.
    p += "void " + copy + args +
         "size_t sw, size_t dw, size_t ss, size_t ds, size_t n, size_t planes, size_t sp, "
         "size_t dp) {\n"
         "  if (sw == 0 || dw == 0 || n == 0 || planes == 0) return;\n"
         "  if (sw == ss && dw == ds) {\n"
         "    if (sp == n && dp == n) " +
         rows +
         "(dst, src, (uint)(n * planes), (uint)(n * planes), 1u, 1u, 0, 0, 0, 0);\n"
         "    else " +
         rows +
         "(dst, src, (uint)n, (uint)n, 1u, (uint)planes, 0, 0, sp, dp);\n"
         "  } else if (sw == dw) {\n"
         "    const uint lpp = (uint)((n + sw - 1) / sw);\n"
         "    " +
         rows +
         "(dst, src, (uint)sw, (uint)n, lpp, lpp * (uint)planes, ss, ds, sp, dp);\n"
         "  } else {\n"
         "    " +
         scatter +
         "(dst, src, sw, dw, ss, ds, n, planes, sp, dp);\n"
         "  }\n"
         "}\n";
    // The transactions (bytes, as the seed defines them): the work items of the group copy
    // cooperatively, then meet at a barrier (into local memory, a local fence suffices).
    const std::string e = pair.element_bytes;
    const std::string fence = pair.dst.find("__local") != std::string::npos
                                  ? "CLK_LOCAL_MEM_FENCE"
                                  : "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE";
    p += "event_t " + ovl + "WorkGroupDmaCreateStrideTransaction(" + pair.src + " src, " +
         pair.dst +
         " dst, size_t src_width, size_t dst_width, size_t src_stride, size_t dst_stride, "
         "size_t size, event_t event) {\n"
         "  const size_t e = " +
         e + ";\n  " + copy +
         "(dst, src, src_width / e, dst_width / e, src_stride / e, dst_stride / e, size / e, 1, "
         "0, 0);\n"
         "  barrier(" +
         fence +
         ");\n"
         "  return event;\n}\n";
    p += "event_t " + ovl + "WorkGroupDmaCreate3DTransaction(" + pair.src + " src, " + pair.dst +
         " dst, size_t src_width, size_t dst_width, size_t src_stride, size_t dst_stride, "
         "size_t num_planes, size_t src_plane_stride, size_t dst_plane_stride, size_t size, "
         "event_t event) {\n"
         "  const size_t e = " +
         e + ";\n  " + copy +
         "(dst, src, src_width / e, dst_width / e, src_stride / e, dst_stride / e, size / e, "
         "num_planes, src_plane_stride / e, dst_plane_stride / e);\n"
         "  barrier(" +
         fence +
         ");\n"
         "  return event;\n}\n";
    return p;
}

}  // namespace myriad
