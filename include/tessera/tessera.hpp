// tessera/tessera.hpp: the front-end in one include: types, tensors, op descriptors, graphs and
// their compilation, the plugin loader's interface and config strings. What does the work
// (graph compiler, plugin loader, reference backend) is compiled once, in the runtime: the
// CMake target tessera::tessera links it, and a program built with the include path alone
// includes <tessera/implementation.hpp> in exactly one source file. The reference kernels are in
// tessera/reference/execute.hpp for code that calls them directly.
#pragma once

#include "tessera/config.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"
#include "tessera/graph/compiled_graph.hpp"
#include "tessera/graph/graph.hpp"
#include "tessera/layout.hpp"
#include "tessera/log.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/plugin/registry.hpp"
#include "tessera/shape.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tensor_desc.hpp"
#include "tessera/version.hpp"
