// api_guard.h -- error mapping at the API boundary: exceptions become CL error codes, and the
// argument checks shared by many entry points (context, queue, event wait lists).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <new>

#include "cl_config.h"

namespace tessera::clml {

// True when CLML_DEBUG is set: internal failures are then described on stderr.
bool debug_enabled();

// Runs an entry point body; no exception ever crosses the C boundary.
// Depth of CLML entry points on this thread: kernels the library enqueues itself are never
// captured into a recording (only the client's).
inline thread_local int library_call_depth = 0;

struct LibraryCallScope {
  LibraryCallScope() { ++library_call_depth; }
  ~LibraryCallScope() { --library_call_depth; }
  LibraryCallScope(const LibraryCallScope&) = delete;
  LibraryCallScope& operator=(const LibraryCallScope&) = delete;
};

template <class Body>
cl_int guarded(Body&& body) noexcept {
  LibraryCallScope scope;
  try {
    return body();
  } catch (const cl::BuildError& error) {
    if (debug_enabled()) {
      for (const auto& log : error.getBuildLog()) std::fprintf(stderr, "clml build log:\n%s\n", log.second.c_str());
    }
    return CL_OUT_OF_RESOURCES;
  } catch (const cl::Error& error) {
    if (debug_enabled()) std::fprintf(stderr, "clml: %s failed with %d\n", error.what(), error.err());
    return error.err() != CL_SUCCESS ? error.err() : CL_OUT_OF_RESOURCES;
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

cl_int validate_context(cl_context context);
// A valid in-order host queue; CL_INVALID_COMMAND_QUEUE otherwise.
cl_int validate_queue(cl_command_queue queue);
cl_int validate_wait_list(cl_uint count, const cl_event* events);
// Context of a (validated) queue.
cl_context queue_context(cl_command_queue queue);
// The buffer object behind a tensor must be a buffer of at least `bytes` bytes in `context`.
cl_int validate_buffer(cl_mem memory, size_t bytes, cl_context context);

}  // namespace tessera::clml
