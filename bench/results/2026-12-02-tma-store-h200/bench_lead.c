/* The matmul kernels bench/bench.py's matmul section calls, for the lead's call of 2026-12-02. */
#include "matmul_f16.h"
#include "matmul_bf16.h"
#include "matmul_bias_relu_bf16.h"
#include "matmul_bt.h"
#include "variants.h"
