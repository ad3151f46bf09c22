// cases_normalization.cpp: conformance cases of the ops with per-channel or per-row parameter
// tensors: conv2d (bias [O] and per-location [O, OH, OW], fused batchnorm, PReLU slope),
// batchnorm (statistics and affine forms, slope) and layer_norm (gamma/beta over the normalised
// dims, given statistics of every admitted broadcast shape).
#include "case_support.hpp"

namespace conformance {

namespace {

struct conv_form {
    const char* name;
    enum { none, per_channel, per_location } bias;
    bool batchnorm;
    enum { no_act, relu, prelu_channel, prelu_one } act;
};

const conv_form conv_forms[] = {
    {"no bias", conv_form::none, false, conv_form::no_act},
    {"bias [O]", conv_form::per_channel, false, conv_form::no_act},
    {"bias [O, OH, OW] (per location)", conv_form::per_location, false, conv_form::no_act},
    {"bias [O], relu", conv_form::per_channel, false, conv_form::relu},
    {"bias [O], batchnorm mean/variance/scale/shift [O]", conv_form::per_channel, true,
     conv_form::no_act},
    {"bias [O], prelu slope [O]", conv_form::per_channel, false, conv_form::prelu_channel},
    {"prelu slope [1]", conv_form::none, false, conv_form::prelu_one},
};

}  // namespace

case_list conv2d_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : conv_forms) {
        for (int r = 0; r < repeats; ++r) {
            const std::int64_t n = d.dim(1, 2), c = d.dim(1, 5), h = d.dim(3, 8), w = d.dim(3, 8),
                               o = d.pick(3) == 0 ? d.dim(17, 20) : d.dim(1, 6);
            op::conv2d conv;
            conv.padding(1, 1, 1, 1);  // 3x3 SAME
            if (f.bias != conv_form::none) conv.bias();
            if (f.batchnorm) conv.batchnorm(true, 1e-3f);
            if (f.act == conv_form::relu) conv.fuse(activation_kind::relu);
            if (f.act == conv_form::prelu_channel || f.act == conv_form::prelu_one)
                conv.fuse(activation_kind::prelu);
            std::vector<tensor> in{d.values(shape{n, c, h, w}),
                                   d.values(shape{o, c, 3, 3}, -0.5f, 0.5f)};
            if (f.bias == conv_form::per_channel) in.push_back(d.values(shape{o}));
            if (f.bias == conv_form::per_location) in.push_back(d.values(shape{o, h, w}));
            if (f.batchnorm) {
                in.push_back(d.values(shape{o}, -0.5f, 0.5f));  // mean
                in.push_back(d.values(shape{o}, 0.5f, 2.0f));   // variance
                in.push_back(d.values(shape{o}, 0.5f, 1.5f));   // scale
                in.push_back(d.values(shape{o}, -0.5f, 0.5f));  // shift
            }
            if (f.act == conv_form::prelu_channel) in.push_back(d.values(shape{o}, -0.5f, 0.5f));
            if (f.act == conv_form::prelu_one) in.push_back(d.values(shape{1}, -0.5f, 0.5f));
            const int roundings = 1 + (f.batchnorm ? 2 : 0) + (f.act != conv_form::no_act);
            cases.push_back({"conv2d", f.name, conv, std::move(in), roundings});
        }
    }
    return cases;
}

namespace {

struct batchnorm_form {
    const char* name;
    int params;  // 2 (mean, variance), 4 (+ scale, shift) or 2 affine (a, b)
    bool affine;
    enum { no_act, prelu_channel, prelu_one } act;
};

const batchnorm_form batchnorm_forms[] = {
    {"mean, variance [C]", 2, false, batchnorm_form::no_act},
    {"mean, variance, scale, shift [C]", 4, false, batchnorm_form::no_act},
    {"affine a, b [C]", 2, true, batchnorm_form::no_act},
    {"mean, variance [C], prelu slope [C]", 2, false, batchnorm_form::prelu_channel},
    {"mean, variance, scale, shift [C], prelu slope [1]", 4, false, batchnorm_form::prelu_one},
};

}  // namespace

