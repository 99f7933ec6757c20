#!/usr/bin/env bash
# fresh12 GPU call: host-checked asserts (check_debug extent/heads), B = 0, and two
# configurations of attention.tile without --prefix in one program (new headers, then old).
set -u
cd "$(dirname "$0")"
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
g++ -O2 -std=c++17 -Wall -Wextra -I. -I$cuda/include check_debug.cpp -L$cuda/lib64/stubs -lcuda -o check_debug || exit 1
for m in pass fail extent heads; do ./check_debug $m; echo "check_debug $m rc=$?"; done
build() {  # DIR OUT (two_cfg.c is copied into DIR: a quoted #include searches the source's folder first)
  [ "$1" = . ] || cp two_cfg.c "$1/"
  gcc -O2 -std=c99 -Wall -Wextra -I"$1" -I$cuda/include -DTU_H='"att64.h"' -DTU_D=64 -c "$1/two_cfg.c" -o "$2.a.o" &&
  gcc -O2 -std=c99 -Wall -Wextra -I"$1" -I$cuda/include -DTU_H='"att128.h"' -DTU_D=128 -c "$1/two_cfg.c" -o "$2.b.o" &&
  gcc -O2 -std=c99 -I$cuda/include two_cfg_main.c "$2.a.o" "$2.b.o" -L$cuda/lib64/stubs -lcuda -o "$2"
}
build . two_cfg && ./two_cfg; echo "two_cfg (new headers) rc=$?"
build old two_cfg_old && ./two_cfg_old; echo "two_cfg (old headers, main's tilec before the fix) rc=$?"
