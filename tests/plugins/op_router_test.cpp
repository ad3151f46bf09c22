// op_router_test.cpp: sdk::op_router dispatches queries and step builds to the rule stated for
// the op's type, declines unstated ops with a reason, and runs them emulated where a backend opts
// in.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include <tessera/sdk/op_router.hpp>

using namespace tessera;

namespace {

/// A step that records which rule built it.
struct toy_step {
    std::string built_by;
    int node_id = 0;
};

using descs = std::vector<tensor_desc>;
using toy_router =
    sdk::op_router<sdk::support(const descs&), std::unique_ptr<toy_step>(int node_id)>;

toy_router stated_router() {
    toy_router r("toy");
    r.state<op::softmax>(
        [](const op::softmax& s, const descs& in) {
            if (s.log()) return sdk::support::declined(TSR_REASON_ATTRIBUTE, "no log-softmax");
            sdk::support ok = sdk::support::native();
            ok.inputs = in;
            return ok;
        },
        [](const op::softmax& s, int id) {
            return std::make_unique<toy_step>(toy_step{s.log() ? "log-softmax" : "softmax", id});
        });
    r.state<op::binary>(
        [](const op::binary& b, const descs&) {
            return b.kind() == binary_kind::add
                       ? sdk::support::native()
                       : sdk::support::declined(TSR_REASON_ATTRIBUTE, "add only");
        },
        [](const op::binary&, int id) {
            return std::make_unique<toy_step>(toy_step{"binary", id});
        });
    return r;
}

}  // namespace

TEST_CASE("op_router: a stated op gets its own rule, with the op's attributes and arguments") {
    const toy_router r = stated_router();
    const tensor_desc x(shape{2, 3}, dtype::f32);

    op::softmax plain;
    const sdk::support s = r.query(plain, descs{x});
    CHECK(s.level == TSR_SUPPORT_NATIVE);
    REQUIRE(s.inputs.size() == 1);
    CHECK(s.inputs[0] == x);

    op::softmax logsm;
    logsm.logarithmic();
    const sdk::support l = r.query(logsm, descs{x});
    CHECK(l.level == TSR_SUPPORT_NONE);
    CHECK(l.reason == TSR_REASON_ATTRIBUTE);
    CHECK(l.text == "no log-softmax");

    CHECK(r.query(op::binary(binary_kind::add), descs{x, x}).level == TSR_SUPPORT_NATIVE);
    CHECK(r.query(op::binary(binary_kind::mul), descs{x, x}).reason == TSR_REASON_ATTRIBUTE);

    CHECK(r.build(plain, 7)->built_by == "softmax");
    CHECK(r.build(plain, 7)->node_id == 7);
    CHECK(r.build(logsm, 1)->built_by == "log-softmax");
    CHECK(r.build(op::binary(binary_kind::sub), 2)->built_by == "binary");
    CHECK(r.states(plain));
    CHECK_FALSE(r.states(op::unary(unary_kind::exp)));
}

TEST_CASE("op_router: an unstated op is declined with TSR_REASON_OP_KIND and cannot be built") {
    toy_router r = stated_router();
    const tensor_desc x(shape{4}, dtype::f32);
    const sdk::support s = r.query(op::unary(unary_kind::exp), descs{x});
    CHECK(s.level == TSR_SUPPORT_NONE);
    CHECK(s.reason == TSR_REASON_OP_KIND);
    CHECK(s.text == "unary is not supported by the toy backend");
    try {
        r.build(op::unary(unary_kind::exp), 0);
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::unsupported);
        CHECK(e.backend() == "toy");
        CHECK(e.message() == "the toy plugin cannot compile unary");
    }

    r.decline_others([](const op_desc& o) { return std::string(o.name()) + " has no toy kernel"; });
    CHECK(r.query(op::unary(unary_kind::exp), descs{x}).text == "unary has no toy kernel");
    CHECK_FALSE(r.emulates_others());
}

