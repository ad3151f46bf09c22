// folding_helpers.cpp: evaluation of ops on constants at load: any Tessera op through the
// reference kernels, and broadcasting arithmetic on host tensors of every ONNX element type
// (int64 shape arithmetic included).
#include "context.hpp"
#include "tessera/reference/execute.hpp"

namespace tessera::onnx::detail {

void produce(context& ctx, const op_desc& op, const std::vector<std::size_t>& inputs,
             const std::string& out) {
    bool foldable = true;
    for (auto i : inputs) {
        if (!ctx.input_is_constant(i) ||
            !ctx.values.at(ctx.input_name(i)).constant.has_tessera_type())
            foldable = false;
    }
    if (foldable) {
        std::vector<tensor> in;
        for (auto i : inputs) in.push_back(ctx.values.at(ctx.input_name(i)).constant.to_tensor());
        std::vector<tensor_desc> descs;
        for (const auto& t : in) descs.push_back(t.desc());
        try {
            op.infer(descs);
        } catch (const error& e) {
            ctx.unsupported("Tessera's " + std::string(op.name()) + " rejects it: " + e.message());
        }
        const auto result = reference::execute(op, in);
        ctx.set_constant(out, host_tensor::from_tensor(out, result.at(0)));
        return;
    }
    std::vector<graph::tensor_id> ids;
    for (auto i : inputs) ids.push_back(ctx.tensor_input(i));
    ctx.emit(op, ids, out);
}

std::vector<std::int64_t> broadcast_dims(const std::vector<std::int64_t>& a,
                                         const std::vector<std::int64_t>& b) {
    const std::size_t r = std::max(a.size(), b.size());
    std::vector<std::int64_t> out(r);
    for (std::size_t i = 0; i < r; ++i) {
        const std::int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
        const std::int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
        if (da != db && da != 1 && db != 1)
            throw node_unsupported{"dims " + std::to_string(da) + " and " + std::to_string(db) +
                                   " do not broadcast"};
        out[i] = da == 1 ? db : da;
    }
    return out;
}

namespace {
/// Row-major index into `dims` (right-aligned in `out`) of output element `flat`.
std::int64_t source_index(std::int64_t flat, const std::vector<std::int64_t>& out,
                          const std::vector<std::int64_t>& dims) {
    std::int64_t index = 0, stride = 1;
    const std::size_t shift = out.size() - dims.size();
    for (std::size_t k = out.size(); k-- > 0;) {
        const std::int64_t coord = flat % out[k];
        flat /= out[k];
        if (k >= shift) {
            const std::int64_t d = dims[k - shift];
            index += (d == 1 ? 0 : coord) * stride;
            stride *= d;
        }
    }
    return index;
}
}  // namespace

host_tensor fold_binary(const host_tensor& a, const host_tensor& b, element_type out_type,
                        const std::function<double(double, double)>& real_op,
                        const std::function<std::int64_t(std::int64_t, std::int64_t)>& int_op) {
    const auto dims = broadcast_dims(a.dims, b.dims);
    host_tensor out = make_host(out_type, dims);
    const auto n = out.num_elements();
    const bool ints = is_integer_type(a.type) && is_integer_type(b.type) && int_op;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto ia = source_index(i, dims, a.dims), ib = source_index(i, dims, b.dims);
        if (ints)
            set_integer(out, i, int_op(a.integer(ia), b.integer(ib)));
        else
            set_real(out, i, real_op(a.real(ia), b.real(ib)));
    }
    return out;
}

}  // namespace tessera::onnx::detail
