// xml_parser.cpp -- reads bindings files of both generations into myriad::CustomLayer, checking
// every element, attribute, expression and kernel argument, with file/line/element/attribute in
// every error.
#include <sys/stat.h>
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <pugixml.hpp>

#include "kernel_source.h"
#include "myriad/bindings.h"
#include "myriad/size_expression.h"
#include "text_utils.h"

namespace myriad {

const char* to_string(Layout layout) {
    switch (layout) {
        case Layout::BFYX:
            return "BFYX";
        case Layout::BYXF:
            return "BYXF";
        case Layout::FYX:
            return "FYX";
        case Layout::YXF:
            return "YXF";
        case Layout::BF:
            return "BF";
        case Layout::ANY:
            return "ANY";
    }
    return "?";
}

bool is_channels_last(Layout layout) {
    return layout == Layout::BYXF || layout == Layout::YXF;
}

namespace {

/// Parsing context of one file: its name, directory and the offsets of its line starts.
class FileContext {
  public:
    FileContext(const std::string& text, std::string path) : path_(std::move(path)) {
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n') line_starts_.push_back(i + 1);
        const std::size_t slash = path_.find_last_of('/');
        directory_ = slash == std::string::npos ? std::string() : path_.substr(0, slash + 1);
    }

    int line_of(std::ptrdiff_t offset) const {
        if (offset < 0) return 0;
        return static_cast<int>(std::upper_bound(line_starts_.begin(), line_starts_.end(),
                                                 static_cast<std::size_t>(offset)) -
                                line_starts_.begin());
    }
    int line_of(const pugi::xml_node& node) const { return line_of(node.offset_debug()); }

    [[noreturn]] void fail(const pugi::xml_node& node, const std::string& attribute,
                           const std::string& reason) const {
        throw xml_error(path_, line_of(node), node.name(), attribute, reason);
    }

    const std::string& path() const { return path_; }
    const std::string& directory() const { return directory_; }

  private:
    std::string path_;
    std::string directory_;
    std::vector<std::size_t> line_starts_{0};
};

/// Attribute access with the schema checks: known names only, no empty values.
class Element {
  public:
    Element(const FileContext& file, pugi::xml_node node, std::set<std::string> allowed)
        : file_(file), node_(node) {
        for (const pugi::xml_attribute& a : node.attributes()) {
            if (!allowed.count(a.name()))
                file_.fail(node_, a.name(), "unknown attribute (allowed: " + join(allowed) + ")");
            if (trim(a.value()).empty()) file_.fail(node_, a.name(), "empty value");
        }
    }

    bool has(const char* name) const { return static_cast<bool>(node_.attribute(name)); }

    std::string text(const char* name) const {
        const pugi::xml_attribute a = node_.attribute(name);
        if (!a) file_.fail(node_, name, "missing (required)");
        return trim(a.value());
    }
    std::string text_or(const char* name, const std::string& fallback) const {
        return has(name) ? text(name) : fallback;
    }

    int integer(const char* name, int minimum) const {
        const std::string v = text(name);
        const auto n = parse_whole_number(v);
        if (!n || n->is_float || n->i < minimum || n->i > 1000000000)
            file_.fail(node_, name, "'" + v + "' is not an integer >= " + std::to_string(minimum));
        return static_cast<int>(n->i);
    }
    int integer_or(const char* name, int minimum, int fallback) const {
        return has(name) ? integer(name, minimum) : fallback;
    }

    Layout layout(const char* name) const {
        if (!has(name)) return Layout::BFYX;
        const std::string v = text(name);
        for (Layout l :
             {Layout::BFYX, Layout::BYXF, Layout::FYX, Layout::YXF, Layout::BF, Layout::ANY})
            if (iequals(v, to_string(l))) return l;
        file_.fail(node_, name, "unknown format '" + v + "' (BFYX, BYXF, FYX, YXF, BF, ANY)");
    }

