// doctest_implementation.cpp: doctest's implementation, compiled once for every test executable
// (tessera_add_doctest links it through the tessera_doctest library).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
