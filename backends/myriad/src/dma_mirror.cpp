// dma_mirror.cpp -- proving DMA companion transactions to be mirrors and rewriting the body to
// the global regions (see dma_mirror.h): the companions' and the body's checks, and the
// generated OpenCL C.
#include "dma_mirror.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "c_tokens.h"
#include "dma_prelude.h"
#include "kernel_source.h"

namespace myriad {
namespace {

bool is_assignment(const std::string& op) {
    return op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=" ||
           op == "&=" || op == "|=" || op == "^=" || op == "<<=" || op == ">>=";
}

/// The braces of a kernel's definition: offsets of its '{' and of the matching '}'.
std::pair<std::size_t, std::size_t> definition_braces(const std::string& text,
                                                      const KernelSignature& sig) {
    int depth = 0;
    std::size_t open = text.find('(', sig.name_pos), i = open;
    for (; i < text.size(); ++i) {
        if (text[i] == '(') ++depth;
        if (text[i] == ')' && --depth == 0) break;
    }
    const std::size_t brace = text.find('{', i);
    depth = 0;
    for (i = brace; i < text.size(); ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) break;
    }
    return {brace, i};
}

const std::set<std::string>& uniform_builtins() {
    static const std::set<std::string> names = {"get_local_size",
                                                "get_global_size",
                                                "get_group_id",
                                                "get_num_groups",
                                                "get_global_offset",
                                                "get_work_dim",
                                                "sizeof",
                                                "min",
                                                "max",
                                                "mul24",
                                                "mad24"};
    return names;
}

const std::set<std::string>& type_names() {
    static const std::set<std::string> names = {"char",   "uchar",  "short",  "ushort", "int",
                                                "uint",   "long",   "ulong",  "half",   "float",
                                                "double", "size_t", "signed", "const",  "unsigned"};
    return names;
}

/// One transaction between a global region and a __local buffer of the body.
struct Transaction {
    bool to_local = true;
    std::size_t local_param = 0;        ///< position of the __local buffer among the parameters
    std::string element;                ///< its element type
    std::string global_base;            ///< the global side's pointer expression (companion names)
    std::vector<std::string> geometry;  ///< sw, dw, ss, ds, planes, sp, dp, size
};

/// A companion kernel proven to be nothing but transactions with work-group-uniform arguments.
struct Companion {
    KernelSignature sig;
    std::vector<Transaction> transactions;
};

class CompanionReader {
  public:
    /// `names`: the fused kernel's parameter names, by position, that the recorded expressions
    /// use in place of the companion's own.
    CompanionReader(const std::string& text, const KernelSignature& sig,
                    std::vector<std::string> names)
        : text_(text), sig_(sig), names_(std::move(names)) {
        for (std::size_t k = 0; k < sig.args.size(); ++k) position_[sig.args[k].name] = k;
    }

    std::optional<Companion> read(bool to_local) {
        const auto [open, close] = definition_braces(text_, sig_);
        t_ = tokenize(text_, open + 1, close);
        Companion c{sig_, {}};
        const std::string deferred = kDeferredDmaPrefix;
        for (std::size_t i = 0; i < t_.size();) {
            const std::string& name = t_[i].text;
            const bool stride = name == deferred + "WorkGroupDmaCreateStrideTransaction";
            const bool three_d = name == deferred + "WorkGroupDmaCreate3DTransaction";
            if ((!stride && !three_d) || i + 1 >= t_.size() || t_[i + 1].text != "(") return {};
            const std::size_t close_paren = closing(t_, i + 1);
            if (close_paren == std::string::npos || close_paren + 1 >= t_.size() ||
                t_[close_paren + 1].text != ";")
                return {};
            const auto args = arguments(t_, i + 1, close_paren);
            if (args.size() != (stride ? 8u : 11u)) return {};
            auto tr = transaction(args, to_local, stride);
            if (!tr) return {};
            c.transactions.push_back(*tr);
            i = close_paren + 2;
        }
        if (c.transactions.empty()) return {};
        return c;
    }

