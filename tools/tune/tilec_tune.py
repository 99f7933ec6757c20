#!/usr/bin/env python3
"""tilec-tune: times every configuration of a kernel at each shape of a shapes file, on this
machine's GPU, and writes the tuning table that `tilec --tuning` embeds (docs/tuning.md,
"Tuning for a new GPU"; man/tilec-tune.1).

  tilec-tune KERNEL.tile --shapes SHAPES -o TABLE [-D NAME=VALUE]... [--arch ARCH]...
             [--kernel NAME] [--reps N] [--append] [--dry-run]

It builds the header with tilec and the flags given (the image that ships), compiles it into a
shared library, reads the kernel's metadata, and launches each configuration through
<kernel>_launch_config. Python 3 standard library and ctypes; numpy, when present, only makes
random inputs and comparisons faster."""

import argparse
import os
import shutil
import sys
import tempfile

# Installed, the modules are in share/tilec/tune beside bin/; in the source tree, beside this file.
_HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [_HERE, os.path.join(_HERE, "..", "share", "tilec", "tune")]

import tune_bench  # noqa: E402
import tune_cuda  # noqa: E402
import tune_header  # noqa: E402
import tune_shapes  # noqa: E402
import tune_table  # noqa: E402
from tune_header import ToolError  # noqa: E402


