// QuantizedMatmul: B packed into VNNI order once (weights manager) when constant, else into a
// managed buffer on every run; S8MatmulKernel runs blocks of 8 rows of A through the table's s8
// GEMM and applies the zero-offset corrections.
#include "tessera/cpu/functions/quantized_matmul.hpp"

#include <cstring>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {
namespace {

constexpr int64_t kRowBlock = 8;

/// s8 [K, N] -> [ceil(N/16)][K4/4][16][4], zero-padded.
class PackS8Transform final : public ITransformWeights {
  public:
    explicit PackS8Transform(const ITensor& b) : b_(b) {}
    std::string uid() const override { return "s8_pack_vnni"; }
    TensorInfo result_info() const override {
        const int64_t k4 = (b_.info().dim(0) + 3) / 4 * 4, panels = (b_.info().dim(1) + 15) / 16;
        return TensorInfo({std::max<int64_t>(1, panels * k4 * 16)}, DataType::s8);
    }
    void run(Tensor& result) const override {
        const int64_t k = b_.info().dim(0), n = b_.info().dim(1), k4 = (k + 3) / 4 * 4;
        const int8_t* b = b_.data<int8_t>();
        int8_t* out = result.data<int8_t>();
        for (int64_t p = 0; p < (n + 15) / 16; ++p)
            for (int64_t kk = 0; kk < k4; kk += 4)
                for (int64_t j = 0; j < 16; ++j)
                    for (int64_t q = 0; q < 4; ++q) {
                        const int64_t row = kk + q, col = p * 16 + j;
                        out[((p * k4 + kk) / 4 * 16 + j) * 4 + q] =
                            row < k && col < n ? b[row * n + col] : 0;
                    }
    }

  private:
    const ITensor& b_;
};

class S8MatmulKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "S8MatmulKernel"; }
    void configure(const KernelTable& table, const ITensor& a, ITensor& dst, int64_t k, int64_t n) {
        table_ = &table;
        a_ = &a;
        dst_ = &dst;
        k_ = k;
        n_ = n;
        k4_ = (k + 3) / 4 * 4;
        Window win;
        const int64_t m = a.info().dim(0);
        win.set(0, Window::Dimension(0, (m + kRowBlock - 1) / kRowBlock * kRowBlock, kRowBlock));
        configure_window(win, 0, 1);
    }
    std::size_t workspace_bytes_per_part() const {
        return static_cast<std::size_t>(kRowBlock * k4_);
    }
    void bind(const int8_t* packed, const int32_t* col_sums, int32_t a_offset, int32_t b_offset,
              uint8_t* ws, int parts) {
        packed_ = packed;
        col_sums_ = col_sums;
        za_ = a_offset;
        zb_ = b_offset;
        workspace_ = ws;
        parts_ = parts;
    }
    void run(const Window& w, const ThreadInfo& info) override {
        if (info.thread_id >= parts_)
            throw Error("S8MatmulKernel::run", "", "workspace was sized for fewer parts");
        const int64_t m = a_->info().dim(0);
        const uint8_t* a = a_->data<uint8_t>();
        int32_t* c = dst_->data<int32_t>();
        uint8_t* ws =
            workspace_ + static_cast<std::size_t>(info.thread_id) * workspace_bytes_per_part();
        for (int64_t i0 = w[0].start(); i0 < std::min(w[0].end(), m); i0 += kRowBlock) {
            const int64_t rows = std::min(kRowBlock, m - i0);
            const uint8_t* block = a + i0 * k_;
            int64_t lda = k_;
            if (k4_ != k_) {  // pad rows to a multiple of 4 bytes
                for (int64_t r = 0; r < rows; ++r) {
                    std::memcpy(ws + r * k4_, block + r * k_, static_cast<std::size_t>(k_));
                    std::memset(ws + r * k4_ + k_, 0, static_cast<std::size_t>(k4_ - k_));
                }
                block = ws;
                lda = k4_;
            }
            table_->s8_gemm(block, lda, packed_, c + i0 * n_, n_, rows, n_, k4_);
            for (int64_t r = 0; r < rows; ++r) {
                int32_t row_sum = 0;
                for (int64_t kk = 0; kk < k_; ++kk) row_sum += a[(i0 + r) * k_ + kk];
                const int32_t row_term = -zb_ * row_sum + static_cast<int32_t>(k_) * za_ * zb_;
                int32_t* crow = c + (i0 + r) * n_;
                for (int64_t j = 0; j < n_; ++j) crow[j] += row_term - za_ * col_sums_[j];
            }
        }
    }

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* a_ = nullptr;
    ITensor* dst_ = nullptr;
    int64_t k_ = 0, n_ = 0, k4_ = 0;
    const int8_t* packed_ = nullptr;
    const int32_t* col_sums_ = nullptr;
    int32_t za_ = 0, zb_ = 0;
    uint8_t* workspace_ = nullptr;
    int parts_ = 0;
};

}  // namespace

