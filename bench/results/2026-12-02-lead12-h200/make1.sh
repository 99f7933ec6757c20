#!/usr/bin/env bash
# Lead, session 12, call 1: headers for run1.sh (gpu-build/lead12/h). The experimental compilers
# were main's tilec with one change each, not committed:
#   tilec-ringall: tma_store.cpp stages through the ring of two slots on every persistent grid
#                  (not only when num_stages= asks for more stages than fit), without the
#                  "the ring buys no stage" fallback;
#   tilec-nowait:  ptx/tma_store.cpp without the wait_group.read before a slot is rewritten
#                  (RACY: a box may be overwritten before its copy read it; timing only);
#   tilec-nowaitnobar: as tilec-nowait and without the barrier after that wait either.
# Variants: b* batched_matmul bf16 (b0 persistent default, b1 num_stages=4, b2 ringall with
# num_stages=3, b3/b3n racy with num_stages=4, b4 the sample then shipped (persistent=False),
# b5 pingpong=True -D BN=128), m* matmul bf16 likewise, f* matmul_f8 likewise; mbr
# matmul_bias_relu bf16, silu_gate, persistent.tile (check_persistent).
# (The commands are those of the session log; see lead12a.py for what each prefix is.)
