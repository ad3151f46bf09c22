// layer_test_main.cpp -- entry point of clml_layer_tests: activates the loader layer
// (OPENCL_LAYERS, read by the ICD loader at its first call) before doctest runs any test.
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("OPENCL_LAYERS", CLML_LAYER_PATH, 1);
  doctest::Context context(argc, argv);
  return context.run();
}
