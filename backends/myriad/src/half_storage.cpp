// half_storage.cpp -- promoting half arithmetic to float while __global/__constant half buffers
// stay half (see half_storage.h): a small OpenCL C tokenizer and a rewriter of the accesses.
#include "half_storage.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "dma_prelude.h"
#include "kernel_source.h"

namespace myriad {
namespace {

enum class Tok { space, ident, number, literal, punct, directive };

struct Token {
    Tok kind;
    std::string text;
};

bool ident_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::vector<Token> tokenize(const std::string& s) {
    static const char* const three[] = {"<<=", ">>="};
    static const char* const two[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=",
                                      "<=", ">=", "&&", "||", "++", "--", "->", "<<", ">>", "##"};
    std::vector<Token> out;
    std::size_t i = 0;
    bool line_start = true;
    while (i < s.size()) {
        const char c = s[i];
        const std::size_t b = i;
        if (std::isspace(static_cast<unsigned char>(c))) {
            while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) {
                if (s[i] == '\n') line_start = true;
                ++i;
            }
            out.push_back({Tok::space, s.substr(b, i - b)});
            continue;
        }
        if (c == '#' && line_start) {
            while (i < s.size() && s[i] != '\n') i += s[i] == '\\' && i + 1 < s.size() ? 2 : 1;
            out.push_back({Tok::directive, s.substr(b, i - b)});
            continue;
        }
        line_start = false;
        if (ident_start(c)) {
            while (i < s.size() && ident_char(s[i])) ++i;
            out.push_back({Tok::ident, s.substr(b, i - b)});
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < s.size() &&
                    std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            while (i < s.size()) {
                const char d = s[i];
                if ((d == '+' || d == '-') &&
                    (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))
                    ++i;
                else if (ident_char(d) || d == '.')
                    ++i;
                else
                    break;
            }
            out.push_back({Tok::number, s.substr(b, i - b)});
        } else if (c == '"' || c == '\'') {
            ++i;
            while (i < s.size() && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
            i = std::min(s.size(), i + 1);
            out.push_back({Tok::literal, s.substr(b, i - b)});
        } else {
            std::size_t len = 1;
            for (const char* op : three)
                if (s.compare(i, 3, op) == 0) len = 3;
            if (len == 1)
                for (const char* op : two)
                    if (s.compare(i, 2, op) == 0) len = 2;
            i += len;
            out.push_back({Tok::punct, s.substr(b, len)});
        }
    }
    return out;
}

/// Width of `half` / `halfN` (0 when the identifier is neither).
int half_width(const std::string& id) {
    if (id == "half") return 1;
    for (int w : {2, 3, 4, 8, 16})
        if (id == "half" + std::to_string(w)) return w;
    return 0;
}

bool is_address_space(const std::string& id) {
    return id == "__global" || id == "global" || id == "__constant" || id == "constant" ||
           id == "__local" || id == "local";
}

/// "__global", "__constant" or "__local" for an address-space keyword.
std::string canonical_space(const std::string& id) {
    return id.front() == '_' ? id : "__" + id;
}

bool is_qualifier(const std::string& id) {
    return id == "const" || id == "volatile" || id == "restrict" || id == "__restrict" ||
           id == "__restrict__";
}

bool is_assignment(const std::string& op) {
    return op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=" ||
           op == "&=" || op == "|=" || op == "^=" || op == "<<=" || op == ">>=";
}

struct StoragePointer {
    int width = 1;
    std::string space = "__global";  ///< __global, __constant or __local
    std::size_t begin = 0, end = 0;  ///< tokens where the declaration is in scope
};

/// The vload/vstore family member an identifier names: prefix ("vload", "vstore_half", ...).
struct VectorAccess {
    bool load = false;
    bool half_form = false;  ///< vload_half*/vstore_half* (else vloadN/vstoreN)
};

std::optional<VectorAccess> vector_access(const std::string& id) {
    auto rest_is_width = [](const std::string& rest) {
        return rest.empty() || rest == "2" || rest == "3" || rest == "4" || rest == "8" ||
               rest == "16";
    };
    auto strip_rounding = [](std::string rest) {
        for (const char* mode : {"_rte", "_rtz", "_rtp", "_rtn"})
            if (rest.size() >= 4 && rest.compare(rest.size() - 4, 4, mode) == 0)
                return rest.substr(0, rest.size() - 4);
        return rest;
    };
    for (const char* prefix : {"vloada_half", "vload_half"})
        if (id.rfind(prefix, 0) == 0 && rest_is_width(id.substr(std::string(prefix).size())))
            return VectorAccess{true, true};
    for (const char* prefix : {"vstorea_half", "vstore_half"})
        if (id.rfind(prefix, 0) == 0 &&
            rest_is_width(strip_rounding(id.substr(std::string(prefix).size()))))
            return VectorAccess{false, true};
    if (id.rfind("vload", 0) == 0 && id.size() > 5 && rest_is_width(id.substr(5)))
        return VectorAccess{true, false};
    if (id.rfind("vstore", 0) == 0 && id.size() > 6 && rest_is_width(id.substr(6)))
        return VectorAccess{false, false};
    return std::nullopt;
}

class Rewriter {
  public:
    explicit Rewriter(std::vector<Token> tokens) : t_(std::move(tokens)) {}

