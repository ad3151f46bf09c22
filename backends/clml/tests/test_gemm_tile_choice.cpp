// test_gemm_tile_choice.cpp -- which GEMM kernel an op gets: the blocked kernel's tile for a GPU
// of a given size (every compute unit gets a work-group, the largest such tile), none on a CPU
// device, CLML_GEMM_KERNEL overriding the choice, and the tile names' build options.
#include <cstdlib>
#include <string>

#include "clml_test_support.h"
#include "gemm_blocked.h"

using namespace clml_test;
using tessera::clml::blocked_gemm_needs_checks;
using tessera::clml::blocked_gemm_tile_for;
using tessera::clml::blocked_gemm_tile_named;
using tessera::clml::choose_blocked_gemm_tile;

TEST_CASE("blocked gemm: the tile for a GPU fills its compute units") {
  // 132 compute units (an H100): 4096 and 2048 give 128 x 128 tiles 1024 and 256 work-groups.
  CHECK(std::string(blocked_gemm_tile_for(4096, 4096, 132).name) == "128x128x8_8x8");
  CHECK(std::string(blocked_gemm_tile_for(2048, 2048, 132).name) == "128x128x8_8x8");
  // 1024: 128 x 128 gives 64 groups, 64 x 128 gives 128 (97% of the units).
  CHECK(std::string(blocked_gemm_tile_for(1024, 1024, 132).name) == "64x128x8_8x8");
  // 512: 64 x 128 gives 32 groups, 64 x 64 gives 64, 32 x 64 gives 128.
  CHECK(std::string(blocked_gemm_tile_for(512, 512, 132).name) == "32x64x16_4x4");
  // 256: even 32 x 64 gives only 32 groups; the smallest tile.
  CHECK(std::string(blocked_gemm_tile_for(256, 256, 132).name) == "32x32x16_4x4");
  // 100 x 1000: ragged blocks count whole (1 x 8 of 128 x 128 is too few; 2 x 16 of 64 x 64 will do
  // for 30 units).
  CHECK(std::string(blocked_gemm_tile_for(100, 1000, 30).name) == "64x64x16_8x8");
  // A small GPU takes the large tile sooner.
  CHECK(std::string(blocked_gemm_tile_for(1024, 1024, 16).name) == "128x128x8_8x8");
}

TEST_CASE("blocked gemm: GPUs get the blocked kernel, CPUs the register kernel, unless CLML_GEMM_KERNEL names one") {
  const cl::Device device(env().device, true);
  const bool gpu = (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
  CHECK(choose_blocked_gemm_tile(device, 1024, 1024, 1024).has_value() == gpu);
  // Small products keep the register-tiled kernel on any device.
  CHECK_FALSE(choose_blocked_gemm_tile(device, 1, 512, 512).has_value());
  setenv("CLML_GEMM_KERNEL", "64x64x16_4x4", 1);
  const auto forced = choose_blocked_gemm_tile(device, 1024, 1024, 1024);
  // Offsets past 2^31 elements do not fit the kernel's int indexing.
  const auto too_large = choose_blocked_gemm_tile(device, 65536, 65536, 16);
  setenv("CLML_GEMM_KERNEL", "register", 1);
  const auto register_tiled = choose_blocked_gemm_tile(device, 1024, 1024, 1024);
  unsetenv("CLML_GEMM_KERNEL");
  REQUIRE(forced.has_value());
  CHECK(std::string(forced->name) == "64x64x16_4x4");
  CHECK(forced->group_x() == 16);
  CHECK(forced->group_y() == 16);
  CHECK_FALSE(too_large.has_value());
  CHECK_FALSE(register_tiled.has_value());
}

TEST_CASE("blocked gemm: ragged shapes take the bounds-checked variant") {
  const auto tile = blocked_gemm_tile_named("128x128x8_8x8");
  REQUIRE(tile.has_value());
  CHECK_FALSE(blocked_gemm_needs_checks(*tile, 256, 128, 16));
  CHECK(blocked_gemm_needs_checks(*tile, 256, 128, 12));
  CHECK(blocked_gemm_needs_checks(*tile, 200, 128, 16));
  CHECK(blocked_gemm_needs_checks(*tile, 256, 100, 16));
  CHECK(tile->build_options(true, false, true) ==
        "-DBM=128 -DBN=128 -DBK=8 -DTM=8 -DTN=8 -DTRANS_A=1 -DTRANS_B=0 -DCHECKED=1");
  CHECK_FALSE(blocked_gemm_tile_named("register").has_value());
}
