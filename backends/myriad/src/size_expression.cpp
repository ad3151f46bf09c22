// size_expression.cpp -- recursive-descent evaluator of size expressions and the Where test.
#include "myriad/size_expression.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "text_utils.h"

namespace myriad {

std::int64_t shape_dim(const Shape& shape, char which) {
    int from_end = 0;
    switch (which) {
        case 'X':
            from_end = 1;
            break;
        case 'Y':
            from_end = 2;
            break;
        case 'F':
            from_end = 3;
            break;
        case 'B':
            from_end = 4;
            break;
        default:
            return 1;
    }
    if (static_cast<int>(shape.size()) < from_end) return 1;
    return shape[shape.size() - static_cast<std::size_t>(from_end)];
}

namespace {

constexpr int max_depth = 64;

class Evaluator {
  public:
    Evaluator(const std::string& text, const Shape& dims, const LayerParams& params,
              bool syntax_only = false)
        : text_(text), dims_(dims), params_(params), syntax_only_(syntax_only) {}

    ExprValue run() {
        skip_space();
        if (pos_ >= text_.size()) fault("empty expression");
        ExprValue v = expr(0);
        skip_space();
        if (pos_ < text_.size()) fault(std::string("unexpected '") + text_[pos_] + "'");
        return v;
    }

  private:
    [[noreturn]] void fault(const std::string& reason) const {
        throw expression_error(text_, static_cast<int>(pos_) + 1, reason);
    }
    [[noreturn]] void fault_at(std::size_t at, const std::string& reason) const {
        throw expression_error(text_, static_cast<int>(at) + 1, reason);
    }

    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }

    ExprValue expr(int depth) {
        ExprValue left = term(depth);
        for (;;) {
            skip_space();
            if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) return left;
            const char op = text_[pos_];
            const std::size_t at = pos_++;
            ExprValue right = term(depth);
            left = arithmetic(op, left, right, at);
        }
    }

    ExprValue term(int depth) {
        ExprValue left = factor(depth);
        for (;;) {
            skip_space();
            if (pos_ >= text_.size() ||
                (text_[pos_] != '*' && text_[pos_] != '/' && text_[pos_] != '%'))
                return left;
            const char op = text_[pos_];
            const std::size_t at = pos_++;
            ExprValue right = factor(depth);
            left = arithmetic(op, left, right, at);
        }
    }

    ExprValue arithmetic(char op, const ExprValue& a, const ExprValue& b, std::size_t at) {
        if (syntax_only_) return ExprValue{false, 1, 0.0};
        if (op == '%' && (a.is_float || b.is_float)) fault_at(at, "'%' needs integer operands");
        ExprValue r;
        if (a.is_float || b.is_float) {
            r.is_float = true;
            const double x = a.as_double(), y = b.as_double();
            switch (op) {
                case '+':
                    r.f = x + y;
                    break;
                case '-':
                    r.f = x - y;
                    break;
                case '*':
                    r.f = x * y;
                    break;
                default:
                    if (y == 0.0) fault_at(at, "division by zero");
                    r.f = x / y;
            }
            if (!std::isfinite(r.f)) fault_at(at, "result is not finite");
            return r;
        }
        bool overflow = false;
        switch (op) {
            case '+':
                overflow = __builtin_add_overflow(a.i, b.i, &r.i);
                break;
            case '-':
                overflow = __builtin_sub_overflow(a.i, b.i, &r.i);
                break;
            case '*':
                overflow = __builtin_mul_overflow(a.i, b.i, &r.i);
                break;
            default:
                if (b.i == 0) fault_at(at, "division by zero");
                if (a.i == std::numeric_limits<std::int64_t>::min() && b.i == -1)
                    overflow = true;
                else
                    r.i = op == '/' ? a.i / b.i : a.i % b.i;
        }
        if (overflow) fault_at(at, "integer overflow");
        return r;
    }

    ExprValue factor(int depth) {
        if (depth > max_depth) fault("expression nested too deeply");
        skip_space();
        if (pos_ >= text_.size()) fault("expected a number, a name or '('");
        const char c = text_[pos_];
        if (c == '(') {
            ++pos_;
            ExprValue v = expr(depth + 1);
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != ')') fault("expected ')'");
            ++pos_;
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(depth);
        if (c == '-' || c == '+') fault("unary minus/plus is not part of the grammar");
        fault(std::string("unexpected '") + c + "'");
    }

    ExprValue number() {
        const std::size_t start = pos_;
        auto parsed = parse_number(text_.substr(start), &pos_);
        pos_ += start;
        if (!parsed) fault_at(start, "malformed number");
        return *parsed;
    }

