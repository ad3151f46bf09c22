// Window: dimension setting, splitting into balanced step-aligned parts and the ACL sub-window
// rules.
#include "tessera/cpu/window.hpp"

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

void Window::set(std::size_t dim, const Dimension& d) {
    require(dim < kNumDims, "Window::set", "", "dimension index out of range");
    require(d.step() > 0, "Window::set", "", "step must be positive");
    require(d.end() >= d.start(), "Window::set", "", "end before start");
    require((d.end() - d.start()) % d.step() == 0, "Window::set", "",
            "extent must be a multiple of the step");
    dims_[dim] = d;
}

int64_t Window::total_iterations() const {
    int64_t total = 1;
    for (const Dimension& d : dims_) total *= d.num_iterations();
    return total;
}

Window Window::split_window(std::size_t dim, int64_t id, int64_t total) const {
    require(dim < kNumDims, "Window::split_window", "", "dimension index out of range");
    require(total > 0 && id >= 0 && id < total, "Window::split_window", "", "bad part index");
    const Dimension& d = dims_[dim];
    const int64_t steps = d.num_iterations();
    const int64_t base = steps / total, extra = steps % total;
    const int64_t first = id * base + std::min(id, extra);
    const int64_t count = base + (id < extra ? 1 : 0);
    Window sub = *this;
    const int64_t start = d.start() + first * d.step();
    sub.dims_[dim] = Dimension(start, start + count * d.step(), d.step());
    return sub;
}

bool Window::is_valid_subwindow(const Window& sub) const {
    for (std::size_t n = 0; n < kNumDims; ++n) {
        const Dimension& m = dims_[n];
        const Dimension& s = sub.dims_[n];
        if (m.end() == m.start()) {
            if (!(s == m)) return false;
            continue;
        }
        if (!(m.start() <= s.start() && s.start() < m.end())) return false;
        if (!(s.start() < s.end() && s.end() <= m.end())) return false;
        if (m.step() != s.step()) return false;
        if ((s.start() - m.start()) % m.step() != 0) return false;
        if ((s.end() - s.start()) % m.step() != 0) return false;
    }
    return true;
}

}  // namespace tessera::cpu