    std::optional<std::string> run() {
        classify();
        if (failed_) return std::nullopt;
        std::string out = emit(0, t_.size());
        if (failed_) return std::nullopt;
        return out;
    }

  private:
    std::vector<Token> t_;
    bool failed_ = false;
    std::map<std::string, std::vector<StoragePointer>> storage_;  ///< by name, each scope
    std::set<std::size_t> kept_half_;   ///< half tokens that stay (pointee of a buffer pointer)
    std::set<std::size_t> decl_names_;  ///< declarations of storage pointers

    bool is(std::size_t i, const char* text) const {
        return i < t_.size() && t_[i].kind != Tok::space && t_[i].text == text;
    }
    std::size_t next(std::size_t i) const {
        ++i;
        while (i < t_.size() && t_[i].kind == Tok::space) ++i;
        return i;
    }
    std::size_t prev(std::size_t i) const {
        while (i > 0) {
            --i;
            if (t_[i].kind != Tok::space) return i;
        }
        return t_.size();
    }
    /// Index of the bracket closing the one at `open`, or t_.size().
    std::size_t closing(std::size_t open) const {
        int depth = 0;
        for (std::size_t i = open; i < t_.size(); ++i) {
            if (t_[i].kind != Tok::punct) continue;
            const std::string& x = t_[i].text;
            if (x == "(" || x == "[" || x == "{") ++depth;
            if ((x == ")" || x == "]" || x == "}") && --depth == 0) return i;
        }
        return t_.size();
    }
    /// End of the expression starting at `i`: the first ; , ) ] } at depth 0.
    std::size_t expression_end(std::size_t i) const {
        int depth = 0;
        for (; i < t_.size(); ++i) {
            if (t_[i].kind != Tok::punct) continue;
            const std::string& x = t_[i].text;
            if (x == "(" || x == "[" || x == "{") {
                ++depth;
            } else if (x == ")" || x == "]" || x == "}") {
                if (depth == 0) return i;
                --depth;
            } else if ((x == ";" || x == ",") && depth == 0) {
                return i;
            }
        }
        return i;
    }
    /// The storage pointer token i names (in scope of its declaration), or nullptr.
    const StoragePointer* storage_at(std::size_t i) const {
        if (i >= t_.size() || t_[i].kind != Tok::ident || decl_names_.count(i)) return nullptr;
        const auto found = storage_.find(t_[i].text);
        if (found == storage_.end()) return nullptr;
        for (const StoragePointer& sp : found->second)
            if (sp.begin <= i && i < sp.end) return &sp;
        return nullptr;
    }
    bool is_storage(std::size_t i) const { return storage_at(i) != nullptr; }
    /// Tokens where a declaration at `name` is in scope: a parameter's function (parameter list
    /// and body), a local's enclosing block from the declaration on, else the whole source.
    std::pair<std::size_t, std::size_t> scope_of(std::size_t name) const {
        int depth = 0;
        for (std::size_t k = name; k-- > 0;) {
            if (t_[k].kind != Tok::punct) continue;
            const std::string& x = t_[k].text;
            if (x == ")" || x == "]" || x == "}") {
                ++depth;
            } else if (x == "(" || x == "[" || x == "{") {
                if (depth > 0) {
                    --depth;
                    continue;
                }
                if (x == "{") return {name, closing(k)};
                if (x == "(") {
                    std::size_t body = closing(k);
                    while (body < t_.size() && !is(body, "{") && !is(body, ";")) ++body;
                    if (is(body, "{")) return {k, closing(body)};
                    return {k, body};  // a prototype: its own parameter list
                }
                return {name, t_.size()};
            }
        }
        return {0, t_.size()};
    }
    /// True when [b, e) names a storage pointer or casts to one.
    bool range_has_storage(std::size_t b, std::size_t e) const {
        for (std::size_t i = b; i < e && i < t_.size(); ++i)
            if (is_storage(i) || kept_half_.count(i)) return true;
        return false;
    }
    /// Top-level comma-separated arguments of the call whose '(' is at `open`: [begin, end) pairs.
    std::vector<std::pair<std::size_t, std::size_t>> call_args(std::size_t open) const {
        std::vector<std::pair<std::size_t, std::size_t>> args;
        const std::size_t close = closing(open);
        std::size_t b = open + 1;
        while (b < close) {
            const std::size_t e = expression_end(b);
            args.emplace_back(b, e);
            b = e + 1;
        }
        return args;
    }

