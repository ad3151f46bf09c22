// config_test.cpp: the config-string grammar, its canonical form and its column-precise errors.
#include <doctest/doctest.h>

#include <tessera/config.hpp>

using tessera::config;

namespace {

/// The error text for a malformed string, or "" when it parses.
std::string parse_error(const char* text) {
    try {
        config::parse(text);
        return "";
    } catch (const tessera::error& e) {
        CHECK(e.code() == tessera::status::parse_error);
        return e.message();
    }
}

}  // namespace

TEST_CASE("single backends, chains and options") {
    const config c = config::parse("qcom-ml:device=0|cpu");
    REQUIRE(c.chain.size() == 2);
    CHECK_FALSE(c.is_auto);
    CHECK(c.chain[0].name == "qcom-ml");
    CHECK(c.chain[0].option("device") == "0");
    CHECK(c.chain[0].option("missing", "dflt") == "dflt");
    CHECK(c.chain[1].name == "cpu");
    CHECK(c.chain[1].column == 18);
    CHECK(c.to_string() == "qcom-ml:device=0|cpu");

    const config spaced = config::parse(" zaiu | cpu:threads=2,isa=avx2 ");
    REQUIRE(spaced.chain.size() == 2);
    CHECK(spaced.chain[1].options.size() == 2);
    CHECK(spaced.chain[1].option("isa") == "avx2");
    CHECK(spaced.to_string() == "zaiu|cpu:threads=2,isa=avx2");
}

TEST_CASE("auto, optional and strict markers") {
    CHECK(config::parse("auto").is_auto);
    CHECK(config::parse("auto ").is_auto);
    const config c = config::parse("myriad?|cpu!");
    CHECK(c.chain[0].optional);
    CHECK_FALSE(c.chain[0].strict);
    CHECK(c.chain[1].strict);
    CHECK(c.to_string() == "myriad?|cpu!");
    CHECK(config::parse("zaiu!:precheck=1").chain[0].option("precheck") == "1");
    CHECK(config::parse("autox").chain[0].name == "autox");  // only the exact word is special
}

TEST_CASE("malformed strings point at the column") {
    CHECK(parse_error("").find("column 1: empty config string") != std::string::npos);
    CHECK(parse_error("cpu|").find("column 5: expected a backend name at the end") !=
          std::string::npos);
    CHECK(parse_error("cpu||zaiu").find("column 5: expected a backend name") != std::string::npos);
    CHECK(parse_error("qcom-ml:device|cpu")
              .find("column 15: expected '=' after option key 'device'") != std::string::npos);
    CHECK(parse_error("cpu:threads=").find("column 13: empty value for option 'threads'") !=
          std::string::npos);
    CHECK(parse_error("cpu!|zaiu").find("column 5: nothing may follow a strict backend") !=
          std::string::npos);
    CHECK(parse_error("auto|cpu").find("'auto' must stand alone") != std::string::npos);
    CHECK(parse_error("cpu|auto").find("column 5: 'auto' must stand alone") != std::string::npos);
    CHECK(parse_error("CPU").find("column 1: backend names are lower case") != std::string::npos);
    CHECK(parse_error("cpu?!").find("column 5: a backend is either optional") != std::string::npos);
    CHECK(parse_error("cpu:a=1,a=2").find("column 9: option 'a' given twice") != std::string::npos);
    CHECK(parse_error("cpu zaiu").find("column 5: unexpected 'z'") != std::string::npos);
    // The message repeats the string with a caret under the column.
    const std::string m = parse_error("cpu|");
    CHECK(m.find("\n  cpu|\n      ^") != std::string::npos);
}
