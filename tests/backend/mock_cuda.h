/* A fake CUDA driver for running generated headers on a machine without a GPU: the functions
   the launch stubs call, recording what they were given. Devices are 0..3, each with one
   context, a compute capability and an H100's limits per multiprocessor (132 SMs on device 0,
   66 on device 1: what a launch's choice among configurations reads); fake streams name their
   device (mock_stream(dev)); the current context is device 0's unless mock_set_current() says
   otherwise. */
#ifndef TILEC_MOCK_CUDA_H
#define TILEC_MOCK_CUDA_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOCK_MAX_PARAMS 32

typedef struct mock_launch {
  char entry[64];             /* the CUkernel's entry name */
  unsigned grid[3], block[3];
  unsigned shared_bytes;
  CUstream stream;
  int via_ex;                 /* launched with cuLaunchKernelEx */
  unsigned cluster[3];        /* from CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, else 0 */
  int pdl;                    /* CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION set to 1 */
  unsigned char params[MOCK_MAX_PARAMS][8];  /* first bytes of each parameter, per mock_param_sizes */
} mock_launch;

typedef struct mock_tensor_map {
  int rank, bf16;
  uint64_t address, dim[5], stride[4];
  unsigned box[5];
} mock_tensor_map;

typedef struct mock_state {
  int init_calls, load_calls, unload_calls, launches, set_attribute_calls, get_function_calls;
  int push_calls, pop_calls, cc_queries, encode_calls;
  int driver_calls;           /* calls of any driver function */
  mock_tensor_map last_map;   /* the last tensor map encoded successfully */
  CUresult init_result;       /* what cuInit returns */
  int load_delay_ms;          /* cuLibraryLoadData sleeps this long (races) */
  const void* last_image;
  mock_launch last;
  int last_attribute_value, last_attribute_device;
} mock_state;

extern mock_state mock;

/* Resets the counters and results (the loaded libraries stay as the header keeps them). */
void mock_reset(void);
/* Sizes in bytes of the PTX parameters of the next launches, for copying them. */
void mock_param_sizes(const size_t* sizes, int n);
CUstream mock_stream(int device);
/* Devices 0 and 2 are compute capability 9.0, device 1 8.0, device 3 8.6, unless set here. */
void mock_set_compute_capability(int device, int cc);
/* cuLibraryGetKernel fails with CUDA_ERROR_NOT_FOUND for this name (NULL: none). */
void mock_set_missing_entry(const char* name);
void mock_set_current(int device); /* -1: no current context */

#ifdef __cplusplus
}
#endif
#endif
