// myriad/bindings.h -- the data model of Myriad custom-layer bindings files (both XML
// generations) and the parser that reads them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "myriad/errors.h"

namespace myriad {

/// Memory order of a tensor argument. BFYX = NCHW, BYXF = NHWC, FYX = CHW, YXF = HWC, BF = NC.
enum class Layout { BFYX, BYXF, FYX, YXF, BF, ANY };

/// "BFYX", "BYXF", ...
const char* to_string(Layout layout);

/// True when the layout stores channels innermost (BYXF, YXF).
bool is_channels_last(Layout layout);

/// A reference to one input or output port ("input,0", "output,0").
struct PortRef {
    bool output = false;
    int index = 0;
};

enum class TensorRole { input, output, input_buffer, output_buffer, data };

/// <Tensor arg-name type port-index format [dim size]>
struct TensorParam {
    std::string arg_name;
    TensorRole role = TensorRole::input;
    int port_index = 0;  ///< port, or the buffer id for input_buffer/output_buffer
    Layout format = Layout::BFYX;
    std::optional<PortRef> dim;  ///< input_buffer/output_buffer: the tensor size refers to
    std::string size;            ///< input_buffer/output_buffer: size in bytes (expression)
    std::string source;          ///< type="data": the layer blob name
    int line = 0;
};

enum class DataKind { data, local_data };

/// <Data arg-name type [source] [dim size]>
struct DataParam {
    std::string arg_name;
    DataKind kind = DataKind::data;
    std::string source;  ///< kind data: the layer blob name (e.g. "weights")
    std::optional<PortRef> dim;
    std::string size;  ///< kind local_data: bytes of __local memory (expression)
    int line = 0;
};

enum class ScalarType { int_, float_ };

/// <Scalar arg-name type [port-index] source>
struct ScalarParam {
    std::string arg_name;
    ScalarType type = ScalarType::int_;
    std::optional<int> port_index;
    std::string source;
    int line = 0;
};

/// <WorkSizes dim global local>
struct WorkSizes {
    PortRef dim;
    std::array<std::string, 3> global{"1", "1", "1"};
    std::array<std::string, 3> local{"1", "1", "1"};
    bool has_local = false;
    int line = 0;
};

/// One kernel (stage) of a binding.
struct KernelStage {
    std::string entry;
    int stage = 0;
    int max_shaves = 0;                ///< 0 = no limit
    std::vector<std::string> sources;  ///< paths of the Source files, in order
    std::string source_text;           ///< their OpenCL C text, concatenated
    std::vector<TensorParam> tensors;
    std::vector<DataParam> data;
    std::vector<ScalarParam> scalars;
    WorkSizes work_sizes;
    bool has_work_sizes = false;
    int line = 0;
};

enum class CompareOp { equal, not_equal, less, less_equal, greater, greater_equal };

/// One attribute of <Where>: parameter <op> value.
struct WhereCondition {
    std::string parameter;
    CompareOp op = CompareOp::equal;
    std::string value;
    int line = 0;
};

/// One <CustomLayer> binding (all its stages).
struct CustomLayer {
    std::string name;  ///< the layer type it binds (compared case-insensitively)
    std::string type = "MVCL";
    int version = 1;
    int max_shaves = 0;
    std::vector<WhereCondition> where;
    std::vector<KernelStage> stages;  ///< ordered by stage number 0..N-1
    std::string file;
    int line = 0;
};

/// Parses one bindings file (a sequence of top-level CustomLayer elements). Flat and nested
/// generations are both accepted; flat multi-stage layers (several CustomLayer elements with
/// stage="N") are merged into one CustomLayer. Throws myriad::xml_error naming file, line,
/// element and attribute.
std::vector<CustomLayer> parse_bindings_file(const std::string& path);

/// The same, for XML text; `path` names it in errors and anchors relative Source filenames.
std::vector<CustomLayer> parse_bindings_text(const std::string& text, const std::string& path);

}  // namespace myriad
