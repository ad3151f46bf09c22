// dma_prelude.cpp -- the manual-DMA work-group transactions as OpenCL C (see dma_prelude.h).
#include "dma_prelude.h"

#include <cctype>

namespace myriad {
namespace {

/// `pattern` with every "D" / "S" placeholder (whole words) replaced.
std::string instantiate(const std::string& pattern, const std::string& d, const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        const bool word_start = i == 0 || !(std::isalnum(static_cast<unsigned char>(pattern[i - 1])) ||
                                            pattern[i - 1] == '_');
        const bool word_end = i + 1 == pattern.size() ||
                              !(std::isalnum(static_cast<unsigned char>(pattern[i + 1])) ||
                                pattern[i + 1] == '_');
        if ((c == 'D' || c == 'S') && word_start && word_end)
            out += "(" + (c == 'D' ? d : s) + ")";
        else
            out += c;
    }
    return out;
}

}  // namespace

std::string dma_transactions(const DmaPair& pair) {
    const std::string move = pair.move.empty() ? "dst[D] = src[S];" : pair.move;
    const std::string ovl = "__attribute__((overloadable)) ";
    const std::string rows = "__myriad_dma_rows_" + pair.tag;
    const std::string scatter = "__myriad_dma_scatter_" + pair.tag;
    const std::string copy = "__myriad_dma_copy_" + pair.tag;
    const std::string args = "(" + pair.dst + " dst, " + pair.src + " src, ";
    std::string p;
    // `rows` rows of up to w elements; row r is line r % lpp of plane r / lpp and holds
    // min(w, n - line * w) elements. Narrow rows: each item owns one column of several rows.
    p += "void " + rows + args +
         "uint w, uint n, uint lpp, uint rows, size_t ss, size_t ds, size_t sp, size_t dp) {\n"
         "  const uint lsize = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));\n"
         "  const uint lid = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
         "get_local_size(1) * get_local_id(2)));\n"
         "  if (w <= lsize) {\n"
         "    const uint per = lsize / w, x = lid % w;\n"
         "    if (lid >= per * w) return;\n"
         "    for (uint r = lid / w; r < rows; r += per) {\n"
         "      const uint plane = r / lpp, line = r - plane * lpp;\n"
         "      if (line * w + x < n) { " +
         instantiate(move, "plane * dp + line * ds + x", "plane * sp + line * ss + x") +
         " }\n"
         "    }\n"
         "  } else {\n"
         "    for (uint r = 0; r < rows; ++r) {\n"
         "      const uint plane = r / lpp, line = r - plane * lpp;\n"
         "      const uint len = min(w, n - line * w);\n"
         "      const size_t so = plane * sp + line * ss, dO = plane * dp + line * ds;\n"
         "      for (uint x = lid; x < len; x += lsize) { " +
         instantiate(move, "dO + x", "so + x") +
         " }\n"
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
         "    for (size_t k = lid; k < n; k += lsize) { " +
         instantiate(move, "plane * dp + (k / dw) * ds + k % dw",
                     "plane * sp + (k / sw) * ss + k % sw") +
         " }\n"
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
    // cooperatively, then meet at a barrier.
    const std::string e = pair.element_bytes;
    p += "event_t " + ovl + "WorkGroupDmaCreateStrideTransaction(" + pair.src + " src, " +
         pair.dst +
         " dst, size_t src_width, size_t dst_width, size_t src_stride, size_t dst_stride, "
         "size_t size, event_t event) {\n"
         "  const size_t e = " +
         e + ";\n  " + copy +
         "(dst, src, src_width / e, dst_width / e, src_stride / e, dst_stride / e, size / e, 1, "
         "0, 0);\n"
         "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
         "  return event;\n}\n";
    p += "event_t " + ovl + "WorkGroupDmaCreate3DTransaction(" + pair.src + " src, " + pair.dst +
         " dst, size_t src_width, size_t dst_width, size_t src_stride, size_t dst_stride, "
         "size_t num_planes, size_t src_plane_stride, size_t dst_plane_stride, size_t size, "
         "event_t event) {\n"
         "  const size_t e = " +
         e + ";\n  " + copy +
         "(dst, src, src_width / e, dst_width / e, src_stride / e, dst_stride / e, size / e, "
         "num_planes, src_plane_stride / e, dst_plane_stride / e);\n"
         "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
         "  return event;\n}\n";
    return p;
}

}  // namespace myriad
