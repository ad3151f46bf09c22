// src/runtime/graph.cpp: part of the Tessera runtime library (tessera::tessera links it):
// graph building, shape inference and verify.
#include "tessera/graph/graph_impl.hpp"
