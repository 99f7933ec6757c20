#!/usr/bin/env python3
"""Checks the SASS of wgmma kernels (cuobjdump --dump-sass output on stdin or a file) for
accumulator registers touched while a wgmma group may still write them: between an HGMMA and
the WARPGROUP.DEPBAR that waits for it, no other instruction may name a register of its
accumulator range. ptxas 13.0 was seen hoisting the epilogue's reads of a 128-register
accumulator above `wgmma.wait_group 0` when both sat in one basic block (it tracked only the
first register), which silently dropped the last k steps (tests/gpu, H200, 2026-12-01).
The registers of a register-A operand (wgmma's RS form: `HGMMA ... Racc, Ra, gdesc[..]`, four
per HGMMA) are checked the same way: ptxas releases of registers a group still reads are a
known class of bug (fixed in CUDA 13.3's ptxas).

  tools/check_wgmma_sass.py FILE.sass     exit 1 and a report when a hazard is found
"""
import re
import sys

SHAPE = re.compile(r"HGMMA\.64x(\d+)x\d+\.(F32|F16)\S*\s+R(\d+),")
REG_A = re.compile(r"HGMMA\S*\s+R\d+,\s+R(\d+),\s+gdesc")
REG = re.compile(r"\bR(\d+)\b")


def check(lines):
    problems = []
    function = "?"
    pending = []  # (first register, count, line) of HGMMAs not yet waited for
    for n, line in enumerate(lines, 1):
        if "Function :" in line:
            function = line.split("Function :")[1].strip()
            pending = []
            continue
        m = SHAPE.search(line)
        if m:
            width = int(m.group(1))
            count = width // 2 if m.group(2) == "F32" else width // 4
            pending.append((int(m.group(3)), count, n))
            a = REG_A.search(line)
            if a:
                pending.append((int(a.group(1)), 4, n))
            continue
        if "WARPGROUP.DEPBAR" in line:
            if re.search(r"gsb0, 0x0\b", line):
                pending = []
            continue
        if "WARPGROUP.ARRIVE" in line or not pending:
            continue
        code = line.split(";")[0]
        for r in REG.findall(code):
            r = int(r)
            for first, count, at in pending:
                if first <= r < first + count:
                    problems.append(f"{function}: line {n} touches R{r} of the accumulator or register A of the HGMMA at line {at} "
                                    f"before its wait: {code.strip()}")
                    break
    return problems


def main():
    text = open(sys.argv[1]).read().splitlines() if len(sys.argv) > 1 else sys.stdin.read().splitlines()
    problems = check(text)
    for p in problems[:20]:
        print(p)
    if problems:
        print(f"{len(problems)} accumulator hazards")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
