// c_tokens.h -- a small tokenizer of OpenCL C (comment-free text) and bracket helpers, for the
// source analyses of DMA companion kernels (dma_mirror.cpp, dma_geometry.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace myriad {

struct Token {
    std::string text;
    std::size_t begin = 0, end = 0;
    bool identifier = false;
};

/// The tokens of s[begin, end): identifiers, numbers, string/character literals, punctuators
/// (the multi-character ones whole).
std::vector<Token> tokenize(const std::string& s, std::size_t begin, std::size_t end);

/// Index of the token closing the bracket opened at `open` ('(' or '['), or npos.
std::size_t closing(const std::vector<Token>& t, std::size_t open);

/// Token ranges [first, last) of the comma-separated arguments of the call whose '(' is `open`
/// and ')' is `close`.
std::vector<std::pair<std::size_t, std::size_t>> arguments(const std::vector<Token>& t,
                                                           std::size_t open, std::size_t close);

/// Whether `text` has a preprocessor line other than #pragma (a macro could hide what a source
/// analysis reads).
bool has_directives_besides_pragma(const std::string& text);

}  // namespace myriad