def options(argv):
    p = argparse.ArgumentParser(prog="tilec-tune", description=__doc__.split("\n\n")[0])
    p.add_argument("source", help="the .tile file")
    p.add_argument("--shapes", required=True, help="the shapes file: one shape a line, M=4096 N=4096 K=4096")
    p.add_argument("-o", "--output", help="the table to write (required unless --dry-run)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="passed to tilec (repeatable): tune the build that ships")
    p.add_argument("--arch", dest="archs", action="append", default=[], help="passed to tilec (repeatable)")
    p.add_argument("-I", dest="includes", action="append", default=[], help="passed to tilec (repeatable)")
    p.add_argument("--prefix", help="passed to tilec")
    p.add_argument("--kernel", help="the kernel to tune (needed when the file has several)")
    p.add_argument("--tilec", help="the tilec to run (default: the one beside tilec-tune, else PATH)")
    p.add_argument("--cc", default=os.environ.get("CC", "cc"), help="the C compiler for the header (default: $CC or cc)")
    p.add_argument("--reps", type=int, default=20, help="timed calls per configuration and shape (default 20)")
    p.add_argument("--sleep-us", type=int, default=2000,
                   help="the sleep kernel ahead of each timed call, in microseconds (default 2000; at least 1000)")
    p.add_argument("--device", type=int, default=0, help="the CUDA device to tune on, by ordinal (default 0)")
    p.add_argument("--seed", type=int, default=0, help="random inputs and round order (default 0)")
    p.add_argument("--append", action="store_true",
                   help="replace this GPU's section of the existing table (or add one), keeping the others")
    p.add_argument("--dry-run", action="store_true",
                   help="build, read the metadata and print the plan; no GPU needed, nothing written")
    p.add_argument("--keep", metavar="DIR", help="build in DIR and keep the header and library there")
    a = p.parse_args(argv)
    if not a.dry_run and not a.output:
        p.error("-o TABLE is required (or --dry-run)")
    if a.reps < 1:
        p.error("--reps must be at least 1")
    if a.sleep_us < 1000:
        p.error("--sleep-us must be at least 1000 (the benchmark protocol's 1 ms)")
    return a


def tilec_flags(a):
    flags = [f for d in a.defines for f in ("-D", d)] + [f for x in a.archs for f in ("--arch", x)]
    flags += [f for i in a.includes for f in ("-I", i)]
    return flags + (["--prefix", a.prefix] if a.prefix else [])


def human_bytes(n):
    """Bytes for people: KiB under a MiB, else MiB."""
    return f"{n / 1024:.1f} KiB" if n < 1 << 20 else f"{n / (1 << 20):.1f} MiB"


def print_plan(kernel, shapes, reps):
    print(f"kernel {kernel.name} ({kernel.source}), header ABI {kernel.abi_version}, space {kernel.space or '(none)'}")
    print(f"symbols: {' '.join(kernel.symbols) or '(none)'}" +
          (f"; scalars: {' '.join(kernel.scalars)}" if kernel.scalars else ""))
    dropped = kernel.num_configs - len(kernel.configs)
    print(f"{len(kernel.configs)} configurations" + (f" ({dropped} not in this build)" if dropped else "") + ":")
    for i, label in kernel.configs:
        print(f"  {i:3}  {label or '(the kernel as written)'}")
    largest = 0
    for s in shapes:
        values = dict(zip(kernel.symbols, s.extents(kernel.symbols)))
        arrays = [(f"{p.name} {p.dtype}{p.extents(values)}", p.nbytes(values)) for p in kernel.arrays]
        total = sum(n for _, n in arrays)
        largest = max(largest, total)
        flush = "flushed before each call" if total < tune_bench.L2_BYTES else "not flushed (larger than L2)"
        print(f"shape {s.path}:{s.line}: {s.text(kernel.symbols + list(kernel.scalars))}: " +
              ", ".join(f"{n} {human_bytes(b)}" for n, b in arrays) + f"; {human_bytes(total)}, L2 {flush}")
    n = len(shapes) * len(kernel.configs)
    print(f"plan: {len(shapes)} shapes x {len(kernel.configs)} configurations = {n} timings of {reps} calls; "
          f"at most {human_bytes(largest)} of arrays at a time, plus {human_bytes(tune_bench.FLUSH_BYTES)} to flush L2")


def report(shape_text, results):
    """Prints one shape's results; returns the best configuration's index, or None."""
    timed = [r for r in results if r.status == "ok"]
    best = min(timed, key=lambda r: (r.median_ms(), r.index)) if timed else None
    print(shape_text)
    width = max(len(r.label) for r in results)
    for r in results:
        head = f"  {r.index:3}  {r.label:{width}}  "
        if r.status == "ok":
            print(head + f"{r.median_ms():9.4f} ms  {r.median_ms() / best.median_ms():5.2f}x  "
                  f"(spread {100 * r.spread():.1f}%)" + ("  best" if r is best else ""))
        else:
            print(head + f"{r.status}: {r.reason}")
    return best


def row_comment(results, best):
    parts = []
    for r in results:
        if r.status == "ok":
            parts.append(f"{r.index} {r.median_ms() / best.median_ms():.2f}")
        else:
            parts.append(f"{r.index} {r.status}")
    return f"{best.median_ms():.4f} ms; " + ", ".join(parts)


def tune(a, kernel, shapes, driver_lib):
    drv = tune_cuda.Driver(driver_lib, a.device)
    gpu, cc, sms = drv.name(), drv.cc(), drv.sms()
    print(f"device: {gpu}, cc {cc // 10}.{cc % 10}, {sms} SMs, driver {drv.driver_version()}")
    flush = drv.alloc(tune_bench.FLUSH_BYTES)
    rows = []
    for n, s in enumerate(shapes):
        results = tune_bench.measure(drv, kernel, s, a.reps, a.sleep_us * 1000, flush, a.seed * 7919 + n)
        best = report(f"{s.path}:{s.line}: {s.text(kernel.symbols + list(kernel.scalars))}", results)
        if best is None:
            print("  no configuration ran: the table gets no row for this shape")
            continue
        rows.append((" ".join(str(e) for e in s.extents(kernel.symbols)) + f" {best.index}", row_comment(results, best)))
    drv.free(flush)
    comment = f"tilec-tune, median of {a.reps} calls; driver {drv.driver_version()}"
    return (gpu, cc, sms, comment, rows)


def run(a):
    try:
        with open(a.shapes) as f:
            shapes = tune_shapes.parse_shapes(a.shapes, f.read())
    except OSError as e:
        raise ToolError(f"cannot read the shapes file '{a.shapes}': {e.strerror}") from e
    work = a.keep or tempfile.mkdtemp(prefix="tilec-tune-")
    os.makedirs(work, exist_ok=True)
    try:
        header = os.path.join(work, "kernel.h")
        library = os.path.join(work, "libkernel.so")
        tilec = tune_header.find_tilec(a.tilec, sys.argv[0])
        tune_header.build_header(tilec, a.source, tilec_flags(a), header)
        tune_header.compile_library(header, library, a.cc)
        driver_lib, no_driver = tune_header.load_driver()
        kernel = tune_header.load_kernel(library, header, a.kernel)
        if kernel.abi_version < 6:
            raise ToolError(f"the header has ABI version {kernel.abi_version}; tilec-tune needs version 6 or later "
                            "(configurations, <kernel>_launch_config): use a newer tilec")
        if kernel.num_tuning_sections:
            print(f"note: the header embeds a table ({kernel.num_tuning_sections} sections); "
                  "the forced launches do not use it")
        tune_shapes.check_shapes(shapes, kernel.symbols, kernel.scalars)
        print_plan(kernel, shapes, a.reps)
        untunable = (f"kernel '{kernel.name}' declares no configurations (configs= in @kernel, docs/language.md): "
                     "there is nothing for a table to choose")
        if a.dry_run:
            if kernel.space is None:
                print("note: " + untunable)
            if no_driver:
                print("(no CUDA driver here: the metadata was read against the toolkit's libcuda stub)")
            return 0
        if kernel.space is None:
            raise ToolError(untunable)
        if no_driver:
            raise ToolError(f"cannot load the CUDA driver: {no_driver} (--dry-run needs none)")
        sections = tune_table.existing_sections(a.output, kernel) if a.append and os.path.exists(a.output) else []
        section = tune(a, kernel, shapes, driver_lib)
        text = tune_table.render(kernel, tune_table.merge(sections, section))
        # Written beside the table and renamed, so that an interrupted run leaves the old one.
        with open(a.output + ".tmp", "w") as f:
            f.write(text)
        os.replace(a.output + ".tmp", a.output)
        print(f"wrote {a.output} ({len(section[4])} rows for {section[0]})")
        return 0
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


def main(argv=None):
    a = options(sys.argv[1:] if argv is None else argv)
    try:
        return run(a)
    except (ToolError, tune_shapes.ShapeError) as e:
        # Located messages (the shapes file's, tilec's) already say "error:".
        print(f"{e}" if ": error: " in str(e) else f"tilec-tune: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
