// tessera/ops/custom.hpp: custom, a user kernel bound by layer type name (e.g. a Myriad-style
// OpenCL custom layer): type name, string attributes, kernel sources and the output rule. Unlike
// the pod ops it owns its strings; c_params() exposes a C view (tsr_custom_params) into them.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/c/ops.h"
#include "tessera/c/ops_custom.h"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Custom op. Input order: as the kernels expect (num_inputs, when >= 0, fixes the count).
/// One output: the declared descriptor, or the dims/dtype/quantisation of input like_input.
/// The reference backend cannot run it: only backends that compile the sources can.
class custom {
  public:
    static constexpr tsr_op_kind op_kind = TSR_OP_CUSTOM;
    static constexpr std::string_view name = "custom";

    struct attribute {
        std::string key, value;
        friend bool operator==(const attribute& a, const attribute& b) {
            return a.key == b.key && a.value == b.value;
        }
    };
    struct source {
        std::int32_t kind = TSR_CUSTOM_SOURCE_TEXT;  ///< tsr_custom_source_kind
        std::string content;                         ///< source text or file name
        std::string entry;                           ///< kernel function name, may be empty
        friend bool operator==(const source& a, const source& b) {
            return a.kind == b.kind && a.content == b.content && a.entry == b.entry;
        }
    };

    custom() { refresh(); }
    explicit custom(std::string type) : type_(std::move(type)) { refresh(); }

    custom(const custom& o) { assign(o); }
    custom(custom&& o) noexcept { assign_move(std::move(o)); }
    custom& operator=(const custom& o) {
        if (this != &o) assign(o);
        return *this;
    }
    custom& operator=(custom&& o) noexcept {
        if (this != &o) assign_move(std::move(o));
        return *this;
    }
    ~custom() = default;

    custom& set_type(std::string type) {
        type_ = std::move(type);
        return refresh();
    }
    /// Adds or replaces attribute `key`.
    custom& set_attribute(std::string key, std::string value) {
        for (auto& a : attrs_) {
            if (a.key == key) {
                a.value = std::move(value);
                return refresh();
            }
        }
        attrs_.push_back({std::move(key), std::move(value)});
        return refresh();
    }
    custom& add_source_text(std::string code, std::string entry = {}) {
        sources_.push_back({TSR_CUSTOM_SOURCE_TEXT, std::move(code), std::move(entry)});
        return refresh();
    }
    custom& add_source_file(std::string path, std::string entry = {}) {
        sources_.push_back({TSR_CUSTOM_SOURCE_FILE, std::move(path), std::move(entry)});
        return refresh();
    }
    custom& set_num_inputs(int n) {
        num_inputs_ = n;
        return refresh();
    }
    custom& set_output(const tensor_desc& d) {
        rule_ = TSR_CUSTOM_OUTPUT_DECLARED;
        output_ = d;
        return refresh();
    }
    custom& set_output_like_input(int index) {
        rule_ = TSR_CUSTOM_OUTPUT_LIKE_INPUT;
        like_input_ = index;
        return refresh();
    }

    const std::string& type_name() const { return type_; }
    const std::vector<attribute>& attributes() const { return attrs_; }
    std::optional<std::string> attribute_value(std::string_view key) const {
        for (const auto& a : attrs_)
            if (a.key == key) return a.value;
        return std::nullopt;
    }
    const std::vector<source>& sources() const { return sources_; }
    int num_inputs() const { return num_inputs_; }
    std::int32_t output_rule() const { return rule_; }
    int like_input() const { return like_input_; }
    const tensor_desc& declared_output() const { return output_; }

    /// The C view; valid while this object lives and is not modified.
    const void* c_params() const { return &view_; }

