// tessera/ops/data_movement.hpp: the data-movement op descriptors, one header each.
#pragma once

#include "tessera/ops/concat.hpp"
#include "tessera/ops/depth_to_space.hpp"
#include "tessera/ops/fill.hpp"
#include "tessera/ops/pad.hpp"
#include "tessera/ops/permute.hpp"
#include "tessera/ops/reshape.hpp"
#include "tessera/ops/resize_bilinear.hpp"
#include "tessera/ops/table_lookup.hpp"
