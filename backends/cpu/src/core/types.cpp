// Names of data types and layouts (for error messages).
#include "tessera/cpu/types.hpp"

namespace tessera::cpu {

std::string to_string(DataType type) {
    switch (type) {
        case DataType::f32:
            return "f32";
        case DataType::f16:
            return "f16";
        case DataType::bf16:
            return "bf16";
        case DataType::s8:
            return "s8";
        case DataType::u8:
            return "u8";
        case DataType::s32:
            return "s32";
    }
    return "?";
}

std::string to_string(DataLayout layout) {
    switch (layout) {
        case DataLayout::plain:
            return "plain";
        case DataLayout::nchw:
            return "nchw";
        case DataLayout::nhwc:
            return "nhwc";
        case DataLayout::nchw16c:
            return "nchw16c";
    }
    return "?";
}

}  // namespace tessera::cpu
