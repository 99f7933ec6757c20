// layer: tilec_codegen_header
// The header is written from KernelAbi (launch/) alone.
#include "codegen/launch/kernel_abi.h"
#include "codegen/header/header.h"
#include "codegen/lowering/abi.h"  // refused
