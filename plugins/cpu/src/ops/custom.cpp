// ops/custom.cpp: custom ops carry their own kernel source; the cpu backend declines them.
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

const route_choice custom_route{route::declined, TSR_REASON_OP_KIND,
                                "custom kernels need a backend that compiles them"};

}  // namespace

void state_custom(router& r) {
    r.state<op::custom>(
        [](const op::custom&, const query_view&) { return answer(custom_route, {}, {}); },
        [](const op::custom&, const build_context& b) {
            return routed_step(custom_route, b, [] { return std::unique_ptr<step>(); });
        });
}

}  // namespace tessera::plugins::cpu
