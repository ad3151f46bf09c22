// step_buffers.hpp: access to the buffers a step runs with, by partition tensor id.
#pragma once

#include "program.hpp"

namespace tessera::plugins::cpu {

/// The host data of partition tensor `id` among a step's buffers.
inline void* host_data_of(const buffers& b, int id) {
    return b[static_cast<std::size_t>(id)]->host_data();
}

}  // namespace tessera::plugins::cpu
