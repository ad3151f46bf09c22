// elementwise_chain.cpp: finding element-wise chains in a cpu partition and running them as one
// pass (elementwise_chain.hpp).
#include "elementwise_chain.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "elementwise_math.hpp"
#include "parallel_ranges.hpp"

namespace tessera::plugins::cpu {

namespace {

bool row_major_f32(const tensor_desc& d) {
    return d.type() == dtype::f32 && d.is_row_major();
}

/// How tensor `d` broadcasts onto a chain of shape `dims`, if it does in one of the chain's ways.
std::optional<chain_operand::source> broadcast_of(const tensor_desc& d, const shape& dims) {
    if (!row_major_f32(d) || d.rank() > dims.rank()) return std::nullopt;
    if (d.num_elements() == 1) return chain_operand::source::scalar;
    if (d.dims() == dims) return chain_operand::source::full;
    const int r = dims.rank(), offset = r - d.rank();
    const auto dim = [&](int i) { return i < offset ? std::int64_t{1} : d.dim(i - offset); };
    bool row = dim(r - 1) == dims[r - 1], column = dim(r - 1) == 1;
    for (int i = 0; i + 1 < r; ++i) {
        row = row && dim(i) == 1;
        column = column && dim(i) == dims[i];
    }
    if (row) return chain_operand::source::row;
    if (column) return chain_operand::source::column;
    return std::nullopt;
}

/// Node `i` of `p` as a chain node of shape `dims`, whose earlier nodes wrote `values` (partition
/// tensor ids, in chain order); nothing when it cannot join.
std::optional<chain_node> as_chain_node(const sdk::partition& p, int i, const shape& dims,
                                        const std::vector<int>& values) {
    const sdk::node& n = p.nodes[static_cast<std::size_t>(i)];
    if (n.outputs.size() != 1) return std::nullopt;
    const tensor_desc& out = p.tensors[static_cast<std::size_t>(n.outputs[0])];
    if (!row_major_f32(out) || out.dims() != dims) return std::nullopt;
    chain_node c;
    std::size_t arity = 0;
    if (const auto* u = std::get_if<op::unary>(&n.op.variant())) {
        if (!native_unary(u->kind())) return std::nullopt;
        c.is_unary = true;
        c.unary = u->kind();
        c.epsilon = u->epsilon();
        arity = 1;
    } else if (const auto* b = std::get_if<op::binary>(&n.op.variant())) {
        if (b->alpha() != 1.0f || b->beta() != 1.0f || b->uses_c()) return std::nullopt;
        c.binary = b->kind();
        arity = 2;
    } else {
        return std::nullopt;
    }
    if (n.inputs.size() != arity) return std::nullopt;
    chain_operand* operands[] = {&c.a, &c.b};
    for (std::size_t k = 0; k < arity; ++k) {
        const int id = n.inputs[k];
        const auto v = std::find(values.begin(), values.end(), id);
        if (v != values.end()) {
            *operands[k] = {chain_operand::source::value, static_cast<int>(v - values.begin())};
            continue;
        }
        const auto from = broadcast_of(p.tensors[static_cast<std::size_t>(id)], dims);
        if (!from) return std::nullopt;
        *operands[k] = {*from, id};
    }
    return c;
}

bool reads_any(const sdk::node& n, const std::vector<int>& values) {
    for (int id : n.inputs)
        if (std::find(values.begin(), values.end(), id) != values.end()) return true;
    return false;
}

/// Whether every value of the chain but the last is read only by the chain's nodes.
bool values_stay_inside(const sdk::partition& p, const std::vector<std::vector<int>>& readers,
                        int first, const std::vector<int>& values) {
    const int last = first + static_cast<int>(values.size()) - 1;
    for (std::size_t k = 0; k + 1 < values.size(); ++k) {
        if (p.is_read_later(values[k])) return false;
        for (int reader : readers[static_cast<std::size_t>(values[k])])
            if (reader < first || reader > last) return false;
    }
    return true;
}

const float* chain_input(const buffers& b, int id) {
    return static_cast<const float*>(b[static_cast<std::size_t>(id)]->host_data());
}

bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
    const auto* pa = static_cast<const unsigned char*>(a);
    const auto* pb = static_cast<const unsigned char*>(b);
    return pa < pb + b_bytes && pb < pa + a_bytes;
}

class chain_step final : public step {
  public:
    chain_step(elementwise_chain chain, const runtime::Context& ctx)
        : chain_(std::move(chain)), ctx_(ctx) {
        // Without row or column operands the output is one long row: longer blocks.
        bool rows_matter = false;
        for (const auto& n : chain_.nodes)
            for (const auto* o : {&n.a, &n.b})
                rows_matter = rows_matter || (o->from == chain_operand::source::row ||
                                              o->from == chain_operand::source::column);
        if (!rows_matter) {
            chain_.width *= chain_.rows;
            chain_.rows = 1;
        }
        block_ = std::min<std::int64_t>(chain_.width, 1024);
        segments_ = block_ ? (chain_.width + block_ - 1) / block_ : 0;
        parts_ = parts_for(ctx_, chain_.rows * chain_.width, grain(chain_));
        values_.resize(static_cast<std::size_t>(parts_) * chain_.nodes.size() *
                       static_cast<std::size_t>(block_));
    }

