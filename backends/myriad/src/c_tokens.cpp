// c_tokens.cpp -- the OpenCL C tokenizer and bracket helpers (see c_tokens.h).
#include "c_tokens.h"

#include <algorithm>
#include <cctype>

namespace myriad {
namespace {

bool ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

/// The tokens of s[begin, end): identifiers, numbers, string/character literals, punctuators
/// (the multi-character ones whole).
std::vector<Token> tokenize(const std::string& s, std::size_t begin, std::size_t end) {
    static const char* const multi[] = {"<<=", ">>=", "->", "++", "--", "<<", ">>",
                                        "<=",  ">=",  "==", "!=", "&&", "||", "+=",
                                        "-=",  "*=",  "/=", "%=", "&=", "|=", "^="};
    std::vector<Token> tokens;
    std::size_t i = begin;
    while (i < end) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        Token t;
        t.begin = i;
        if (ident_char(c) && !std::isdigit(static_cast<unsigned char>(c))) {
            while (i < end && ident_char(s[i])) ++i;
            t.identifier = true;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < end &&
                    std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            while (i < end &&
                   (ident_char(s[i]) || s[i] == '.' ||
                    ((s[i] == '+' || s[i] == '-') &&
                     (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))))
                ++i;
        } else if (c == '"' || c == '\'') {
            ++i;
            while (i < end && s[i] != c) i += s[i] == '\\' ? 2 : 1;
            i = std::min(i + 1, end);
        } else {
            std::size_t length = 1;
            for (const char* m : multi) {
                const std::string op = m;
                if (s.compare(i, op.size(), op) == 0 && i + op.size() <= end) {
                    length = op.size();
                    break;
                }
            }
            i += length;
        }
        t.end = i;
        t.text = s.substr(t.begin, t.end - t.begin);
        tokens.push_back(std::move(t));
    }
    return tokens;
}

/// Index of the token closing the bracket opened at `open` ('(' or '['), or npos.
std::size_t closing(const std::vector<Token>& t, std::size_t open) {
    const std::string o = t[open].text, c = o == "(" ? ")" : "]";
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
        if (t[i].text == o) ++depth;
        if (t[i].text == c && --depth == 0) return i;
    }
    return std::string::npos;
}

/// Token ranges [first, last) of the comma-separated arguments of the call whose '(' is `open`
/// and ')' is `close`.
std::vector<std::pair<std::size_t, std::size_t>> arguments(const std::vector<Token>& t,
                                                           std::size_t open, std::size_t close) {
    std::vector<std::pair<std::size_t, std::size_t>> args;
    int depth = 0;
    std::size_t start = open + 1;
    for (std::size_t i = open + 1; i < close; ++i) {
        const std::string& x = t[i].text;
        if (x == "(" || x == "[") ++depth;
        if (x == ")" || x == "]") --depth;
        if (x == "," && depth == 0) {
            args.emplace_back(start, i);
            start = i + 1;
        }
    }
    if (close > open + 1) args.emplace_back(start, close);
    return args;
}

bool has_directives_besides_pragma(const std::string& text) {
    for (std::size_t at = text.find('#'); at != std::string::npos; at = text.find('#', at + 1)) {
        std::size_t p = at + 1;
        while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
        if (text.compare(p, 6, "pragma") != 0) return true;
    }
    return false;
}

}  // namespace myriad
