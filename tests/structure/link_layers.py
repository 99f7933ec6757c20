#!/usr/bin/env python3
"""No codegen layer calls up into a layer it does not see (docs/internals.md section 1, "Layers").

The include roots (layers.py) stop a layer from including a header above it, but a function can
still be declared in a lower layer and defined in a higher one: the codegen layers link as one
library, so nothing fails. This reads the object files of each codegen layer
(BUILD_DIR/CMakeFiles/<layer>.dir/) with nm and fails on a symbol that a layer uses and only a
codegen layer outside its `SEES` defines (its include root, BUILD_DIR/layers/<layer>/codegen/,
holds one link per folder it sees). One reference is allowed, and must be found (so the check
is not blind): the code paths' table, declared in lowering (path_table.h) and defined by the
paths registry (paths/paths.cpp), whose rows name each path's steps, plan, ABI and emitter.

  link_layers.py BUILD_DIR
"""
import os
import subprocess
import sys

ALLOWED = {('tilec_codegen_lowering', 'tilec::codegen::code_paths()')}


def objects(build, layer):
    root = os.path.join(build, 'CMakeFiles', layer + '.dir')
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith('.o'):
                yield os.path.join(dirpath, f)


def symbols(objs, defined):
    if not objs:
        return set()
    flag = '--defined-only' if defined else '--undefined-only'
    out = subprocess.run(['nm', '-C', flag] + objs, capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.split('\n'):
        parts = line.split(None, 2) if defined else line.split(None, 1)
        if defined and len(parts) == 3 and parts[1] in 'TWVDBR':
            names.add(parts[2])
        elif not defined and len(parts) == 2 and parts[0] in 'Uw':
            names.add(parts[1])
    return names


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    build = sys.argv[1]
    roots = os.path.join(build, 'layers')
    layers = sorted(d for d in os.listdir(roots) if d.startswith('tilec_codegen_'))
    folder = {l: l[len('tilec_codegen_'):] for l in layers}
    sees = {l: set(os.listdir(os.path.join(roots, l, 'codegen'))) for l in layers}
    defs, undefs = {}, {}
    for l in layers:
        objs = list(objects(build, l))
        if not objs:
            print(f'{l}: no object files under {build}/CMakeFiles/{l}.dir (build first)')
            return 1
        defs[l], undefs[l] = symbols(objs, True), symbols(objs, False)
    failed, found = False, set()
    for l in layers:
        below = set().union(*(defs[m] for m in layers if folder[m] in sees[l]))
        for m in layers:
            if folder[m] in sees[l]:
                continue
            for name in sorted((undefs[l] & defs[m]) - below):
                if (l, name) in ALLOWED:
                    found.add((l, name))
                    continue
                print(f'{l} uses {name}, defined in {m}, a layer it does not see')
                failed = True
    for l, name in sorted(ALLOWED - found):
        print(f'{l}: the allowed upward reference to {name} was not found: the check has gone blind '
              f'(or the reference is gone: update ALLOWED and docs/internals.md)')
        failed = True
    print('layers leak at link time' if failed else
          f'{len(layers)} codegen layers: none uses a symbol defined only above it, but the paths table')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
