// src/runtime/op_desc.cpp: part of the Tessera runtime library (tessera::tessera links it):
// op_desc's visiting members (describe, infer, c_params, from_c) and special members.
#include "tessera/ops/op_desc_impl.hpp"
