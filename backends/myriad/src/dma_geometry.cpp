// dma_geometry.cpp -- host evaluation of DMA transaction arguments and their folding into the
// program text (see dma_geometry.h).
#include "dma_geometry.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "dma_prelude.h"
#include "kernel_source.h"

namespace myriad {
namespace {

using Value = std::optional<std::int64_t>;

/// Values from 0 to 2^31 - 1: there C's int, uint, long and size_t arithmetic agree.
constexpr std::int64_t kValueLimit = std::int64_t{1} << 31;

Value in_range(std::int64_t v) {
    return v >= 0 && v < kValueLimit ? Value(v) : std::nullopt;
}

/// Bytes of an OpenCL C scalar type whose size is the same on every device, else 0.
std::int64_t scalar_bytes(const std::string& t) {
    static const std::map<std::string, std::int64_t> sizes = {
        {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"half", 2},  {"int", 4},
        {"uint", 4}, {"float", 4}, {"long", 8},  {"ulong", 8},  {"double", 8}};
    const auto found = sizes.find(t);
    return found == sizes.end() ? 0 : found->second;
}

/// Bytes of a scalar or vector type name (a 3-vector takes the room of a 4-vector), else 0.
std::int64_t type_bytes(const std::string& t) {
    std::size_t digits = t.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(t[digits - 1]))) --digits;
    const std::int64_t element = scalar_bytes(t.substr(0, digits));
    if (digits == t.size()) return element;
    const std::string width = t.substr(digits);
    if (width == "3") return 4 * element;
    if (width == "2" || width == "4" || width == "8" || width == "16")
        return std::stoll(width) * element;
    return 0;
}

/// The largest value a cast to the integer type spelled by `words` keeps, or 0 where the type
/// is not an integer type (a cast to float, half, a vector, a pointer...).
std::int64_t cast_limit(const std::vector<std::string>& words) {
    static const std::map<std::string, std::int64_t> limits = {
        {"char", 127},         {"uchar", 255},         {"short", 32767},
        {"ushort", 65535},     {"int", kValueLimit},   {"uint", kValueLimit},
        {"long", kValueLimit}, {"ulong", kValueLimit}, {"size_t", kValueLimit}};
    std::int64_t limit = 0;
    bool is_unsigned = false;
    for (const std::string& w : words) {
        if (w == "const") continue;
        if (w == "unsigned" || w == "signed") {
            is_unsigned = is_unsigned || w == "unsigned";
            limit = limit == 0 ? kValueLimit : limit;  // "unsigned" alone is unsigned int
            continue;
        }
        const auto found = limits.find(w);
        if (found == limits.end()) return 0;
        limit = found->second;
    }
    if (is_unsigned && limit == 127) limit = 255;
    if (is_unsigned && limit == 32767) limit = 65535;
    return limit;
}

bool is_type_word(const std::string& w) {
    return w == "const" || w == "unsigned" || w == "signed" || w == "size_t" || type_bytes(w) != 0;
}

bool is_modifying(const std::string& op) {
    static const std::set<std::string> ops = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "<<=", ">>="};
    return ops.count(op) != 0;
}

/// Recursive descent over tokens [first, last) with C's precedence for the operators it knows.
class Evaluator {
  public:
    Evaluator(const std::vector<Token>& t, std::size_t first, std::size_t last,
              const std::map<std::string, std::int64_t>& known, const LaunchConstants& launch)
        : t_(t), at_(first), last_(last), known_(known), launch_(launch) {}

    Value run() {
        const Value v = level(0);
        return at_ == last_ ? v : std::nullopt;
    }

  private:
    bool next_is(const char* text) const { return at_ < last_ && t_[at_].text == text; }
    bool accept(const char* text) {
        if (!next_is(text)) return false;
        ++at_;
        return true;
    }

