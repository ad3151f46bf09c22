// check_plugin.cpp: loads one plugin file in a child process, so that a plugin whose entry
// function aborts, exits or never returns is reported instead of taking the caller with it.
#include "check_plugin.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include <tessera/tessera.hpp>

namespace tessera::cli {
namespace {

/// Child side: load, send the report line, exit with 0 (loaded) or 1.
[[noreturn]] void load_in_child(const std::string& path, int report_fd) {
    const load_record r = plugin_registry::instance().load(path);
    const std::string line = to_text(r) + '\n';
    for (std::size_t sent = 0; sent < line.size();) {
        const ssize_t n = ::write(report_fd, line.data() + sent, line.size() - sent);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
    }
    ::_exit(r.result == load_result::loaded ? 0 : 1);
}

/// Parent side: collects the child's report until it closes the pipe or the deadline passes.
bool read_report(int fd, int timeout_s, std::string& report) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::seconds(timeout_s);
    char chunk[4096];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;  // timed out (or poll failed): the caller stops the child
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;  // the child closed the pipe: it reported or ended
        report.append(chunk, static_cast<std::size_t>(n));
    }
}

}  // namespace

int check_plugin(const std::string& path, int timeout_s) {
    std::printf("Checking %s in a child process (timeout %d s)\n", path.c_str(), timeout_s);
    std::fflush(stdout);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        std::printf("cannot create a pipe: %s\n", std::strerror(errno));
        return 1;
    }
    const pid_t child = ::fork();
    if (child < 0) {
        std::printf("cannot start a child process: %s\n", std::strerror(errno));
        return 1;
    }
    if (child == 0) {
        ::close(fds[0]);
        load_in_child(path, fds[1]);
    }
    ::close(fds[1]);
    std::string report;
    const bool finished = read_report(fds[0], timeout_s, report);
    ::close(fds[0]);
    int status = 0;
    if (!finished) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        std::printf("  %s: the plugin's entry did not return within %d s (child stopped)\n",
                    path.c_str(), timeout_s);
        return 1;
    }
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!report.empty()) std::printf("  %s", report.c_str());
    if (WIFSIGNALED(status)) {
        std::printf("  %s: the plugin crashed the process while loading: signal %d (%s)\n",
                    path.c_str(), WTERMSIG(status), strsignal(WTERMSIG(status)));
        return 1;
    }
    if (report.empty()) {
        std::printf("  %s: the plugin ended the process while loading (exit status %d)\n",
                    path.c_str(), WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 1;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

}  // namespace tessera::cli
