// kernel_source.cpp -- signature parsing and source rewriting of Myriad-style OpenCL C.
#include "kernel_source.h"

#include <cctype>

#include "c_tokens.h"
#include "dma_mirror.h"
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

std::string myriad_prelude(bool native_half, bool promoted, bool fused_companions,
                           const std::optional<std::array<std::size_t, 3>>& local) {
    const WorkGroupShape group = work_group_shape(local);
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
    for (const std::string& t : types) {
        for (const std::string direction : {"g2l", "l2g"}) {
            const bool to_local = direction == "g2l";
            const std::string dst = to_local ? "__local " + t + "*" : "__global " + t + "*";
            const std::string src =
                to_local ? "const __global " + t + "*" : "const __local " + t + "*";
            // Sixteen loads in flight measured 1.15x the plain kernel's time against 1.24x for
            // eight in the fused DMA GRN of bench_myriad on an H100 (with the register cap of
            // Runtime::State::build_options); elsewhere eight keep register use lower.
            p += dma_builtins(DmaPair{t + "_" + direction, t, src, dst, "sizeof(" + t + ")",
                                      direction, fused_companions ? 16 : 8, group});
        }
    }
    p += untyped_async_copies();
    p += "#line 1\n";
    return p;
}

namespace {

/// The companion kernel `name`'s transactions in their deferred forms (the fused kernel's
/// barrier after the preload, or the kernel's end after the postwrite, completes them, as the
/// VPU's runtime does). Returns false when there is no such kernel.
bool defer_transactions(std::string& text, const std::string& name) {
    const auto sig = find_kernel(text, name);
    if (!sig) return false;
    const std::size_t open = text.find('(', sig->name_pos);
    const std::size_t params_end = matching_paren(text, open);
    const std::size_t body = text.find('{', params_end);
    int depth = 0;
    std::size_t end = body;
    for (; end < text.size(); ++end) {
        if (text[end] == '{') ++depth;
        if (text[end] == '}' && --depth == 0) break;
    }
    const std::string region = text.substr(body, end - body);
    std::string renamed;
    std::size_t copied = 0;
    for_each_identifier(region, [&](std::size_t b, std::size_t e) {
        const std::string id = region.substr(b, e - b);
        if (id != "WorkGroupDmaCreateStrideTransaction" && id != "WorkGroupDmaCreate3DTransaction")
            return;
        renamed.append(region, copied, b - copied);
        renamed += kDeferredDmaPrefix + id;
        copied = e;
    });
    renamed.append(region, copied, std::string::npos);
    text.replace(body, end - body, renamed);
    return true;
}

}  // namespace

std::string fuse_dma_companions(const std::string& stripped, const std::string& entry,
                                bool direct) {
    if (!find_kernel(stripped, entry)) return stripped;
    std::string out = stripped;
    const bool preload = defer_transactions(out, "__dma_preload_" + entry);
    const bool postwrite = defer_transactions(out, "__dma_postwrite_" + entry);
    if (!preload && !postwrite) return stripped;
    const auto body = find_kernel(out, entry);
    const std::string body_name = kFusedBodyPrefix + entry;
    out.replace(body->name_pos, entry.size(), body_name);
    std::string params, names;
    for (const KernelArg& a : body->args) {
        params += (params.empty() ? "" : ", ") + a.declaration;
        names += (names.empty() ? "" : ", ") + a.name;
    }
    // Where every companion transaction is a mirror the body can use in place, the work group
    // runs the body on the global regions (no copies, no barriers), else the copies.
    const auto mirrors = direct ? mirror_path(out, entry) : std::nullopt;
    if (mirrors) out += "\n" + mirrors->definitions;
    out += "\n__kernel void " + entry + "(" + params + ") {\n";
    std::string copying;
    const std::string fence = "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
    if (preload) copying += "  __dma_preload_" + entry + "(" + names + ");\n" + fence;
    copying += "  " + body_name + "(" + names + ");\n";
    if (postwrite) copying += fence + "  __dma_postwrite_" + entry + "(" + names + ");\n";
    if (mirrors)
        out += mirrors->plan + "  if (" + mirrors->condition + ") {\n    " + mirrors->direct_call +
               "\n    return;\n  }\n";
    out += copying + "}\n";
    return out;
}

bool has_fused_companions(const std::string& program) {
    return program.find(kFusedBodyPrefix) != std::string::npos;
}

const LaunchConstants* dma_launch_constants(const std::string& stripped,
                                            const LaunchConstants* launch) {
    return launch && uses_dma_transactions(stripped) && !has_directives_besides_pragma(stripped)
               ? launch
               : nullptr;
}

std::string fold_dma_geometry(std::string fused, const std::string& entry,
                              const LaunchConstants& launch) {
    for (const std::string& kernel :
         {entry, kFusedBodyPrefix + entry, "__dma_preload_" + entry, "__dma_postwrite_" + entry})
        fold_transaction_geometry(fused, kernel, launch);
    return fused;
}

std::string program_text(const std::string& source_text, const std::string& entry, bool native_half,
                         bool promote, bool direct_dma, const LaunchConstants* launch) {
    const std::string stripped = strip_comments(source_text);
    std::string text =
        fuse_dma_companions(promote ? promote_half(stripped) : stripped, entry, direct_dma);
    const LaunchConstants* fixed = dma_launch_constants(stripped, launch);
    if (fixed) text = fold_dma_geometry(std::move(text), entry, *fixed);
    return myriad_prelude(native_half && !promote, promote, has_fused_companions(text),
                          fixed ? fixed->local : std::nullopt) +
           text;
}

}  // namespace myriad
