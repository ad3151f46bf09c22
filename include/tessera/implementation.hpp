// tessera/implementation.hpp: the definitions behind the front-end headers (graph building and
// compilation, compiled_graph runs, the plugin loader with the built-in reference backend, op
// descriptor dispatch, logging), for programs built with the include path alone: include it in
// exactly one source file of the program, after or instead of <tessera/tessera.hpp>. Programs
// that link the CMake target tessera::tessera get these definitions from its runtime library and
// must not include this file.
#pragma once

#include "tessera/tessera.hpp"

#include "tessera/graph/compiled_graph_impl.hpp"
#include "tessera/graph/graph_impl.hpp"
#include "tessera/log_impl.hpp"
#include "tessera/ops/op_desc_impl.hpp"
#include "tessera/plugin/registry_impl.hpp"
