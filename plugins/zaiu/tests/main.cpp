// main.cpp: doctest main of the zaiu plugin tests; loads the plugin under test explicitly.
#include <doctest/doctest.h>

#include <cstdio>

#include <tessera/tessera.hpp>

int main(int argc, char** argv) {
    const auto record = tessera::plugin_registry::instance().load(ZAIU_PLUGIN);
    if (!tessera::plugin_registry::instance().find("zaiu")) {
        std::fprintf(stderr, "cannot load %s: %s\n", ZAIU_PLUGIN, record.detail.c_str());
        return 1;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