  private:
    /// Tokens [first, last) with the companion's parameters renamed to the fused kernel's.
    std::string text_of(std::size_t first, std::size_t last) const {
        std::string out;
        for (std::size_t i = first; i < last; ++i) {
            const auto it = t_[i].identifier ? position_.find(t_[i].text) : position_.end();
            out +=
                (i > first ? " " : "") + (it == position_.end() ? t_[i].text : names_[it->second]);
        }
        return out;
    }

    const KernelArg* param(const std::string& name) const {
        const auto it = position_.find(name);
        return it == position_.end() ? nullptr : &sig_.args[it->second];
    }

    /// No side effects, no work-item-dependent value, no pointer: the same in every work item.
    bool uniform(std::size_t first, std::size_t last) const {
        if (first >= last) return false;
        for (std::size_t i = first; i < last; ++i) {
            const Token& tok = t_[i];
            if (tok.identifier) {
                const bool call = i + 1 < last && t_[i + 1].text == "(";
                if (call) {
                    if (!uniform_builtins().count(tok.text)) return false;
                } else if (const KernelArg* p = param(tok.text)) {
                    if (p->is_pointer) return false;
                } else if (!type_names().count(tok.text)) {
                    return false;
                }
            } else if (is_assignment(tok.text) || tok.text == "++" || tok.text == "--" ||
                       tok.text == "." || tok.text == "->" || tok.text == "[" ||
                       tok.text[0] == '"' || tok.text[0] == '\'') {
                return false;
            }
        }
        return true;
    }

    std::optional<Transaction> transaction(
        const std::vector<std::pair<std::size_t, std::size_t>>& args, bool to_local,
        bool stride) const {
        // (src, dst, ...): the preload copies global -> local, the postwrite local -> global.
        const auto local_arg = to_local ? args[1] : args[0];
        const auto global_arg = to_local ? args[0] : args[1];
        if (local_arg.second != local_arg.first + 1) return {};
        const KernelArg* local = param(t_[local_arg.first].text);
        if (!local || !local->is_pointer || local->space != AddressSpace::local ||
            local->vector_width != 1)
            return {};
        // The global side: P or P + uniform, P a __global pointer of the same element type.
        const KernelArg* global = param(t_[global_arg.first].text);
        if (!global || !global->is_pointer || global->space != AddressSpace::global ||
            global->vector_width != 1 || global->scalar_type != local->scalar_type)
            return {};
        if (global_arg.second > global_arg.first + 1 &&
            (t_[global_arg.first + 1].text != "+" ||
             !uniform(global_arg.first + 2, global_arg.second)))
            return {};
        Transaction tr;
        tr.to_local = to_local;
        tr.local_param = position_.at(local->name);
        tr.element = local->scalar_type;
        tr.global_base = text_of(global_arg.first, global_arg.second);
        for (std::size_t k = 2; k < args.size(); ++k)
            if (!uniform(args[k].first, args[k].second)) return {};
        auto geometry = [&](std::size_t k) { return text_of(args[k].first, args[k].second); };
        if (stride)  // src_width, dst_width, src_stride, dst_stride, size: one plane
            tr.geometry = {geometry(2), geometry(3), geometry(4), geometry(5),
                           "1",         "0",         "0",         geometry(6)};
        else
            for (std::size_t k = 2; k < 10; ++k) tr.geometry.push_back(geometry(k));
        return tr;
    }

    const std::string& text_;
    const KernelSignature& sig_;
    std::vector<std::string> names_;
    std::map<std::string, std::size_t> position_;
    std::vector<Token> t_;
};

/// A mirrored __local buffer of the body.
struct Mirror {
    std::string name;     ///< the body's parameter name
    std::string element;  ///< element type
    bool read = true;     ///< preload (read by the body) or postwrite (written by the body)
};

/// The generated variables of a mirror: its global region's first byte and its geometry.
std::string base_var(const std::string& name) {
    return "__myriad_b_" + name;
}
std::string mirror_var(const std::string& name) {
    return "__myriad_m_" + name;
}

/// Rewrites the body's accesses to mirrored buffers into accesses of their global regions.
class BodyRewriter {
  public:
    BodyRewriter(const std::string& text, std::size_t open, std::size_t close,
                 const std::map<std::string, Mirror>& mirrors)
        : text_(text), mirrors_(mirrors), t_(tokenize(text, open + 1, close)) {}