    /// Deep copy of ABI parameters (fields past the writer's struct_size keep defaults).
    static custom from_c(const void* params) {
        custom c;
        if (!params) return c;
        tsr_custom_params p;
        std::memcpy(&p, &c.view_, sizeof p);  // defaults
        std::uint32_t size = 0;
        std::memcpy(&size, params, sizeof size);
        std::memcpy(&p, params, size < sizeof p ? size : sizeof p);
        c.type_ = p.type_name ? p.type_name : "";
        for (std::uint32_t i = 0; p.attributes && i < p.num_attributes; ++i) {
            const auto& a = p.attributes[i];
            c.attrs_.push_back({a.key ? a.key : "", a.value ? a.value : ""});
        }
        for (std::uint32_t i = 0; p.sources && i < p.num_sources; ++i) {
            const auto& s = p.sources[i];
            c.sources_.push_back({s.kind, s.content ? s.content : "", s.entry ? s.entry : ""});
        }
        c.num_inputs_ = p.num_inputs;
        c.rule_ = p.output_rule;
        c.like_input_ = p.like_input;
        if (p.output.rank >= 0 && p.output.rank <= TSR_MAX_DIMS) c.output_ = tensor_desc(p.output);
        c.refresh();
        return c;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        if (type_.empty()) check.fail("", "type name is empty");
        for (std::size_t i = 0; i < attrs_.size(); ++i) {
            if (attrs_[i].key.empty())
                check.fail("", "attribute " + std::to_string(i) + " has an empty key");
        }
        for (std::size_t i = 0; i < sources_.size(); ++i) {
            check.enum_in_range("source kind", sources_[i].kind, TSR_CUSTOM_SOURCE_TEXT,
                                TSR_CUSTOM_SOURCE_FILE);
            if (sources_[i].content.empty())
                check.fail("", "source " + std::to_string(i) + " is empty");
        }
        if (num_inputs_ < -1)
            check.fail("", "num_inputs is " + std::to_string(num_inputs_) + ", must be >= -1");
        if (num_inputs_ >= 0) check.count(inputs, num_inputs_, num_inputs_);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            check_valid_type(check, "input " + std::to_string(i), inputs[i]);
        check.enum_in_range("output rule", rule_, TSR_CUSTOM_OUTPUT_DECLARED,
                            TSR_CUSTOM_OUTPUT_LIKE_INPUT);
        if (rule_ == TSR_CUSTOM_OUTPUT_LIKE_INPUT) {
            if (like_input_ < 0 || static_cast<std::size_t>(like_input_) >= inputs.size()) {
                check.fail("", "output is like input " + std::to_string(like_input_) +
                                   " but there are " + std::to_string(inputs.size()) + " inputs");
            }
            const tensor_desc& like = inputs[like_input_];
            return {output_like(like.dims(), like)};
        }
        check_valid_type(check, "output", output_);
        check_non_negative_dims(check, "output", output_);
        return {output_like(output_.dims(), output_)};
    }

    friend bool operator==(const custom& a, const custom& b) {
        return a.type_ == b.type_ && a.attrs_ == b.attrs_ && a.sources_ == b.sources_ &&
               a.num_inputs_ == b.num_inputs_ && a.rule_ == b.rule_ &&
               a.like_input_ == b.like_input_ && a.output_ == b.output_;
    }

  private:
    custom& refresh() {
        attr_view_.clear();
        for (const auto& a : attrs_) attr_view_.push_back({a.key.c_str(), a.value.c_str()});
        source_view_.clear();
        for (const auto& s : sources_)
            source_view_.push_back({s.kind, s.content.c_str(), s.entry.c_str()});
        std::memset(&view_, 0, sizeof view_);
        view_.struct_size = sizeof view_;
        view_.type_name = type_.c_str();
        view_.num_attributes = static_cast<std::uint32_t>(attr_view_.size());
        view_.attributes = attr_view_.empty() ? nullptr : attr_view_.data();
        view_.num_sources = static_cast<std::uint32_t>(source_view_.size());
        view_.sources = source_view_.empty() ? nullptr : source_view_.data();
        view_.num_inputs = num_inputs_;
        view_.output_rule = rule_;
        view_.like_input = like_input_;
        view_.output = output_.c_desc();
        return *this;
    }
    void assign(const custom& o) {
        type_ = o.type_;
        attrs_ = o.attrs_;
        sources_ = o.sources_;
        num_inputs_ = o.num_inputs_;
        rule_ = o.rule_;
        like_input_ = o.like_input_;
        output_ = o.output_;
        refresh();
    }
    void assign_move(custom&& o) {
        type_ = std::move(o.type_);
        attrs_ = std::move(o.attrs_);
        sources_ = std::move(o.sources_);
        num_inputs_ = o.num_inputs_;
        rule_ = o.rule_;
        like_input_ = o.like_input_;
        output_ = o.output_;
        refresh();
        o.refresh();
    }

    std::string type_;
    std::vector<attribute> attrs_;
    std::vector<source> sources_;
    int num_inputs_ = -1;
    std::int32_t rule_ = TSR_CUSTOM_OUTPUT_LIKE_INPUT;
    int like_input_ = 0;
    tensor_desc output_;
    // The C view into the members above, rebuilt by every mutation.
    std::vector<tsr_custom_attribute> attr_view_;
    std::vector<tsr_custom_source> source_view_;
    tsr_custom_params view_{};
};

}  // namespace tessera::op
