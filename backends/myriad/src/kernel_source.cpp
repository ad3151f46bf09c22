// kernel_source.cpp -- signature parsing and source rewriting of Myriad-style OpenCL C.
#include "kernel_source.h"

#include <cctype>

#include "dma_prelude.h"
#include "text_utils.h"

namespace myriad {
namespace {

bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Calls fn(begin, end) for every identifier outside string and character literals.
template <typename Fn>
void for_each_identifier(const std::string& s, Fn&& fn) {
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '"' || c == '\'') {
            const char quote = c;
            ++i;
            while (i < s.size() && s[i] != quote && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
            ++i;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < s.size() && (is_ident_char(s[i]) || s[i] == '.')) ++i;
            continue;
        }
        if (is_ident_char(c)) {
            const std::size_t b = i;
            while (i < s.size() && is_ident_char(s[i])) ++i;
            fn(b, i);
            continue;
        }
        ++i;
    }
}

std::vector<std::string> identifiers_of(const std::string& s) {
    std::vector<std::string> ids;
    for_each_identifier(s,
                        [&](std::size_t b, std::size_t e) { ids.push_back(s.substr(b, e - b)); });
    return ids;
}

bool is_vector_width(const std::string& digits) {
    return digits == "2" || digits == "3" || digits == "4" || digits == "8" || digits == "16";
}

KernelArg parse_arg(const std::string& text) {
    KernelArg arg;
    arg.declaration = trim(text);
    arg.is_pointer = text.find('*') != std::string::npos;
    const std::vector<std::string> ids = identifiers_of(text);
    if (!ids.empty()) arg.name = ids.back();
    bool is_unsigned = false;
    for (std::size_t k = 0; k + 1 < ids.size(); ++k) {
        const std::string& id = ids[k];
        if (id == "__global" || id == "global")
            arg.space = AddressSpace::global;
        else if (id == "__local" || id == "local")
            arg.space = AddressSpace::local;
        else if (id == "__constant" || id == "constant")
            arg.space = AddressSpace::constant;
        else if (id == "unsigned")
            is_unsigned = true;
        else if (id == "const" || id == "restrict" || id == "__restrict" || id == "volatile" ||
                 id == "__private" || id == "private" || id == "signed" || id == "__read_only" ||
                 id == "__write_only" || id == "read_only" || id == "write_only")
            continue;
        else if (arg.scalar_type.empty()) {
            std::size_t d = id.size();
            while (d > 0 && std::isdigit(static_cast<unsigned char>(id[d - 1]))) --d;
            if (d < id.size() && is_vector_width(id.substr(d))) {
                arg.scalar_type = id.substr(0, d);
                arg.vector_width = std::stoi(id.substr(d));
            } else {
                arg.scalar_type = id;
            }
        }
    }
    if (is_unsigned) {
        if (arg.scalar_type.empty() || arg.scalar_type == "int")
            arg.scalar_type = "uint";
        else if (arg.scalar_type == "char" || arg.scalar_type == "short" ||
                 arg.scalar_type == "long")
            arg.scalar_type = "u" + arg.scalar_type;
    }
    return arg;
}

/// Offset just past the ')' matching the '(' at `open`, or npos.
std::size_t matching_paren(const std::string& s, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(')
            ++depth;
        else if (s[i] == ')' && --depth == 0)
            return i + 1;
    }
    return std::string::npos;
}

}  // namespace

std::string strip_comments(const std::string& source) {
    std::string out = source;
    std::size_t i = 0;
    while (i < out.size()) {
        if (out[i] == '"' || out[i] == '\'') {
            const char quote = out[i++];
            while (i < out.size() && out[i] != quote && out[i] != '\n') i += out[i] == '\\' ? 2 : 1;
            ++i;
        } else if (out.compare(i, 2, "//") == 0) {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
        } else if (out.compare(i, 2, "/*") == 0) {
            const std::size_t end = out.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
            for (; i < stop; ++i)
                if (out[i] != '\n') out[i] = ' ';
        } else {
            ++i;
        }
    }
    return out;
}

