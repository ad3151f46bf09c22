// tessera/reference/indexing.hpp: reference kernels of op::slice, op::gather,
// op::gather_elements, op::expand and op::tile. They copy raw elements (every dtype works); the
// gathers read i32 or i64 indices.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/ops/broadcast.hpp"
#include "tessera/ops/indexing.hpp"
#include "tessera/reference/element_access.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

inline void run(const op::slice& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const int rank = src.desc().rank();
    std::vector<op::slice_range> r;
    for (int i = 0; i < rank; ++i) r.push_back(op.resolve(i, src.desc().dim(i)));
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        detail::index_t s{};
        for (int i = 0; i < rank; ++i) {
            const auto& ri = r[static_cast<std::size_t>(i)];
            s[i] = ri.first + o[i] * ri.step;
        }
        detail::copy_element(src, s, out[0], o);
    });
}

inline void run(const op::gather& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& data = in[0];
    const tensor& indices = in[1];
    const int rank = data.desc().rank();
    const int axis = op.axis() < 0 ? op.axis() + rank : op.axis();
    const int index_rank = indices.desc().rank();
    const std::int64_t n = data.desc().dim(axis);
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        detail::index_t ii{};
        for (int k = 0; k < index_rank; ++k) ii[k] = o[axis + k];
        const std::int64_t raw = detail::load_index(indices, ii);
        const std::int64_t at = raw < 0 ? raw + n : raw;
        if (at < 0 || at >= n) {
            throw error(status::invalid_argument,
                        "index " + std::to_string(raw) + " is outside [-" + std::to_string(n) +
                            ", " + std::to_string(n) + ")",
                        {"reference", "gather", "indices"});
        }
        detail::index_t s{};
        for (int k = 0; k < axis; ++k) s[k] = o[k];
        s[axis] = at;
        for (int k = axis + 1; k < rank; ++k) s[k] = o[k - 1 + index_rank];
        detail::copy_element(data, s, out[0], o);
    });
}

inline void run(const op::gather_elements& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& data = in[0];
    const tensor& indices = in[1];
    const int rank = data.desc().rank();
    const int axis = op.axis() < 0 ? op.axis() + rank : op.axis();
    const std::int64_t n = data.desc().dim(axis);
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        const std::int64_t raw = detail::load_index(indices, o);
        const std::int64_t at = raw < 0 ? raw + n : raw;
        if (at < 0 || at >= n) {
            throw error(status::invalid_argument,
                        "index " + std::to_string(raw) + " is outside [-" + std::to_string(n) +
                            ", " + std::to_string(n) + ")",
                        {"reference", "gather_elements", "indices"});
        }
        detail::index_t s = o;
        s[axis] = at;
        detail::copy_element(data, s, out[0], o);
    });
}

inline void run(const op::expand&, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    const tensor& dst = out[0];
    const int rank = dst.desc().rank();
    const detail::broadcast_reader src(in[0], rank);
    const std::size_t size = size_of(dst.type());
    const bool raw = detail::same_storage(in[0], dst);
    tessera::detail::for_each_index(dst.dims(), [&](const detail::index_t& idx) {
        if (raw) {
            std::memcpy(dst.address_of(idx), src.address(idx), size);
        } else {
            detail::store(dst, idx, src.load(idx));
        }
    });
}

inline void run(const op::tile&, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const int rank = src.desc().rank();
    tessera::detail::for_each_index(out[0].dims(), [&](const detail::index_t& o) {
        detail::index_t s{};
        for (int i = 0; i < rank; ++i) s[i] = o[i] % src.desc().dim(i);
        detail::copy_element(src, s, out[0], o);
    });
}

}  // namespace tessera::reference
