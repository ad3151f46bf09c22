// elf_cut.hpp: where to cut a shared library so that the copy is truncated inside a loadable
// segment, for the tests of the loader's truncated-file check. Half the file is not enough: in a
// build with debug info (kept after the segments) the first half may hold every segment.
#pragma once

#include <elf.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace tessera::testing {

/// A length that ends halfway through the library's last loadable segment.
inline std::size_t inside_last_segment(const std::vector<char>& library) {
    Elf64_Ehdr header;
    if (library.size() < sizeof header) throw std::runtime_error("not an ELF file");
    std::memcpy(&header, library.data(), sizeof header);
    std::size_t start = 0, end = 0;
    for (std::size_t i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr ph;
        const std::size_t at = header.e_phoff + i * sizeof ph;
        if (at + sizeof ph > library.size()) throw std::runtime_error("truncated ELF file");
        std::memcpy(&ph, library.data() + at, sizeof ph);
        if (ph.p_type == PT_LOAD && ph.p_filesz > 1 && ph.p_offset + ph.p_filesz > end) {
            start = ph.p_offset;
            end = ph.p_offset + ph.p_filesz;
        }
    }
    if (end == 0) throw std::runtime_error("no loadable segment");
    return start + (end - start) / 2;
}

}  // namespace tessera::testing