std::optional<KernelSignature> find_kernel(const std::string& stripped, const std::string& name) {
    std::optional<KernelSignature> found;
    for_each_identifier(stripped, [&](std::size_t b, std::size_t e) {
        if (found || stripped.compare(b, e - b, name) != 0 || e - b != name.size()) return;
        std::size_t p = e;
        while (p < stripped.size() && std::isspace(static_cast<unsigned char>(stripped[p]))) ++p;
        if (p >= stripped.size() || stripped[p] != '(') return;
        // The declaration starts after the previous ';', '}' or preprocessor line.
        std::size_t start = b;
        while (start > 0 && stripped[start - 1] != ';' && stripped[start - 1] != '}' &&
               stripped[start - 1] != '#' && stripped[start - 1] != '{')
            --start;
        bool is_kernel = false;
        for (const std::string& id : identifiers_of(stripped.substr(start, b - start)))
            if (id == "__kernel" || id == "kernel") is_kernel = true;
        if (!is_kernel) return;
        const std::size_t close = matching_paren(stripped, p);
        if (close == std::string::npos) return;
        // A definition, not a prototype: '{' follows (attributes may come in between).
        std::size_t q = close;
        while (q < stripped.size() && stripped[q] != '{' && stripped[q] != ';') ++q;
        if (q >= stripped.size() || stripped[q] != '{') return;
        KernelSignature sig;
        sig.name = name;
        sig.name_pos = b;
        const std::string params = stripped.substr(p + 1, close - p - 2);
        int depth = 0;
        std::size_t piece = 0;
        for (std::size_t i = 0; i <= params.size(); ++i) {
            if (i < params.size() && (params[i] == '(' || params[i] == '[')) ++depth;
            if (i < params.size() && (params[i] == ')' || params[i] == ']')) --depth;
            if (i == params.size() || (params[i] == ',' && depth == 0)) {
                const std::string text = trim(params.substr(piece, i - piece));
                if (!text.empty() && text != "void") sig.args.push_back(parse_arg(text));
                piece = i + 1;
            }
        }
        found = std::move(sig);
    });
    return found;
}

bool uses_half(const std::string& stripped) {
    bool any = false;
    for_each_identifier(stripped, [&](std::size_t b, std::size_t e) {
        const std::string id = stripped.substr(b, e - b);
        if (id.compare(0, 4, "half") == 0 && (id.size() == 4 || is_vector_width(id.substr(4))))
            any = true;
    });
    return any;
}

namespace {

/// The float spelling of one identifier, or "" when it stays.
std::string promoted_identifier(const std::string& id) {
    auto strip_rounding = [](std::string rest) {
        for (const char* mode : {"_rte", "_rtz", "_rtp", "_rtn"})
            if (rest.size() >= 4 && rest.compare(rest.size() - 4, 4, mode) == 0)
                return rest.substr(0, rest.size() - 4);
        return rest;
    };
    if (id == "half") return "float";
    if (id.compare(0, 4, "half") == 0 && is_vector_width(id.substr(4)))
        return "float" + id.substr(4);
    if (id.compare(0, 12, "convert_half") == 0) {
        std::string rest = id.substr(12);
        std::size_t d = 0;
        while (d < rest.size() && std::isdigit(static_cast<unsigned char>(rest[d]))) ++d;
        const std::string width = rest.substr(0, d);
        if (!width.empty() && !is_vector_width(width)) return "";
        std::string suffix = rest.substr(d);
        const std::size_t sat = suffix.find("_sat");
        if (sat != std::string::npos) suffix.erase(sat, 4);
        return "convert_float" + width + suffix;
    }
    for (const char* prefix : {"vload_half", "vloada_half"}) {
        const std::string p = prefix;
        if (id.compare(0, p.size(), p) != 0) continue;
        const std::string width = id.substr(p.size());
        if (width.empty()) return "__myriad_vload_half1";
        if (is_vector_width(width)) return "vload" + width;
    }
    for (const char* prefix : {"vstore_half", "vstorea_half"}) {
        const std::string p = prefix;
        if (id.compare(0, p.size(), p) != 0) continue;
        const std::string width = strip_rounding(id.substr(p.size()));
        if (width.empty()) return "__myriad_vstore_half1";
        if (is_vector_width(width)) return "vstore" + width;
    }
    return "";
}

}  // namespace

