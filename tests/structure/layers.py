#!/usr/bin/env python3
"""The build refuses an include that goes up a layer (CMakeLists.txt tilec_layer; docs/internals.md
section 1, "Layers").

Each layer compiles with one include root, build/layers/<layer>/, which holds links to the source
folders below it and nothing else. Each fixture in upward/ names a layer (`// layer: X`) and
includes first headers that layer may see, then one it may not (`// refused`). The fixture is
preprocessed with that layer's include root: the allowed includes must resolve and the refused
one must be missing, else the layers leak (or the fixture went stale) and this fails.

  layers.py CXX BUILD_DIR [FIXTURE_DIR]   (default: upward/ beside this script)
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 2
    cxx, build = sys.argv[1], sys.argv[2]
    here = sys.argv[3] if len(sys.argv) == 4 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'upward')
    failed, checked = False, 0
    for name in sorted(os.listdir(here)):
        path = os.path.join(here, name)
        text = open(path).read()
        layer = re.search(r'^// layer: (\w+)', text, re.M).group(1)
        refused = re.findall(r'^#include "([^"]+)"\s*// refused', text, re.M)
        root = os.path.join(build, 'layers', layer)
        if len(refused) != 1 or not os.path.isdir(root):
            print(f'{name}: needs one `// refused` include and a layer with a root ({root})')
            failed = True
            continue
        r = subprocess.run([cxx, '-std=c++20', '-E', '-I', root, path, '-o', os.devnull],
                           capture_output=True, text=True)
        missing = re.findall(r'fatal error: ([^:\s]+): No such file', r.stderr)
        if r.returncode == 0:
            print(f'{name}: {layer} sees {refused[0]}, which is above it')
            failed = True
        elif missing != refused:
            print(f'{name}: expected only {refused[0]} to be missing from {layer}; the compiler said:\n{r.stderr}')
            failed = True
        checked += 1
    print(f'{checked} fixtures: each layer refuses the include above it' if not failed else 'layers leak')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
