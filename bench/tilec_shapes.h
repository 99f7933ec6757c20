/* The headers of issue 16's shape samples that bench/bench.py's "shapes" section calls (made by
   tests/gpu/make_shape_headers.sh): included by bench/tilec_kernels.c, and alone by
   tests/gpu/run_shapes.sh for a library of these kernels only. */
#include "batched_matmul_bf16.h"
#include "batched_matmul_bf16_128.h"
#include "linear_decode.h"
#include "linear_decode_bk64.h"
#include "linear_decode_bk256.h"
#include "linear_decode_m64.h"
#include "matmul_splitk.h"
#include "matmul_splitk_sp8.h"
#include "matmul_splitk_256.h"
#include "matmul_splitk_64x256.h"
#include "matmul_splitk_256x128.h"
