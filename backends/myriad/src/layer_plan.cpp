// layer_plan.cpp -- resolution of arguments, scalars and work sizes of one binding.
#include "layer_plan.h"

#include <algorithm>

#include "text_utils.h"

namespace myriad {

DType dtype_of(const std::string& t, const std::string& layer, const std::string& arg) {
    if (t == "half") return DType::f16;
    if (t == "float") return DType::f32;
    if (t == "uchar") return DType::u8;
    if (t == "char") return DType::i8;
    if (t == "ushort") return DType::u16;
    if (t == "short") return DType::i16;
    if (t == "int") return DType::i32;
    if (t == "uint") return DType::u32;
    fail(tessera::status::unsupported, layer, arg,
         "tensor element type '" + t +
             "' is not supported (half, float, uchar, char, ushort, "
             "short, int, uint)");
}

bool same_memory_order(Layout a, Layout b) {
    if (a == Layout::ANY || b == Layout::ANY) return true;
    return is_channels_last(a) == is_channels_last(b);
}

namespace {

const Shape& port_shape(const LayerSpec& spec, const PortRef& ref, const std::string& arg) {
    if (ref.output) {
        if (ref.index != 0)
            fail(tessera::status::invalid_argument, spec.type, arg,
                 "output," + std::to_string(ref.index) + ": a custom layer has one output");
        return spec.output_shape;
    }
    if (ref.index >= static_cast<int>(spec.input_shapes.size()))
        fail(tessera::status::invalid_argument, spec.type, arg,
             "refers to input " + std::to_string(ref.index) + " but the layer has " +
                 std::to_string(spec.input_shapes.size()) + " input(s)");
    return spec.input_shapes[static_cast<std::size_t>(ref.index)];
}

std::int64_t size_of_expr(const std::string& expr, const Shape& dims, const LayerSpec& spec,
                          const std::string& arg, const char* what) {
    try {
        return evaluate_size(expr, dims, spec.params);
    } catch (const expression_error& e) {
        fail(tessera::status::invalid_argument, spec.type, arg,
             std::string(what) + ": " + e.message());
    }
}

ExprValue resolve_scalar(const ScalarParam& s, const LayerSpec& spec) {
    const std::string& src = s.source;
    const auto param = spec.params.find(src);
    std::string text;
    if (param != spec.params.end()) {
        text = param->second;
        if (s.port_index) {
            const std::vector<std::string> parts = split(text, ',');
            if (*s.port_index >= static_cast<int>(parts.size()))
                fail(tessera::status::invalid_argument, spec.type, s.arg_name,
                     "port-index " + std::to_string(*s.port_index) + " of parameter '" + src +
                         "' = \"" + text + "\" is out of range");
            text = parts[static_cast<std::size_t>(*s.port_index)];
        }
        const auto v = parse_whole_number(text);
        if (!v)
            fail(tessera::status::invalid_argument, spec.type, s.arg_name,
                 "layer parameter '" + src + "' = \"" + text + "\" is not a number");
        return *v;
    }
    if (src.size() == 3 && (src[0] == 'I' || src[0] == 'O') && src[1] == '.') {
        PortRef ref;
        ref.output = src[0] == 'O';
        ref.index = s.port_index.value_or(0);
        ExprValue v;
        v.i = shape_dim(port_shape(spec, ref, s.arg_name), src[2]);
        return v;
    }
    if (const auto v = parse_whole_number(src)) return *v;
    fail(tessera::status::invalid_argument, spec.type, s.arg_name,
         "scalar source '" + src +
             "' is neither a layer parameter, I.<B|F|Y|X>, O.<B|F|Y|X> nor a number");
}

}  // namespace

LayerPlan plan_layer(const CustomLayer& binding, const LayerSpec& spec) {
    LayerPlan plan;
    plan.binding = &binding;
    auto actual_layout = [&](int port) {
        return port < static_cast<int>(spec.input_layouts.size())
                   ? spec.input_layouts[static_cast<std::size_t>(port)]
                   : Layout::BFYX;
    };
    for (const KernelStage& stage : binding.stages) {
        StagePlan sp;
        sp.stage = &stage;
        const auto sig = find_kernel(strip_comments(stage.source_text), stage.entry);
        if (!sig)
            fail(tessera::status::invalid_argument, spec.type, stage.entry,
                 "kernel not found in its sources");
        for (const KernelArg& decl : sig->args) {
            ArgPlan a;
            a.decl = decl;
            bool bound = false;
            for (const TensorParam& t : stage.tensors) {
                if (t.arg_name != decl.name) continue;
                bound = true;
                a.index = t.port_index;
                a.format = t.format;
                if (!decl.is_pointer)
                    fail(tessera::status::invalid_argument, spec.type, decl.name,
                         "a Tensor binds a kernel argument that is not a pointer");
                switch (t.role) {
                    case TensorRole::input: {
                        a.kind = ArgKind::input;
                        port_shape(spec, PortRef{false, t.port_index}, decl.name);
                        if (!same_memory_order(t.format, actual_layout(t.port_index)))
                            plan.layouts_match = false;
                        break;
                    }
                    case TensorRole::output:
                        a.kind = ArgKind::output;
                        break;
                    case TensorRole::input_buffer:
                    case TensorRole::output_buffer: {
                        a.kind = t.role == TensorRole::input_buffer ? ArgKind::input_buffer
                                                                    : ArgKind::output_buffer;
                        const std::int64_t bytes = size_of_expr(
                            t.size, port_shape(spec, *t.dim, decl.name), spec, decl.name, "size");
                        if (bytes <= 0)
                            fail(tessera::status::invalid_argument, spec.type, decl.name,
                                 "buffer size " + std::to_string(bytes) + " is not positive");
                        std::size_t& have = plan.buffer_bytes[t.port_index];
                        have = std::max(have, static_cast<std::size_t>(bytes));
                        break;
                    }
                    case TensorRole::data:
                        a.kind = ArgKind::blob;
                        a.blob = t.source;
                        break;
                }
                if (a.kind != ArgKind::local) dtype_of(decl.scalar_type, spec.type, decl.name);
            }
            for (const DataParam& d : stage.data) {
                if (d.arg_name != decl.name) continue;
                bound = true;
                if (d.kind == DataKind::data) {
                    a.kind = ArgKind::blob;
                    a.blob = d.source;
                    dtype_of(decl.scalar_type, spec.type, decl.name);
                } else {
                    a.kind = ArgKind::local;
                    const std::int64_t bytes = size_of_expr(
                        d.size, port_shape(spec, *d.dim, decl.name), spec, decl.name, "size");
                    if (bytes <= 0)
                        fail(tessera::status::invalid_argument, spec.type, decl.name,
                             "local_data size " + std::to_string(bytes) + " is not positive");
                    a.local_bytes = static_cast<std::size_t>(bytes);
                    if (decl.space != AddressSpace::local)
                        fail(tessera::status::invalid_argument, spec.type, decl.name,
                             "local_data binds an argument that is not a __local pointer");
                }
            }
            for (const ScalarParam& s : stage.scalars) {
                if (s.arg_name != decl.name) continue;
                bound = true;
                a.kind = ArgKind::scalar;
                a.scalar = resolve_scalar(s, spec);
                a.scalar_is_float = s.type == ScalarType::float_;
                if (decl.is_pointer)
                    fail(tessera::status::invalid_argument, spec.type, decl.name,
                         "a Scalar binds a pointer argument");
            }
            if (!bound)
                fail(tessera::status::invalid_argument, spec.type, decl.name,
                     "kernel argument '" + decl.name + "' of '" + stage.entry + "' is not bound");
            sp.args.push_back(std::move(a));
        }
        const WorkSizes& ws = stage.work_sizes;
        const Shape& dims = port_shape(spec, ws.dim, "WorkSizes");
        sp.has_local = ws.has_local;
        for (int d = 0; d < 3; ++d) {
            const std::int64_t g = size_of_expr(ws.global[static_cast<std::size_t>(d)], dims, spec,
                                                "WorkSizes", "global");
            const std::int64_t l = ws.has_local
                                       ? size_of_expr(ws.local[static_cast<std::size_t>(d)], dims,
                                                      spec, "WorkSizes", "local")
                                       : 1;
            if (g <= 0 || l <= 0)
                fail(tessera::status::invalid_argument, spec.type, "WorkSizes",
                     "dimension " + std::to_string(d) + ": global " + std::to_string(g) +
                         ", local " + std::to_string(l) + " (both must be positive)");
            if (g % l != 0)
                fail(tessera::status::invalid_argument, spec.type, "WorkSizes",
                     "dimension " + std::to_string(d) + ": global size " + std::to_string(g) +
                         " is not a multiple of local size " + std::to_string(l));
            sp.global[static_cast<std::size_t>(d)] = static_cast<std::size_t>(g);
            sp.local[static_cast<std::size_t>(d)] = static_cast<std::size_t>(l);
        }
        plan.stages.push_back(std::move(sp));
    }
    return plan;
}

}  // namespace myriad
