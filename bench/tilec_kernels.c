/* Exports the launch functions of the generated headers from one shared library, so that
   bench/bench.py can call them through ctypes beside PyTorch and Triton. The headers are made
   by tests/gpu/make_headers.sh (one per variant, told apart by --prefix). */
#include "vector_add_t1k.h"
#include "vector_add_t2k.h"
#include "vector_add_t4k.h"
#include "gelu_bias_t1k.h"
#include "gelu_bias_t2k.h"
#include "gelu_bias_t4k.h"
#include "gelu_bias_fast.h"
#include "softmax_f32.h"
#include "softmax_f16.h"
#include "softmax_f16_32k.h"
#include "layernorm_f16.h"
#include "layernorm_bf16.h"
#include "rmsnorm_bf16.h"
#include "sum_rows.h"
#include "transpose.h"
#include "variants.h"
