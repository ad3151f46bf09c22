// doctest_default_main.cpp: the main() of test executables that define none. It is a separate
// member of the tessera_doctest archive, so the linker takes it only for programs without their
// own main (those that set the environment or load a plugin before the tests run).
#include <doctest/doctest.h>

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    return context.run();
}
