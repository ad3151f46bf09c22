// graph_test.cpp: graphs compiled with "zaiu|reference": stick layouts kept between consecutive
// zaiu ops, fallbacks with their reasons, strict failures.
#include "test_support.hpp"

using namespace zaiu_test;
