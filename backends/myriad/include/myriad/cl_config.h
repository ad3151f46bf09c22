// myriad/cl_config.h -- the one place that configures and includes OpenCL-CLHPP for the Myriad
// custom-layer runtime.
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
// 110: opencl-clhpp 2023.02.06 only defines detail::getContextPlatformVersion (used by the
// CommandQueue constructors when targeting 2.0+) for minimum versions below 1.2.
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include <CL/opencl.hpp>
