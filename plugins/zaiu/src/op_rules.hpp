// op_rules.hpp: the zaiu capability query. For each Tessera op it decides whether the zAIU runs
// it (as mapped onto zDNN calls) and picks the stick layout of every input and output, keeping
// an input's current zaiu layout whenever the zDNN call can read it as is.
#pragma once

#include "tessera/sdk/backend.hpp"

namespace zaiu {

tessera::sdk::support decide(const tessera::sdk::op_query& q);

}  // namespace zaiu
