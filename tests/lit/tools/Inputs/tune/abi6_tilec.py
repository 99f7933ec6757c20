#!/usr/bin/env python3
"""A stand-in for tilec in the tilec-tune tests until the header has ABI 6: runs the real
tilec ($TILEC_REAL) with the arguments given, then edits the header's metadata into ABI 6's
shape (docs/tuning.md): three configurations, the second dropped (no label), a fixed space.
Writes its arguments to $TILEC_ARGS_LOG when set, so a test can see what tilec-tune passed."""
import os
import re
import subprocess
import sys

args = sys.argv[1:]
if os.environ.get("TILEC_ARGS_LOG"):
    with open(os.environ["TILEC_ARGS_LOG"], "w") as f:
        f.write(" ".join(args) + "\n")
r = subprocess.run([os.environ["TILEC_REAL"]] + args)
if r.returncode:
    sys.exit(r.returncode)
out = args[args.index("-o") + 1]
text = open(out).read()
text = text.replace("} tilec_kernel_metadata;",
                    "  int num_configs;\n  const struct tilec_config_info* configs;\n  const char* config_space;\n"
                    "  int num_tuning_sections;\n} tilec_kernel_metadata;")
text = text.replace("typedef struct tilec_kernel_metadata {",
                    "typedef struct tilec_config_info { const char* label; int num_paths; const tilec_path_info* paths;"
                    " const char* grid[3]; } tilec_config_info;\n\ntypedef struct tilec_kernel_metadata {")


def add_configs(m):
    sym = m.group(1)
    table = (f"static const tilec_config_info {sym}_fixture_configs[3] = {{\n"
             f'    {{"BM=128, BN=256", 0, NULL, {{NULL, NULL, NULL}}}},\n'
             f"    {{NULL, 0, NULL, {{NULL, NULL, NULL}}}},\n"
             f'    {{"BM=64, BN=\\"128\\"", 0, NULL, {{NULL, NULL, NULL}}}}}};\n')
    body = re.sub(r"^    5,", "    6,", m.group(2), count=1, flags=re.M)
    return table + m.group(0)[: m.start(2) - m.start(0)] + body[:-2] + \
        f',\n    3, {sym}_fixture_configs, "3f2a9c0d11e4b7a2", 0}};'


text, n = re.subn(r"const tilec_kernel_metadata (\w+)_metadata = \{\n(.*?\}\;)", add_configs, text, flags=re.S)
assert n >= 1, "no metadata definition found"
open(out, "w").write(text)