TEST_CASE("op_router: where the backend opts in, unstated ops run emulated") {
    toy_router r = stated_router();
    r.emulate_others(
        [](const op_desc& o, const descs& in) {
            if (o.get_if<op::custom>())
                return sdk::support::declined(TSR_REASON_OP_KIND, "no custom kernels");
            sdk::support s = sdk::support::native();  // the router reports it emulated
            s.inputs = in;
            return s;
        },
        [](const op_desc& o, int id) {
            return std::make_unique<toy_step>(toy_step{"reference " + std::string(o.name()), id});
        });
    const tensor_desc x(shape{4}, dtype::f32);

    const sdk::support s = r.query(op::unary(unary_kind::exp), descs{x});
    CHECK(s.level == TSR_SUPPORT_EMULATED);
    CHECK(s.reason == TSR_REASON_OP_KIND);
    CHECK(s.text == "runs on the reference kernels");
    REQUIRE(s.inputs.size() == 1);
    CHECK(s.inputs[0] == x);
    CHECK(r.build(op::unary(unary_kind::exp), 3)->built_by == "reference unary");

    // the emulation rule may still decline; stated ops keep their own rules
    CHECK(r.query(op::custom(), descs{x}).level == TSR_SUPPORT_NONE);
    CHECK(r.query(op::softmax(), descs{x}).level == TSR_SUPPORT_NATIVE);
    CHECK(r.build(op::softmax(), 0)->built_by == "softmax");
    CHECK(r.build_emulated(op::softmax(), 0)->built_by == "reference softmax");
}

TEST_CASE("op_router: stating an op twice is an error") {
    toy_router r = stated_router();
    CHECK_THROWS_AS(
        r.state<op::binary>([](const op::binary&, const descs&) { return sdk::support::native(); },
                            [](const op::binary&, int) { return std::make_unique<toy_step>(); }),
        error);
}

TEST_CASE("op_router: a trait rule stated with an op answers for it; other ops get the default") {
    /// What a toy backend asks of an op besides query and build: whether its output may be
    /// folded into the node before it, and with what scale.
    struct fold {
        bool foldable = false;
        float scale = 0.0f;
    };
    using trait_router = sdk::op_router<sdk::support(const descs&),
                                        std::unique_ptr<toy_step>(int node_id), fold(float gain)>;
    trait_router r("toy");
    r.state<op::activation>(
        [](const op::activation&, const descs&) { return sdk::support::native(); },
        [](const op::activation&, int id) {
            return std::make_unique<toy_step>(toy_step{"activation", id});
        },
        [](const op::activation& a, float gain) {
            return fold{a.kind() == activation_kind::relu, gain * 2.0f};
        });
    r.state<op::softmax>(  // stated without a trait
        [](const op::softmax&, const descs&) { return sdk::support::native(); },
        [](const op::softmax&, int id) {
            return std::make_unique<toy_step>(toy_step{"sm", id});
        });

    const fold relu = r.trait(op::activation(activation_kind::relu), 1.5f);
    CHECK(relu.foldable);
    CHECK(relu.scale == 3.0f);
    CHECK_FALSE(r.trait(op::activation(activation_kind::tanh), 1.0f).foldable);
    const fold sm = r.trait(op::softmax(), 4.0f);  // stated op, no trait: value-initialised
    CHECK_FALSE(sm.foldable);
    CHECK(sm.scale == 0.0f);
    const fold unstated = r.trait(op::unary(unary_kind::exp), 4.0f);
    CHECK_FALSE(unstated.foldable);
    CHECK(unstated.scale == 0.0f);
    // the trait does not change query and build
    CHECK(r.build(op::activation(activation_kind::relu), 5)->built_by == "activation");
    CHECK(r.query(op::unary(unary_kind::exp), descs{}).reason == TSR_REASON_OP_KIND);
}