    PortRef port(const char* name) const {
        const std::string v = text(name);
        const std::vector<std::string> parts = split(v, ',');
        PortRef ref;
        const auto n = parts.size() == 2 ? parse_whole_number(parts[1]) : std::nullopt;
        if (parts.size() != 2 ||
            (!iequals(trim(parts[0]), "input") && !iequals(trim(parts[0]), "output")) || !n ||
            n->is_float || n->i < 0 || n->i > 1000)
            file_.fail(node_, name, "'" + v + "' is not \"input,N\" or \"output,N\"");
        ref.output = iequals(trim(parts[0]), "output");
        ref.index = static_cast<int>(n->i);
        return ref;
    }

    std::string expression(const char* name) const { return checked_expression(name, text(name)); }

    std::string checked_expression(const char* name, const std::string& expr) const {
        try {
            check_expression_syntax(expr);
        } catch (const expression_error& e) {
            file_.fail(node_, name,
                       "malformed expression \"" + expr + "\" at column " +
                           std::to_string(e.column()) + ": " + e.reason());
        }
        return expr;
    }

    /// Up to three comma-separated expressions (commas inside parentheses do not split).
    std::array<std::string, 3> expressions3(const char* name) const {
        const std::string v = text(name);
        std::vector<std::string> parts;
        int depth = 0;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= v.size(); ++i) {
            if (i < v.size() && v[i] == '(') ++depth;
            if (i < v.size() && v[i] == ')') --depth;
            if (i == v.size() || (v[i] == ',' && depth == 0)) {
                parts.push_back(trim(v.substr(start, i - start)));
                start = i + 1;
            }
        }
        if (parts.size() > 3) file_.fail(node_, name, "more than three work dimensions");
        std::array<std::string, 3> out{"1", "1", "1"};
        for (std::size_t k = 0; k < parts.size(); ++k) {
            if (parts[k].empty())
                file_.fail(node_, name, "empty expression for dimension " + std::to_string(k));
            out[k] = checked_expression(name, parts[k]);
        }
        return out;
    }

    int line() const { return file_.line_of(node_); }
    pugi::xml_node node() const { return node_; }

  private:
    static std::string join(const std::set<std::string>& names) {
        std::string s;
        for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
        return s;
    }
    const FileContext& file_;
    pugi::xml_node node_;
};

/// Reads a regular file of at most 64 MiB (devices, directories and FIFOs are refused).
std::string read_file(const std::string& path, bool* ok) {
    struct stat st {};
    *ok = false;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20))
        return {};
    std::ifstream in(path, std::ios::binary);
    *ok = static_cast<bool>(in);
    if (!*ok) return {};
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool looks_binary(const std::string& bytes) {
    if (bytes.size() >= 4 && bytes.compare(0, 4,
                                           "\x7f"
                                           "ELF") == 0)
        return true;
    return bytes.find('\0') != std::string::npos;
}

void check_children(const FileContext& file, const pugi::xml_node& node,
                    const std::set<std::string>& allowed) {
    for (const pugi::xml_node& child : node.children()) {
        if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
            if (!trim(child.value()).empty())
                file.fail(node, "", "unexpected text inside the element");
            continue;
        }
        if (child.type() != pugi::node_element) continue;
        if (!allowed.count(child.name()))
            file.fail(child, "", std::string("unknown element inside <") + node.name() + ">");
    }
}

