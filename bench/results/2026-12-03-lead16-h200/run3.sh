#!/usr/bin/env bash
# Lead, session 16, call 3: check_samples at full sizes to the end (call 2's 170 s timeout cut it
# at 261 ok lines).
cuda=/usr/local/cuda; hdr=gpu-build/s16; g++ -O2 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/check_samples.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_samples && timeout 450 /tmp/check_samples > $OUT/check.txt 2>&1; echo "check_samples rc=$? $(grep -c ' ok' $OUT/check.txt) ok $(grep -c FAIL $OUT/check.txt) FAIL"; grep FAIL $OUT/check.txt | head; tail -2 $OUT/check.txt