std::string promote_half(const std::string& stripped) {
    // Drop "#pragma OPENCL EXTENSION cl_khr_fp16 : enable" lines (keep the line count).
    std::string text;
    text.reserve(stripped.size());
    for (const std::string& line : split(stripped, '\n')) {
        const std::string t = trim(line);
        const bool fp16_pragma = t.compare(0, 1, "#") == 0 &&
                                 t.find("pragma") != std::string::npos &&
                                 t.find("cl_khr_fp16") != std::string::npos;
        text += fp16_pragma ? std::string() : line;
        text += '\n';
    }
    if (!text.empty()) text.pop_back();
    std::string out;
    out.reserve(text.size() + 64);
    std::size_t copied = 0;
    for_each_identifier(text, [&](std::size_t b, std::size_t e) {
        const std::string replacement = promoted_identifier(text.substr(b, e - b));
        if (replacement.empty()) return;
        out.append(text, copied, b - copied);
        out += replacement;
        copied = e;
    });
    out.append(text, copied, std::string::npos);
    return out;
}

std::string myriad_prelude(bool native_half, bool promoted) {
    std::string p = "// Myriad custom-layer prelude: portable forms of the VPU-only builtins.\n";
    if (native_half) p += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
    if (promoted) {
        p += "#define __myriad_vload_half1(offset, p) ((p)[(offset)])\n"
             "#define __myriad_vstore_half1(data, offset, p) ((p)[(offset)] = (data))\n"
             "#ifndef HALF_MAX\n#define HALF_MAX 65504.0f\n#endif\n"
             "#ifndef HALF_MIN\n#define HALF_MIN 6.103515625e-05f\n#endif\n"
             "#ifndef HALF_EPSILON\n#define HALF_EPSILON 9.765625e-04f\n#endif\n";
    }
    std::vector<std::string> types = {"uchar", "char", "short", "ushort", "int",
                                      "uint",  "long", "ulong", "float"};
    if (native_half) types.push_back("half");
    const std::string ovl = "__attribute__((overloadable)) ";
    for (const std::string& t : types) {
        for (int dir = 0; dir < 2; ++dir) {
            const std::string dst = dir == 0 ? "__local " + t + "*" : "__global " + t + "*";
            const std::string src =
                dir == 0 ? "const __global " + t + "*" : "const __local " + t + "*";
            // cl_khr_extended_async_copies as the Myriad toolchain declared it: element counts,
            // line and plane strides are the gaps (in elements) after each line / plane.
            p += "event_t " + ovl + "async_work_group_copy_2D2D(" + dst + " dst, " + src +
                 " src, size_t num_elements_per_line, size_t num_lines, size_t src_line_stride, "
                 "size_t dst_line_stride, event_t event) {\n"
                 "  for (size_t l = 0; l < num_lines; ++l)\n"
                 "    event = async_work_group_copy(dst + l * (num_elements_per_line + "
                 "dst_line_stride), src + l * (num_elements_per_line + src_line_stride), "
                 "num_elements_per_line, event);\n"
                 "  return event;\n}\n";
            p += "event_t " + ovl + "async_work_group_copy_3D3D(" + dst + " dst, " + src +
                 " src, size_t num_elements_per_line, size_t num_lines, size_t src_line_stride, "
                 "size_t dst_line_stride, size_t num_planes, size_t src_plane_stride, "
                 "size_t dst_plane_stride, event_t event) {\n"
                 "  const size_t src_plane = num_lines * (num_elements_per_line + src_line_stride) "
                 "+ src_plane_stride;\n"
                 "  const size_t dst_plane = num_lines * (num_elements_per_line + dst_line_stride) "
                 "+ dst_plane_stride;\n"
                 "  for (size_t k = 0; k < num_planes; ++k)\n"
                 "    event = async_work_group_copy_2D2D(dst + k * dst_plane, src + k * src_plane, "
                 "num_elements_per_line, num_lines, src_line_stride, dst_line_stride, event);\n"
                 "  return event;\n}\n";
            // The manual-DMA work-group transactions (widths, strides and sizes in bytes).
            const std::string tag = t + (dir == 0 ? "_g2l" : "_l2g");
            p += dma_transactions(DmaPair{tag, t, src, dst, "sizeof(" + t + ")"});
        }
    }
    // The ratified cl_khr_extended_async_copies form: untyped pointers, offsets and line lengths
    // in elements of num_bytes_per_element bytes (total line length / plane area = strides).
    for (int dir = 0; dir < 2; ++dir) {
        const std::string dst_space = dir == 0 ? "__local" : "__global";
        const std::string src_space = dir == 0 ? "__global" : "__local";
        p += "event_t " + ovl + "async_work_group_copy_2D2D(" + dst_space +
             " void* dst, size_t dst_offset, const " + src_space +
             " void* src, size_t src_offset, size_t num_bytes_per_element, "
             "size_t num_elements_per_line, size_t num_lines, size_t src_total_line_length, "
             "size_t dst_total_line_length, event_t event) {\n"
             "  const size_t b = num_bytes_per_element;\n"
             "  for (size_t l = 0; l < num_lines; ++l)\n"
             "    event = async_work_group_copy((" +
             dst_space +
             " uchar*)dst + (dst_offset + l * "
             "dst_total_line_length) * b, (const " +
             src_space +
             " uchar*)src + (src_offset + l * "
             "src_total_line_length) * b, num_elements_per_line * b, event);\n"
             "  return event;\n}\n";
        p += "event_t " + ovl + "async_work_group_copy_3D3D(" + dst_space +
             " void* dst, size_t dst_offset, const " + src_space +
             " void* src, size_t src_offset, size_t num_bytes_per_element, "
             "size_t num_elements_per_line, size_t num_lines, size_t num_planes, "
             "size_t src_total_line_length, size_t src_total_plane_area, "
             "size_t dst_total_line_length, size_t dst_total_plane_area, event_t event) {\n"
             "  for (size_t k = 0; k < num_planes; ++k)\n"
             "    event = async_work_group_copy_2D2D(dst, dst_offset + k * dst_total_plane_area, "
             "src, "
             "src_offset + k * src_total_plane_area, num_bytes_per_element, num_elements_per_line, "
             "num_lines, src_total_line_length, dst_total_line_length, event);\n"
             "  return event;\n}\n";
    }
    p += "#line 1\n";
    return p;
}

