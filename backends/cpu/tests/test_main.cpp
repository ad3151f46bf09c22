// test_main.cpp: doctest main of the CPU runtime tests in a standalone build of the runtime (a
// Tessera build links doctest's main from the tessera_doctest library instead).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
