// stick_format.cpp: names, shapes and descriptors of the zaiu opaque layouts.
#include "stick_format.hpp"

#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "zdnn_call.hpp"

namespace tessera::plugins::zaiu {

using tessera::dtype;
using tessera::shape;

namespace {

std::int64_t product(const shape& dims, int from, int to) {
    std::int64_t p = 1;
    for (int i = from; i < to; ++i) p *= dims[i];
    return p;
}

std::uint32_t narrow(std::int64_t v) {
    if (v < 0 || v > std::numeric_limits<std::uint32_t>::max()) {
        throw tessera::error(tessera::status::unsupported,
                             "dimension " + std::to_string(v) + " does not fit zDNN's 32-bit dims");
    }
    return static_cast<std::uint32_t>(v);
}

constexpr const char* feature_prefix = "4DFEATURE-";

}  // namespace

std::string stick_format::name() const {
    if (quant != stick_quant::none) {
        const std::string plain = stick_format{kind, split}.name();  // "4DFEATURE-<shape>"
        const std::string shape_part = plain.substr(std::string(feature_prefix).size());
        return std::string(quant == stick_quant::weights ? "4DWEIGHTS-" : "4DFEATURE-INT8-") +
               shape_part + (transposed ? "-T" : "");
    }
    switch (kind) {
        case stick_kind::feature_1d:
            return std::string(feature_prefix) + "1D";
        case stick_kind::feature_2d:
            return std::string(feature_prefix) + "2D@" + std::to_string(split);
        case stick_kind::feature_2ds:
            return std::string(feature_prefix) + "2DS@" + std::to_string(split);
        case stick_kind::feature_3ds:
            return std::string(feature_prefix) + "3DS";
        case stick_kind::feature_nhwc:
            return std::string(feature_prefix) + "NHWC";
        case stick_kind::kernel_hwck:
            return "4DKERNEL-HWCK";
        case stick_kind::feature_4ds:
            return std::string(feature_prefix) + "4DS";
        case stick_kind::rnn_gates: {
            static const char* usages[] = {"WEIGHTS", "HIDDEN_WEIGHTS", "BIASES", "HIDDEN_BIASES"};
            return std::string(prev_bidir ? "BIDIR_" : "") + (gates == 4 ? "FICO-" : "ZRH-") +
                   usages[static_cast<int>(usage)];
        }
    }
    return "?";
}

bool stick_format::fits(const shape& dims) const {
    if (transposed && dims.rank() < 2) return false;
    switch (kind) {
        case stick_kind::feature_1d:
            return dims.rank() == 1;
        case stick_kind::feature_2d:
        case stick_kind::feature_2ds:
            return split >= 0 && split <= dims.rank();
        case stick_kind::feature_3ds:
            return dims.rank() == 3;
        case stick_kind::feature_nhwc:
        case stick_kind::kernel_hwck:
        case stick_kind::feature_4ds:
            return dims.rank() == 4;
        case stick_kind::rnn_gates: {
            const bool vector = usage == rnn_usage::biases || usage == rnn_usage::hidden_biases;
            if (dims.rank() != (vector ? 2 : 3) || dims[dims.rank() - 1] % gates != 0) return false;
            return !prev_bidir || dims[1] % 2 == 0;
        }
    }
    return false;
}

pre_shape stick_format::pre(const shape& logical) const {
    if (!fits(logical))
        throw tessera::error(tessera::status::invalid_argument,
                             "format " + name() + " cannot hold dims " + logical.to_string());
    shape dims = logical;
    if (transposed) std::swap(dims[dims.rank() - 2], dims[dims.rank() - 1]);
    pre_shape p;
    if (quant != stick_quant::none)
        p.quantized = quant == stick_quant::weights ? QUANTIZED_WEIGHTS_INT8 : QUANTIZED_INT8;
    switch (kind) {
        case stick_kind::feature_1d:
            p.layout = ZDNN_1D;
            p.rank = 1;
            p.dims = {narrow(dims[0]), 0, 0, 0};
            break;
        case stick_kind::feature_2d:
        case stick_kind::feature_2ds:
            p.layout = kind == stick_kind::feature_2d ? ZDNN_2D : ZDNN_2DS;
            p.rank = 2;
            p.dims = {narrow(product(dims, 0, split)), narrow(product(dims, split, dims.rank())), 0,
                      0};
            break;
        case stick_kind::feature_3ds:
            p.layout = ZDNN_3DS;
            p.rank = 3;
            p.dims = {narrow(dims[0]), narrow(dims[1]), narrow(dims[2]), 0};
            break;
        case stick_kind::feature_nhwc:
            p.layout = ZDNN_NCHW;
            p.rank = 4;
            p.dims = {narrow(dims[0]), narrow(dims[1]), narrow(dims[2]), narrow(dims[3])};
            break;
        case stick_kind::kernel_hwck:  // logical [O, C, KH, KW]
            p.layout = ZDNN_HWCK;
            p.rank = 4;
            p.dims = {narrow(dims[2]), narrow(dims[3]), narrow(dims[1]), narrow(dims[0])};
            break;
        case stick_kind::feature_4ds:
            p.layout = ZDNN_4DS;
            p.rank = 4;
            p.dims = {narrow(dims[0]), narrow(dims[1]), narrow(dims[2]), narrow(dims[3])};
            break;
        case stick_kind::rnn_gates: {
            const std::int64_t hidden = dims[dims.rank() - 1] / gates;
            const bool vector = usage == rnn_usage::biases || usage == rnn_usage::hidden_biases;
            p.layout = vector ? ZDNN_2DS : ZDNN_3DS;
            p.rank = vector ? 2 : 3;
            p.dims = vector ? std::array<std::uint32_t, 4>{narrow(dims[0]), narrow(hidden), 0, 0}
                            : std::array<std::uint32_t, 4>{narrow(dims[0]), narrow(dims[1]),
                                                           narrow(hidden), 0};
            static const zdnn_concat_info usage_bits[] = {USAGE_WEIGHTS, USAGE_HIDDEN_WEIGHTS,
                                                          USAGE_BIASES, USAGE_HIDDEN_BIASES};
            p.concatenated = true;
            p.concat = (gates == 4 ? RNN_TYPE_LSTM : RNN_TYPE_GRU) |
                       (prev_bidir ? PREV_LAYER_BIDIR : PREV_LAYER_UNI) |
                       usage_bits[static_cast<int>(usage)];
            break;
        }
    }
    return p;
}

stick_format natural_format(const shape& dims) {
    switch (dims.rank()) {
        case 1:
            return stick_format::d1();
        case 2:
            return stick_format::d2(1);
        case 3:
            return stick_format::d3s();
        case 4:
            return stick_format::nhwc();
        default:
            return stick_format::d2(dims.rank() > 0 ? dims.rank() - 1 : 0);
    }
}

std::optional<zdnn_data_types> zdnn_type_of(dtype t) {
    switch (t) {
        case dtype::f32:
            return FP32;
        case dtype::f16:
            return FP16;
        case dtype::bf16:
            return BFLOAT;
        case dtype::i8:
            return INT8;
        case dtype::i32:
            return INT32;
        default:
            return std::nullopt;
    }
}

bool stickable(dtype t) {
    return t == dtype::f32 || t == dtype::f16 || t == dtype::bf16;
}

void make_descs(const pre_shape& p, zdnn_data_types type, zdnn_tensor_desc& pre_desc,
                zdnn_tensor_desc& tfrmd_desc) {
    std::memset(&pre_desc, 0, sizeof pre_desc);
    std::memset(&tfrmd_desc, 0, sizeof tfrmd_desc);
    const auto& d = p.dims;
    switch (p.rank) {
        case 1:
            zdnn_init_pre_transformed_desc(p.layout, type, &pre_desc, d[0]);
            break;
        case 2:
            zdnn_init_pre_transformed_desc(p.layout, type, &pre_desc, d[0], d[1]);
            break;
        case 3:
            zdnn_init_pre_transformed_desc(p.layout, type, &pre_desc, d[0], d[1], d[2]);
            break;
        default:
            zdnn_init_pre_transformed_desc(p.layout, type, &pre_desc, d[0], d[1], d[2], d[3]);
            break;
    }
    if (p.quantized) {
        check(zdnn_generate_quantized_transformed_desc(&pre_desc, *p.quantized, &tfrmd_desc),
              "zdnn_generate_quantized_transformed_desc");
    } else if (p.concatenated) {
        check(zdnn_generate_transformed_desc_concatenated(&pre_desc, p.concat, &tfrmd_desc),
              "zdnn_generate_transformed_desc_concatenated");
    } else {
        check(zdnn_generate_transformed_desc(&pre_desc, &tfrmd_desc),
              "zdnn_generate_transformed_desc");
    }
}

tessera::tensor_desc in_format(const tessera::tensor_desc& logical, const stick_format& f) {
    const zdnn_data_types type = zdnn_type_of(logical.type()).value_or(FP32);
    zdnn_tensor_desc pre{}, tfrmd{};
    make_descs(f.pre(logical.dims()), type, pre, tfrmd);
    const auto bytes = static_cast<std::int64_t>(zdnn_getsize_ztensor(&tfrmd));
    return logical.with_layout(tessera::layout::opaque(backend_name, f.name(), bytes));
}

std::optional<stick_format> format_of(const tessera::tensor_desc& d) {
    if (!d.is_opaque() || d.opaque_backend() != backend_name) return std::nullopt;
    const std::string name = d.opaque_format();
    std::vector<stick_format> fixed = {stick_format::d1(), stick_format::d3s(),
                                       stick_format::nhwc(), stick_format::hwck(),
                                       stick_format::d4s()};
    for (int gates : {3, 4})
        for (auto usage : {rnn_usage::weights, rnn_usage::hidden_weights, rnn_usage::biases,
                           rnn_usage::hidden_biases})
            for (bool bidir : {false, true})
                if (!bidir || usage == rnn_usage::weights)
                    fixed.push_back(stick_format::rnn(gates, usage, bidir));
    for (bool t : {false, true}) {
        for (const auto& f :
             {stick_format::d1(), stick_format::d2(1), stick_format::d2s(1), stick_format::d3s()})
            if (!t || f.kind != stick_kind::feature_1d)
                fixed.push_back(f.quantized(stick_quant::int8, t));
        for (const auto& f : {stick_format::d2(1), stick_format::d3s()})
            fixed.push_back(f.quantized(stick_quant::weights, t));
    }
    for (const auto& f : fixed)
        if (f.name() == name) return f;
    for (stick_kind k : {stick_kind::feature_2d, stick_kind::feature_2ds}) {
        const std::string prefix = stick_format{k, 0}.name();  // ends in "@0"
        const std::string stem = prefix.substr(0, prefix.size() - 1);
        if (name.compare(0, stem.size(), stem) == 0 && name.size() > stem.size()) {
            const std::string digits = name.substr(stem.size());
            if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 2)
                return std::nullopt;
            return stick_format{k, std::stoi(digits)};
        }
    }
    return std::nullopt;
}

zdnn_tensor_desc transformed_of(const tessera::tensor_desc& d) {
    const auto f = format_of(d);
    if (!f)
        throw tessera::error(tessera::status::invalid_argument,
                             "not a zaiu layout: " + d.to_string());
    zdnn_tensor_desc pre{}, tfrmd{};
    make_descs(f->pre(d.dims()), zdnn_type_of(d.type()).value_or(FP32), pre, tfrmd);
    return tfrmd;
}

}  // namespace tessera::plugins::zaiu
