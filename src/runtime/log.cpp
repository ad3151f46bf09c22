// src/runtime/log.cpp: part of the Tessera runtime library (tessera::tessera links it):
// log::write, through spdlog.
#include "tessera/log_impl.hpp"
