// test_expressions.cpp -- the size-expression grammar and the Where conditions, against values
// computed by hand from the notes' rules.
#include <doctest/doctest.h>

#include "myriad/size_expression.h"

using myriad::evaluate_expression;
using myriad::evaluate_size;
using myriad::expression_error;
using myriad::LayerParams;
using myriad::Shape;

namespace {
const Shape expr_dims{2, 16, 26, 30};  // B F Y X
const LayerParams expr_params{
    {"stride", "2"}, {"factor", "1.5"}, {"kernel", "3,3"}, {"name", "abc"}};

int column_of(const std::string& expr) {
    try {
        evaluate_size(expr, expr_dims, expr_params);
    } catch (const expression_error& e) {
        return e.column();
    }
    return -1;
}
}  // namespace

TEST_CASE("expressions: precedence / associativity and integer truncation") {
    CHECK(evaluate_size("(Y+7)/8*8", expr_dims, expr_params) == 32);
    CHECK(evaluate_size("1+2*3", expr_dims, expr_params) == 7);
    CHECK(evaluate_size("10-4-3", expr_dims, expr_params) == 3);
    CHECK(evaluate_size("100/10/5", expr_dims, expr_params) == 2);
    CHECK(evaluate_size("7/2", expr_dims, expr_params) == 3);
    CHECK(evaluate_size("17%5*2", expr_dims, expr_params) == 4);
    CHECK(evaluate_size("3-10", expr_dims, expr_params) == -7);
    CHECK(evaluate_size("(3-10)/2", expr_dims, expr_params) == -3);  // C truncation toward zero
    CHECK(evaluate_size(" B * F * Y * X ", expr_dims, expr_params) == 2 * 16 * 26 * 30);
}

TEST_CASE("expressions: float arithmetic / functions and final truncation") {
    const auto v = evaluate_expression("Y*factor", expr_dims, expr_params);
    CHECK(v.is_float);
    CHECK(v.f == doctest::Approx(39.0));
    CHECK(evaluate_size("X*factor", expr_dims, expr_params) == 45);
    CHECK(evaluate_size("7/2.0*2", expr_dims, expr_params) == 7);  // float: 3.5*2
    CHECK(evaluate_size("2.9", expr_dims, expr_params) == 2);
    CHECK(evaluate_size("round(Y*factor/4)", expr_dims, expr_params) == 10);  // 9.75
    CHECK(evaluate_size("floor(Y*factor/4)", expr_dims, expr_params) == 9);
    CHECK(evaluate_size("ceil(Y/4.0)", expr_dims, expr_params) == 7);
    CHECK(evaluate_size("abs(3-10)", expr_dims, expr_params) == 7);
    CHECK(evaluate_size("sqrt(F)", expr_dims, expr_params) == 4);
    CHECK_FALSE(evaluate_expression("abs(3-10)", expr_dims, expr_params).is_float);
    CHECK(evaluate_expression("sqrt(16)", expr_dims, expr_params).is_float);
    CHECK_FALSE(evaluate_expression("floor(2.5)", expr_dims, expr_params).is_float);
    CHECK(evaluate_size("floor(X/stride)%4", expr_dims, expr_params) == 3);  // 15 % 4
    CHECK(evaluate_size("1e1+1", expr_dims, expr_params) == 11);
}

TEST_CASE("expressions: B F Y X with fewer dims are right-aligned / missing ones are 1") {
    const Shape two{4, 9};
    CHECK(evaluate_size("B", two, {}) == 1);
    CHECK(evaluate_size("F", two, {}) == 1);
    CHECK(evaluate_size("Y", two, {}) == 4);
    CHECK(evaluate_size("X", two, {}) == 9);
    CHECK(myriad::shape_dim(Shape{5, 6, 7}, 'F') == 5);
}

TEST_CASE("expressions: malformed text reports the column") {
    CHECK(column_of("(Y+7") == 5);
    CHECK(column_of("-X") == 1);  // no unary minus
    CHECK(column_of("X*-2") == 3);
    CHECK(column_of("X+") == 3);
    CHECK(column_of("X $ 2") == 3);
    CHECK(column_of("") == 1);
    CHECK(column_of("X 2") == 3);
    CHECK(column_of("foo(2)") == 1);     // unknown function
    CHECK(column_of("Y+unknown") == 3);  // unknown variable
    CHECK(column_of("X/(F-16)") == 2);   // division by zero
    CHECK(column_of("factor%2") == 7);   // % on a float
    CHECK(column_of("kernel+1") == 1);   // non-numeric parameter
    CHECK(column_of("9223372036854775807*2") == 20);
    CHECK(column_of(std::string(200, '(') + "1" + std::string(200, ')')) > 0);
    CHECK_THROWS_AS(myriad::check_expression_syntax("(1+2"), expression_error);
    CHECK_NOTHROW(myriad::check_expression_syntax("floor(unknown_param/2)*X"));
}

TEST_CASE("where: equality / case-insensitive strings / numeric comparison operators") {
    using myriad::CompareOp;
    using myriad::WhereCondition;
    const LayerParams p{{"do_softmax", "1"}, {"mode", "Nearest"}, {"axis", "2"}, {"eps", "0.5"}};
    auto holds = [&](const std::string& name, CompareOp op, const std::string& value) {
        return myriad::where_holds({WhereCondition{name, op, value, 1}}, p);
    };
    CHECK(holds("do_softmax", CompareOp::equal, "1"));
    CHECK(holds("do_softmax", CompareOp::equal, "1.0"));
    CHECK_FALSE(holds("do_softmax", CompareOp::equal, "0"));
    CHECK(holds("mode", CompareOp::equal, "nearest"));
    CHECK_FALSE(holds("mode", CompareOp::equal, "linear"));
    CHECK(holds("axis", CompareOp::greater_equal, "2"));
    CHECK_FALSE(holds("axis", CompareOp::greater, "2"));
    CHECK(holds("axis", CompareOp::less, "3"));
    CHECK(holds("axis", CompareOp::less_equal, "2"));
    CHECK(holds("axis", CompareOp::not_equal, "1"));
    CHECK_FALSE(holds("axis", CompareOp::not_equal, "2"));
    CHECK(holds("eps", CompareOp::less, "1"));
    CHECK_FALSE(holds("mode", CompareOp::less, "3"));      // non-numeric never compares
    CHECK_FALSE(holds("missing", CompareOp::equal, "1"));  // a missing parameter fails
    CHECK(myriad::where_holds({}, p));
}
