// tessera/sdk/op_router.hpp: the per-op router every backend is built around. A backend states,
// per op type it supports, how to answer a query and how to build the executable step; the router
// dispatches over tessera::op_variant, so no backend writes its own switch over op types.
//
// How a backend registers an op
// -----------------------------
// 1. Pick the router's two signatures: what a query rule is given besides the op, and what a
//    build rule is given besides the op and what it returns (the backend's own step type):
//
//        using router = sdk::op_router<
//            sdk::support(const std::vector<tensor_desc>& in, const std::vector<tensor_desc>& out),
//            std::unique_ptr<step>(const sdk::node& n, const std::vector<tensor_desc>& tensors)>;
//
// 2. Give each op (or op family) one file, src/ops/<op>.cpp, holding the op's query rule (support
//    level, reason code, chosen layouts), its step and its build rule, and one function stating
//    them on the router:
//
//        void state_softmax(router& r) {
//            r.state<op::softmax>(
//                [](const op::softmax& s, const auto& in, const auto& out) { ... return support; },
//                [](const op::softmax& s, const sdk::node& n, const auto& t) { return step; });
//        }
//
// 3. The backend builds its router once, calling each file's state_* function, and says what
//    happens to the ops it does not state: declined with a reason (the default: reason
//    TSR_REASON_OP_KIND, "<op> is not supported by the <backend> backend"; decline_others()
//    changes the text), or emulated_others(): run on the reference kernels and reported
//    TSR_SUPPORT_EMULATED.
//
// 4. backend::query() calls router.query(q.op, ...) and the program calls router.build(n.op, ...)
//    per node. A rule that answers "emulated" for some attributes of a stated op builds that case
//    with router.build_emulated(...).
//
// 5. Optionally, a third signature gives each op a trait rule: what else the backend asks of an
//    op, stated with it instead of in a switch (e.g. the part it can play in a fused chain).
//    Ops without a stated trait give a value-initialised result:
//
//        using router = sdk::op_router<..., ..., fusion_role(const node_view& v)>;
//        r.state<op::batchnorm>(query_rule, build_rule,
//                               [](const op::batchnorm& bn, const node_view& v) { ... });
//        const fusion_role role = router.trait(n.op, view);
//
// Thread safety: build the router before the backend is used; query() and build() are const and
// may be called from any threads at once.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "tessera/error.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/sdk/backend.hpp"

namespace tessera::sdk {

namespace detail {

/// The position of `Op` in `Variant` (a compile error when it is not an alternative).
template <typename Op, typename Variant, std::size_t I = 0>
constexpr std::size_t alternative_index() {
    static_assert(I < std::variant_size_v<Variant>, "not an op of tessera::op_variant");
    if constexpr (std::is_same_v<Op, std::variant_alternative_t<I, Variant>>) {
        return I;
    } else {
        return alternative_index<Op, Variant, I + 1>();
    }
}

}  // namespace detail

template <typename QuerySignature, typename BuildSignature, typename TraitSignature = void()>
class op_router;

/// Routes queries and step builds to the rules a backend stated per op type.
/// `QueryArgs`: what a query rule gets after the op; `BuildArgs`: what a build rule gets after the
/// op; `Step`: the backend's step type (build returns std::unique_ptr<Step>); `Trait`, `TraitArgs`:
/// what an op's trait rule returns and gets after the op (default: no trait).
template <typename... QueryArgs, typename Step, typename... BuildArgs, typename Trait,
          typename... TraitArgs>
class op_router<support(QueryArgs...), std::unique_ptr<Step>(BuildArgs...), Trait(TraitArgs...)> {
  public:
    template <typename Op>
    using query_rule = std::function<support(const Op&, QueryArgs...)>;
    template <typename Op>
    using build_rule = std::function<std::unique_ptr<Step>(const Op&, BuildArgs...)>;
    template <typename Op>
    using trait_rule = std::function<Trait(const Op&, TraitArgs...)>;
    /// Rules for ops run on the reference kernels: any op, as the op_desc.
    using emulated_query_rule = std::function<support(const op_desc&, QueryArgs...)>;
    using emulated_build_rule = std::function<std::unique_ptr<Step>(const op_desc&, BuildArgs...)>;
    /// The text of a decline for an op the backend does not state.
    using decline_text = std::function<std::string(const op_desc&)>;

    explicit op_router(std::string backend_name) : backend_(std::move(backend_name)) {}

