#!/usr/bin/env python3
"""Reduces a failing .tile file to a small one that fails the same way (GitHub issue 37 item 4).

    minimize.py FILE -o OUT (--difftest BIN [--seed N] | --tilec BIN [--tilec-args "..."] |
                             --test "CMD {}") [--grep REGEX] [--max-tests N] [-v]

"Fails the same way" is a predicate run on each candidate file:
  --difftest BIN   tilec-difftest CANDIDATE --seed N exits with the original file's status
                   (1: a mismatch or an interpreter error; 3: an unspecified value);
  --tilec BIN      tilec CANDIDATE TILEC-ARGS exits with the original's status, or is killed by
                   the same signal (a crash; status 1 is a plain diagnostic, so give --grep
                   "internal compiler error" or the message for those);
  --test CMD       CMD, with {} replaced by the candidate's path (or the path appended), exits 0
                   (C-Reduce's convention: the command says whether the candidate is interesting,
                   e.g. a script that compiles it, runs a GPU runner and greps for FAIL).
--grep REGEX must also match the combined output (what the finding says, so that the reduction
does not drift to another failure). The original file must satisfy the predicate.

The reduction is greedy, to a fixed point, over the file's lines as Python-like blocks (a line
and the more-indented lines after it), in this order: drop whole kernels (decorator to the end
of the body); drop statements, last first (a use comes after its definition, so the uses go
first); replace a compound statement (`if`, `for`, `while`, `else`) by its dedented body;
replace a parenthesized subexpression by one of the parenthesized groups inside it (C-Reduce's
hoisting); drop a kernel's parameters; shrink the `# difftest:` line's extents and scalars (to 1, 2, 4, 8, 16, half). A
candidate that does not compile fails the predicate (tilec-difftest and tilec exit 2 or 1), so
every kept step is a valid program. Deterministic: the same file and predicate give the same
result. Exit status: 0 reduced (OUT written, even if nothing could be removed), 2 the original
does not satisfy the predicate.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

COMPOUND = re.compile(r"^(if|elif|else|for|while)\b.*:\s*(#.*)?$")
HEADER = re.compile(r"^#\s*difftest:")


def indent(line):
    return len(line) - len(line.lstrip(" "))


def is_code(line):
    s = line.strip()
    return bool(s) and not s.startswith("#")


def block_end(lines, i):
    """The index after the block that starts at line i (the line and the more-indented ones)."""
    j = i + 1
    while j < len(lines) and (not is_code(lines[j]) or indent(lines[j]) > indent(lines[i])):
        j += 1
    while j > i + 1 and not lines[j - 1].strip():  # trailing blank lines stay outside
        j -= 1
    return j


def kernel_units(lines):
    """(start, end) of each decorated kernel: the decorator through the end of the def's body."""
    units = []
    for i, line in enumerate(lines):
        if line.startswith("@"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("def "):
                j += 1
            if j < len(lines):
                units.append((i, block_end(lines, j)))
    return units


def statement_units(lines):
    """(start, end) of each statement block inside a kernel or helper body, last first."""
    units = [(i, block_end(lines, i)) for i, line in enumerate(lines)
             if is_code(line) and indent(line) > 0]
    return units[::-1]


def unwrap_candidates(lines):
    """Each compound statement replaced by its body, dedented to the statement's indent."""
    for i, line in enumerate(lines):
        if is_code(line) and COMPOUND.match(line.strip()):
            end = block_end(lines, i)
            body = [ln for ln in lines[i + 1:end]]
            if not any(is_code(ln) for ln in body):
                continue
            shift = min(indent(ln) for ln in body if is_code(ln)) - indent(line)
            yield lines[:i] + [ln[shift:] if ln.strip() else ln for ln in body] + lines[end:]


def paren_groups(text):
    """(start, end) of each balanced (...) group in text, outermost first."""
    stack, groups = [], []
    for k, ch in enumerate(text):
        if ch == "(":
            stack.append(k)
        elif ch == ")" and stack:
            groups.append((stack.pop(), k + 1))
    return sorted(groups, key=lambda g: (g[0], -g[1]))


def hoist_candidates(lines):
    """A grouping paren (not a call's argument list) replaced by a group nested in it."""
    for i, line in enumerate(lines):
        if not is_code(line) or indent(line) == 0:
            continue
        groups = paren_groups(line)
        for (s, e) in groups:
            if s > 0 and (line[s - 1].isalnum() or line[s - 1] == "_"):
                continue  # a call: f(...)
            for (s2, e2) in groups:
                if s < s2 and e2 < e and (s2, e2) != (s + 1, e - 1):
                    yield lines[:i] + [line[:s] + line[s2:e2] + line[e:]] + lines[i + 1:]


def split_top(text):
    """text split at the commas outside (), [] and {}."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    return parts + [text[start:]]


def parameter_candidates(lines):
    """A kernel's or helper's parameter dropped (a candidate that still uses it does not compile)."""
    for i, line in enumerate(lines):
        if not line.startswith("def ") or "(" not in line:
            continue
        open_at = line.index("(")
        close_at = next((e - 1 for s, e in paren_groups(line) if s == open_at), None)
        if close_at is None:
            continue
        params = split_top(line[open_at + 1:close_at])
        for k in range(len(params)):
            kept = ",".join(params[:k] + params[k + 1:]).strip()
            yield lines[:i] + [line[:open_at + 1] + kept + line[close_at:]] + lines[i + 1:]


def header_candidates(lines):
    """The # difftest: line with one value made smaller."""
    for i, line in enumerate(lines):
        if not HEADER.match(line):
            continue
        prefix, _, rest = line.partition(":")
        pairs = [p.split("=", 1) for p in rest.split()]
        body = "\n".join(lines[:i] + lines[i + 1:])

        def with_pairs(new):
            return lines[:i] + [prefix + ": " + " ".join(f"{n}={x}" for n, x in new)] + lines[i + 1:]
        for k, (name, value) in enumerate(pairs):
            if not re.search(r"\b" + re.escape(name) + r"\b", body):  # its kernel was dropped
                yield with_pairs(pairs[:k] + pairs[k + 1:])
                continue
            try:
                v = int(value)
            except ValueError:
                continue
            # extents stay >= 1 (an empty array runs nothing); negative scalars try 0 and -1
            smaller = (0, -1) if v < 0 else (1, 2, 4, 8, 16, v // 2) if v > 1 else ()
            for c in dict.fromkeys(c for c in smaller if abs(c) < abs(v)):
                yield with_pairs(pairs[:k] + [[name, str(c)]] + pairs[k + 1:])


class Predicate:
    """Runs the candidate through the chosen command and says whether it fails as the original."""

    def __init__(self, args, workdir):
        self.args = args
        self.path = os.path.join(workdir, "candidate.tile")
        self.expect = None
        self.tests = 0

    def command(self):
        a = self.args
        if a.difftest:
            return [a.difftest, self.path, "--seed", str(a.seed)]
        if a.tilec:
            return [a.tilec, self.path] + shlex.split(a.tilec_args)
        cmd = shlex.split(a.test)
        return [self.path if c == "{}" else c for c in cmd] + ([] if "{}" in cmd else [self.path])

    def run(self, lines):
        with open(self.path, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.tests += 1
        try:
            p = subprocess.run(self.command(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=self.args.timeout)
            return p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired:
            return "timeout", ""

    def interesting(self, lines):
        rc, out = self.run(lines)
        if self.args.grep and not re.search(self.args.grep, out):
            return False
        if self.args.test:
            return rc == 0
        if self.expect is None:  # the original: remember how it fails
            self.expect = rc
            return rc not in (0, "timeout")
        return rc == self.expect


def reduce(lines, pred, max_tests, log):
    """Greedy passes to a fixed point; returns the smallest interesting lines found."""
    changed = True
    while changed and pred.tests < max_tests:
        changed = False
        for name, gen in (("kernel", lambda ls: (ls[:s] + ls[e:] for s, e in kernel_units(ls))),
                          ("statement", lambda ls: (ls[:s] + ls[e:] for s, e in statement_units(ls))),
                          ("unwrap", unwrap_candidates),
                          ("hoist", hoist_candidates),
                          ("parameter", parameter_candidates),
                          ("header", header_candidates)):
            progress = True
            while progress and pred.tests < max_tests:
                progress = False
                for cand in gen(lines):
                    if pred.tests >= max_tests:
                        break
                    if cand != lines and pred.interesting(cand):
                        log(f"{name}: {len(lines)} -> {len(cand)} lines"
                            + "".join(f"\n  - {a}" for a in lines if a not in cand))
                        lines, progress, changed = cand, True, True
                        break  # the units moved: enumerate them again
    tidy = [ln for k, ln in enumerate(lines) if ln.strip() or (k > 0 and lines[k - 1].strip())]
    return tidy if tidy != lines and pred.interesting(tidy) else lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("-o", "--output", required=True)
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--difftest", help="tilec-difftest binary")
    how.add_argument("--tilec", help="tilec binary")
    how.add_argument("--test", help="a command; {} is the candidate file")
    ap.add_argument("--seed", type=int, default=0, help="tilec-difftest's --seed (the generator's seed)")
    ap.add_argument("--tilec-args", default="--emit=ptx -o /dev/null", help="tilec's arguments after the file")
    ap.add_argument("--grep", help="a regular expression the output must also match")
    ap.add_argument("--max-tests", type=int, default=2000)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per predicate run")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    with open(args.file) as f:
        lines = f.read().rstrip("\n").split("\n")
    log = (lambda m: print(m, file=sys.stderr)) if args.verbose else (lambda m: None)
    with tempfile.TemporaryDirectory(prefix="tilec-minimize-") as work:
        pred = Predicate(args, work)
        if not pred.interesting(lines):
            print(f"minimize.py: {args.file} does not satisfy the predicate", file=sys.stderr)
            return 2
        before = len(lines)
        lines = reduce(lines, pred, args.max_tests, log)
    with open(args.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{before} -> {len(lines)} lines in {pred.tests} tests: {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
