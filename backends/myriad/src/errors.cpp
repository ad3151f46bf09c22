// errors.cpp -- construction of the Myriad runtime's exceptions.
#include "myriad/errors.h"

#include <utility>

namespace myriad {

void fail(tessera::status code, const std::string& layer, const std::string& arg,
          const std::string& message) {
    throw tessera::error(code, message, {"myriad", layer, arg});
}

namespace {
std::string describe_xml(const std::string& file, int line, const std::string& element,
                         const std::string& attribute, const std::string& reason) {
    std::string text = file;
    if (line > 0) text += ":" + std::to_string(line);
    text += ":";
    if (!element.empty()) text += " <" + element + ">";
    if (!attribute.empty()) text += " attribute '" + attribute + "'";
    text += ": " + reason;
    return text;
}
}  // namespace

xml_error::xml_error(std::string file, int line, std::string element, std::string attribute,
                     const std::string& reason)
    : tessera::error(tessera::status::parse_error,
                     describe_xml(file, line, element, attribute, reason), {"myriad", {}, {}}),
      file_(std::move(file)),
      line_(line),
      element_(std::move(element)),
      attribute_(std::move(attribute)) {}

expression_error::expression_error(std::string expression, int column, const std::string& reason)
    : tessera::error(tessera::status::parse_error,
                     "size expression \"" + expression + "\", column " + std::to_string(column) +
                         ": " + reason,
                     {"myriad", {}, {}}),
      expression_(std::move(expression)),
      column_(column),
      reason_(reason) {}

}  // namespace myriad
