// tessera/plugin/plugin_file_check.hpp: checks a candidate plugin file before dlopen sees it.
// dlopen blocks forever opening a FIFO, and maps an ELF file cut short (a build or a copy that
// did not finish) past its end, which kills the process with SIGBUS while it relocates. So the
// file must be a regular file, and when it is an ELF file of this machine's class, its program
// headers and every segment's file bytes must lie within the file. Anything else (text, another
// class) is left to dlopen, whose error text names the problem. The check reads the file once;
// a file replaced between the check and dlopen is not covered.
#pragma once

#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tessera::detail {

/// Closes a file descriptor when it goes out of scope.
class unique_fd {
  public:
    explicit unique_fd(int fd) : fd_(fd) {}
    unique_fd(const unique_fd&) = delete;
    unique_fd& operator=(const unique_fd&) = delete;
    ~unique_fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }

  private:
    int fd_;
};

inline const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

/// Reads exactly `size` bytes at `offset`; false on a short read or an error.
inline bool read_at(int fd, void* out, std::size_t size, std::uint64_t offset) {
    auto* p = static_cast<char*>(out);
    while (size > 0) {
        const ssize_t n = ::pread(fd, p, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        offset += static_cast<std::uint64_t>(n);
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

/// Whether [offset, offset + length) lies within a file of `file_size` bytes (no overflow).
inline bool within_file(std::uint64_t offset, std::uint64_t length, std::uint64_t file_size) {
    return offset <= file_size && length <= file_size - offset;
}

/// "" when the file may be handed to dlopen, otherwise the reason it must not be.
inline std::string plugin_file_problem(const std::string& path) {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
    const unique_fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) return std::string("cannot open: ") + std::strerror(errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return std::string("cannot stat: ") + std::strerror(errno);
    if (!S_ISREG(st.st_mode))
        return std::string("not a regular file (") + file_kind(st.st_mode) + ")";
    const auto file_size = static_cast<std::uint64_t>(st.st_size);

    ElfW(Ehdr) header{};
    if (file_size < sizeof header || !read_at(fd.get(), &header, sizeof header, 0)) return {};
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32))
        return {};  // not ELF, or another class: dlopen reads only the header and says so
    const std::string size_text = " (the file has " + std::to_string(file_size) + " bytes)";
    if (header.e_phnum == 0) return {};
    if (header.e_phentsize != sizeof(ElfW(Phdr)))
        return "malformed ELF file: program header entries of " +
               std::to_string(header.e_phentsize) + " bytes, expected " +
               std::to_string(sizeof(ElfW(Phdr)));
    const std::uint64_t table_bytes = std::uint64_t{header.e_phnum} * sizeof(ElfW(Phdr));
    if (!within_file(header.e_phoff, table_bytes, file_size))
        return "truncated ELF file: its program headers end past the end of the file" + size_text;
    std::vector<ElfW(Phdr)> segments(header.e_phnum);
    if (!read_at(fd.get(), segments.data(), table_bytes, header.e_phoff))
        return "cannot read the program headers" + size_text;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const auto& s = segments[i];
        if (!within_file(s.p_offset, s.p_filesz, file_size))
            return "truncated ELF file: segment " + std::to_string(i) + " ends at byte " +
                   std::to_string(s.p_offset + s.p_filesz) + size_text;
    }
    return {};
}

}  // namespace tessera::detail
