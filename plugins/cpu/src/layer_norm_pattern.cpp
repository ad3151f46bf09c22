// layer_norm_pattern.cpp: finding decomposed layer norms in a cpu partition and running each as
// one step (layer_norm_pattern.hpp).
#include "layer_norm_pattern.hpp"

#include <cmath>
#include <optional>

#include "parallel_ranges.hpp"

namespace tessera::plugins::cpu {

namespace {

/// The partition's nodes from `first` on, read one by one while the pattern matches.
class node_walk {
  public:
    /// `reads[id]`: how many node inputs of the partition read tensor id.
    node_walk(const sdk::partition& p, const std::vector<bool>& taken,
              const std::vector<int>& reads, int first)
        : p_(p), taken_(taken), reads_(reads), next_(first) {}

    /// The next node, or null past the end or at a node already taken.
    const sdk::node* next() {
        if (next_ >= static_cast<int>(p_.nodes.size()) || taken_[static_cast<std::size_t>(next_)])
            return nullptr;
        return &p_.nodes[static_cast<std::size_t>(next_++)];
    }
    int position() const { return next_; }

    /// Whether tensor `id` is read exactly `count` times in the partition and not after it.
    bool internal(int id, int count) const {
        return reads_[static_cast<std::size_t>(id)] == count && !p_.is_read_later(id);
    }
    const tensor_desc& desc(int id) const { return p_.tensors[static_cast<std::size_t>(id)]; }

  private:
    const sdk::partition& p_;
    const std::vector<bool>& taken_;
    const std::vector<int>& reads_;
    int next_;
};

bool plain_f32(const tensor_desc& d) {
    return d.type() == dtype::f32 && d.is_row_major();
}

template <typename Op>
const Op* as(const sdk::node* n) {
    return n ? std::get_if<Op>(&n->op.variant()) : nullptr;
}

/// An unscaled f32 binary node of kind `k` with one output.
const sdk::node* binary_of(const sdk::node* n, binary_kind k) {
    const auto* b = as<op::binary>(n);
    if (!b || b->kind() != k || b->alpha() != 1.0f || b->beta() != 1.0f || b->uses_c() ||
        n->inputs.size() != 2 || n->outputs.size() != 1)
        return nullptr;
    return n;
}

/// A mean over the last dim of f32 row-major `src` keeping it (extent 1).
bool mean_of_rows(const node_walk& w, const sdk::node* n, int src) {
    const auto* r = as<op::reduce>(n);
    if (!r || r->kind() != reduce_kind::mean || !r->keep_dims() || n->inputs.size() != 1 ||
        n->outputs.size() != 1 || n->inputs[0] != src)
        return false;
    const tensor_desc& d = w.desc(src);
    return plain_f32(d) && (r->axis() == -1 || r->axis() == d.rank() - 1) &&
           plain_f32(w.desc(n->outputs[0]));
}

/// The operand of binary node `n` that is not `value` when `value` is one of its operands.
std::optional<int> other_operand(const sdk::node& n, int value) {
    if (n.inputs[0] == value && n.inputs[1] != value) return n.inputs[1];
    if (n.inputs[1] == value && n.inputs[0] != value) return n.inputs[0];
    return std::nullopt;
}

/// Whether `d` holds one value (`*row` false) or one value per column of a [.., width] tensor
/// (`*row` true), in f32 row-major.
bool row_or_scalar(const tensor_desc& d, std::int64_t width, bool* row) {
    if (!plain_f32(d)) return false;
    if (d.num_elements() == 1) {
        *row = false;
        return true;
    }
    *row = d.rank() >= 1 && d.dim(d.rank() - 1) == width && d.num_elements() == width;
    return *row;
}

std::optional<decomposed_layer_norm> match_at(const sdk::partition& p,
                                              const std::vector<bool>& taken,
                                              const std::vector<int>& reads, int first) {
    node_walk w(p, taken, reads, first);
    decomposed_layer_norm norm;
    norm.first = first;
    // mean = ReduceMean(x)
    const sdk::node* n = w.next();
    if (!n || !as<op::reduce>(n)) return std::nullopt;
    norm.src = n->inputs.empty() ? -1 : n->inputs[0];
    if (norm.src < 0 || !mean_of_rows(w, n, norm.src)) return std::nullopt;
    const tensor_desc& x = w.desc(norm.src);
    const int mean = n->outputs[0];
    // centered = x - mean
    n = binary_of(w.next(), binary_kind::sub);
    if (!n || n->inputs[0] != norm.src || n->inputs[1] != mean || !w.internal(mean, 1) ||
        w.desc(n->outputs[0]).dims() != x.dims() || !plain_f32(w.desc(n->outputs[0])))
        return std::nullopt;
    const int centered = n->outputs[0];
    // squared = centered ^ 2 (the importer's square activation, or centered * centered)
    n = w.next();
    if (!n || n->outputs.size() != 1 || n->inputs.empty() || n->inputs[0] != centered)
        return std::nullopt;
    const auto* square = as<op::activation>(n);
    const bool is_square = square
                               ? square->kind() == activation_kind::square && n->inputs.size() == 1
                               : binary_of(n, binary_kind::mul) && n->inputs[1] == centered;
    if (!is_square) return std::nullopt;
    const int squared = n->outputs[0];
    const int centered_reads = square ? 2 : 3;  // the product reads it twice
    // variance = ReduceMean(squared)
    n = w.next();
    if (!mean_of_rows(w, n, squared) || !w.internal(squared, 1)) return std::nullopt;
    const int variance = n->outputs[0];
    // shifted = variance + epsilon
    n = binary_of(w.next(), binary_kind::add);
    if (!n || !w.internal(variance, 1)) return std::nullopt;
    const auto eps = other_operand(*n, variance);
    if (!eps || !plain_f32(w.desc(*eps)) || w.desc(*eps).num_elements() != 1) return std::nullopt;
    norm.epsilon = *eps;
    const int shifted = n->outputs[0];
    // deviation = Sqrt(shifted)
    n = w.next();
    const auto* root = as<op::unary>(n);
    if (!root || root->kind() != unary_kind::sqrt || n->inputs.size() != 1 ||
        n->inputs[0] != shifted || n->outputs.size() != 1 || !w.internal(shifted, 1))
        return std::nullopt;
    const int deviation = n->outputs[0];
    // normalized = centered / deviation
    n = binary_of(w.next(), binary_kind::div);
    if (!n || n->inputs[0] != centered || n->inputs[1] != deviation || !w.internal(deviation, 1) ||
        !w.internal(centered, centered_reads) || w.desc(n->outputs[0]).dims() != x.dims() ||
        !plain_f32(w.desc(n->outputs[0])))
        return std::nullopt;
    norm.output = n->outputs[0];
    norm.width = x.dim(x.rank() - 1);
    norm.rows = x.num_elements() / norm.width;
    // optional: * gamma, then + beta
    const auto affine = [&](binary_kind k, int* operand, bool* row) {
        const int at = w.position();
        const sdk::node* m = binary_of(w.next(), k);
        const auto other = m ? other_operand(*m, norm.output) : std::nullopt;
        if (!m || !other || !w.internal(norm.output, 1) ||
            !row_or_scalar(w.desc(*other), norm.width, row) ||
            w.desc(m->outputs[0]).dims() != x.dims() || !plain_f32(w.desc(m->outputs[0]))) {
            return at;  // not part of the pattern
        }
        *operand = *other;
        norm.output = m->outputs[0];
        return w.position();
    };
    int end = affine(binary_kind::mul, &norm.gamma, &norm.gamma_row);
    if (norm.gamma >= 0) end = affine(binary_kind::add, &norm.beta, &norm.beta_row);
    norm.count = end - first;
    return norm;
}

class layer_norm_pattern_step final : public step {
  public:
    layer_norm_pattern_step(const decomposed_layer_norm& norm, const runtime::Context& ctx)
        : norm_(norm), ctx_(ctx) {
        parts_ =
            parts_for(ctx_, norm.rows,
                      std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(1, norm.width)));
    }

