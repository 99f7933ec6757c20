/* A second translation unit of the same configuration: its definitions merge with d64.c's. */
#include "att64.h"
const tilec_kernel_metadata* meta_64_again(void) { return &attention_metadata; }
