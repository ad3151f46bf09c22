// hostile_plugin_test.cpp: files and plugins that once crashed or hung the loader, or made the host
// read past a buffer: a truncated library, a FIFO and a directory named like plugins, entry
// functions that throw, and error records, device strings and decline texts without terminators.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <tessera/plugin/backend.hpp>
#include <tessera/tessera.hpp>

#include "elf_cut.hpp"

using namespace tessera;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the system's temporary folder, removed with its contents at the end.
class scratch_dir {
  public:
    scratch_dir() {
        std::string pattern = (fs::temp_directory_path() / "tessera-hostile-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path_ = pattern;
    }
    ~scratch_dir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

  private:
    fs::path path_;
};

std::vector<char> read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_prefix(const std::string& path, const std::vector<char>& bytes, std::size_t n) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(n));
}

load_record load(const std::string& path) {
    return plugin_registry::instance().load(path);
}

}  // namespace

TEST_CASE("a plugin cut short is refused before dlopen instead of killing the process") {
    const scratch_dir dir;
    const std::vector<char> library = read_all(REFERENCE_PLUGIN);
    REQUIRE(library.size() > 4096);
    SUBCASE("its segments run past the end") {
        const std::string cut = dir.file("libtessera_plugin_cut.so");
        const std::size_t size = tessera::testing::inside_last_segment(library);
        write_prefix(cut, library, size);
        const auto r = load(cut);
        CHECK(r.result == load_result::invalid_file);
        CHECK(r.detail.find("truncated ELF file: segment ") == 0);
        CHECK(r.detail.find("(the file has " + std::to_string(size) + " bytes)") !=
              std::string::npos);
    }
    SUBCASE("its program headers run past the end") {
        const std::string cut = dir.file("libtessera_plugin_header_only.so");
        write_prefix(cut, library, 80);  // the 64-byte ELF header and part of one program header
        const auto r = load(cut);
        CHECK(r.result == load_result::invalid_file);
        CHECK(r.detail ==
              "truncated ELF file: its program headers end past the end of the file (the file has "
              "80 bytes)");
    }
    // The loader still works afterwards.
    CHECK(plugin_registry::instance().find("reference") != nullptr);
}

TEST_CASE("a FIFO or a directory named like a plugin is refused without blocking") {
    const scratch_dir dir;
    const std::string fifo = dir.file("libtessera_plugin_fifo.so");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const auto r = load(fifo);  // dlopen would wait forever for a writer
    CHECK(r.result == load_result::invalid_file);
    CHECK(r.detail == "not a regular file (a FIFO)");

    const std::string folder = dir.file("libtessera_plugin_folder.so");
    REQUIRE(fs::create_directory(folder));
    const auto d = load(folder);
    CHECK(d.result == load_result::invalid_file);
    CHECK(d.detail == "not a regular file (a directory)");
    CHECK(plugin_registry::instance().report_text().find("[invalid file] " + fifo) !=
          std::string::npos);
}

TEST_CASE("an entry function that throws is caught and reported") {
    const auto r = load(THROWS_EXCEPTION_PLUGIN);
    CHECK(r.result == load_result::entry_threw);
    CHECK(r.detail == "exception: the test plugin's entry throws");
    const auto i = load(THROWS_INT_PLUGIN);
    CHECK(i.result == load_result::entry_threw);
    CHECK(i.detail == "an exception not derived from std::exception");
    CHECK(plugin_registry::instance().find("hostile-test") == nullptr);
    CHECK(plugin_registry::instance().report_text().find(
              "[entry threw] " + std::string(THROWS_INT_PLUGIN)) != std::string::npos);
}

TEST_CASE("an init error without a terminator is read within its buffer") {
    const auto r = load(UNTERMINATED_INIT_PLUGIN);
    CHECK(r.result == load_result::init_failed);
    CHECK(r.detail == std::string(sizeof(tsr_error{}.message), 'm'));
}

TEST_CASE("error records, device strings and decline texts without terminators stay in bounds") {
    const auto r = load(UNTERMINATED_RECORDS_PLUGIN);
    REQUIRE(r.result == load_result::loaded);
    backend b = backend::create("hostile-test");

    const auto devices = b.devices();
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].name == std::string(sizeof(tsr_device_info{}.name), 'n'));
    CHECK(devices[0].kind == std::string(sizeof(tsr_device_info{}.kind), 'k'));
    CHECK(devices[0].details == std::string(sizeof(tsr_device_info{}.details), 'd'));

    const tensor_desc d(shape{2, 3}, dtype::f32);
    const op_support s = b.query(op::activation(activation_kind::relu), {d}, {d});
    CHECK_FALSE(s.supported());
    CHECK(s.text == std::string(sizeof(tsr_op_support{}.reason_text), 'r'));

    try {
        b.allocate(16);
        FAIL("expected the plugin's error");
    } catch (const error& e) {
        CHECK(e.code() == status::out_of_memory);
        // op[64] is followed by tensor[64] and message[1024]: an unbounded read of op would
        // run on into the 't's and 'm's.
        CHECK(e.op() == std::string(sizeof(tsr_error{}.op), 'o'));
        CHECK(e.tensor() == std::string(sizeof(tsr_error{}.tensor), 't'));
        CHECK(e.message() == std::string(sizeof(tsr_error{}.message), 'm'));
        CHECK(e.backend() == "hostile-test");
    }
}