void parse_parameters(const FileContext& file, const pugi::xml_node& node, KernelStage& stage) {
    check_children(file, node, {"Tensor", "Data", "Scalar"});
    for (const pugi::xml_node& child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        const std::string kind = child.name();
        if (kind == "Tensor") {
            Element e(file, child,
                      {"arg-name", "type", "port-index", "format", "dim", "size", "source"});
            TensorParam t;
            t.arg_name = e.text("arg-name");
            t.line = e.line();
            const std::string type = to_lower(e.text("type"));
            if (type == "input")
                t.role = TensorRole::input;
            else if (type == "output")
                t.role = TensorRole::output;
            else if (type == "input_buffer")
                t.role = TensorRole::input_buffer;
            else if (type == "output_buffer")
                t.role = TensorRole::output_buffer;
            else if (type == "data")
                t.role = TensorRole::data;
            else
                file.fail(child, "type",
                          "unknown tensor type '" + e.text("type") +
                              "' (input, output, input_buffer, output_buffer, data)");
            t.port_index = e.integer_or("port-index", 0, 0);
            t.format = e.layout("format");
            if (t.role == TensorRole::input_buffer || t.role == TensorRole::output_buffer) {
                t.dim = e.port("dim");
                t.size = e.expression("size");
            } else if (e.has("dim") || e.has("size")) {
                file.fail(child, e.has("dim") ? "dim" : "size",
                          "only input_buffer and output_buffer tensors have a size");
            }
            if (t.role == TensorRole::data)
                t.source = e.text_or("source", "weights");
            else if (e.has("source"))
                file.fail(child, "source", "only data tensors name a source");
            stage.tensors.push_back(std::move(t));
        } else if (kind == "Data") {
            Element e(file, child, {"arg-name", "type", "source", "dim", "size", "format"});
            DataParam d;
            d.arg_name = e.text("arg-name");
            d.line = e.line();
            const std::string type = to_lower(e.text("type"));
            if (type == "data") {
                d.kind = DataKind::data;
                d.source = e.text("source");
            } else if (type == "local_data") {
                d.kind = DataKind::local_data;
                d.dim = e.port("dim");
                d.size = e.expression("size");
            } else {
                file.fail(child, "type",
                          "unknown data type '" + e.text("type") + "' (data, local_data)");
            }
            if (e.has("format")) e.layout("format");
            stage.data.push_back(std::move(d));
        } else {
            Element e(file, child, {"arg-name", "type", "port-index", "source"});
            ScalarParam s;
            s.arg_name = e.text("arg-name");
            s.line = e.line();
            const std::string type = to_lower(e.text("type"));
            if (type == "int")
                s.type = ScalarType::int_;
            else if (type == "float")
                s.type = ScalarType::float_;
            else
                file.fail(child, "type",
                          "unknown scalar type '" + e.text("type") + "' (int, float)");
            if (e.has("port-index")) s.port_index = e.integer("port-index", 0);
            s.source = e.text("source");
            const std::string src = s.source;
            if (src.size() == 3 && (src[0] == 'I' || src[0] == 'O') && src[1] == '.' &&
                std::string("BFYX").find(src[2]) == std::string::npos)
                file.fail(child, "source", "'" + src + "' names no dimension (B, F, Y, X)");
            stage.scalars.push_back(std::move(s));
        }
    }
}

void parse_work_sizes(const FileContext& file, const pugi::xml_node& node, KernelStage& stage) {
    Element e(file, node, {"dim", "global", "local"});
    stage.work_sizes.dim = e.port("dim");
    stage.work_sizes.global = e.expressions3("global");
    if (e.has("local")) {
        stage.work_sizes.local = e.expressions3("local");
        stage.work_sizes.has_local = true;
    }
    stage.work_sizes.line = e.line();
    stage.has_work_sizes = true;
}

