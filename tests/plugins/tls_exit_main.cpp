// tls_exit_main.cpp: sanitizer builds only. Many threads hold dynamic TLS blocks of a dlopen-ed
// module and are still running when the process exits, as an OpenCL driver's worker threads are;
// LeakSanitizer's exit-time check must then finish cleanly. GCC 12's runtime, with its default
// intercept_tls_get_addr=1, reads a TLS block that malloc placed 16 bytes into a page as a
// pre-2.25 glibc header and its tracer dies with "Tracer caught signal 11"; scripts/test.sh sets
// intercept_tls_get_addr=0 (see the note there). Exit status 0 and no sanitizer report: passed.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace {

std::atomic<int> touched{0};

}  // namespace

int main() {
    void* module = dlopen(TLS_MODULE, RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        std::printf("cannot load %s: %s\n", TLS_MODULE, dlerror());
        return 1;
    }
    using touch_fn = int (*)(int);
    const auto touch = reinterpret_cast<touch_fn>(dlsym(module, "tls_module_touch"));
    if (!touch) return 1;
    constexpr int threads = 256;
    for (int i = 0; i < threads; ++i) {
        std::thread([touch, i] {
            touch(i);
            ++touched;
            for (;;) pause();  // still running at exit
        }).detach();
    }
    while (touched < threads) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::printf("%d threads hold the module's thread-local data at exit\n", threads);
    return 0;
}
