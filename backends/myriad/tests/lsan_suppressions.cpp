// lsan_suppressions.cpp -- LeakSanitizer suppressions built into the Myriad tests (used only in
// TESSERA_SANITIZE builds): allocations inside PoCL and the LLVM/Clang it embeds that are still
// held at exit. Only those libraries are listed, so leaks in Tessera code are still reported.
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_suppressions() {
    return "leak:libpocl.so\n"
           "leak:libLLVM\n"
           "leak:libclang\n";
}
