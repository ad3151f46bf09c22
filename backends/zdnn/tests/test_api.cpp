// Queries, versions, limits, status messages, getrange and ZDNN_STATUS_DIAG.
#include <unistd.h>
#include <cstdio>
#include <string>

#include "test_support.hpp"

TEST_CASE("emulated zAIU reports itself installed with every capability") {
  CHECK(zdnn_is_nnpa_installed());
  CHECK(zdnn_is_nnpa_function_installed(3, NNPA_ADD, NNPA_LSTMACT, NNPA_MATMUL_OP_BCAST1));
  CHECK(zdnn_is_nnpa_function_installed(0));
  CHECK_FALSE(zdnn_is_nnpa_function_installed(1, 5));
  CHECK(zdnn_is_nnpa_parmblk_fmt_installed(2, NNPA_PARMBLKFORMAT_0, NNPA_PARMBLKFORMAT_1));
  CHECK(zdnn_is_nnpa_datatype_installed(QUERY_DATATYPE_INTERNAL1 | QUERY_DATATYPE_BINARY_INT8));
  CHECK(zdnn_is_nnpa_layout_fmt_installed(QUERY_LAYOUTFMT_4DFEATURE | QUERY_LAYOUTFMT_4DWEIGHTS));
  CHECK(zdnn_is_nnpa_conversion_installed(NNPA_DATATYPE_1, QUERY_BFPFMT_TINY | QUERY_BFPFMT_SHORT));
  CHECK(zdnn_refresh_nnpa_query_result() == ZDNN_OK);
  CHECK(zdnn_get_nnpa_max_dim_idx_size() == 32768);
  CHECK(zdnn_get_max_for_dim(2) / 4 == 8192);
  CHECK(zdnn_get_nnpa_max_tensor_size() == (4ull << 30));
}

TEST_CASE("versions agree") {
  CHECK(zdnn_get_library_version() == 0x00010200);
  CHECK(std::string(zdnn_get_library_version_str()).rfind("1.2.0", 0) == 0);
  CHECK(zdnn_get_max_runnable_version() == 0x000102FF);
  CHECK(zdnn_is_version_runnable(ZDNN_VERNUM));
  CHECK(zdnn_is_version_runnable(0x010000));
  CHECK_FALSE(zdnn_is_version_runnable(0x010300));
  CHECK_FALSE(zdnn_is_version_runnable(0x020000));
}

TEST_CASE("limits") {
  float f;
  CHECK(zdnn_get_max_limit(ZDNN_DLFLOAT16, FP32, &f) == ZDNN_OK);
  CHECK(f == 8573157376.0f);
  CHECK(zdnn_get_min_limit(ZDNN_DLFLOAT16, FP32, &f) == ZDNN_OK);
  CHECK(f == -8573157376.0f);
  uint16_t h;
  CHECK(zdnn_get_max_limit(ZDNN_DLFLOAT16, FP16, &h) == ZDNN_OK);
  CHECK(h == 0x7BFF);
  int8_t i8;
  CHECK(zdnn_get_min_limit(ZDNN_BINARY_INT8, INT8, &i8) == ZDNN_OK);
  CHECK(i8 == -128);
  CHECK(zdnn_get_max_limit(ZDNN_DLFLOAT16, INT8, &i8) == ZDNN_INVALID_TYPE);
  CHECK(zdnn_get_max_limit(FP32, FP32, &f) == ZDNN_INVALID_TYPE);
}

TEST_CASE("status messages") {
  CHECK(std::string(zdnn_get_status_message(ZDNN_OK)) == "Success.");
  CHECK(std::string(zdnn_get_status_message(ZDNN_INVALID_SHAPE)).find("shape") != std::string::npos);
  CHECK(std::string(zdnn_get_status_message((zdnn_status)0x1234)) == "(Status string is not defined.)");
  CHECK(ZDNN_FUNC_RC_F009 == 0x000CF009);
  CHECK(ZDNN_INVALID_OFFSET == 0x00040012);
  CHECK(ZDNN_UNSUPPORTED_AIU_EXCEPTION == 0x00100005);
  CHECK(ZDNN_MISALIGNED_SAVEAREA == 0x000C0015);
}

TEST_CASE("getrange") {
  ztest::Tensor t(ZDNN_NHWC, FP32, {1, 2, 3, 4});
  std::vector<float> v(24, 1.0f);
  v[5] = -7.5f;
  v[9] = 12.0f;
  REQUIRE(t.load(v) == ZDNN_OK);
  float lo = 0, hi = 0;
  zdnn_getrange_ztensor(&t.z, &lo, &hi);
  CHECK(lo == -7.5f);
  CHECK(hi == 12.0f);
  REQUIRE(t.load(v) == ZDNN_INVALID_STATE);
}

namespace {

// Runs `body` with stderr redirected to a temporary file and returns what was written.
template <class Body>
std::string capture_stderr(Body body) {
  std::fflush(stderr);
  char path[] = "/tmp/zdnn_stderr_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const int saved = dup(2);
  dup2(fd, 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  if (FILE* f = std::fopen(path, "r")) {
    char buffer[1024];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    std::fclose(f);
  }
  close(fd);
  std::remove(path);
  return text;
}

}  // namespace

TEST_CASE("ZDNN_LOGLEVEL and ZDNN_LOGMODULE control logging of failing calls") {
  ztest::Tensor a(ZDNN_1D, FP32, {2}), b(ZDNN_1D, FP32, {3});
  const auto failing_add = [&] { CHECK(zdnn_add(&a.z, &b.z, &a.z) == ZDNN_INVALID_SHAPE); };
  CHECK(capture_stderr(failing_add).empty());  // default: off
  setenv("ZDNN_LOGLEVEL", "error", 1);
  zdnn_init();
  const std::string logged = capture_stderr(failing_add);
  CHECK(logged.find("zdnn_add") != std::string::npos);
  CHECK(logged.find("0x00040001") != std::string::npos);
  setenv("ZDNN_LOGMODULE", "transform, other", 1);
  zdnn_init();
  CHECK(capture_stderr(failing_add).empty());  // module "status" not selected
  setenv("ZDNN_LOGMODULE", "status", 1);
  setenv("ZDNN_LOGLEVEL", "fatal", 1);
  zdnn_init();
  CHECK(capture_stderr(failing_add).empty());  // errors are below "fatal"
  unsetenv("ZDNN_LOGMODULE");
  unsetenv("ZDNN_LOGLEVEL");
  zdnn_init();
}

TEST_CASE("ZDNN_STATUS_DIAG prints a diagnostic for the chosen status") {
  ztest::Tensor a(ZDNN_1D, FP32, {2}), b(ZDNN_1D, FP32, {3});
  const auto failing_add = [&] { CHECK(zdnn_add(&a.z, &b.z, &a.z) == ZDNN_INVALID_SHAPE); };
  setenv("ZDNN_STATUS_DIAG", "0x00040001", 1);
  zdnn_init();
  CHECK(capture_stderr(failing_add).find("0x00040001") != std::string::npos);
  setenv("ZDNN_STATUS_DIAG", "262147", 1);  // decimal 0x00040003: another status, no diagnostic
  zdnn_init();
  CHECK(capture_stderr(failing_add).empty());
  unsetenv("ZDNN_STATUS_DIAG");
  zdnn_init();
}
