// myriad/size_expression.h -- the size-expression language of WorkSizes, buffer sizes and
// local_data sizes, and the Where conditions of a binding.
//
// Grammar (no unary minus; * / % bind tighter than + -; all left associative):
//   expr    := term (('+' | '-') term)*
//   term    := factor (('*' | '/' | '%') factor)*
//   factor  := number | name | name '(' expr ')' | '(' expr ')'
//   name    := [A-Za-z_][A-Za-z0-9_.]*
// Functions: floor ceil round abs sqrt. Variables: B F Y X (N C H W of the dim tensor, missing
// dims 1) and every numeric layer parameter. Integer operands give integer results (division
// truncates toward zero, as in C); a float operand makes the operation float; % on a float is an
// error. floor/ceil/round give integers, sqrt a float, abs keeps the type. The final value is
// truncated toward zero.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "myriad/bindings.h"

namespace myriad {

/// Layer parameters: name -> value as written in the IR (e.g. "stride" -> "2", "kernel" -> "3,3").
using LayerParams = std::map<std::string, std::string>;

/// A tensor shape, logical order N C H W (fewer dims allowed: they are right-aligned).
using Shape = std::vector<std::int64_t>;

/// The value of B, F, Y or X ('B','F','Y','X') of a shape, dims right-aligned, missing dims = 1.
std::int64_t shape_dim(const Shape& shape, char which);

/// A number that remembers whether it is an integer.
struct ExprValue {
    bool is_float = false;
    std::int64_t i = 0;
    double f = 0.0;
    double as_double() const { return is_float ? f : static_cast<double>(i); }
};

/// Evaluates `expression` with B F Y X taken from `dims` and variables from `params`.
/// Throws expression_error (column of the fault) for malformed text, unknown names, division by
/// zero and % on a float.
ExprValue evaluate_expression(const std::string& expression, const Shape& dims,
                              const LayerParams& params);

/// Checks only the syntax of `expression` (names, numbers, operators, parentheses, function
/// names); throws expression_error with the column of the first fault.
void check_expression_syntax(const std::string& expression);

/// evaluate_expression truncated to an integer.
std::int64_t evaluate_size(const std::string& expression, const Shape& dims,
                           const LayerParams& params);

/// True when the layer parameters satisfy every Where condition (a missing parameter fails).
bool where_holds(const std::vector<WhereCondition>& where, const LayerParams& params);

}  // namespace myriad
