// main.cpp: doctest entry point of the qcom-ml plugin tests.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
