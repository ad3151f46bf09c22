// myriad_test_support.h -- helpers of the Myriad tests: a scratch directory for bindings files and
// kernels, the bindings XML of a custom layer, one shared Runtime, random data, fp16 rounding and
// tolerance checks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "myriad/runtime.h"

namespace myriad_test {

/// A fresh directory under the build tree named after the test; files are written into it.
class ScratchDir {
  public:
    explicit ScratchDir(const std::string& name);
    std::string write(const std::string& file, const std::string& text) const;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

/// The OpenCL device the tests run on: MYRIAD_TEST_DEVICE (index over all platforms), else 0.
int device_index();

/// The Runtime on that device, created once.
myriad::Runtime& runtime();

std::vector<float> random_values(std::size_t n, float lo, float hi, unsigned seed);
/// The value rounded to half precision (what the device stores).
float to_half(float v);
std::vector<float> to_half(const std::vector<float>& v);

/// Checks |got - want| <= atol + rtol * |want| for every element (doctest CHECKs, first 5 misses).
void check_close(const std::vector<float>& got, const std::vector<double>& want, double atol,
                 double rtol);

/// The bindings XML of custom layer `name` running kernel `entry` of file `source` on tensor src
/// (input port 0) into dst (output port 0), with the local buffers `local_data` (arg name, size
/// expression; sized along output 0), the int scalars `int_scalars` (each taken from the layer
/// parameter of its name) and the work sizes `work_sizes` (the attributes of <WorkSizes>).
std::string src_dst_layer_xml(const std::string& name, const std::string& entry,
                              const std::string& source,
                              const std::vector<std::pair<std::string, std::string>>& local_data,
                              const std::vector<std::string>& int_scalars,
                              const std::string& work_sizes);

/// NCHW <-> NHWC reordering of host values.
std::vector<float> nchw_to_nhwc(const std::vector<float>& v, const myriad::Shape& s);
std::vector<float> nhwc_to_nchw(const std::vector<float>& v, const myriad::Shape& s);

}  // namespace myriad_test

namespace myriad_test {
/// Half bits of a float and back (host conversions, round to nearest even).
std::uint16_t half_bits(float v);
float from_half_bits(std::uint16_t h);
}  // namespace myriad_test