void parse_kernel_element(const FileContext& file, const pugi::xml_node& node, KernelStage& stage,
                          bool nested) {
    Element e(file, node, {"entry", "stage", "max-shaves"});
    stage.entry = e.text("entry");
    stage.line = e.line();
    if (e.has("stage")) stage.stage = e.integer("stage", 0);
    stage.max_shaves = e.integer_or("max-shaves", 0, stage.max_shaves);
    check_children(file, node,
                   nested ? std::set<std::string>{"Source", "Parameters", "WorkSizes"}
                          : std::set<std::string>{"Source"});
    for (const pugi::xml_node& child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        const std::string kind = child.name();
        if (kind == "Source") {
            Element s(file, child, {"filename"});
            check_children(file, child, {});
            const std::string name = s.text("filename");
            std::string path = name[0] == '/' ? name : file.directory() + name;
            bool ok = false;
            std::string bytes = read_file(path, &ok);
            const bool is_bin = name.size() > 4 && iequals(name.substr(name.size() - 4), ".bin");
            if (is_bin) {
                // A SHAVE binary: use the OpenCL C source next to it when the user has it.
                const std::string cl_path = path.substr(0, path.size() - 4) + ".cl";
                bool cl_ok = false;
                std::string cl_text = read_file(cl_path, &cl_ok);
                if (!cl_ok)
                    file.fail(child, "filename",
                              "'" + name +
                                  "' is a SHAVE binary compiled for the Myriad VPU; it "
                                  "cannot run off the VPU: the OpenCL C source is needed (put " +
                                  cl_path.substr(cl_path.find_last_of('/') + 1) +
                                  " next to it or name the .cl file)");
                path = cl_path;
                bytes = std::move(cl_text);
            } else if (!ok) {
                file.fail(child, "filename",
                          "cannot read '" + path + "' (a regular file up to 64 MiB)");
            }
            if (looks_binary(bytes))
                file.fail(child, "filename",
                          "'" + path +
                              "' is a binary (a SHAVE .bin?), not OpenCL C source: it "
                              "cannot run off the VPU, the .cl source is needed");
            stage.sources.push_back(path);
            stage.source_text += bytes;
            stage.source_text += '\n';
        } else if (kind == "Parameters") {
            parse_parameters(file, child, stage);
        } else if (kind == "WorkSizes") {
            parse_work_sizes(file, child, stage);
        }
    }
    if (stage.sources.empty()) file.fail(node, "", "no <Source> element");
}

/// Every kernel argument bound exactly once, every parameter naming an argument.
void check_arguments(const FileContext& file, const pugi::xml_node& kernel_node,
                     const KernelStage& stage) {
    const std::string stripped = strip_comments(stage.source_text);
    const auto sig = find_kernel(stripped, stage.entry);
    if (!sig)
        throw xml_error(file.path(), stage.line, "Kernel", "entry",
                        "no __kernel '" + stage.entry + "' in " + stage.sources.front());
    std::map<std::string, int> bound;  // arg name -> XML line
    auto bind = [&](const std::string& name, int line, const char* element) {
        if (bound.count(name))
            throw xml_error(file.path(), line, element, "arg-name",
                            "argument '" + name + "' is bound twice");
        const bool exists = std::any_of(sig->args.begin(), sig->args.end(),
                                        [&](const KernelArg& a) { return a.name == name; });
        if (!exists)
            throw xml_error(file.path(), line, element, "arg-name",
                            "kernel '" + stage.entry + "' has no argument '" + name + "'");
        bound[name] = line;
    };
    for (const TensorParam& t : stage.tensors) bind(t.arg_name, t.line, "Tensor");
    for (const DataParam& d : stage.data) bind(d.arg_name, d.line, "Data");
    for (const ScalarParam& s : stage.scalars) bind(s.arg_name, s.line, "Scalar");
    for (const KernelArg& a : sig->args)
        if (!bound.count(a.name))
            throw xml_error(file.path(), stage.line, "Kernel", "entry",
                            "missing arg binding: argument '" + a.name + "' of kernel '" +
                                stage.entry + "' is not bound by any Tensor, Data or Scalar");
    (void)kernel_node;
}

struct RawLayer {
    CustomLayer layer;
    std::optional<int> flat_stage;
    pugi::xml_node node;
};

