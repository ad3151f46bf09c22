// fuzz_input.hpp: reads typed values from a fuzzer's byte string, the way every harness in
// tests/fuzz decodes its input. Reads past the end yield zeros, so every byte string decodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace tessera_fuzz {

class fuzz_input {
  public:
    fuzz_input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    bool empty() const { return pos_ >= size_; }
    std::size_t remaining() const { return pos_ < size_ ? size_ - pos_ : 0; }

    /// The next sizeof(T) bytes as a T (zero-filled past the end).
    template <typename T>
    T take() {
        static_assert(std::is_trivially_copyable_v<T>);
        T value{};
        const std::size_t n = remaining() < sizeof(T) ? remaining() : sizeof(T);
        if (n) std::memcpy(&value, data_ + pos_, n);
        pos_ += n;
        return value;
    }

    /// A value in [lo, hi] (inclusive) taken from one byte, or two when the range needs them.
    int in_range(int lo, int hi) {
        const unsigned span = static_cast<unsigned>(hi - lo) + 1;
        const unsigned raw = span <= 256 ? take<std::uint8_t>() : take<std::uint16_t>();
        return lo + static_cast<int>(raw % span);
    }

    bool flag() { return take<std::uint8_t>() & 1; }

    /// Up to `max` bytes as a string.
    std::string bytes(std::size_t max) {
        const std::size_t n = remaining() < max ? remaining() : max;
        std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n;
        return s;
    }

    /// Everything not read yet.
    std::string rest() { return bytes(remaining()); }

  private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

/// A harness found a wrong answer (not a crash): stop so that libFuzzer keeps the input.
[[noreturn]] void report_mismatch(const std::string& what);

}  // namespace tessera_fuzz