    std::optional<std::string> run() {
        if (t_.empty()) return std::string();
        return rewrite(0, t_.size());
    }

    /// The preload mirrors read through `X[index]` (rather than vload_half).
    const std::set<std::string>& subscript_reads() const { return subscript_reads_; }

    bool names(const std::string& id) const {
        for (const Token& tok : t_)
            if (tok.identifier && tok.text == id) return true;
        return false;
    }

  private:
    std::string text_of(std::size_t first, std::size_t last) const {
        return first < last ? text_.substr(t_[first].begin, t_[last - 1].end - t_[first].begin)
                            : std::string();
    }

    const Mirror* mirror(std::size_t i) const {
        if (!t_[i].identifier) return nullptr;
        const auto it = mirrors_.find(t_[i].text);
        return it == mirrors_.end() ? nullptr : &it->second;
    }

    bool mentions_mirror(std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i < last; ++i)
            if (mirror(i)) return true;
        return false;
    }

    /// Whether token i starts a statement (so a store there may become a block).
    bool statement_start(std::size_t i) const {
        if (i == 0) return true;
        const std::string& prev = t_[i - 1].text;
        if (prev == ";" || prev == "{" || prev == "}" || prev == "else") return true;
        if (prev != ")") return false;
        int depth = 0;
        for (std::size_t k = i - 1;; --k) {
            if (t_[k].text == ")") ++depth;
            if (t_[k].text == "(" && --depth == 0)
                return k > 0 && (t_[k - 1].text == "if" || t_[k - 1].text == "for" ||
                                 t_[k - 1].text == "while");
            if (k == 0) return false;
        }
    }

    /// The store block: the index evaluated once, the store made where the element is in the
    /// mirrored region; outside it, the __local element would be read by no one (the body does
    /// not read the buffer, the postwrite copies the region only).
    static std::string store(const Mirror& m, const std::string& index, const std::string& global) {
        return "{ const ulong __myriad_k = (" + index + "); if (__myriad_k < " +
               mirror_var(m.name) + ".s1) " + global + " }";
    }

