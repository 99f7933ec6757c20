#!/usr/bin/env python3
"""A stand-in for tilec in the tilec-tune tests: copies the hand-written header fake_scale.h
(beside this file) to the -o path, and writes its arguments to $TILEC_ARGS_LOG when set."""
import os
import shutil
import sys

args = sys.argv[1:]
if os.environ.get("TILEC_ARGS_LOG"):
    with open(os.environ["TILEC_ARGS_LOG"], "w") as f:
        f.write(" ".join(args) + "\n")
shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_scale.h"), args[args.index("-o") + 1])
