// dnnl_use.cpp: the same work written against oneDNN's C++ API (dnnl.hpp), the comparator of the
// header-cost benchmark (run.sh): an engine and stream, memory for a 2x3 f32 tensor, a ReLU
// primitive, one execution and a read of the result.
#include <oneapi/dnnl/dnnl.hpp>

int main() {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::desc md({2, 3}, memory::data_type::f32, memory::format_tag::ab);
    memory src(md, eng), dst(md, eng);
    float* in = static_cast<float*>(src.get_data_handle());
    for (int i = 0; i < 6; ++i) in[i] = static_cast<float>(i - 3);
    const auto pd = eltwise_forward::primitive_desc(
        eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu, md, 0.f, 0.f),
        eng);
    eltwise_forward(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    return static_cast<float*>(dst.get_data_handle())[0] == 0.0f ? 0 : 1;
}
