// main.cpp: doctest entry point of the conformance suite. After the test cases it prints the
// coverage table (cases per op and backend: native / emulated / declined); --coverage=FILE also
// writes it as the markdown table coverage_table.sh puts into README.md.
#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "coverage.hpp"

int main(int argc, char** argv) {
    const std::string flag = "--coverage=";
    std::string markdown_file;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind(flag, 0) == 0)
            markdown_file = a.substr(flag.size());
        else
            args.push_back(argv[i]);
    }
    doctest::Context context(static_cast<int>(args.size()), args.data());
    const int failures = context.run();
    if (context.shouldExit()) return failures;
    std::cout << conformance::coverage::instance().text();
    if (!markdown_file.empty()) {
        std::ofstream out(markdown_file);
        out << conformance::coverage::instance().markdown();
        if (!out) {
            std::cerr << "cannot write " << markdown_file << "\n";
            return 1;
        }
    }
    return failures;
}
