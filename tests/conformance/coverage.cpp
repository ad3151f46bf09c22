// coverage.cpp: the per-op, per-backend verdict counts of a conformance run (see coverage.hpp).
#include "coverage.hpp"

#include <algorithm>
#include <sstream>
#include <variant>

namespace conformance {

namespace {

/// "native 12, declined 3"; "-" when no case of the op ran on the backend.
std::string cell(const std::map<verdict, int>& c) {
    std::string s;
    for (verdict v :
         {verdict::native, verdict::emulated, verdict::declined, verdict::wrong, verdict::error}) {
        const auto it = c.find(v);
        if (it == c.end()) continue;
        if (!s.empty()) s += ", ";
        s += std::string(verdict_name(v)) + " " + std::to_string(it->second);
    }
    return s.empty() ? "-" : s;
}

template <std::size_t... I>
std::vector<std::string> names_of(std::index_sequence<I...>) {
    return {std::string(std::variant_alternative_t<I, op_variant>::name)...};
}

}  // namespace

coverage& coverage::instance() {
    static coverage c;
    return c;
}

void coverage::add(const std::string& op, const std::string& backend, verdict v) {
    if (std::find(backends_.begin(), backends_.end(), backend) == backends_.end())
        backends_.push_back(backend);
    ++cells_[op][backend][v];
}

std::string coverage::text() const {
    std::size_t op_width = 2;
    for (const auto& name : op_set_names()) op_width = std::max(op_width, name.size());
    std::ostringstream out;
    out << "== conformance coverage (cases per op and backend)\n";
    for (const auto& name : op_set_names()) {
        out << name << std::string(op_width - name.size() + 2, ' ');
        const auto row = cells_.find(name);
        if (row == cells_.end()) {
            out << "no cases\n";
            continue;
        }
        bool first = true;
        for (const auto& b : backends_) {
            const auto c = row->second.find(b);
            out << (first ? "" : " | ") << b << ": "
                << (c == row->second.end() ? "-" : cell(c->second));
            first = false;
        }
        out << "\n";
    }
    return out.str();
}

std::string coverage::markdown() const {
    std::ostringstream out;
    out << "| op |";
    for (const auto& b : backends_) out << " " << b << " |";
    out << "\n|---|";
    for (std::size_t i = 0; i < backends_.size(); ++i) out << "---|";
    out << "\n";
    for (const auto& name : op_set_names()) {
        const auto row = cells_.find(name);
        out << "| `" << name << "` |";
        for (const auto& b : backends_) {
            if (row == cells_.end()) {
                out << " no cases |";
                continue;
            }
            const auto c = row->second.find(b);
            out << " " << (c == row->second.end() ? "-" : cell(c->second)) << " |";
        }
        out << "\n";
    }
    return out.str();
}

std::vector<std::string> op_set_names() {
    return names_of(std::make_index_sequence<std::variant_size_v<op_variant>>{});
}

}  // namespace conformance