RawLayer parse_custom_layer(const FileContext& file, const pugi::xml_node& node) {
    Element e(file, node, {"name", "type", "version", "stage", "max-shaves"});
    RawLayer raw;
    raw.node = node;
    CustomLayer& layer = raw.layer;
    layer.name = e.text("name");
    layer.type = e.text_or("type", "MVCL");
    if (!iequals(layer.type, "MVCL"))
        file.fail(node, "type", "unknown custom layer type '" + layer.type + "' (MVCL)");
    layer.version = e.integer_or("version", 0, 1);
    if (layer.version != 1) file.fail(node, "version", "only version 1 is known");
    layer.max_shaves = e.integer_or("max-shaves", 0, 0);
    layer.file = file.path();
    layer.line = e.line();
    if (e.has("stage")) raw.flat_stage = e.integer("stage", 0);
    check_children(file, node, {"Kernel", "Parameters", "WorkSizes", "Where"});

    std::vector<pugi::xml_node> kernels, parameters, work_sizes, wheres;
    for (const pugi::xml_node& child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        const std::string kind = child.name();
        if (kind == "Kernel")
            kernels.push_back(child);
        else if (kind == "Parameters")
            parameters.push_back(child);
        else if (kind == "WorkSizes")
            work_sizes.push_back(child);
        else
            wheres.push_back(child);
    }
    if (kernels.empty()) file.fail(node, "", "no <Kernel> element");
    if (wheres.size() > 1) file.fail(wheres[1], "", "more than one <Where>");
    for (const pugi::xml_node& w : wheres) {
        check_children(file, w, {});
        for (const pugi::xml_attribute& a : w.attributes()) {
            WhereCondition c;
            c.parameter = a.name();
            c.line = file.line_of(w);
            std::string v = trim(a.value());
            if (v.empty()) file.fail(w, a.name(), "empty value");
            for (auto [text, op] :
                 {std::pair{">=", CompareOp::greater_equal}, std::pair{"<=", CompareOp::less_equal},
                  std::pair{"!=", CompareOp::not_equal}, std::pair{">", CompareOp::greater},
                  std::pair{"<", CompareOp::less}}) {
                const std::string t = text;
                if (v.compare(0, t.size(), t) == 0) {
                    c.op = op;
                    v = trim(v.substr(t.size()));
                    if (!parse_whole_number(v))
                        file.fail(w, a.name(), "'" + t + "' needs a number, got '" + v + "'");
                    break;
                }
            }
            c.value = v;
            layer.where.push_back(c);
        }
    }

    bool nested = false;
    for (const pugi::xml_node& k : kernels)
        if (k.child("Parameters") || k.child("WorkSizes")) nested = true;
    if (nested && (!parameters.empty() || !work_sizes.empty()))
        file.fail(parameters.empty() ? work_sizes[0] : parameters[0], "",
                  "Parameters/WorkSizes belong either inside Kernel (nested layout) or beside it "
                  "(flat layout), not both");
    if (!nested) {
        if (kernels.size() > 1)
            file.fail(kernels[1], "",
                      "several <Kernel> elements need their Parameters and WorkSizes inside them");
        if (parameters.size() > 1) file.fail(parameters[1], "", "more than one <Parameters>");
        if (work_sizes.size() > 1) file.fail(work_sizes[1], "", "more than one <WorkSizes>");
    }

    for (std::size_t k = 0; k < kernels.size(); ++k) {
        KernelStage stage;
        stage.stage = nested ? static_cast<int>(k) : raw.flat_stage.value_or(0);
        stage.max_shaves = layer.max_shaves;
        parse_kernel_element(file, kernels[k], stage, nested);
        if (!nested) {
            if (!parameters.empty()) parse_parameters(file, parameters[0], stage);
            if (!work_sizes.empty()) parse_work_sizes(file, work_sizes[0], stage);
            if (raw.flat_stage) stage.stage = *raw.flat_stage;
        }
        if (!stage.has_work_sizes) file.fail(kernels[k], "", "no <WorkSizes> for this kernel");
        check_arguments(file, kernels[k], stage);
        layer.stages.push_back(std::move(stage));
    }
    if (nested) {
        std::stable_sort(
            layer.stages.begin(), layer.stages.end(),
            [](const KernelStage& a, const KernelStage& b) { return a.stage < b.stage; });
        for (std::size_t k = 0; k < layer.stages.size(); ++k)
            if (layer.stages[k].stage != static_cast<int>(k))
                throw xml_error(file.path(), layer.stages[k].line, "Kernel", "stage",
                                "stages must be numbered 0.." +
                                    std::to_string(layer.stages.size() - 1) + " once each");
    }
    return raw;
}

