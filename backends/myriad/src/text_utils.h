// text_utils.h -- small string helpers shared by the parser, the expression evaluator and the
// kernel-source rewriter.
#pragma once

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "myriad/size_expression.h"

namespace myriad {

inline std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

inline std::string to_lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline bool iequals(const std::string& a, const std::string& b) {
    return to_lower(a) == to_lower(b);
}

inline std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return parts;
        start = at + 1;
    }
}

/// Parses a decimal number at the start of `s` (optional sign, digits, optional fraction and
/// exponent). A fraction or exponent makes it a float. *used = characters consumed.
inline std::optional<ExprValue> parse_number(const std::string& s, std::size_t* used) {
    std::size_t p = 0;
    if (p < s.size() && (s[p] == '-' || s[p] == '+')) ++p;
    const std::size_t digits_start = p;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
    bool is_float = false;
    std::size_t mantissa_digits = p - digits_start;
    if (p < s.size() && s[p] == '.') {
        is_float = true;
        ++p;
        const std::size_t frac = p;
        while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
        mantissa_digits += p - frac;
    }
    if (mantissa_digits == 0) return std::nullopt;
    if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
        std::size_t q = p + 1;
        if (q < s.size() && (s[q] == '-' || s[q] == '+')) ++q;
        const std::size_t exp_digits = q;
        while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
        if (q > exp_digits) {
            is_float = true;
            p = q;
        }
    }
    if (p < s.size() && (s[p] == 'f' || s[p] == 'F') && is_float) ++p;
    const std::string text = s.substr(0, p);
    ExprValue v;
    errno = 0;
    if (is_float) {
        v.is_float = true;
        v.f = std::strtod(text.c_str(), nullptr);
    } else {
        v.i = std::strtoll(text.c_str(), nullptr, 10);
    }
    if (errno == ERANGE) return std::nullopt;
    *used = p;
    return v;
}

/// True when all of `s` (trimmed) is one number.
inline std::optional<ExprValue> parse_whole_number(const std::string& s) {
    const std::string t = trim(s);
    std::size_t used = 0;
    auto v = parse_number(t, &used);
    if (!v || used != t.size()) return std::nullopt;
    return v;
}

}  // namespace myriad