struct QuantizedMatmul::Impl {
    const Context& ctx;
    MemoryGroup group;
    S8MatmulKernel kernel;
    Tensor workspace;
    int parts = 1;
    const ITensor* a = nullptr;
    const ITensor* b = nullptr;
    bool b_is_constant = true;
    std::shared_ptr<const Tensor> packed;  // constant B
    Tensor packed_per_run;                 // B packed on every run otherwise (managed)
    std::vector<int32_t> col_sums;
    bool prepared = false;
    Impl(const Context& c, std::shared_ptr<MemoryManager> mm) : ctx(c), group(std::move(mm)) {}

    void sum_columns() {
        const int64_t k = b->info().dim(0), n = b->info().dim(1);
        col_sums.assign(static_cast<std::size_t>(n), 0);
        for (int64_t r = 0; r < k; ++r)
            for (int64_t j = 0; j < n; ++j)
                col_sums[static_cast<std::size_t>(j)] += b->data<int8_t>()[r * n + j];
    }
};

QuantizedMatmul::QuantizedMatmul(const Context& ctx, std::shared_ptr<MemoryManager> mm)
    : impl_(std::make_unique<Impl>(ctx, std::move(mm))) {}
QuantizedMatmul::~QuantizedMatmul() = default;

void QuantizedMatmul::configure(const ITensor& a, const ITensor& b, ITensor& dst,
                                bool b_is_constant) {
    Impl& m = *impl_;
    const char* fn = "QuantizedMatmul::configure";
    auto plain2d = [&](const ITensor& t, DataType type) {
        require(t.info().layout() == DataLayout::plain && t.info().rank() == 2 &&
                    t.info().is_dense() && t.info().data_type() == type,
                fn, t.info().name(), "needs a dense plain " + to_string(type) + " matrix");
    };
    plain2d(a, DataType::u8);
    plain2d(b, DataType::s8);
    plain2d(dst, DataType::s32);
    require(a.info().dim(1) == b.info().dim(0), fn, b.info().name(), "inner dimensions differ");
    require(dst.info().dim(0) == a.info().dim(0) && dst.info().dim(1) == b.info().dim(1), fn,
            dst.info().name(), "output must be [M, N]");
    m.a = &a;
    m.b = &b;
    m.b_is_constant = b_is_constant;
    m.kernel.configure(m.ctx.kernels(), a, dst, a.info().dim(1), b.info().dim(1));
    m.parts = m.ctx.scheduler().parts_for(m.kernel);
    m.workspace.info() = TensorInfo(
        {static_cast<int64_t>(m.kernel.workspace_bytes_per_part()) * m.parts}, DataType::u8);
    m.group.manage(m.workspace.allocator());
    if (!b_is_constant) {
        m.packed_per_run.info() = PackS8Transform(b).result_info();
        m.group.manage(m.packed_per_run.allocator());
    }
    m.workspace.allocator().allocate();
    if (!b_is_constant) m.packed_per_run.allocator().allocate();
    m.prepared = false;
}

void QuantizedMatmul::prepare() {
    Impl& m = *impl_;
    if (m.prepared) return;
    if (m.b_is_constant) {
        m.packed = m.ctx.weights_manager().acquire(*m.b, PackS8Transform(*m.b));
        m.sum_columns();
    }
    m.prepared = true;
}

void QuantizedMatmul::run() {
    Impl& m = *impl_;
    prepare();
    MemoryGroupScope scope(m.group);
    const int8_t* packed = nullptr;
    if (m.b_is_constant) {
        packed = m.packed->data<int8_t>();
    } else {
        PackS8Transform(*m.b).run(m.packed_per_run);
        m.sum_columns();
        packed = m.packed_per_run.data<int8_t>();
    }
    m.kernel.bind(packed, m.col_sums.data(), m.a->info().quantization().offset,
                  m.b->info().quantization().offset, m.workspace.data<uint8_t>(), m.parts);
    m.ctx.scheduler().schedule(m.kernel, m.parts);
}

}  // namespace tessera::cpu