    /// Binary operators by precedence, loosest first: | ^ & (<< >>) (+ -) (* / %).
    Value level(int precedence) {
        static const std::vector<std::vector<std::string>> levels = {
            {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
        if (precedence == static_cast<int>(levels.size())) return unary();
        Value left = level(precedence + 1);
        const auto& ops = levels[static_cast<std::size_t>(precedence)];
        while (left && at_ < last_ &&
               std::find(ops.begin(), ops.end(), t_[at_].text) != ops.end()) {
            const std::string op = t_[at_++].text;
            const Value right = level(precedence + 1);
            if (!right) return std::nullopt;
            left = apply(op, *left, *right);
        }
        return left;
    }

    static Value apply(const std::string& op, std::int64_t a, std::int64_t b) {
        if (op == "|") return in_range(a | b);
        if (op == "^") return in_range(a ^ b);
        if (op == "&") return in_range(a & b);
        if (op == "<<") return b < 31 ? in_range(a << b) : std::nullopt;
        if (op == ">>") return b < 31 ? in_range(a >> b) : std::nullopt;
        if (op == "+") return in_range(a + b);
        if (op == "-") return in_range(a - b);
        if (op == "*") return in_range(a * b);
        if (b == 0) return std::nullopt;
        return in_range(op == "/" ? a / b : a % b);
    }

    Value unary() {
        if (accept("+")) return unary();
        if (next_is("(")) {
            // A cast: '(' type words ')'.
            std::size_t k = at_ + 1;
            std::vector<std::string> words;
            while (k < last_ && t_[k].identifier && is_type_word(t_[k].text))
                words.push_back(t_[k++].text);
            if (!words.empty() && k < last_ && t_[k].text == ")") {
                const std::int64_t limit = cast_limit(words);
                if (limit == 0) return std::nullopt;
                at_ = k + 1;
                const Value v = unary();
                return v && *v <= limit ? v : std::nullopt;
            }
        }
        return primary();
    }

    /// The comma-separated values of a call's parentheses, each evaluated.
    std::optional<std::vector<std::int64_t>> call_arguments() {
        if (!accept("(")) return std::nullopt;
        std::vector<std::int64_t> values;
        if (accept(")")) return values;
        for (;;) {
            const Value v = level(0);
            if (!v) return std::nullopt;
            values.push_back(*v);
            if (accept(")")) return values;
            if (!accept(",")) return std::nullopt;
        }
    }

    Value work_size(const std::string& name, std::int64_t dim) const {
        if (name == "get_global_offset") return 0;
        if (dim >= 3) return 1;  // OpenCL: 1 beyond the launch's dimensions
        const auto d = static_cast<std::size_t>(dim);
        if (name == "get_global_size")
            return in_range(static_cast<std::int64_t>(launch_.global[d]));
        if (!launch_.local) return std::nullopt;
        const auto local = static_cast<std::int64_t>((*launch_.local)[d]);
        if (name == "get_local_size") return in_range(local);
        return in_range(static_cast<std::int64_t>(launch_.global[d]) / local);  // get_num_groups
    }

    Value primary() {
        if (at_ >= last_) return std::nullopt;
        const Token& tok = t_[at_];
        if (accept("(")) {
            const Value v = level(0);
            return accept(")") ? v : std::nullopt;
        }
        if (std::isdigit(static_cast<unsigned char>(tok.text[0]))) {
            ++at_;
            return number(tok.text);
        }
        if (!tok.identifier) return std::nullopt;
        ++at_;
        if (tok.text == "sizeof") {
            const bool paren = accept("(");
            if (at_ >= last_) return std::nullopt;
            const std::int64_t bytes = type_bytes(t_[at_++].text);
            if (bytes == 0 || (paren && !accept(")"))) return std::nullopt;
            return bytes;
        }
        if (!next_is("(")) {
            const auto found = known_.find(tok.text);
            return found == known_.end() ? std::nullopt : in_range(found->second);
        }
        const auto args = call_arguments();
        if (!args) return std::nullopt;
        const std::vector<std::int64_t>& a = *args;
        const std::string& f = tok.text;
        if (f == "get_work_dim" && a.empty()) return 3;  // every stage launches a 3-D range
        if ((f == "get_local_size" || f == "get_global_size" || f == "get_num_groups" ||
             f == "get_global_offset") &&
            a.size() == 1)
            return work_size(f, a[0]);
        if (f == "min" && a.size() == 2) return std::min(a[0], a[1]);
        if (f == "max" && a.size() == 2) return std::max(a[0], a[1]);
        // mul24/mad24 are exact for operands below 2^23.
        const bool narrow =
            std::all_of(a.begin(), a.end(), [](std::int64_t v) { return v < (1 << 23); });
        if (f == "mul24" && a.size() == 2 && narrow) return in_range(a[0] * a[1]);
        if (f == "mad24" && a.size() == 3 && narrow) return in_range(a[0] * a[1] + a[2]);
        return std::nullopt;
    }

    /// A decimal, octal or hexadecimal integer literal with u/l suffixes; floats give nullopt.
    static Value number(std::string text) {
        while (!text.empty() && (text.back() == 'u' || text.back() == 'U' || text.back() == 'l' ||
                                 text.back() == 'L'))
            text.pop_back();
        const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        const std::size_t digits_from = hex ? 2 : 0;
        if (text.size() <= digits_from || text.size() > 12) return std::nullopt;
        for (std::size_t i = digits_from; i < text.size(); ++i)
            if (!(hex ? std::isxdigit(static_cast<unsigned char>(text[i]))
                      : std::isdigit(static_cast<unsigned char>(text[i]))))
                return std::nullopt;
        const int base = hex ? 16 : text.size() > 1 && text[0] == '0' ? 8 : 10;
        for (std::size_t i = digits_from; i < text.size(); ++i)
            if (base == 8 && text[i] > '7') return std::nullopt;
        return in_range(std::stoll(text.substr(digits_from), nullptr, base));
    }

    const std::vector<Token>& t_;
    std::size_t at_, last_;
    const std::map<std::string, std::int64_t>& known_;
    const LaunchConstants& launch_;
};

/// The parameters of known value that tokens [first, last) (a function body) leave unchanged:
/// never assigned, incremented, addressed or named right after a type or another identifier
/// (a declaration shadowing them).
std::map<std::string, std::int64_t> unchanged_parameters(const std::vector<Token>& t,
                                                         std::size_t first, std::size_t last,
                                                         const std::vector<std::string>& params,
                                                         const LaunchConstants& launch) {
    std::map<std::string, std::int64_t> known;
    for (std::size_t k = 0; k < params.size() && k < launch.integer_args.size(); ++k)
        if (launch.integer_args[k]) known[params[k]] = *launch.integer_args[k];
    for (std::size_t i = first; i < last; ++i) {
        if (!t[i].identifier || !known.count(t[i].text)) continue;
        const std::string before = i > first ? t[i - 1].text : std::string();
        const bool after_word = i > first && t[i - 1].identifier && before != "return";
        const bool modified = (i + 1 < last && is_modifying(t[i + 1].text)) || before == "&" ||
                              before == "++" || before == "--";
        if (after_word || modified) known.erase(t[i].text);
    }
    return known;
}

/// At `at`, a declaration `const <integer type> name = expr;` in the function's outermost
/// block: where `name` is declared nowhere else in the function (no parameter, no other
/// declaration) and the value is known and fits the type, `known` gains it. Its uses after the
/// declaration (where folding reaches them) can only mean this constant.
void const_local(const std::vector<Token>& t, std::size_t at, std::size_t close,
                 const std::vector<std::string>& params, const LaunchConstants& launch,
                 std::map<std::string, std::int64_t>& known) {
    const std::string& before = t[at - 1].text;
    if (before != ";" && before != "{" && before != "}") return;
    std::size_t k = at + 1;
    std::vector<std::string> words;
    while (k + 1 < close && t[k].identifier && is_type_word(t[k].text) && t[k + 1].identifier)
        words.push_back(t[k++].text);
    const std::int64_t limit = cast_limit(words);
    if (limit == 0 || k + 1 >= close || !t[k].identifier || t[k + 1].text != "=") return;
    const std::string& name = t[k].text;
    if (std::find(params.begin(), params.end(), name) != params.end()) return;
    std::size_t end = k + 2;
    for (int nesting = 0; end < close; ++end) {
        const std::string& x = t[end].text;
        nesting += x == "(" || x == "[" ? 1 : x == ")" || x == "]" ? -1 : 0;
        if (nesting == 0 && (x == ";" || x == ",")) break;
    }
    if (end >= close || t[end].text != ";") return;
    for (std::size_t i = 0; i < close; ++i)  // no other declaration of the name
        if (i != k && t[i].text == name && i > 0 && t[i - 1].identifier &&
            t[i - 1].text != "return")
            return;
    const Value v = Evaluator(t, k + 2, end, known, launch).run();
    if (v && *v <= limit) known[name] = *v;
}

}  // namespace

int fold_transaction_geometry(std::string& text, const std::string& kernel,
                              const LaunchConstants& launch) {
    const auto sig = find_kernel(text, kernel);
    if (!sig) return 0;
    std::vector<std::string> params;
    for (const KernelArg& a : sig->args) params.push_back(a.name);
    const std::vector<Token> t = tokenize(text, sig->name_pos, text.size());
    // The body: from the '{' after the parameter list to its matching '}'.
    std::size_t open = 0;
    while (open < t.size() && t[open].text != "(") ++open;
    open = open < t.size() ? closing(t, open) : open;
    while (open < t.size() && t[open].text != "{") ++open;
    std::size_t close = open;
    for (int depth = 0; close < t.size(); ++close) {
        if (t[close].text == "{") ++depth;
        if (t[close].text == "}" && --depth == 0) break;
    }
    if (close >= t.size()) return 0;
    auto known = unchanged_parameters(t, open + 1, close, params, launch);
    const std::string deferred = kDeferredDmaPrefix;
    std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> replacements;
    int folded = 0;
    int depth = 0;
    for (std::size_t i = open + 1; i + 1 < close; ++i) {
        depth += t[i].text == "{" ? 1 : t[i].text == "}" ? -1 : 0;
        if (depth == 0 && t[i].text == "const") {
            const_local(t, i, close, params, launch, known);
            continue;
        }
        std::string name = t[i].text;
        if (name.compare(0, deferred.size(), deferred) == 0) name = name.substr(deferred.size());
        const bool stride = name == "WorkGroupDmaCreateStrideTransaction";
        if ((!stride && name != "WorkGroupDmaCreate3DTransaction") || t[i + 1].text != "(")
            continue;
        const std::size_t end = closing(t, i + 1);
        if (end == std::string::npos || end > close) continue;
        const auto args = arguments(t, i + 1, end);
        if (args.size() != (stride ? 8u : 11u)) continue;
        std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> values;
        for (std::size_t k = 2; k + 1 < args.size(); ++k) {
            const Value v = Evaluator(t, args[k].first, args[k].second, known, launch).run();
            if (!v) break;
            values.push_back(
                {{t[args[k].first].begin, t[args[k].second - 1].end}, std::to_string(*v)});
        }
        if (values.size() != args.size() - 3) continue;
        replacements.insert(replacements.end(), values.begin(), values.end());
        ++folded;
    }
    for (auto r = replacements.rbegin(); r != replacements.rend(); ++r)
        text.replace(r->first.first, r->first.second - r->first.first, r->second);
    return folded;
}

WorkGroupShape work_group_shape(const std::optional<std::array<std::size_t, 3>>& local) {
    if (!local)
        return {"(uint)(get_local_size(0) * get_local_size(1) * get_local_size(2))",
                "(uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
                "get_local_size(1) * get_local_id(2)))"};
    const std::array<std::size_t, 3>& l = *local;
    std::string id;
    std::size_t stride = 1;
    for (int d = 0; d < 3; ++d) {
        const std::size_t size = l[static_cast<std::size_t>(d)];
        if (size > 1) {
            id += (id.empty() ? "" : " + ") + std::string("(uint)get_local_id(") +
                  std::to_string(d) + ")" +
                  (stride > 1 ? " * " + std::to_string(stride) + "u" : "");
        }
        stride *= size;
    }
    return {std::to_string(stride) + "u", id.empty() ? "0u" : "(" + id + ")"};
}

bool uses_dma_transactions(const std::string& stripped) {
    return stripped.find("WorkGroupDmaCreate") != std::string::npos;
}

}  // namespace myriad