    /// States how the backend answers queries for `Op` and builds its steps, and optionally the
    /// op's trait. Stating an op twice is a programming error and throws.
    template <typename Op>
    op_router& state(query_rule<Op> query, build_rule<Op> build, trait_rule<Op> op_trait = {}) {
        constexpr std::size_t i = detail::alternative_index<Op, op_variant>();
        if (rules_[i].query) {
            throw error(status::runtime_error,
                        std::string(Op::name) + " is stated twice on the router",
                        {backend_, std::string(Op::name), ""});
        }
        rules_[i].query = [q = std::move(query)](const op_desc& o, QueryArgs... args) {
            return q(std::get<Op>(o.variant()), std::forward<QueryArgs>(args)...);
        };
        rules_[i].build = [b = std::move(build)](const op_desc& o, BuildArgs... args) {
            return b(std::get<Op>(o.variant()), std::forward<BuildArgs>(args)...);
        };
        if (op_trait) {
            rules_[i].trait = [t = std::move(op_trait)](const op_desc& o, TraitArgs... args) {
                return t(std::get<Op>(o.variant()), std::forward<TraitArgs>(args)...);
            };
        }
        return *this;
    }

    /// Unstated ops are declined with TSR_REASON_OP_KIND and this text (the default text is
    /// "<op> is not supported by the <backend> backend").
    op_router& decline_others(decline_text text) {
        decline_text_ = std::move(text);
        return *this;
    }

    /// Opts in to emulation: unstated ops run on the reference kernels. `query` chooses the
    /// layouts (the router reports the answer as TSR_SUPPORT_EMULATED with TSR_REASON_OP_KIND
    /// unless the rule gave a reason, or passes a decline on); `build` makes the step.
    op_router& emulate_others(emulated_query_rule query, emulated_build_rule build) {
        emulated_query_ = std::move(query);
        emulated_build_ = std::move(build);
        return *this;
    }

    /// Whether the backend stated a rule for this op's type.
    bool states(const op_desc& o) const {
        return static_cast<bool>(rules_[o.variant().index()].query);
    }
    /// Whether unstated ops run on the reference kernels.
    bool emulates_others() const { return static_cast<bool>(emulated_build_); }
    const std::string& backend_name() const { return backend_; }

    /// The backend's answer for `o`: its stated rule, else emulation or a decline.
    support query(const op_desc& o, QueryArgs... args) const {
        const rule& r = rules_[o.variant().index()];
        if (r.query) return r.query(o, std::forward<QueryArgs>(args)...);
        if (emulated_query_) return query_emulated(o, std::forward<QueryArgs>(args)...);
        return support::declined(TSR_REASON_OP_KIND, unstated_text(o));
    }

    /// The reference-kernel answer for `o` (what unstated ops get when the backend emulates).
    support query_emulated(const op_desc& o, QueryArgs... args) const {
        if (!emulated_query_) return support::declined(TSR_REASON_OP_KIND, unstated_text(o));
        support s = emulated_query_(o, std::forward<QueryArgs>(args)...);
        if (s.level == TSR_SUPPORT_NONE) return s;
        s.level = TSR_SUPPORT_EMULATED;
        if (s.reason == TSR_REASON_NONE) s.reason = TSR_REASON_OP_KIND;
        if (s.text.empty()) s.text = "runs on the reference kernels";
        return s;
    }

    /// The step for `o`: its stated rule, else the emulated step; throws status::unsupported for
    /// an op the backend neither states nor emulates.
    std::unique_ptr<Step> build(const op_desc& o, BuildArgs... args) const {
        const rule& r = rules_[o.variant().index()];
        if (r.build) return r.build(o, std::forward<BuildArgs>(args)...);
        return build_emulated(o, std::forward<BuildArgs>(args)...);
    }

    /// The reference-kernel step for `o`; throws status::unsupported when the backend does not
    /// emulate.
    std::unique_ptr<Step> build_emulated(const op_desc& o, BuildArgs... args) const {
        if (!emulated_build_) {
            throw error(status::unsupported,
                        "the " + backend_ + " plugin cannot compile " + std::string(o.name()),
                        {backend_, "", ""});
        }
        return emulated_build_(o, std::forward<BuildArgs>(args)...);
    }

    /// The trait stated for `o`'s type; a value-initialised Trait where none was stated.
    Trait trait(const op_desc& o, TraitArgs... args) const {
        const rule& r = rules_[o.variant().index()];
        if (r.trait) return r.trait(o, std::forward<TraitArgs>(args)...);
        return Trait();
    }

  private:
    struct rule {
        std::function<support(const op_desc&, QueryArgs...)> query;
        std::function<std::unique_ptr<Step>(const op_desc&, BuildArgs...)> build;
        std::function<Trait(const op_desc&, TraitArgs...)> trait;
    };

    std::string unstated_text(const op_desc& o) const {
        if (decline_text_) return decline_text_(o);
        return std::string(o.name()) + " is not supported by the " + backend_ + " backend";
    }

    std::string backend_;
    std::array<rule, std::variant_size_v<op_variant>> rules_{};
    decline_text decline_text_;
    emulated_query_rule emulated_query_;
    emulated_build_rule emulated_build_;
};

}  // namespace tessera::sdk