    std::optional<std::string> rewrite(std::size_t first, std::size_t last) {
        std::string out;
        std::size_t copied = first;  // tokens before `copied` are in `out`
        auto flush = [&](std::size_t upto) {
            if (upto > copied) {
                if (!out.empty()) out += ' ';
                out += text_of(copied, upto);
            }
        };
        auto emit = [&](const std::string& s) {
            if (!out.empty()) out += ' ';
            out += s;
        };
        for (std::size_t i = first; i < last;) {
            const Token& tok = t_[i];
            const bool call = i + 1 < last && t_[i + 1].text == "(";
            if (call && (tok.text == "vload_half" || tok.text == "vstore_half")) {
                const std::size_t close = closing(t_, i + 1);
                if (close == std::string::npos || close >= last) return {};
                const auto args = arguments(t_, i + 1, close);
                const auto& buffer = args.empty() ? std::make_pair(i, i) : args.back();
                const Mirror* m =
                    buffer.second == buffer.first + 1 ? mirror(buffer.first) : nullptr;
                if (!m) {  // not on a mirror: the arguments are scanned as they come
                    ++i;
                    continue;
                }
                const bool load = tok.text == "vload_half";
                if (load != m->read || args.size() != (load ? 2u : 3u)) return {};
                const auto index = args[load ? 0 : 1];
                if (mentions_mirror(index.first, index.second)) return {};
                const std::string idx = text_of(index.first, index.second);
                const std::string var = mirror_var(m->name), base = base_var(m->name);
                flush(i);
                if (load) {
                    emit("__myriad_mirror_vload_half(" + base + ", " + var + ", (" + idx + "))");
                    copied = i = close + 1;
                    continue;
                }
                if (!statement_start(i) || close + 1 >= last || t_[close + 1].text != ";")
                    return {};
                const auto value = rewrite(args[0].first, args[0].second);
                if (!value) return {};
                emit(store(*m, idx,
                           "vstore_half(" + *value + ", __myriad_mirror_offset(" + var +
                               ", (uint)__myriad_k), " + base + ");"));
                copied = i = close + 2;
                continue;
            }
            const Mirror* m = mirror(i);
            if (!m) {
                ++i;
                continue;
            }
            // X[index], as a value (preload mirrors) or as a whole store statement (postwrite).
            if (i + 1 >= last || t_[i + 1].text != "[") return {};
            const std::size_t close = closing(t_, i + 1);
            if (close == std::string::npos || close >= last) return {};
            if (mentions_mirror(i + 2, close)) return {};
            const std::string idx = text_of(i + 2, close);
            const std::string var = mirror_var(m->name), base = base_var(m->name);
            const std::string after = close + 1 < last ? t_[close + 1].text : std::string();
            if (m->read) {
                const std::string before = i > 0 ? t_[i - 1].text : std::string();
                if (before == "&" || before == "++" || before == "--" || before == "." ||
                    before == "->" || is_assignment(after) || after == "++" || after == "--" ||
                    after == "." || after == "[" || after == "->")
                    return {};
                if (i > 0 && t_[i - 1].identifier && before != "return") return {};
                flush(i);
                subscript_reads_.insert(m->name);
                emit("__myriad_mirror_read_" + m->name + "(" + base + ", " + var + ", (" + idx +
                     "))");
                copied = i = close + 1;
                continue;
            }
            if (!statement_start(i) || after != "=") return {};
            std::size_t end = close + 2;
            int depth = 0;
            for (; end < last; ++end) {
                const std::string& x = t_[end].text;
                if (x == "(" || x == "[" || x == "{") ++depth;
                if (x == ")" || x == "]" || x == "}") --depth;
                if (depth < 0 || (depth == 0 && x == ",")) return {};
                if (depth == 0 && x == ";") break;
            }
            if (end >= last || end == close + 2) return {};
            const auto value = rewrite(close + 2, end);
            if (!value) return {};
            flush(i);
            emit(store(*m, idx,
                       base + "[__myriad_mirror_offset(" + var + ", (uint)__myriad_k)] = (" +
                           *value + ");"));
            copied = i = end + 1;
        }
        flush(last);
        return out;
    }

    const std::string& text_;
    const std::map<std::string, Mirror>& mirrors_;
    std::vector<Token> t_;
    std::set<std::string> subscript_reads_;
};

