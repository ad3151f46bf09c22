// test_fp16_programs.cpp -- the fp16-compute path ("fp16 storage computes in fp16 where the device
// has cl_khr_fp16"): which build options are chosen on this device, every program built in the
// variant this device runs, and the half-arithmetic variant (REAL_HALF=1, ACC_HALF=0/1) of every
// program either built on the device (when it has cl_khr_fp16) or, on devices without it such as
// PoCL's CPU device, rejected by the device compiler and compiled instead by the offline OpenCL C
// compiler (clang, SPIR target, cl_khr_fp16 enabled) when the build found one. Running the
// half-arithmetic kernels needs a device with cl_khr_fp16.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "clml_test_support.h"
#include "program_cache.h"
#include "program_sources.h"

using namespace clml_test;
using tessera::clml::all_program_sources;
using tessera::clml::build_options;
using tessera::clml::KernelConfig;
using tessera::clml::kKernelPrelude;

namespace {

cl::Device test_device() {
  return cl::Device(env().device, true);
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// Builds prelude + source on the test device; returns the status and the build log.
cl_int build_on_device(const std::string& source, const std::string& options, std::string& log) {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(env().context, 1, &text, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const cl_int status = clBuildProgram(program, 1, &env().device, options.c_str(), nullptr, nullptr);
  size_t size = 0;
  clGetProgramBuildInfo(program, env().device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  log.assign(size, '\0');
  clGetProgramBuildInfo(program, env().device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  clReleaseProgram(program);
  return status;
}

std::string half_compute_options(const std::string& extra, int acc_half) {
  return "-DDT=1 -DREAL_HALF=1 -DACC_HALF=" + std::to_string(acc_half) + (extra.empty() ? "" : " " + extra);
}

}  // namespace

TEST_CASE("fp16 compute is chosen only for fp16 storage, FP16/FP16_ACC32 modes and a device with cl_khr_fp16") {
  const cl::Device device = test_device();
  const bool fp16 = contains(device.getInfo<CL_DEVICE_EXTENSIONS>(), "cl_khr_fp16");
  CHECK(tessera::clml::device_has_fp16(device) == fp16);
  const std::string half_fp16 = build_options(KernelConfig{CL_HALF_FLOAT, CL_ARITHMETIC_MODE_FP16_QCOM, ""}, device);
  const std::string half_acc32 =
      build_options(KernelConfig{CL_HALF_FLOAT, CL_ARITHMETIC_MODE_FP16_ACC32_QCOM, ""}, device);
  const std::string half_fp32 = build_options(KernelConfig{CL_HALF_FLOAT, CL_ARITHMETIC_MODE_FP32_QCOM, ""}, device);
  const std::string float_fp16 = build_options(KernelConfig{CL_FLOAT, CL_ARITHMETIC_MODE_FP16_QCOM, ""}, device);
  CHECK(contains(half_fp16, fp16 ? "-DREAL_HALF=1 -DACC_HALF=1" : "-DREAL_HALF=0 -DACC_HALF=0"));
  CHECK(contains(half_acc32, fp16 ? "-DREAL_HALF=1 -DACC_HALF=0" : "-DREAL_HALF=0 -DACC_HALF=0"));
  CHECK(contains(half_fp32, "-DREAL_HALF=0 -DACC_HALF=0"));
  CHECK(contains(float_fp16, "-DDT=0 -DREAL_HALF=0 -DACC_HALF=0"));
}

TEST_CASE("every program builds on this device in the fp16-storage variant chosen for it") {
  const cl::Device device = test_device();
  for (const auto& program : all_program_sources()) {
    CAPTURE(program.name);
    for (cl_arithmetic_mode_qcom mode : {CL_ARITHMETIC_MODE_FP16_QCOM, CL_ARITHMETIC_MODE_FP16_ACC32_QCOM}) {
      std::string log;
      const std::string options = build_options(KernelConfig{CL_HALF_FLOAT, mode, program.extra}, device);
      CAPTURE(options);
      CHECK(build_on_device(std::string(kKernelPrelude) + program.source, options, log) == CL_SUCCESS);
    }
  }
}

TEST_CASE("the half-arithmetic variant of every program compiles as OpenCL C with cl_khr_fp16") {
  const bool fp16 = tessera::clml::device_has_fp16(test_device());
  for (const auto& program : all_program_sources()) {
    CAPTURE(program.name);
    const std::string source = std::string(kKernelPrelude) + program.source;
    for (int acc_half : {0, 1}) {
      const std::string options = half_compute_options(program.extra, acc_half);
      CAPTURE(options);
      std::string log;
      const cl_int status = build_on_device(source, options, log);
      if (fp16) {
        CHECK(status == CL_SUCCESS);
        continue;
      }
      // Without cl_khr_fp16 the device compiler must refuse half arithmetic: the reason the
      // variant is never selected here.
      CHECK(status == CL_BUILD_PROGRAM_FAILURE);
      CHECK(contains(log, "half"));
#ifdef CLML_OFFLINE_CLANG
      const std::string path = std::string(CLML_TEST_TMPDIR) + "/fp16_" + program.name + ".cl";
      std::ofstream(path) << source;
      const std::string command = std::string(CLML_OFFLINE_CLANG) +
                                  " -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -Xclang "
                                  "-cl-ext=+cl_khr_fp16 -target spir64 -fsyntax-only " +
                                  options + " " + path;
      CAPTURE(command);
      CHECK(std::system(command.c_str()) == 0);
      std::remove(path.c_str());
#else
      MESSAGE("no offline OpenCL C compiler found at configure time: half-arithmetic variant not compiled");
#endif
    }
  }
}
