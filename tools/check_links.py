#!/usr/bin/env python3
"""Checks that every file the documentation and the sources cite exists in the repository:

- paths from the repository root (`src/codegen/lowering/lower.h`, `bench/results/....md`,
  `tests/gpu/run.sh`), in every tracked Markdown page (README.md, docs/, bench/results/...), the
  man page, and the text (comments and strings) of the samples, sources, tests, tools, examples,
  grammar and CMake files; the logs and one-off scripts under bench/results/ record another
  machine's paths and are not read;
- paths under src/ as its comments write them (`codegen/ptx/kernel.cpp`), which may also be
  relative to the citing file's folder or one above it (as tests/unit/CMakeLists.txt names its
  tests);
- in bench/, a session's folder from bench/results/ (`2026-12-02-c20b-h200/run.sh`);
- relative Markdown links outside code (`[log](2026-12-02-c20b-h200/run.sh)`), which must also
  stay inside the repository;

and that no user page (README.md, docs/) points into the project's private design notes
(`shared/design/...`), which a checkout lacks.

A path with a placeholder, range or wildcard in it (`<k>`, `*`, `{...}`, `...`, `call1..3`, a
one- or two-letter capital name as in `samples/X.tile`) names a pattern and is skipped;
`codegen/lowering/abi.h/.cpp` names both files; a path without an extension may name a program built
from a source of that name (`tests/gpu/check_samples`).

    tools/check_links.py [ROOT]     prints FILE:LINE: problem for each, then "N files, M problems";
                                    exit 1 when M > 0. ROOT: a git checkout (default: this one)

tests/lit/tools/doc_links.test runs it (ctest: lit.tools).
"""
import re
import subprocess
import sys
from pathlib import Path

# The folders a path from the root starts with, and the top-level files.
TOP_DIRS = ("src", "docs", "bench", "samples", "tests", "tools", "man", "examples", "grammar",
            "cmake", ".ci")
TOP_FILES = ("README.md", "CMakeLists.txt")
# The folders of src/ that the sources name without "src/" in front.
SRC_DIRS = ("basic", "frontend", "ir", "codegen", "driver")
CHARS = r"[\w.+/-]"
ROOT_PATH = re.compile(r"(?<![\w./-])((?:%s)/%s*|(?:%s)(?![\w.-]))" % (
    "|".join(re.escape(d) for d in TOP_DIRS), CHARS, "|".join(re.escape(f) for f in TOP_FILES)))
SRC_PATH = re.compile(r"(?<![\w./-])((?:%s)/%s+\.(?:h|cpp))(?![\w/])" % ("|".join(SRC_DIRS), CHARS))
# A results note names the folders of its session's logs from bench/results/.
RESULTS_PATH = re.compile(r"(?<![\w./-])(20\d\d-\d\d-\d\d-[\w.+-]*/%s*)" % CHARS)
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
# A path right before one of these is the start of a pattern: bench/results/2026-12-02-*.md,
# src/codegen/<k>.cpp.
PATTERN = set("*<{$…[%")
PLACEHOLDER = re.compile(r"^[A-Z]{1,2}$")
RANGE = re.compile(r"\.\.\.|\w\.\.\w")   # bench/results/....md, call1..3
SOURCE_SUFFIXES = (".h", ".cpp", ".c", ".tile", ".sh", ".py", ".cmake", ".1", ".yy", ".re",
                   ".test", ".in", "CMakeLists.txt")


def read_files(files):
    """The files whose citations are checked."""
    for path in files:
        if path.startswith("bench/results/") and not path.endswith(".md"):
            continue
        if path.endswith((".md",) + SOURCE_SUFFIXES) or path.startswith("man/"):
            yield path


def normalized(base, cited):
    """base/cited with ./ and ../ resolved, as a path from the root; None when it leaves it."""
    parts = []
    for part in Path(base, cited).parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


class Tree:
    """The files and folders of the checkout (tracked, or present in the working tree)."""

    def __init__(self, root):
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True,
                             capture_output=True, text=True).stdout
        self.root = root
        self.files = [f for f in out.split("\0") if f]
        self.names = set(self.files) | {str(p) for f in self.files for p in Path(f).parents}
        self.stems = {f.rsplit(".", 1)[0] for f in self.files if "." in Path(f).name}

    def has(self, name):
        return name is not None and (name in self.names or name in self.stems or
                                     (self.root / name).exists())

    def cites(self, bases, cited):
        """Whether cited, relative to one of bases, names something of the tree."""
        cited = cited.rstrip(".,:;").rstrip("/")
        if not cited or any(c in PATTERN for c in cited) or RANGE.search(cited) or \
                any(PLACEHOLDER.match(part.split(".")[0]) for part in Path(cited).parts):
            return True
        first, *others = cited.split("/.")   # codegen/lowering/abi.h/.cpp
        names = [first] + [first.rsplit(".", 1)[0] + "." + ext for ext in others]
        return all(any(self.has(normalized(base, name)) for base in bases) for name in names)


def problems_of(path, text, tree):
    above = [str(p) for p in Path(path).parents]
    lines = text.splitlines()
    # Markdown links outside code: fenced blocks and `code spans` blanked, lines kept.
    prose = re.sub(r"```.*?```|`[^`\n]*`", lambda c: re.sub(r"[^\n]", " ", c.group(0)), text,
                   flags=re.S).splitlines() if path.endswith(".md") else []
    for number, line in enumerate(lines, 1):
        for pattern, bases in ((ROOT_PATH, [""]), (SRC_PATH, ["src"] + above),
                               (RESULTS_PATH if path.startswith("bench/") else None,
                                ["bench/results"])):
            if pattern is None:
                continue
            for m in pattern.finditer(line):
                if line[m.end():m.end() + 1] not in PATTERN and not tree.cites(bases, m.group(1)):
                    yield f"{path}:{number}: '{m.group(1)}' names nothing in the repository"
        for m in MD_LINK.finditer(prose[number - 1] if prose else ""):
            target = m.group(1).split("#")[0]
            if target and not re.match(r"[a-z]+:", target) and \
                    not tree.cites([str(Path(path).parent)], target):
                yield (f"{path}:{number}: link to '{m.group(1)}' leaves the repository "
                       "or names nothing")
        if (path == "README.md" or path.startswith("docs/")) and "shared/design/" in line:
            yield (f"{path}:{number}: refers to shared/design/, which is not in the "
                   "repository")


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    tree = Tree(root)
    files = list(read_files(tree.files))
    problems = []
    for path in files:
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue   # a binary file, or one deleted but not yet committed
        problems += problems_of(path, text, tree)
    for p in problems:
        print(p)
    print(f"{len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