    void run(const buffers& b) override {
        const std::int64_t total = chain_.rows * chain_.width;
        auto* out = static_cast<float*>(b[static_cast<std::size_t>(chain_.output)]->host_data());
        const std::size_t out_bytes = static_cast<std::size_t>(total) * sizeof(float);
        // Operands from outside the chain; any the output overlaps (other than a whole tensor at
        // the output's own address, read before each block is written) send the result through
        // a scratch copy.
        bool scratch = false;
        for (const auto& n : chain_.nodes)
            for (const auto* o : {&n.a, &n.b}) {
                if (o->from == chain_operand::source::value || (&n.b == o && n.is_unary)) continue;
                sdk::buffer& in = *b[static_cast<std::size_t>(o->index)];
                const bool same_place =
                    o->from == chain_operand::source::full && in.host_data() == out;
                scratch =
                    scratch || (!same_place &&
                                ranges_overlap(in.host_data(), static_cast<std::size_t>(in.size()),
                                               out, out_bytes));
            }
        float* dst = out;
        if (scratch) {
            scratch_.resize(static_cast<std::size_t>(total));
            dst = scratch_.data();
        }
        parallel_ranges(ctx_, chain_.rows * segments_, parts_,
                        [&](std::int64_t begin, std::int64_t end, int part) {
                            for (std::int64_t k = begin; k < end; ++k) {
                                const std::int64_t r = k / segments_;
                                const std::int64_t s = k % segments_ * block_;
                                const std::int64_t len = std::min(block_, chain_.width - s);
                                run_block(b, part, r, s, len, dst + r * chain_.width + s);
                            }
                        });
        if (scratch) std::memcpy(out, dst, out_bytes);
    }

  private:
    /// Elements per thread at least: about 16K simple operations' worth (erf, exp and log count
    /// as eight each), so that a part pays for handing it to another thread.
    static std::int64_t grain(const elementwise_chain& c) {
        std::int64_t cost = 0;
        for (const auto& n : c.nodes) {
            const bool costly =
                n.is_unary && (n.unary == unary_kind::erf || n.unary == unary_kind::exp ||
                               n.unary == unary_kind::log);
            cost += costly ? 8 : 1;
        }
        return std::max<std::int64_t>(1024,
                                      (std::int64_t{1} << 14) / std::max<std::int64_t>(1, cost));
    }

    /// Chain node k's block of values for part `part`.
    float* value(int part, std::size_t k) {
        const std::size_t per_part = chain_.nodes.size() * static_cast<std::size_t>(block_);
        return values_.data() + static_cast<std::size_t>(part) * per_part +
               k * static_cast<std::size_t>(block_);
    }