    void classify() {
        bool any_half = false, any_struct = false;
        for (std::size_t i = 0; i < t_.size(); ++i) {
            const Token& tok = t_[i];
            if (tok.kind != Tok::ident) continue;
            if (tok.text == "struct" || tok.text == "union") any_struct = true;
            if (tok.text == "typedef") {
                for (std::size_t k = i; k < t_.size() && !is(k, ";"); ++k)
                    if (t_[k].kind == Tok::ident && half_width(t_[k].text)) failed_ = true;
            }
            const int width = half_width(tok.text);
            if (!width) continue;
            any_half = true;
            // sizeof(half) stays 2, the size of the half buffers.
            if (is(prev(i), "(") && is(prev(prev(i)), "sizeof") && is(next(i), ")")) {
                if (width != 1) failed_ = true;
                kept_half_.insert(i);
                continue;
            }
            // Pointee of a __global/__constant/__local pointer, or element of a __local (or
            // program-scope) array: an address space among the qualifiers around it, then '*'
            // or a name followed by '['.
            std::string space;
            for (std::size_t k = prev(i);
                 k < t_.size() && t_[k].kind == Tok::ident &&
                 (is_address_space(t_[k].text) || is_qualifier(t_[k].text));
                 k = prev(k))
                if (is_address_space(t_[k].text)) space = canonical_space(t_[k].text);
            std::size_t n = next(i);
            while (n < t_.size() && t_[n].kind == Tok::ident &&
                   (is_qualifier(t_[n].text) || is_address_space(t_[n].text))) {
                if (is_address_space(t_[n].text)) space = canonical_space(t_[n].text);
                n = next(n);
            }
            if (space.empty()) continue;
            std::size_t name = n;
            if (is(n, "*")) {
                name = next(n);
                while (name < t_.size() && t_[name].kind == Tok::ident &&
                       is_qualifier(t_[name].text))
                    name = next(name);
                if (is(name, "*")) failed_ = true;  // pointer to pointer
            } else if (!(n < t_.size() && t_[n].kind == Tok::ident && is(next(n), "["))) {
                continue;  // a scalar in __local memory: promoted like private data
            }
            if (width == 3) failed_ = true;  // half3 pointers step by 4 elements
            kept_half_.insert(i);
            if (name < t_.size() && t_[name].kind == Tok::ident) {
                const auto scope = scope_of(name);
                if (storage_at(name)) failed_ = true;  // redeclared where an earlier one is seen
                storage_[t_[name].text].push_back(
                    StoragePointer{width, space, scope.first, scope.second});
                decl_names_.insert(name);
            }
        }
        if (any_half && any_struct) failed_ = true;
        // Macros could hide half, address spaces or accesses through a buffer pointer.
        for (const Token& tok : t_) {
            if (tok.kind != Tok::directive) continue;
            for (const Token& inner : tokenize(tok.text.substr(1)))
                if (inner.kind == Tok::ident &&
                    (half_width(inner.text) || is_address_space(inner.text) ||
                     storage_.count(inner.text)))
                    failed_ = true;
        }
    }

