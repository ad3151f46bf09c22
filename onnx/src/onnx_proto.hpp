// onnx_proto.hpp: includes the protobuf classes of Debian's libonnx (onnx-ml.proto, namespace
// onnx; the onnx_proto CMake target defines ONNX_ML and ONNX_NAMESPACE). Only the importer's
// sources include it; the public header stays free of protobuf.
#pragma once

#include <onnx/onnx_pb.h>
