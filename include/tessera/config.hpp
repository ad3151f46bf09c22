// tessera/config.hpp: the one parser for backend config strings.
//
//   config   := "auto" | element ( "|" element )*
//   element  := name [ "?" | "!" ] [ ":" option ( "," option )* ]
//   option   := key "=" value
//   name     := [a-z0-9_-]+        key := [A-Za-z0-9_.-]+        value := [^,|:\s]+
//
// The chain is tried left to right per op. "name?" is optional: skipped when its plugin is not
// available (otherwise that is an error). "name!" is strict: every op must run there, a decline
// is an error, and nothing may follow it. "auto" means every available backend by priority,
// ending with the built-in reference backend. Spaces around "|" are allowed.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/error.hpp"

namespace tessera {

struct backend_request {
    std::string name;
    std::vector<std::pair<std::string, std::string>> options;
    bool optional = false;
    bool strict = false;
    int column = 1;  ///< 1-based position of the name in the config string

    /// The option's value, or `fallback` when absent.
    std::string option(std::string_view key, std::string fallback = {}) const {
        for (const auto& [k, v] : options)
            if (k == key) return v;
        return fallback;
    }
};

/// Thread safety: parse() is a pure function (any threads at once); a config is a plain value.
struct config {
    bool is_auto = false;
    std::vector<backend_request> chain;

    /// Parses a config string; a malformed one throws parse_error naming the column.
    static config parse(std::string_view text) { return parser(text).run(); }

    /// Canonical text, e.g. "qcom-ml:device=0|cpu".
    std::string to_string() const {
        if (is_auto) return "auto";
        std::string s;
        for (const auto& e : chain) {
            if (!s.empty()) s += '|';
            s += e.name;
            if (e.optional) s += '?';
            if (e.strict) s += '!';
            for (std::size_t i = 0; i < e.options.size(); ++i) {
                s += i ? ',' : ':';
                s += e.options[i].first + "=" + e.options[i].second;
            }
        }
        return s;
    }

  private:
    class parser {
      public:
        explicit parser(std::string_view text) : text_(text) {}

        config run() {
            config c;
            skip_spaces();
            if (at_end()) fail("empty config string; expected a backend name or 'auto'");
            const std::size_t start = pos_;
            if (text_.substr(pos_, 4) == "auto") {
                std::size_t after = pos_ + 4;
                while (after < text_.size() && text_[after] == ' ') ++after;
                if (after == text_.size()) {
                    c.is_auto = true;
                    return c;
                }
                if (text_[after] == '|' || (pos_ + 4 < text_.size() && text_[pos_ + 4] == ' ')) {
                    pos_ = start;
                    fail("'auto' must stand alone");
                }
            }
            for (;;) {
                c.chain.push_back(element());
                skip_spaces();
                if (at_end()) break;
                if (text_[pos_] != '|')
                    fail(std::string("unexpected '") + text_[pos_] + "'; expected '|' or the end");
                if (c.chain.back().strict) fail("nothing may follow a strict backend ('!')");
                ++pos_;
                skip_spaces();
            }
            return c;
        }

      private:
        backend_request element() {
            backend_request e;
            e.column = static_cast<int>(pos_) + 1;
            e.name = take_while([](char ch) {
                return std::islower(static_cast<unsigned char>(ch)) ||
                       std::isdigit(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
            });
            if (e.name.empty()) {
                if (!at_end() && std::isupper(static_cast<unsigned char>(text_[pos_])))
                    fail("backend names are lower case");
                fail(at_end() ? "expected a backend name at the end" : "expected a backend name");
            }
            if (e.name == "auto") {
                pos_ = static_cast<std::size_t>(e.column - 1);
                fail("'auto' must stand alone");
            }
            if (!at_end() && (text_[pos_] == '?' || text_[pos_] == '!')) {
                (text_[pos_] == '?' ? e.optional : e.strict) = true;
                ++pos_;
                if (!at_end() && (text_[pos_] == '?' || text_[pos_] == '!'))
                    fail("a backend is either optional '?' or strict '!', not both");
            }
            if (!at_end() && text_[pos_] == ':') {
                ++pos_;
                for (;;) {
                    const std::size_t key_pos = pos_;
                    std::string key = take_while([](char ch) {
                        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ||
                               ch == '.' || ch == '-';
                    });
                    if (key.empty()) fail("expected an option key");
                    if (at_end() || text_[pos_] != '=')
                        fail("expected '=' after option key '" + key + "'");
                    ++pos_;
                    std::string value = take_while([](char ch) {
                        return ch != ',' && ch != '|' && ch != ':' &&
                               !std::isspace(static_cast<unsigned char>(ch));
                    });
                    if (value.empty()) fail("empty value for option '" + key + "'");
                    for (const auto& [k, v] : e.options) {
                        if (k == key) {
                            pos_ = key_pos;
                            fail("option '" + key + "' given twice");
                        }
                    }
                    e.options.emplace_back(std::move(key), std::move(value));
                    if (at_end() || text_[pos_] != ',') break;
                    ++pos_;
                }
            }
            return e;
        }

        template <typename Pred>
        std::string take_while(Pred pred) {
            const std::size_t start = pos_;
            while (!at_end() && pred(text_[pos_])) ++pos_;
            return std::string(text_.substr(start, pos_ - start));
        }
        void skip_spaces() {
            while (!at_end() && text_[pos_] == ' ') ++pos_;
        }
        bool at_end() const { return pos_ >= text_.size(); }

        [[noreturn]] void fail(const std::string& what) const {
            std::string msg = "config \"" + std::string(text_) + "\" column " +
                              std::to_string(pos_ + 1) + ": " + what + "\n  " + std::string(text_) +
                              "\n  " + std::string(pos_, ' ') + "^";
            throw error(status::parse_error, msg);
        }

        std::string_view text_;
        std::size_t pos_ = 0;
    };
};

}  // namespace tessera