    void run(const buffers& b) override {
        const auto data = [&](int id) {
            return id >= 0 ? static_cast<float*>(b[static_cast<std::size_t>(id)]->host_data())
                           : nullptr;
        };
        const float* x = data(norm_.src);
        float* y = data(norm_.output);
        const float epsilon = *data(norm_.epsilon);
        const float* gamma = data(norm_.gamma);
        const float* beta = data(norm_.beta);
        parallel_ranges(ctx_, norm_.rows, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r)
                normalize_row(x + r * norm_.width, y + r * norm_.width, epsilon, gamma, beta);
        });
    }

  private:
    /// One row; y may be x itself (each element is read before it is written).
    void normalize_row(const float* x, float* y, float epsilon, const float* gamma,
                       const float* beta) const {
        const std::int64_t w = norm_.width;
        double sum = 0;
        for (std::int64_t i = 0; i < w; ++i) sum += x[i];
        const auto mean = static_cast<float>(sum / static_cast<double>(w));
        double squares = 0;
        for (std::int64_t i = 0; i < w; ++i) {
            const float d = x[i] - mean;
            squares += static_cast<double>(d * d);
        }
        const float deviation =
            std::sqrt(static_cast<float>(squares / static_cast<double>(w)) + epsilon);
        for (std::int64_t i = 0; i < w; ++i) {
            float v = (x[i] - mean) / deviation;
            if (gamma) v *= gamma[norm_.gamma_row ? i : 0];
            if (beta) v += beta[norm_.beta_row ? i : 0];
            y[i] = v;
        }
    }

    decomposed_layer_norm norm_;
    const runtime::Context& ctx_;
    int parts_ = 1;
};

}  // namespace

std::vector<decomposed_layer_norm> plan_decomposed_layer_norms(const sdk::partition& p,
                                                               const std::vector<bool>& taken) {
    std::vector<int> reads(p.tensors.size(), 0);
    for (const sdk::node& n : p.nodes)
        for (int id : n.inputs) ++reads[static_cast<std::size_t>(id)];
    std::vector<decomposed_layer_norm> found;
    for (int i = 0; i < static_cast<int>(p.nodes.size()); ++i) {
        if (taken[static_cast<std::size_t>(i)] ||
            !as<op::reduce>(&p.nodes[static_cast<std::size_t>(i)]))
            continue;
        if (auto norm = match_at(p, taken, reads, i)) {
            found.push_back(*norm);
            i += norm->count - 1;
        }
    }
    return found;
}

std::unique_ptr<step> decomposed_layer_norm_step(const decomposed_layer_norm& norm,
                                                 const runtime::Context& ctx) {
    return std::make_unique<layer_norm_pattern_step>(norm, ctx);
}

}  // namespace tessera::plugins::cpu
