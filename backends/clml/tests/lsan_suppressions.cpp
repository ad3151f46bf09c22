// lsan_suppressions.cpp -- LeakSanitizer suppressions built into the CLML test programs (used
// only in TESSERA_SANITIZE builds). They cover allocations made inside PoCL and the LLVM/Clang it
// embeds for kernel compilation that are still held at exit; only those libraries are listed,
// so leaks in Tessera code are still reported.
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libpocl.so\n"
         "leak:libLLVM\n"
         "leak:libclang\n";
}