    array_operand resolve(const buffers& b, const chain_operand& o, int part, std::int64_t row,
                          std::int64_t start) {
        switch (o.from) {
            case chain_operand::source::value:
                return {value(part, static_cast<std::size_t>(o.index)), false};
            case chain_operand::source::full:
                return {chain_input(b, o.index) + row * chain_.width + start, false};
            case chain_operand::source::row:
                return {chain_input(b, o.index) + start, false};
            case chain_operand::source::column:
                return {chain_input(b, o.index) + row, true};
            case chain_operand::source::scalar:
                break;
        }
        return {chain_input(b, o.index), true};
    }

    void run_block(const buffers& b, int part, std::int64_t row, std::int64_t start,
                   std::int64_t len, float* dst) {
        const std::size_t last = chain_.nodes.size() - 1;
        for (std::size_t k = 0; k <= last; ++k) {
            const chain_node& n = chain_.nodes[k];
            float* to = k == last ? dst : value(part, k);
            const array_operand a = resolve(b, n.a, part, row, start);
            if (n.is_unary) {
                if (a.uniform) {
                    apply_unary(n.unary, n.epsilon, a.data, to, 1);
                    std::fill(to + 1, to + len, to[0]);
                } else {
                    apply_unary(n.unary, n.epsilon, a.data, to, len);
                }
            } else {
                apply_binary(n.binary, a, resolve(b, n.b, part, row, start), to, len);
            }
        }
    }

    elementwise_chain chain_;
    const runtime::Context& ctx_;
    std::int64_t block_ = 1, segments_ = 0;
    int parts_ = 1;
    std::vector<float> values_;   // per part, one block per chain node
    std::vector<float> scratch_;  // the result, when the output overlaps an operand
};

}  // namespace

std::vector<elementwise_chain> plan_elementwise_chains(const sdk::partition& p,
                                                       const std::vector<bool>& taken) {
    std::vector<std::vector<int>> readers(p.tensors.size());
    for (std::size_t i = 0; i < p.nodes.size(); ++i)
        for (int id : p.nodes[i].inputs)
            readers[static_cast<std::size_t>(id)].push_back(static_cast<int>(i));
    const int count = static_cast<int>(p.nodes.size());
    std::vector<elementwise_chain> chains;
    for (int i = 0; i < count; ++i) {
        if (taken[static_cast<std::size_t>(i)] ||
            p.nodes[static_cast<std::size_t>(i)].outputs.size() != 1)
            continue;
        const shape dims =
            p.tensors[static_cast<std::size_t>(p.nodes[static_cast<std::size_t>(i)].outputs[0])]
                .dims();
        std::vector<int> values;
        std::vector<chain_node> nodes;
        for (int j = i; j < count && !taken[static_cast<std::size_t>(j)]; ++j) {
            const sdk::node& n = p.nodes[static_cast<std::size_t>(j)];
            if (j > i && !reads_any(n, values)) break;
            auto c = as_chain_node(p, j, dims, values);
            if (!c) break;
            nodes.push_back(*c);
            values.push_back(n.outputs[0]);
        }
        while (values.size() >= 2 && !values_stay_inside(p, readers, i, values)) {
            values.pop_back();
            nodes.pop_back();
        }
        if (values.size() < 2) continue;
        elementwise_chain chain;
        chain.first = i;
        chain.nodes = std::move(nodes);
        chain.width = dims.rank() ? dims[dims.rank() - 1] : 1;
        chain.rows = chain.width ? dims.num_elements() / chain.width : 0;
        chain.output = values.back();
        i += static_cast<int>(chain.nodes.size()) - 1;
        chains.push_back(std::move(chain));
    }
    return chains;
}

std::unique_ptr<step> elementwise_chain_step(const elementwise_chain& chain,
                                             const runtime::Context& ctx) {
    return std::make_unique<chain_step>(chain, ctx);
}

}  // namespace tessera::plugins::cpu
