// src/runtime/compiled_graph.cpp: part of the Tessera runtime library (tessera::tessera links it):
// graph::compile (the graph compiler) and compiled_graph runs.
#include "tessera/graph/compiled_graph_impl.hpp"