/// The OpenCL C shared by every direct path. A mirror's geometry is a uint8 (kept in registers):
/// s0 the elements its global region spans (0: the transaction is no mirror), s1 its elements, s2
/// elements per plane (n), s3 line width (w), s4 and s5 the multipliers dividing by n and w (0
/// where no division is needed), s6 and s7 the global plane and line strides less n and w (two's
/// complement), all in elements. Element k = p*n + l*w + x of the __local buffer is element p*(s6 +
/// n) + l*(s7 + w) + x = k + p*s6 + l*s7 of the global region. The divisions are mul_hi by
/// floor(2^32 / d) + 1, exact for k * d < 2^32 (both below 65536); for a power of two the
/// multiplier needs no division. A read outside the
/// mirrored region reads an element of the region instead (the index truncated to 32 bits, then
/// clamped): the __local element there holds no defined value (only the transaction writes the
/// buffer), and the read stays in bounds without a branch. A store outside it is dropped.
std::string mirror_support() {
    return R"(
uint __myriad_reciprocal(uint d) {
  return (d & (d - 1u)) == 0u ? (1u << (1u + clz(d))) + 1u : 0xFFFFFFFFu / d + 1u;
}
uint8 __myriad_mirror_plan(ulong e, int to_local, ulong sw, ulong dw, ulong ss, ulong ds,
    ulong planes, ulong sp, ulong dp, ulong size) {
  const uint8 none = (uint8)(0u);
  sw /= e; dw /= e; ss /= e; ds /= e; sp /= e; dp /= e;
  const ulong size_n = size / e;
  if (sw != dw || sw == 0 || size_n == 0 || planes == 0 || size_n >= 65536 || planes >= 65536)
    return none;
  const ulong ls = to_local ? ds : ss, lp = to_local ? dp : sp;
  const ulong gs_l = to_local ? ss : ds, gp_l = to_local ? sp : dp;
  if (gs_l >= 0x80000000ul || gp_l >= 0x80000000ul) return none;
  // Lines wider than a plane hold the plane: one line of n.
  const uint n = (uint)size_n, w = (uint)min(sw, size_n), gs = (uint)gs_l, gp = (uint)gp_l;
  const uint np = (uint)planes, lpp = n <= w ? 1u : (n + w - 1) / w, total = n * np;
  if ((lpp > 1 && ls != w) || (np > 1 && lp != n) || total >= 65536) return none;
  const int lines_flat = lpp == 1 || gs == w;
  const int planes_flat = np == 1 || (lines_flat && gp == n);
  if ((!lines_flat && w < 2) || (!planes_flat && n < 2)) return none;
  // A postwrite's lines and planes must not overlap in the global region.
  if (!to_local && ((lpp > 1 && gs < w) || (np > 1 && gp < (ulong)(lpp - 1) * gs + w)))
    return none;
  const ulong extent = (ulong)(np - 1) * gp + (ulong)(lpp - 1) * gs + w;
  if (extent > 0xFFFFFFFFul) return none;
  return (uint8)((uint)extent, total, n, w, planes_flat ? 0u : __myriad_reciprocal(n),
                 lines_flat ? 0u : __myriad_reciprocal(w), gp - n, gs - w);
}
ulong __myriad_mirror_offset(uint8 m, uint k) {
  const uint p = mul_hi(k, m.s4);
  long offset = (long)k + (long)p * (int)m.s6;
  if (m.s5 != 0u) offset += (long)mul_hi(k - p * m.s2, m.s5) * (int)m.s7;
  return (ulong)offset;
}
int __myriad_regions_apart(const __global uchar* a, uint8 ma, ulong ea, const __global uchar* b,
    uint8 mb, ulong eb) {
  const ulong la = (ulong)a, lb = (ulong)b;
  return la + ea * ma.s0 <= lb || lb + eb * mb.s0 <= la;
}
float __myriad_mirror_vload_half(const __global half* restrict b, uint8 m, ulong k) {
  return vload_half(__myriad_mirror_offset(m, min((uint)k, m.s1 - 1u)), b);
}
)";
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
    return out;
}

}  // namespace

