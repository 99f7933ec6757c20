#!/bin/sh
# minimize.test's predicate: the file ($2) compiles with tilec ($1) and its optimized IR has an mma.
"$1" "$2" --emit=tir-opt -o - 2>/dev/null | grep -q ' mma'