    std::string load(const StoragePointer& sp, const std::string& name,
                     const std::string& index) const {
        if (sp.width == 1) return "vload_half(" + index + ", " + name + ")";
        return "vload_half" + std::to_string(sp.width) + "(" + index + ", (const " + sp.space +
               " half*)" + name + ")";
    }
    std::string store(const StoragePointer& sp, const std::string& name, const std::string& index,
                      const std::string& value) const {
        if (sp.width == 1)
            return "vstore_half((float)(" + value + "), " + index + ", " + name + ")";
        return "vstore_half" + std::to_string(sp.width) + "(" + value + ", " + index + ", (" +
               sp.space + " half*)" + name + ")";
    }
    /// A write may only be a statement of its own (vstore_half has no value).
    bool statement_position(std::size_t first) const {
        const std::size_t p = prev(first);
        return p >= t_.size() || is(p, ";") || is(p, "{") || is(p, "}") || is(p, ")") ||
               is(p, "else") || is(p, "do") || is(p, ",");
    }
    bool has_side_effects(std::size_t b, std::size_t e) const {
        for (std::size_t i = b; i < e; ++i)
            if (t_[i].kind == Tok::punct &&
                (t_[i].text == "++" || t_[i].text == "--" || is_assignment(t_[i].text)))
                return true;
        return false;
    }

    /// Rewrites an access to storage pointer `name` at element [ib, ie) (tokens; empty = 0)
    /// whose last token is `last`; `first` is where the access starts. Appends to `out`,
    /// returns the index to continue from.
    std::size_t access(std::size_t at, std::size_t first, std::size_t ib, std::size_t ie,
                       std::size_t last, std::string& out) {
        const StoragePointer& sp = *storage_at(at);
        const std::string& name = t_[at].text;
        const std::string index = ib == ie ? "0" : "(" + emit(ib, ie) + ")";
        const std::size_t a = next(last);
        if (a < t_.size() && t_[a].kind == Tok::punct) {
            const std::string& op = t_[a].text;
            if (op == "++" || op == "--" || op == "." || op == "->" || op == "[") {
                failed_ = true;
                return a;
            }
            if (is_assignment(op)) {
                if (!statement_position(first) || (op != "=" && has_side_effects(ib, ie))) {
                    failed_ = true;
                    return a;
                }
                const std::size_t end = expression_end(a + 1);
                std::string value = emit(a + 1, end);
                if (op != "=")
                    value = load(sp, name, index) + " " + op.substr(0, op.size() - 1) + " (" +
                            value + ")";
                out += store(sp, name, index, value);
                return end;
            }
        }
        out += "(" + load(sp, name, index) + ")";
        return last + 1;
    }

