#!/usr/bin/env python3
"""Extracts the ten C programs of the zDNN API reference's "Usage Examples" section, unchanged.

usage: extract_examples.py SPEC_FILE OUT_DIR  -> writes example_01.c .. example_10.c
"""
import pathlib
import sys


def extract(spec_text):
    section = spec_text[spec_text.index("\n## Usage Examples"):]
    programs, inside, lines = [], False, []
    for line in section.splitlines(keepends=True):
        if not inside and line.startswith("```C"):
            inside, lines = True, []
        elif inside and line.startswith("```"):
            inside = False
            programs.append("".join(lines))
        elif inside:
            lines.append(line)
    return programs


def main():
    spec, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    programs = extract(spec.read_text())
    for i, text in enumerate(programs, 1):
        (out / f"example_{i:02d}.c").write_text(text)
    print(f"extracted {len(programs)} programs")
    return 0 if len(programs) == 10 else 1


if __name__ == "__main__":
    sys.exit(main())