std::string fuse_dma_companions(const std::string& stripped, const std::string& entry) {
    const auto body = find_kernel(stripped, entry);
    const bool preload = find_kernel(stripped, "__dma_preload_" + entry).has_value();
    const bool postwrite = find_kernel(stripped, "__dma_postwrite_" + entry).has_value();
    if (!body || (!preload && !postwrite)) return stripped;
    std::string out = stripped;
    const std::string body_name = "__myriad_body_" + entry;
    out.replace(body->name_pos, entry.size(), body_name);
    std::string params, names;
    for (const KernelArg& a : body->args) {
        params += (params.empty() ? "" : ", ") + a.declaration;
        names += (names.empty() ? "" : ", ") + a.name;
    }
    out += "\n__kernel void " + entry + "(" + params + ") {\n";
    const std::string fence = "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
    if (preload) out += "  __dma_preload_" + entry + "(" + names + ");\n" + fence;
    out += "  " + body_name + "(" + names + ");\n";
    if (postwrite) out += fence + "  __dma_postwrite_" + entry + "(" + names + ");\n";
    out += "}\n";
    return out;
}

std::string program_text(const std::string& source_text, const std::string& entry, bool native_half,
                         bool promote) {
    const std::string stripped = strip_comments(source_text);
    const std::string text =
        fuse_dma_companions(promote ? promote_half(stripped) : stripped, entry);
    return myriad_prelude(native_half && !promote, promote) + text;
}

}  // namespace myriad