    std::string emit(std::size_t b, std::size_t e) {
        std::string out;
        std::size_t i = b;
        while (i < e && !failed_) {
            const Token& tok = t_[i];
            if (tok.kind == Tok::directive) {
                const bool fp16_pragma = tok.text.find("pragma") != std::string::npos &&
                                         tok.text.find("cl_khr_fp16") != std::string::npos;
                if (!fp16_pragma) out += tok.text;
                ++i;
                continue;
            }
            if (tok.kind == Tok::punct && (tok.text == "*" || tok.text == "&")) {
                // Unary * or & on a storage pointer (after an operator, '(' or ',' or at the
                // start).
                const std::size_t p = prev(i);
                const bool unary = p >= t_.size() ||
                                   (t_[p].kind == Tok::punct && !is(p, ")") && !is(p, "]")) ||
                                   is(p, "return");
                const std::size_t n = next(i);
                if (unary && tok.text == "*" && is_storage(n) && n < e) {
                    if (is(next(n), "[")) {
                        failed_ = true;
                        break;
                    }
                    i = access(n, i, n, n, n, out);
                    continue;
                }
                if (unary && tok.text == "*" && is(n, "(") && range_has_storage(n, closing(n))) {
                    failed_ = true;
                    break;
                }
                if (unary && tok.text == "&" && is_storage(n) && is(next(n), "[")) {
                    const std::size_t open = next(n), close = closing(open);
                    out += "(" + t_[n].text + " + (" + emit(open + 1, close) + "))";
                    i = close + 1;
                    continue;
                }
                out += tok.text;
                ++i;
                continue;
            }
            if (tok.kind != Tok::ident) {
                out += tok.text;
                ++i;
                continue;
            }
            if (const int width = half_width(tok.text)) {
                out += kept_half_.count(i) ? tok.text
                       : width == 1        ? "float"
                                           : "float" + std::to_string(width);
                ++i;
                continue;
            }
            if (is_storage(i)) {
                const std::size_t p = prev(i);
                if (is(p, "++") || is(p, "--")) {
                    // Pointer increment (++p) is fine; ++p[i] is not.
                    if (is(next(i), "[")) {
                        failed_ = true;
                        break;
                    }
                }
                const std::size_t n = next(i);
                if (is(n, "[")) {
                    const std::size_t close = closing(n);
                    i = access(i, i, n + 1, close, close, out);
                    continue;
                }
                out += tok.text;
                ++i;
                continue;
            }
            const std::size_t open = next(i);
            if (is(open, "(")) {
                const auto args = call_args(open);
                if (const auto va = vector_access(tok.text)) {
                    const bool storage =
                        !args.empty() && range_has_storage(args.back().first, args.back().second);
                    if (va->half_form)
                        out += storage ? tok.text : promote_half(tok.text);
                    else
                        out += storage ? (va->load ? "vload_half" + tok.text.substr(5)
                                                   : "vstore_half" + tok.text.substr(6))
                                       : tok.text;
                    ++i;
                    continue;
                }
                if ((tok.text == "async_work_group_copy" ||
                     tok.text == "async_work_group_strided_copy") &&
                    args.size() >= 2 && range_has_storage(open, closing(open))) {
                    out += "__myriad_" + tok.text;
                    ++i;
                    continue;
                }
            }
            out += promote_half(tok.text);
            ++i;
        }
        return out;
    }
};

}  // namespace

std::optional<std::string> promote_half_keep_storage(const std::string& stripped) {
    return Rewriter(tokenize(stripped)).run();
}

std::string half_storage_prelude() {
    // Half buffers move as ushort (same size, no arithmetic): the DMA builtins and async copies
    // on half pointers call their ushort forms (async copies keep the builtin's events).
    std::string p = "// Copies of half data, as ushort.\n";
    const std::string ovl = "__attribute__((overloadable)) ";
    struct Direction {
        std::string dst, src, dst_u, src_u;
    };
    const Direction directions[] = {
        {"__local half*", "const __global half*", "(__local ushort*)", "(const __global ushort*)"},
        {"__global half*", "const __local half*", "(__global ushort*)", "(const __local ushort*)"},
    };
    for (const Direction& d : directions) {
        const std::string dst = d.dst_u + "dst", src = d.src_u + "src";
        p += "event_t " + ovl + "__myriad_async_work_group_copy(" + d.dst + " dst, " + d.src +
             " src, size_t n, event_t event) {\n  return async_work_group_copy(" + dst + ", " +
             src + ", n, event);\n}\n";
        p += "event_t " + ovl + "__myriad_async_work_group_strided_copy(" + d.dst + " dst, " +
             d.src +
             " src, size_t n, size_t stride, event_t event) {\n"
             "  return async_work_group_strided_copy(" +
             dst + ", " + src + ", n, stride, event);\n}\n";
        p += "event_t " + ovl + "async_work_group_copy_2D2D(" + d.dst + " dst, " + d.src +
             " src, size_t num_elements_per_line, size_t num_lines, size_t src_line_stride, "
             "size_t dst_line_stride, event_t event) {\n  return async_work_group_copy_2D2D(" +
             dst + ", " + src +
             ", num_elements_per_line, num_lines, src_line_stride, dst_line_stride, event);\n}\n";
        p += "event_t " + ovl + "async_work_group_copy_3D3D(" + d.dst + " dst, " + d.src +
             " src, size_t num_elements_per_line, size_t num_lines, size_t src_line_stride, "
             "size_t dst_line_stride, size_t num_planes, size_t src_plane_stride, "
             "size_t dst_plane_stride, event_t event) {\n  return async_work_group_copy_3D3D(" +
             dst + ", " + src +
             ", num_elements_per_line, num_lines, src_line_stride, dst_line_stride, num_planes, "
             "src_plane_stride, dst_plane_stride, event);\n}\n";
        // The manual-DMA transactions take the source first (deferred forms for companions).
        for (const std::string& prefix : {std::string(), std::string(kDeferredDmaPrefix)}) {
            p += "event_t " + ovl + prefix + "WorkGroupDmaCreateStrideTransaction(" + d.src +
                 " src, " + d.dst +
                 " dst, size_t src_width, size_t dst_width, size_t src_stride, "
                 "size_t dst_stride, size_t size, event_t event) {\n  return " +
                 prefix + "WorkGroupDmaCreateStrideTransaction(" + src + ", " + dst +
                 ", src_width, dst_width, src_stride, dst_stride, size, event);\n}\n";
            p += "event_t " + ovl + prefix + "WorkGroupDmaCreate3DTransaction(" + d.src + " src, " +
                 d.dst +
                 " dst, size_t src_width, size_t dst_width, size_t src_stride, "
                 "size_t dst_stride, size_t num_planes, size_t src_plane_stride, "
                 "size_t dst_plane_stride, size_t size, event_t event) {\n  return " +
                 prefix + "WorkGroupDmaCreate3DTransaction(" + src + ", " + dst +
                 ", src_width, dst_width, src_stride, dst_stride, num_planes, "
                 "src_plane_stride, dst_plane_stride, size, event);\n}\n";
        }
    }
    return p;
}

std::optional<std::string> program_text_half_storage(const std::string& source_text,
                                                     const std::string& entry, bool direct_dma,
                                                     const LaunchConstants* launch) {
    const std::string stripped = strip_comments(source_text);
    const auto text = promote_half_keep_storage(stripped);
    if (!text) return std::nullopt;
    std::string fused = fuse_dma_companions(*text, entry, direct_dma);
    const LaunchConstants* fixed = dma_launch_constants(stripped, launch);
    if (fixed) fused = fold_dma_geometry(std::move(fused), entry, *fixed);
    std::string prelude = myriad_prelude(false, true, has_fused_companions(fused),
                                         fixed ? fixed->local : std::nullopt);
    prelude.insert(prelude.rfind("#line 1\n"), half_storage_prelude());
    return prelude + fused;
}

}  // namespace myriad