/// One output per layer; buffers read by a stage are written by an earlier one.
void check_layer(const FileContext& file, const CustomLayer& layer) {
    int outputs = 0;
    std::set<int> written;
    for (const KernelStage& s : layer.stages) {
        for (const TensorParam& t : s.tensors) {
            if (t.role == TensorRole::output) {
                if (t.port_index != 0)
                    throw xml_error(file.path(), t.line, "Tensor", "port-index",
                                    "a custom layer has exactly one output (port 0)");
                ++outputs;
            }
            if (t.role == TensorRole::input_buffer && !written.count(t.port_index))
                throw xml_error(file.path(), t.line, "Tensor", "port-index",
                                "input_buffer " + std::to_string(t.port_index) +
                                    " is not written by an earlier stage's output_buffer");
        }
        for (const TensorParam& t : s.tensors)
            if (t.role == TensorRole::output_buffer) written.insert(t.port_index);
    }
    if (outputs == 0)
        throw xml_error(file.path(), layer.line, "CustomLayer", "name",
                        "layer '" + layer.name + "' has no output tensor");
}

}  // namespace

std::vector<CustomLayer> parse_bindings_text(const std::string& text, const std::string& path) {
    FileContext file(text, path);
    pugi::xml_document doc;
    const pugi::xml_parse_result result =
        doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!result)
        throw xml_error(path, file.line_of(result.offset), "", "",
                        std::string("malformed XML: ") + result.description());
    std::vector<RawLayer> raws;
    for (const pugi::xml_node& node : doc.children()) {
        if (node.type() == pugi::node_pcdata && !trim(node.value()).empty())
            throw xml_error(path, file.line_of(node), "", "", "text outside any element");
        if (node.type() != pugi::node_element) continue;
        if (std::string(node.name()) != "CustomLayer")
            file.fail(node, "",
                      "unknown top-level element (a bindings file is a sequence of "
                      "<CustomLayer> elements)");
        raws.push_back(parse_custom_layer(file, node));
    }
    if (raws.empty()) throw xml_error(path, 1, "", "", "no <CustomLayer> element");

    // Flat multi-stage layers: stage N>0 continues the latest binding of the same name.
    std::vector<CustomLayer> layers;
    for (RawLayer& raw : raws) {
        const int stage = raw.flat_stage.value_or(0);
        if (stage == 0) {
            layers.push_back(std::move(raw.layer));
            continue;
        }
        CustomLayer* previous = nullptr;
        for (auto it = layers.rbegin(); it != layers.rend(); ++it)
            if (iequals(it->name, raw.layer.name)) {
                previous = &*it;
                break;
            }
        if (!previous || static_cast<int>(previous->stages.size()) != stage)
            file.fail(raw.node, "stage",
                      "stage " + std::to_string(stage) + " of '" + raw.layer.name +
                          "' does not follow its stage " + std::to_string(stage - 1));
        if (!raw.layer.where.empty() && previous->where.empty()) previous->where = raw.layer.where;
        for (KernelStage& s : raw.layer.stages) previous->stages.push_back(std::move(s));
    }
    for (const CustomLayer& layer : layers) check_layer(file, layer);
    return layers;
}

std::vector<CustomLayer> parse_bindings_file(const std::string& path) {
    bool ok = false;
    const std::string text = read_file(path, &ok);
    if (!ok)
        throw xml_error(path, 0, "", "",
                        "cannot read the bindings file (a regular file up to 64 MiB)");
    return parse_bindings_text(text, path);
}

}  // namespace myriad
