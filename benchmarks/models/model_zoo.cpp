// model_zoo.cpp: the list of the model benchmarks' networks (model_zoo.hpp).
#include "model_zoo.hpp"

namespace tessera::benchmarks::models {

std::vector<zoo_entry> zoo() {
    return {{"mobilenet_v2", mobilenet_v2}, {"mobilenet_v3", mobilenet_v3},
            {"resnet18", resnet18},         {"crnn", crnn},
            {"transformer", transformer},   {"transformer_ln_decomposed", transformer_decomposed}};
}

}  // namespace tessera::benchmarks::models
