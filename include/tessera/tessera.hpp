// tessera/tessera.hpp: the whole front-end in one include: types, tensors, op descriptors, the
// reference backend, the plugin loader, config strings and graphs.
#pragma once

#include "tessera/config.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"
#include "tessera/graph/compiled_graph.hpp"
#include "tessera/graph/graph.hpp"
#include "tessera/layout.hpp"
#include "tessera/log.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/plugin/backend.hpp"
#include "tessera/plugin/registry.hpp"
#include "tessera/reference/backend.hpp"
#include "tessera/reference/execute.hpp"
#include "tessera/shape.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tensor_desc.hpp"
#include "tessera/version.hpp"