case_list batchnorm_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : batchnorm_forms) {
        for (int rank = 2; rank <= 4; ++rank) {
            for (int r = 0; r < repeats; ++r) {
                const shape src = d.dims(rank, 2, 6);
                const shape c{src[1]};
                op::batchnorm bn;
                bn.affine(f.affine).eps(1e-3f);
                if (f.act != batchnorm_form::no_act) bn.fuse(activation_kind::prelu);
                std::vector<tensor> in{d.values(src, -2.0f, 2.0f)};
                if (f.affine) {
                    in.push_back(d.values(c, 0.5f, 1.5f));
                    in.push_back(d.values(c, -0.5f, 0.5f));
                } else {
                    in.push_back(d.values(c, -0.5f, 0.5f));
                    in.push_back(d.values(c, 0.5f, 2.0f));
                    if (f.params == 4) {
                        in.push_back(d.values(c, 0.5f, 1.5f));
                        in.push_back(d.values(c, -0.5f, 0.5f));
                    }
                }
                if (f.act == batchnorm_form::prelu_channel) in.push_back(d.values(c, -0.5f, 0.5f));
                if (f.act == batchnorm_form::prelu_one)
                    in.push_back(d.values(shape{1}, -0.5f, 0.5f));
                const std::string form = std::string(f.name) + ", src rank " + std::to_string(rank);
                cases.push_back({"batchnorm", form, bn, std::move(in), f.affine ? 1 : 3});
            }
        }
    }
    return cases;
}

namespace {

/// Statistics shapes admitted by layer_norm's STATISTICS mode: each dim 1 or src's.
struct statistics_form {
    const char* name;
    shape (*of)(const shape& src);
};

shape per_dim0(const shape& s) {
    shape r = s;
    for (int i = 1; i < s.rank(); ++i) r = with_dim(r, i, 1);
    return r;
}
shape per_dim01(const shape& s) {
    shape r = s;
    for (int i = 2; i < s.rank(); ++i) r = with_dim(r, i, 1);
    return r;
}
shape everything_one(const shape& s) {
    shape r = s;
    for (int i = 0; i < s.rank(); ++i) r = with_dim(r, i, 1);
    return r;
}
shape last_only(const shape& s) {  // [1, ..., 1, W]
    shape r = s;
    for (int i = 0; i + 1 < s.rank(); ++i) r = with_dim(r, i, 1);
    return r;
}
shape full(const shape& s) {
    return s;
}

const statistics_form statistics_forms[] = {
    {"mean/variance [N, 1, ...] (per dim-0 index)", per_dim0},
    {"mean/variance [N, C, 1, ...]", per_dim01},
    {"mean/variance [1, ..., 1] (one value)", everything_one},
    {"mean/variance [1, ..., W] (per last-dim index)", last_only},
    {"mean/variance of src's shape", full},
};

}  // namespace

case_list layer_norm_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        for (int rank = 2; rank <= 4; ++rank) {
            const shape src = d.dims(rank, 2, 6);
            for (int axis : {-1, 1}) {
                for (int tensors = 0; tensors < 4; ++tensors) {
                    const bool g = (tensors & 1) != 0, b = (tensors & 2) != 0;
                    const int a = axis < 0 ? axis + rank : axis;
                    op::layer_norm ln;
                    ln.from_axis(axis).tensors(g, b).affine(1.5f, -0.25f);
                    std::vector<tensor> in{d.values(src, -2.0f, 2.0f)};
                    if (g) in.push_back(d.values(trailing(src, rank - a), 0.5f, 1.5f));
                    if (b) in.push_back(d.values(trailing(src, rank - a), -0.5f, 0.5f));
                    const std::string form = std::string("axis ") + std::to_string(axis) +
                                             ", src rank " + std::to_string(rank) +
                                             (g ? ", gamma dims[axis:]" : ", scalar gamma") +
                                             (b ? ", beta dims[axis:]" : ", scalar beta");
                    cases.push_back({"layer_norm", form, ln, std::move(in), 3});
                }
            }
            for (const auto& f : statistics_forms) {
                op::layer_norm ln;
                ln.statistics().affine(1.5f, -0.25f);
                const shape st = f.of(src);
                cases.push_back({"layer_norm statistics",
                                 std::string(f.name) + ", src rank " + std::to_string(rank),
                                 ln,
                                 {d.values(src, -2.0f, 2.0f), d.values(st, -0.5f, 0.5f),
                                  d.values(st, 0.5f, 2.0f)},
                                 2});
            }
        }
    }
    return cases;
}

}  // namespace conformance