    ExprValue name(int depth) {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                       text_[pos_] == '_' || text_[pos_] == '.'))
            ++pos_;
        const std::string id = text_.substr(start, pos_ - start);
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '(') {
            ++pos_;
            ExprValue arg = expr(depth + 1);
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != ')') fault("expected ')'");
            ++pos_;
            return call(id, arg, start);
        }
        if (id.size() == 1 && (id == "B" || id == "F" || id == "Y" || id == "X")) {
            ExprValue v;
            v.i = shape_dim(dims_, id[0]);
            return v;
        }
        if (syntax_only_) return ExprValue{false, 1, 0.0};
        const auto found = params_.find(id);
        if (found == params_.end()) fault_at(start, "unknown name '" + id + "'");
        std::size_t used = 0;
        auto value = parse_number(trim(found->second), &used);
        if (!value || used != trim(found->second).size())
            fault_at(start,
                     "layer parameter '" + id + "' is not a number ('" + found->second + "')");
        return *value;
    }

    ExprValue call(const std::string& fn, const ExprValue& a, std::size_t at) {
        ExprValue r;
        if (syntax_only_) {
            if (fn != "floor" && fn != "ceil" && fn != "round" && fn != "abs" && fn != "sqrt")
                fault_at(at, "unknown function '" + fn + "' (floor, ceil, round, abs, sqrt)");
            return ExprValue{false, 1, 0.0};
        }
        auto to_int = [&](double d) {
            if (!(std::fabs(d) < 9.0e18)) fault_at(at, fn + "() result out of range");
            ExprValue v;
            v.i = static_cast<std::int64_t>(d);
            return v;
        };
        if (fn == "floor") return a.is_float ? to_int(std::floor(a.f)) : a;
        if (fn == "ceil") return a.is_float ? to_int(std::ceil(a.f)) : a;
        if (fn == "round") return a.is_float ? to_int(std::round(a.f)) : a;
        if (fn == "abs") {
            if (a.is_float) {
                r.is_float = true;
                r.f = std::fabs(a.f);
            } else {
                if (a.i == std::numeric_limits<std::int64_t>::min())
                    fault_at(at, "integer overflow");
                r.i = a.i < 0 ? -a.i : a.i;
            }
            return r;
        }
        if (fn == "sqrt") {
            if (a.as_double() < 0) fault_at(at, "sqrt of a negative number");
            r.is_float = true;
            r.f = std::sqrt(a.as_double());
            return r;
        }
        fault_at(at, "unknown function '" + fn + "' (floor, ceil, round, abs, sqrt)");
    }

    const std::string& text_;
    const Shape& dims_;
    const LayerParams& params_;
    bool syntax_only_;
    std::size_t pos_ = 0;
};

}  // namespace

ExprValue evaluate_expression(const std::string& expression, const Shape& dims,
                              const LayerParams& params) {
    return Evaluator(expression, dims, params).run();
}

void check_expression_syntax(const std::string& expression) {
    static const Shape no_dims;
    static const LayerParams no_params;
    Evaluator(expression, no_dims, no_params, true).run();
}

std::int64_t evaluate_size(const std::string& expression, const Shape& dims,
                           const LayerParams& params) {
    const ExprValue v = evaluate_expression(expression, dims, params);
    if (!v.is_float) return v.i;
    if (!(std::fabs(v.f) < 9.0e18)) throw expression_error(expression, 1, "result out of range");
    return static_cast<std::int64_t>(v.f);
}

bool where_holds(const std::vector<WhereCondition>& where, const LayerParams& params) {
    for (const WhereCondition& c : where) {
        const auto found = params.find(c.parameter);
        if (found == params.end()) return false;
        const std::string actual = trim(found->second);
        std::size_t used_a = 0, used_b = 0;
        const auto a = parse_number(actual, &used_a);
        const auto b = parse_number(trim(c.value), &used_b);
        const bool numeric = a && b && used_a == actual.size() && used_b == trim(c.value).size();
        if (c.op == CompareOp::equal || c.op == CompareOp::not_equal) {
            const bool same =
                numeric ? a->as_double() == b->as_double() : iequals(actual, trim(c.value));
            if (same != (c.op == CompareOp::equal)) return false;
            continue;
        }
        if (!numeric) return false;
        const double x = a->as_double(), y = b->as_double();
        bool ok = false;
        switch (c.op) {
            case CompareOp::less:
                ok = x < y;
                break;
            case CompareOp::less_equal:
                ok = x <= y;
                break;
            case CompareOp::greater:
                ok = x > y;
                break;
            case CompareOp::greater_equal:
                ok = x >= y;
                break;
            default:
                break;
        }
        if (!ok) return false;
    }
    return true;
}

}  // namespace myriad
