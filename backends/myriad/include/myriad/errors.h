// myriad/errors.h -- the exceptions of the Myriad custom-layer runtime: tessera::error with
// backend "myriad", plus the position details of bindings-file errors.
#pragma once

#include <string>

#include "tessera/error.hpp"

namespace myriad {

/// Any runtime failure: op = the layer type, tensor = the kernel argument concerned.
[[noreturn]] void fail(tessera::status code, const std::string& layer, const std::string& arg,
                       const std::string& message);

/// A bindings-file error. what() reads
/// "custom.xml:12: <Tensor> attribute 'format': unknown format 'NCWH' [parse_error, backend
/// myriad]".
class xml_error : public tessera::error {
  public:
    xml_error(std::string file, int line, std::string element, std::string attribute,
              const std::string& reason);

    const std::string& file() const noexcept { return file_; }
    int line() const noexcept { return line_; }
    const std::string& element() const noexcept { return element_; }
    const std::string& attribute() const noexcept { return attribute_; }

  private:
    std::string file_;
    int line_;
    std::string element_;
    std::string attribute_;
};

/// A malformed size expression: the column (1-based) of the offending character.
class expression_error : public tessera::error {
  public:
    expression_error(std::string expression, int column, const std::string& reason);
    const std::string& expression() const noexcept { return expression_; }
    int column() const noexcept { return column_; }
    const std::string& reason() const noexcept { return reason_; }

  private:
    std::string expression_;
    int column_;
    std::string reason_;
};

}  // namespace myriad
