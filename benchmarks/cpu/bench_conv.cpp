// Convolution cases (placeholder until Conv2d lands).
namespace tessera::cpu::bench {
void register_conv_benchmarks() {}
}  // namespace tessera::cpu::bench
