// src/runtime/registry.cpp: part of the Tessera runtime library (tessera::tessera links it):
// the plugin loader and the built-in reference backend.
#include "tessera/plugin/registry_impl.hpp"