std::optional<MirrorPath> mirror_path(const std::string& text, const std::string& entry) {
    // Macros could reach the buffers unseen.
    if (has_directives_besides_pragma(text)) return {};
    const auto body = find_kernel(text, kFusedBodyPrefix + entry);
    if (!body) return {};
    std::vector<Companion> companions;
    for (const bool to_local : {true, false}) {
        const auto sig =
            find_kernel(text, (to_local ? "__dma_preload_" : "__dma_postwrite_") + entry);
        if (!sig) continue;
        if (sig->args.size() != body->args.size()) return {};
        std::vector<std::string> names;
        for (const KernelArg& a : body->args) names.push_back(a.name);
        auto companion = CompanionReader(text, *sig, names).read(to_local);
        if (!companion) return {};
        companions.push_back(std::move(*companion));
    }
    if (companions.empty()) return {};
    // Each mirrored buffer in one transaction only; the body's name for it.
    std::map<std::string, Mirror> mirrors;
    for (const Companion& c : companions)
        for (const Transaction& tr : c.transactions) {
            const KernelArg& local = body->args[tr.local_param];
            if (!local.is_pointer || local.space != AddressSpace::local ||
                local.scalar_type != tr.element || mirrors.count(local.name))
                return {};
            mirrors[local.name] = Mirror{local.name, tr.element, tr.to_local};
        }
    const auto [open, close] = definition_braces(text, *body);
    BodyRewriter rewriter(text, open, close, mirrors);
    for (const KernelArg& a : body->args)
        if (a.space == AddressSpace::global && rewriter.names(a.name)) return {};
    bool stores = false;
    for (const auto& entry_mirror : mirrors) stores = stores || !entry_mirror.second.read;
    if (stores)
        for (const char* sync :
             {"barrier", "work_group_barrier", "mem_fence", "read_mem_fence", "write_mem_fence"})
            if (rewriter.names(sync)) return {};
    const auto rewritten = rewriter.run();
    if (!rewritten) return {};

    MirrorPath path;
    path.definitions = mirror_support();
    std::vector<std::string> body_params, body_names, mirror_params, mirror_args;
    for (const KernelArg& a : body->args) {
        body_params.push_back(a.declaration);
        body_names.push_back(a.name);
    }
    for (const auto& entry_mirror : mirrors) {
        const Mirror& m = entry_mirror.second;
        // Typed and restrict: the regions written overlap no other region (checked before the
        // direct path is taken), so the compiler may batch loads across stores.
        const std::string pointer =
            (m.read ? "const __global " : "__global ") + m.element + "* restrict";
        mirror_params.push_back(pointer + " " + base_var(m.name) + ", uint8 " + mirror_var(m.name));
        mirror_args.push_back("(" + std::string(m.read ? "const __global " : "__global ") +
                              m.element + "*)" + base_var(m.name) + ", " + mirror_var(m.name));
        if (rewriter.subscript_reads().count(m.name))
            path.definitions += m.element + " __myriad_mirror_read_" + m.name + "(" + pointer +
                                " b, uint8 m, ulong k) {\n  return b[__myriad_mirror_offset(m, "
                                "min((uint)k, m.s1 - 1u))];\n}\n";
    }
    // The transactions' geometries, recorded instead of copied, in the fused kernel's names.
    std::vector<std::string> conditions;
    std::vector<const Transaction*> all;
    for (const Companion& c : companions)
        for (const Transaction& tr : c.transactions) {
            all.push_back(&tr);
            const std::string& local = body->args[tr.local_param].name;
            path.plan += "  const __global uchar* const " + base_var(local) +
                         " = (const __global uchar*)(" + tr.global_base + ");\n";
            path.plan += "  const uint8 " + mirror_var(local) + " = __myriad_mirror_plan(sizeof(" +
                         tr.element + "), " + (tr.to_local ? "1" : "0");
            for (const std::string& g : tr.geometry) path.plan += ", (" + g + ")";
            path.plan += ");\n";
            conditions.push_back(mirror_var(local) + ".s0");
        }
    // Regions written must not overlap any other region.
    for (std::size_t a = 0; a < all.size(); ++a)
        for (std::size_t b = a + 1; b < all.size(); ++b) {
            if (all[a]->to_local && all[b]->to_local) continue;
            const std::string& x = body->args[all[a]->local_param].name;
            const std::string& y = body->args[all[b]->local_param].name;
            conditions.push_back("__myriad_regions_apart(" + base_var(x) + ", " + mirror_var(x) +
                                 ", sizeof(" + all[a]->element + "), " + base_var(y) + ", " +
                                 mirror_var(y) + ", sizeof(" + all[b]->element + "))");
        }
    path.condition = joined(conditions, " && ");
    const std::string direct = "__myriad_direct_" + entry;
    path.definitions += "void " + direct + "(" + joined(body_params, ", ") + ", " +
                        joined(mirror_params, ", ") + ") {\n" + *rewritten + "\n}\n";
    path.direct_call =
        direct + "(" + joined(body_names, ", ") + ", " + joined(mirror_args, ", ") + ");";
    return path;
}

}  // namespace myriad
